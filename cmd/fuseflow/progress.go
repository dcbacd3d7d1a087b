// The progress bar of eval over a file: bytes read, batches, rate and
// time left, redrawn on one line of stderr at most ten times a second,
// and nothing at all when stderr is not a terminal (unless asked).

package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	fexec "github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/table"
)

// progressBar draws table.Progress reports on w. A nil *progressBar
// draws nothing.
type progressBar struct {
	w     io.Writer
	last  time.Time
	drawn bool
	now   func() time.Time
	p     table.Progress // the last report
	seen  bool
}

// newProgressBar returns the bar for mode ("auto": only when w is a
// terminal; "always"; "never"), nil when it draws nothing.
func newProgressBar(mode string, w io.Writer) (*progressBar, error) {
	switch mode {
	case "never":
		return nil, nil
	case "always":
	case "auto":
		f, ok := w.(*os.File)
		if !ok || !isTerminal(f) {
			return nil, nil
		}
	default:
		return nil, fmt.Errorf("-progress %q: want auto, always or never", mode)
	}
	return &progressBar{w: w, now: time.Now}, nil
}

// update redraws the bar for p, at most every 100 ms.
func (b *progressBar) update(p table.Progress) {
	if b == nil {
		return
	}
	b.p, b.seen = p, true
	now := b.now()
	if b.drawn && now.Sub(b.last) < 100*time.Millisecond && (p.TotalBytes == 0 || p.Bytes < p.TotalBytes) {
		return
	}
	b.last, b.drawn = now, true
	fmt.Fprintf(b.w, "\r%s\033[K", barLine(p, 30))
}

// finish draws the last report and ends the bar's line.
func (b *progressBar) finish() {
	if b != nil && b.seen {
		fmt.Fprintf(b.w, "\r%s\033[K\n", barLine(b.p, 30))
	}
}

// barLine formats p with a bar of width cells: "[#####.....]  50%
// 12.0 MiB/24.0 MiB  6 batches  100.0 MiB/s  0s left".
func barLine(p table.Progress, width int) string {
	var sb strings.Builder
	frac := -1.0
	if p.TotalBytes > 0 {
		frac = min(float64(p.Bytes)/float64(p.TotalBytes), 1)
		full := int(frac * float64(width))
		fmt.Fprintf(&sb, "[%s%s] %3.0f%% ", strings.Repeat("#", full), strings.Repeat(".", width-full), frac*100)
		fmt.Fprintf(&sb, "%s/%s", fexec.FormatBytes(p.Bytes), fexec.FormatBytes(p.TotalBytes))
	} else {
		sb.WriteString(fexec.FormatBytes(p.Bytes))
	}
	fmt.Fprintf(&sb, "  %d batches", p.Batches)
	if s := p.Elapsed.Seconds(); s > 0 {
		rate := float64(p.Bytes) / s
		fmt.Fprintf(&sb, "  %s/s", fexec.FormatBytes(int64(rate)))
		if frac >= 0 && rate > 0 {
			left := time.Duration(float64(p.TotalBytes-p.Bytes) / rate * float64(time.Second))
			fmt.Fprintf(&sb, "  %v left", left.Round(time.Second))
		}
	}
	return sb.String()
}
