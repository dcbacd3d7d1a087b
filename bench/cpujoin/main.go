// Command cpujoin joins the output of exec/cpu's BenchmarkSuite and of
// bench/cpu_peers.py (both read from standard input, in any order) into
// one table in the order of bench/workloads.txt: workload | fuseflow |
// NumPy | NumExpr | fuseflow/NumPy speedup | fuseflow GB/s | share of the
// copy bandwidth measured in the same run | bandwidth ceiling. The
// ceiling is the speedup over NumPy that fuseflow would have if it moved
// its bytes at the copy bandwidth: NumPy's time over (bytes / copy
// bandwidth). A memory-bound workload cannot beat its ceiling, so a
// speedup target above it is out of reach on the machine. It ends with
// the lines
//
//	bandwidth ceiling vs NumPy: geomean Z over N workloads; K below 2x, J below 1x
//	min speedup vs NumPy: X (workload), geomean: Y
//
// over the workloads both sides measured, and exits 1 when a benchmark
// failed or nothing was measured. A workload read several times on a
// side (BenchmarkSuite's -suite.rounds, name#01...; cpu_peers.py's
// --rounds) has the median of its readings on that side.
//
//	(go test -run '^$' -bench '^BenchmarkSuite' ./exec/cpu/; /usr/bin/python3 bench/cpu_peers.py) | go run ./bench/cpujoin
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/bench/suite"
)

func main() {
	list := flag.String("list", "bench/workloads.txt", "the workload list")
	flag.Parse()
	ws, err := suite.Load(*list)
	if err == nil {
		err = join(os.Stdin, os.Stdout, ws)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpujoin:", err)
		os.Exit(1)
	}
}

// measure is what the Go benchmark reported for one workload.
type measure struct {
	ns, mbs float64
}

// median returns the median of vs (the mean of the middle two for an
// even count); vs is sorted in place and not empty.
func median(vs []float64) float64 {
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}

// join reads benchmark and peer lines from r and writes the table to w.
// It returns an error when a benchmark failed, when no workload was
// measured, or when reading fails.
func join(r io.Reader, w io.Writer, ws []suite.Workload) error {
	ffRuns := map[string][]measure{}
	copyBW := 0.0
	peerRuns := map[string]map[string][]float64{"numpy": {}, "numexpr": {}}
	var failed []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 4 && f[0] == "peer":
			if v, err := strconv.ParseFloat(f[3], 64); err == nil && peerRuns[f[2]] != nil {
				peerRuns[f[2]][f[1]] = append(peerRuns[f[2]][f[1]], v)
			}
		case len(f) >= 2 && (f[0] == "---" && f[1] == "FAIL:" || f[0] == "FAIL"):
			failed = append(failed, strings.Join(f, " "))
		case len(f) >= 4 && strings.HasPrefix(f[0], "BenchmarkSuite") && f[3] == "ns/op":
			name := f[0]
			if i := strings.LastIndex(name, "-"); i > 0 {
				name = name[:i]
			}
			ns, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				continue
			}
			mbs := 0.0
			if len(f) >= 6 && f[5] == "MB/s" {
				mbs, _ = strconv.ParseFloat(f[4], 64)
			}
			if rest, ok := strings.CutPrefix(name, "BenchmarkSuite/"); ok {
				if i := strings.LastIndex(rest, "#"); i > 0 {
					rest = rest[:i]
				}
				ffRuns[rest] = append(ffRuns[rest], measure{ns, mbs})
			} else if strings.HasPrefix(name, "BenchmarkSuiteCopyBandwidth/") {
				copyBW = max(copyBW, mbs/1000)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	ff := map[string]measure{}
	for name, ms := range ffRuns {
		ns := make([]float64, len(ms))
		for i, m := range ms {
			ns[i] = m.ns
		}
		// The bytes per call are the same in every reading.
		t := median(ns)
		ff[name] = measure{t, ms[0].mbs * ms[0].ns / t}
	}
	peers := map[string]map[string]float64{}
	for lib, byName := range peerRuns {
		peers[lib] = map[string]float64{}
		for name, vs := range byName {
			peers[lib][name] = median(vs)
		}
	}
	fmt.Fprintln(w, "| workload | fuseflow | NumPy | NumExpr | fuseflow/NumPy speedup | fuseflow GB/s | of copy bandwidth | bandwidth ceiling |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	lowest, lowName, logSum, n, rows := math.Inf(1), "", 0.0, 0, 0
	var ceil struct {
		logSum            float64
		n, below2, below1 int
	}
	for _, wl := range ws {
		m, ok := ff[wl.Name]
		if !ok {
			continue
		}
		rows++
		np, okn := peers["numpy"][wl.Name]
		nx, okx := peers["numexpr"][wl.Name]
		sp := "-"
		if okn && m.ns > 0 {
			s := np / m.ns
			sp = fmt.Sprintf("%.2f", s)
			if s < lowest {
				lowest, lowName = s, wl.Name
			}
			logSum += math.Log(s)
			n++
		}
		share, ceiling := "-", "-"
		if copyBW > 0 && m.mbs > 0 {
			share = fmt.Sprintf("%.0f%%", 100*m.mbs/1000/copyBW)
			if okn && m.ns > 0 {
				// bytes = MB/s * ns * 1e-3; at copyBW GB/s (bytes per ns)
				// they take bytes/copyBW ns.
				c := np / (m.mbs * m.ns * 1e-3 / copyBW)
				ceiling = fmt.Sprintf("%.2f", c)
				ceil.logSum += math.Log(c)
				ceil.n++
				if c < 2 {
					ceil.below2++
				}
				if c < 1 {
					ceil.below1++
				}
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.2f | %s | %s |\n", wl.Name, dur(m.ns, true), dur(np, okn), dur(nx, okx), sp, m.mbs/1000, share, ceiling)
	}
	if copyBW > 0 {
		fmt.Fprintf(w, "copy bandwidth (Go copy, read + written bytes, the better of 1 and all threads): %.2f GB/s\n", copyBW)
	}
	fmt.Fprintf(w, "%d workloads, %d beside NumPy\n", rows, n)
	if ceil.n > 0 {
		fmt.Fprintf(w, "bandwidth ceiling vs NumPy: geomean %.2f over %d workloads; %d below 2x, %d below 1x\n",
			math.Exp(ceil.logSum/float64(ceil.n)), ceil.n, ceil.below2, ceil.below1)
	}
	if len(failed) > 0 {
		return fmt.Errorf("benchmarks failed: %s", strings.Join(failed, "; "))
	}
	if n == 0 {
		fmt.Fprintln(w, "min speedup vs NumPy: n/a")
		return errors.New("no workload measured by both fuseflow and NumPy")
	}
	fmt.Fprintf(w, "min speedup vs NumPy: %.2f (%s), geomean: %.2f\n", lowest, lowName, math.Exp(logSum/float64(n)))
	return nil
}

// dur formats ns nanoseconds in a readable unit, or "-" when !ok.
func dur(ns float64, ok bool) string {
	switch {
	case !ok:
		return "-"
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f us", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
