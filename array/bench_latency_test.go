// Benchmarks: the per-call cost of a warm Eval of a small elementwise
// expression through the public API (a new a+b each call, the plan
// cached), at sizes where overhead, not arithmetic, dominates. Beside
// ns/op each reports cpu-ns/op, the process's CPU time per call (garbage
// collection included), steadier than wall time on a loaded machine; run
// with GOMAXPROCS=1 to compare it with one NumPy call. The NumPy peer is
// `python3 -m timeit -s 'import numpy as np; a=np.ones(1000,np.float32); b=a.copy()' 'a+b'`
// (with -p, process time).

package array_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
)

// BenchmarkLatencyAdd evaluates a fresh a+b of n float32 elements per
// iteration on the default CPU Context and releases it.
func BenchmarkLatencyAdd(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchLatency(b, n, func(x, y *array.Array) *array.Array { return x.Add(y) })
		})
	}
}

// BenchmarkLatencyChain is BenchmarkLatencyAdd for a three-op chain
// (a*b+1)/a, one fused kernel.
func BenchmarkLatencyChain(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchLatency(b, n, func(x, y *array.Array) *array.Array { return x.Mul(y).Add(1).Div(x) })
		})
	}
}

// BenchmarkLatencyExp is BenchmarkLatencyAdd for a unary op, exp(a).
func BenchmarkLatencyExp(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchLatency(b, n, func(x, _ *array.Array) *array.Array { return x.Exp() })
		})
	}
}

// BenchmarkLatencySum is BenchmarkLatencyAdd for a full reduction, sum(a).
func BenchmarkLatencySum(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchLatency(b, n, func(x, _ *array.Array) *array.Array { return x.Sum() })
		})
	}
}

// benchLatency times build, Eval and Release of expr over two float32
// inputs of n elements from a fixed seed, in wall and CPU time.
func benchLatency(b *testing.B, n int, expr func(x, y *array.Array) *array.Array) {
	c, err := array.NewContext(array.WithBackend(cpu.New(cpu.Options{})))
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	xs, ys := make([]float32, n), make([]float32, n)
	for i := range xs {
		xs[i], ys[i] = r.Float32(), r.Float32()
	}
	x, y := array.FromSlice(c, xs, n), array.FromSlice(c, ys, n)
	defer x.Release()
	defer y.Release()
	ctx := context.Background()
	warm := expr(x, y)
	if err := array.Eval(ctx, warm); err != nil {
		b.Fatal(err)
	}
	warm.Release()
	runtime.GC()
	b.SetBytes(int64(3 * 4 * n))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, cpuOK := cpuTime()
	for range b.N {
		z := expr(x, y)
		if err := array.Eval(ctx, z); err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
	if cpu1, ok := cpuTime(); ok && cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
