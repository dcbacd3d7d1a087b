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

const suiteList = "../../bench/workloads.txt"

// BenchmarkSuite runs each selected workload: one iteration builds the
// expression over the inputs (bound arrays, made once) through the
// workload's compiled Func (as NumPy's peer calls the Python function
// it compiled), evaluates it and releases the result, as `c = f(a, b)`
// does in NumPy. Bytes are
// those of the inputs and the result. Inputs are shared by the
// workloads that list the same input and freed after the last of them.
func BenchmarkSuite(b *testing.B) {
	ws, err := suite.Load(suiteList)
	if err != nil {
		b.Fatal(err)
	}
	re, err := regexp.Compile(*suiteFlag)
	if err != nil {
		b.Fatalf("-suite: %v", err)
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
	for i, w := range sel {
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
		warm := false
		b.Run(w.Name, func(b *testing.B) {
			eval := func() {
				out, err := build()
				if err == nil {
					err = out.Eval()
				}
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			if !warm { // plan once, outside the timing
				eval()
				warm = true
			}
			out, err := build()
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(inBytes + int64(out.Size()*out.DType().Size()))
			b.ReportAllocs()
			runtime.GC()
			b.ResetTimer()
			for range b.N {
				eval()
			}
		})
		for _, in := range w.Inputs {
			if key := in.String(); last[key] == i && cache[key] != nil {
				cache[key].Release()
				delete(cache, key)
			}
		}
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
