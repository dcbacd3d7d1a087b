// BenchmarkSuite: every workload of bench/workloads.txt (the list
// bench/cpu_peers.py runs with NumPy and NumExpr) through the array API
// on the CPU executor, as a user calls it; and the machine's copy
// bandwidth, the yardstick of the memory-bound rows.

package cpu_test

import (
	"flag"
	"regexp"
	"runtime"
	"sync"
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/bench/suite"
)

var suiteFlag = flag.String("suite", "", "regular expression: the BenchmarkSuite workloads to run (all when empty)")

var suiteListFlag = flag.String("suite.list", "../../bench/workloads.txt", "the workload list BenchmarkSuite reads (a path from exec/cpu, or absolute)")

// BenchmarkSuite runs each selected workload: one iteration builds the
// expression over the inputs (bound arrays, made once) through the
// workload's compiled Func (as NumPy's peer calls the Python function
// it compiled), evaluates it and releases the result, as `c = f(a, b)`
// does in NumPy. Bytes are those of the inputs and the result.
//
// The workloads run in windows of suiteWindow; with -suite.rounds R
// each window's workloads run one after another R times (a workload's
// later readings are named name#01, name#02, ...), so that a passing
// disturbance of the machine spoils one reading of a row, not all, and
// bench/cpujoin takes the median. Inputs are shared by the workloads
// that list the same input and freed after the window of the last of
// them.
func BenchmarkSuite(b *testing.B) {
	ws, err := suite.Load(*suiteListFlag)
	if err != nil {
		b.Fatal(err)
	}
	re, err := regexp.Compile(*suiteFlag)
	if err != nil {
		b.Fatalf("-suite: %v", err)
	}
	if *suiteRounds < 1 {
		b.Fatalf("-suite.rounds %d: want at least 1", *suiteRounds)
	}
	var sel []suite.Workload
	for _, w := range ws {
		if re.MatchString(w.Name) {
			sel = append(sel, w)
		}
	}
	c, err := array.NewContext(array.WithBackend(benchBackend()))
	if err != nil {
		b.Fatal(err)
	}
	last := map[string]int{}
	for i, w := range sel {
		for _, in := range w.Inputs {
			last[in.String()] = i
		}
	}
	cache := map[string]*array.Array{}
	defer func() {
		for _, a := range cache {
			a.Release()
		}
	}()
	for lo := 0; lo < len(sel); lo += suiteWindow {
		hi := min(lo+suiteWindow, len(sel))
		win := make([]suiteRun, 0, hi-lo)
		for _, w := range sel[lo:hi] {
			win = append(win, prepareSuiteRun(b, c, w, cache))
		}
		for range *suiteRounds {
			for i := range win {
				b.Run(win[i].name, win[i].bench)
			}
		}
		for key, i := range last {
			if i < hi && cache[key] != nil {
				cache[key].Release()
				delete(cache, key)
			}
		}
	}
}

// suiteWindow is how many workloads BenchmarkSuite keeps ready at once.
const suiteWindow = 8

var suiteRounds = flag.Int("suite.rounds", 1, "how many times BenchmarkSuite runs each workload (in rounds over a window of workloads)")

// suiteRun is one workload ready to run: its compiled expression over
// bound inputs and the bytes of those inputs.
type suiteRun struct {
	name    string
	build   func() (*array.Array, error)
	inBytes int64
	warm    bool
}

// prepareSuiteRun makes w's inputs (or takes them from cache, which
// keeps what it makes) and compiles its expression.
func prepareSuiteRun(b *testing.B, c *array.Context, w suite.Workload, cache map[string]*array.Array) suiteRun {
	env := map[string]*array.Array{}
	var inBytes int64
	for _, in := range w.Inputs {
		key := in.String()
		if cache[key] == nil {
			a, err := suite.NewArray(c, in)
			if err != nil {
				b.Fatal(err)
			}
			if err := a.Eval(); err != nil {
				b.Fatal(err)
			}
			cache[key] = a
		}
		env[in.Name] = cache[key]
		inBytes += in.Bytes()
	}
	stmts, err := suite.ParseExpr(w.Expr)
	if err != nil {
		b.Fatal(err)
	}
	build, err := suite.Compile(stmts, env)
	if err != nil {
		b.Fatal(err)
	}
	return suiteRun{name: w.Name, build: build, inBytes: inBytes}
}

// bench is the sub-benchmark of one reading of r.
func (r *suiteRun) bench(b *testing.B) {
	eval := func() {
		out, err := r.build()
		if err == nil {
			err = out.Eval()
		}
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	if !r.warm { // plan once, outside the timing
		eval()
		r.warm = true
	}
	out, err := r.build()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(r.inBytes + int64(out.Size()*out.DType().Size()))
	out.Release()
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	for range b.N {
		eval()
	}
}

// BenchmarkSuiteCopyBandwidth copies 64 MiB with Go's copy (memmove) on
// 1 and on GOMAXPROCS goroutines, each its own part; bytes are those read
// plus those written, the measure the suite's rows use.
func BenchmarkSuiteCopyBandwidth(b *testing.B) {
	const size = 64 << 20
	src, dst := make([]byte, size), make([]byte, size)
	for i := range src {
		src[i] = byte(i * 7)
	}
	copy(dst, src)
	for _, threads := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(map[bool]string{true: "threads=1", false: "threads=all"}[threads == 1], func(b *testing.B) {
			b.SetBytes(2 * size)
			b.ResetTimer()
			for range b.N {
				var wg sync.WaitGroup
				part := size / threads
				for t := range threads {
					wg.Go(func() { copy(dst[t*part:(t+1)*part], src[t*part:(t+1)*part]) })
				}
				wg.Wait()
			}
		})
	}
}
