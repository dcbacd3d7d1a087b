// The bench subcommand: rows per second of a fused aggregate and of a
// grouped one over a generated trades Parquet file, by fuseflow in this
// process and by the peers of bench/ (NumPy with pyarrow; DuckDB and
// Polars through Node) reading the same file in the same run, as a table
// and an SVG bar chart.

package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fuseflow/fuseflow/internal/trades"
	"github.com/fuseflow/fuseflow/table"
)

// benchWorkloads are the workloads, by the suffix peers give their names
// ("duckdb/groupby"), with fuseflow's query.
var benchWorkloads = []struct {
	name, suffix, expr, by string
}{
	{"sum(price*qty*(1-discount))", "", "sum(price*qty*(1-discount))", ""},
	{"sum(price*qty) by sym", "/groupby", "sum(price*qty)", "sym"},
}

// benchResult is one peer's time on one workload.
type benchResult struct {
	workload int
	peer     string
	rowsPerS float64
	ms       float64
}

func bench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int64("rows", 10_000_000, "rows of the trades file")
	file := fs.String("file", "", "the trades file (default: in the temporary folder, by -rows)")
	runs := fs.Int("runs", 5, "timed runs of each workload (the median is reported)")
	device := fs.String("device", "cpu", "cpu, ref, cuda or cuda:N")
	python := fs.String("python", "/usr/bin/python3", "the Python of the NumPy peer (empty: none)")
	node := fs.String("node", "", "a folder holding node_modules with @duckdb/node-api and nodejs-polars (empty: none); sh bench/parquet_suite.sh installs them")
	scripts := fs.String("scripts", "bench", "the folder of parquet_peers.py and parquet_peers.cjs")
	svg := fs.String("svg", "bench.svg", "write the chart here (empty: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *runs < 1 || *rows < 1 {
		return fmt.Errorf("bench takes flags only, with -runs and -rows of at least 1")
	}
	path := *file
	if path == "" {
		path = filepath.Join(os.TempDir(), fmt.Sprintf("fuseflow-trades-%d.parquet", *rows))
	}
	if _, err := os.Stat(path); err != nil {
		if _, err := trades.Write(path, trades.Options{Rows: *rows, RowGroup: 1 << 20, Seed: 1}); err != nil {
			return err
		}
	}
	be, done, err := openBackend(*device)
	if err != nil {
		return err
	}
	defer done()
	var results []benchResult
	for i, w := range benchWorkloads {
		e, err := table.Parse(w.expr)
		if err != nil {
			return err
		}
		s := table.ScanParquet(path, table.Options{Backend: be})
		if w.by != "" {
			s = s.GroupBy(w.by)
		}
		var ts []time.Duration
		var n int64
		for r := range *runs + 1 { // the first run warms up
			start := time.Now()
			rec, err := s.Aggregate(context.Background(), e)
			if err != nil {
				return err
			}
			rec.Release()
			if r > 0 {
				ts = append(ts, time.Since(start))
			}
			n = s.Stats().Rows
		}
		sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
		med := ts[len(ts)/2].Seconds()
		results = append(results, benchResult{i, "fuseflow (" + be.Name() + ")", float64(n) / med, med * 1e3})
	}
	var peerOut bytes.Buffer
	if *python != "" {
		runPeer(&peerOut, stderr, *python, filepath.Join(*scripts, "parquet_peers.py"), path)
	}
	if *node != "" {
		runPeer(&peerOut, stderr, "node", filepath.Join(*scripts, "parquet_peers.cjs"), *node, path, strconv.FormatInt(*rows, 10))
	}
	results = append(results, parsePeers(&peerOut)...)
	writeBenchTable(stdout, path, results)
	if *svg != "" {
		var b bytes.Buffer
		writeBenchSVG(&b, results)
		if err := os.WriteFile(*svg, b.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", *svg)
	}
	return nil
}

// runPeer runs a peer script, its output appended to out; a peer that
// cannot run is reported on stderr and left out.
func runPeer(out *bytes.Buffer, stderr io.Writer, prog string, args ...string) {
	var errb bytes.Buffer
	cmd := exec.Command(prog, args...)
	cmd.Stdout, cmd.Stderr = out, &errb
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(stderr, "peer %s %s left out: %v: %s\n", prog, filepath.Base(args[0]), err, strings.TrimSpace(errb.String()))
	}
}

// parsePeers reads the peers' lines "peer NAME[/groupby] ROWS_PER_S MS
// RESULT"; other lines are ignored.
func parsePeers(r io.Reader) []benchResult {
	var out []benchResult
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[0] != "peer" {
			continue
		}
		rate, err1 := strconv.ParseFloat(f[2], 64)
		ms, err2 := strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil {
			continue
		}
		name, w := f[1], 0
		for i, wl := range benchWorkloads {
			if wl.suffix != "" && strings.HasSuffix(name, wl.suffix) {
				name, w = strings.TrimSuffix(name, wl.suffix), i
			}
		}
		out = append(out, benchResult{w, name, rate, ms})
	}
	return out
}

// writeBenchTable prints the results per workload with fuseflow's
// speedup over each peer.
func writeBenchTable(w io.Writer, path string, rs []benchResult) {
	fmt.Fprintf(w, "%s\n", path)
	for i, wl := range benchWorkloads {
		var ff float64
		for _, r := range rs {
			if r.workload == i && strings.HasPrefix(r.peer, "fuseflow") {
				ff = r.rowsPerS
			}
		}
		fmt.Fprintf(w, "\n%s\n%-22s %14s %10s %16s\n", wl.name, "peer", "rows/s", "ms", "fuseflow speedup")
		for _, r := range rs {
			if r.workload == i {
				fmt.Fprintf(w, "%-22s %14.4g %10.1f %15.2fx\n", r.peer, r.rowsPerS, r.ms, ff/r.rowsPerS)
			}
		}
	}
}

// writeBenchSVG draws the rows per second of every peer on every workload
// as horizontal bars, a group per workload.
func writeBenchSVG(w io.Writer, rs []benchResult) {
	const left, width, bar, gap = 190.0, 420.0, 18.0, 6.0
	top := 0.0
	best := 1.0
	for _, r := range rs {
		best = max(best, r.rowsPerS)
	}
	var body strings.Builder
	y := 40.0
	for i, wl := range benchWorkloads {
		fmt.Fprintf(&body, "<text x=\"10\" y=\"%.0f\" font-weight=\"bold\">%s</text>\n", y, html.EscapeString(wl.name))
		y += 10
		for _, r := range rs {
			if r.workload != i {
				continue
			}
			fill := "#8da0cb"
			if strings.HasPrefix(r.peer, "fuseflow") {
				fill = "#fc8d62"
			}
			l := width * r.rowsPerS / best
			fmt.Fprintf(&body, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%s</text>\n", left-6, y+bar-5, html.EscapeString(r.peer))
			fmt.Fprintf(&body, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\"/>\n", left, y, l, bar, fill)
			fmt.Fprintf(&body, "<text x=\"%.1f\" y=\"%.0f\">%.3g rows/s</text>\n", left+l+4, y+bar-5, r.rowsPerS)
			y += bar + gap
		}
		y += 16
	}
	top = y
	fmt.Fprintf(w, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n", left+width+120, top)
	fmt.Fprintf(w, "<text x=\"10\" y=\"20\" font-size=\"14\">Parquet scans, rows per second (longer is faster)</text>\n")
	io.WriteString(w, body.String())
	io.WriteString(w, "</svg>\n")
}
