// Profiling: per-kernel GPU times from events (FUSEFLOW_PROFILE=1 or
// Options.Profile), kept as the last Run, and Explain with the measured
// times, geometry and achieved bandwidth.

package cuda

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// KernelTime is the measured execution of one plan kernel.
type KernelTime struct {
	// Name is the plan kernel's name, Entry its PTX entry.
	Name, Entry string
	Kind        fuse.Kind
	// Launches are the launches made, with their geometry.
	Launches []codegen.Launch
	// Time is the GPU time between events recorded before the first launch
	// and after the last.
	Time time.Duration
	// Bytes is what the kernel reads and writes (fuse.Kernel's BytesRead
	// plus BytesWritten).
	Bytes int64
}

// GBps returns the achieved bandwidth in GB/s (1e9 bytes per second), or
// 0 when no time was measured.
func (k KernelTime) GBps() float64 {
	if k.Time <= 0 {
		return 0
	}
	return float64(k.Bytes) / k.Time.Seconds() / 1e9
}

// Run is a profiled evaluation: the plan and each kernel's measured time.
type Run struct {
	Plan *fuse.Plan
	// Target is the device the plan ran on, as code generation saw it.
	Target  codegen.Target
	Kernels []KernelTime
	// Gen is the host time spent generating the plan's PTX and Load the
	// time the driver took to load it (its JIT); both were spent once,
	// on the plan's first evaluation.
	Gen, Load time.Duration
}

// Total returns the sum of the kernels' times.
func (r *Run) Total() time.Duration {
	var t time.Duration
	for _, k := range r.Kernels {
		t += k.Time
	}
	return t
}

// record reads the timing events of a finished run and keeps it as the
// last run. Timing failures only leave the times at zero.
func (b *Backend) record(prog *program, events []drv.Event) {
	r := &Run{Plan: prog.plan, Target: b.target, Kernels: make([]KernelTime, len(prog.kernels)), Gen: prog.gen, Load: prog.load}
	for i := range prog.kernels {
		pk := &prog.kernels[i]
		d, _ := b.ctx.EventElapsed(events[2*i], events[2*i+1])
		r.Kernels[i] = KernelTime{Name: pk.k.Name, Entry: pk.sig.Entry, Kind: pk.k.Kind(),
			Launches: pk.sig.Launches, Time: d, Bytes: pk.k.BytesRead + pk.k.BytesWritten}
	}
	b.runMu.Lock()
	b.last = r
	b.runMu.Unlock()
}

// Profiling reports whether evaluations are timed.
func (b *Backend) Profiling() bool { return b.profile }

// LastRun returns the most recent profiled evaluation (of any goroutine),
// or nil when profiling is off or nothing ran yet.
func (b *Backend) LastRun() *Run {
	b.runMu.Lock()
	defer b.runMu.Unlock()
	return b.last
}

// Explain returns the plan's explanation with the geometry of each kernel
// on the run's target (fuse.ExplainFor, codegen.Annotate) followed by a
// table of the kernels with their launches, measured GPU time and
// achieved bandwidth.
func (r *Run) Explain() string {
	var sb strings.Builder
	if a, err := codegen.Annotate(r.Plan, r.Target); err == nil {
		sb.WriteString(fuse.ExplainFor(r.Plan, a))
	} else {
		sb.WriteString(fuse.Explain(r.Plan))
	}
	if !strings.HasSuffix(sb.String(), "\n") {
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "measured (codegen %v, module load %v):\n", r.Gen.Round(time.Microsecond), r.Load.Round(time.Microsecond))
	tw := tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tkind\tentry\tlaunches (grid x block)\ttime\tbytes\tGB/s")
	for _, k := range r.Kernels {
		geo := make([]string, len(k.Launches))
		for i, l := range k.Launches {
			geo[i] = fmt.Sprintf("%vx%v", l.Grid, l.Block)
		}
		fmt.Fprintf(tw, "%s\t%v\t%s\t%s\t%v\t%d\t%.1f\n", k.Name, k.Kind, k.Entry, strings.Join(geo, " + "),
			k.Time.Round(100*time.Nanosecond), k.Bytes, k.GBps())
	}
	fmt.Fprintf(tw, "total\t\t\t\t%v\t\t\n", r.Total().Round(100*time.Nanosecond))
	tw.Flush()
	return sb.String()
}
