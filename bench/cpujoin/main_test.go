package main

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/bench/suite"
)

var testList = []suite.Workload{{Name: "exp.f32"}, {Name: "sum.ax0.f64"}, {Name: "erf.f32"}, {Name: "unrun"}}

const goOut = `goos: linux
BenchmarkSuite/sum.ax0.f64-2   	      10	   4000000 ns/op	 33554.43 MB/s	  26401 B/op	      44 allocs/op
BenchmarkSuite/exp.f32-2        	      88	  10000000 ns/op	6710.89 MB/s	   26401 B/op	      44 allocs/op
BenchmarkSuite/erf.f32-2        	      88	  20000000 ns/op	3355.44 MB/s
BenchmarkSuiteCopyBandwidth/threads=1-2   	      73	   7127121 ns/op	10000.00 MB/s
BenchmarkSuiteCopyBandwidth/threads=all-2 	      80	  16868547 ns/op	20000.00 MB/s
PASS
`

const peerOut = `peer exp.f32 numpy 20000000
peer exp.f32 numexpr 30000000
peer sum.ax0.f64 numpy 2000000
peer unrun numpy 5
`

func TestJoin(t *testing.T) {
	var out strings.Builder
	if err := join(strings.NewReader(peerOut+goOut), &out, testList); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"| workload | fuseflow | NumPy | NumExpr | fuseflow/NumPy speedup | fuseflow GB/s | of copy bandwidth | bandwidth ceiling |",
		"|---|---|---|---|---|---|---|---|",
		"| exp.f32 | 10.00 ms | 20.00 ms | 30.00 ms | 2.00 | 6.71 | 34% | 5.96 |",
		"| sum.ax0.f64 | 4.00 ms | 2.00 ms | - | 0.50 | 33.55 | 168% | 0.30 |",
		"| erf.f32 | 20.00 ms | - | - | - | 3.36 | 17% | - |",
		"copy bandwidth (Go copy, read + written bytes, the better of 1 and all threads): 20.00 GB/s",
		"3 workloads, 2 beside NumPy",
		"bandwidth ceiling vs NumPy: geomean 1.33 over 2 workloads; 1 below 2x, 1 below 1x",
		"min speedup vs NumPy: 0.50 (sum.ax0.f64), geomean: 1.00",
	}
	if len(lines) != len(want) {
		t.Fatalf("got:%q want:%q", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: got:%q want:%q", i, lines[i], want[i])
		}
	}
}

func TestJoinErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{peerOut, "no workload measured"},
		{goOut + "--- FAIL: BenchmarkSuite/exp.f32\nFAIL\n" + peerOut, "benchmarks failed"},
	} {
		err := join(strings.NewReader(tc.in), &strings.Builder{}, testList)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got:%v want:%s", err, tc.want)
		}
	}
}

func TestDur(t *testing.T) {
	for _, tc := range []struct {
		ns   float64
		want string
	}{{512, "512 ns"}, {1500, "1.50 us"}, {2.5e6, "2.50 ms"}, {3e9, "3.00 s"}} {
		if got := dur(tc.ns, true); got != tc.want {
			t.Errorf("got:%v want:%v", got, tc.want)
		}
	}
	if got := dur(1, false); got != "-" {
		t.Errorf("got:%v want:-", got)
	}
}

// TestJoinRounds: a row read several times on a side shows the median of
// its readings (Go's later readings are named name#01, name#02).
func TestJoinRounds(t *testing.T) {
	in := `BenchmarkSuite/exp.f32-2      	 10	 10000000 ns/op	 6710.89 MB/s
BenchmarkSuite/exp.f32#01-2  	 10	 40000000 ns/op	 1677.72 MB/s
BenchmarkSuite/exp.f32#02-2  	 10	 12000000 ns/op	 5592.41 MB/s
peer exp.f32 numpy 30000000
peer exp.f32 numpy 24000000
peer exp.f32 numpy 90000000
peer exp.f32 numpy 20000000
`
	var out strings.Builder
	if err := join(strings.NewReader(in), &out, testList); err != nil {
		t.Fatal(err)
	}
	// fuseflow: median of 10, 40, 12 ms = 12 ms (its MB/s from the same
	// bytes); NumPy: median of 20, 24, 30, 90 ms = 27 ms.
	for _, want := range []string{
		"| exp.f32 | 12.00 ms | 27.00 ms | - | 2.25 | 5.59 |",
		"min speedup vs NumPy: 2.25 (exp.f32), geomean: 2.25",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("got:%q want a line with %q", out.String(), want)
		}
	}
}
