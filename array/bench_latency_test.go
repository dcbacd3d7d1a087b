// Benchmarks: the per-call cost of a warm Eval of a small elementwise
// expression through the public API (a new a+b each call, the plan
// cached), at sizes where overhead, not arithmetic, dominates. Beside
// ns/op each reports cpu-ns/op, the process's CPU time per call (garbage
// collection included), steadier than wall time on a loaded machine; run
// with GOMAXPROCS=1 to compare it with one NumPy call. The NumPy peer is
// `python3 -m timeit -s 'import numpy as np; a=np.ones(1000,np.float32); b=a.copy()' 'a+b'`
// (with -p, process time).
//
// BenchmarkLatencyParts times the layers of a warm a+b alone, so that
// the per-call cost can be split; what is left of BenchmarkLatencyAdd is
// Eval's own bookkeeping (the registry, the bound values, installing the
// result).

package array_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
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

// BenchmarkLatencyParts times, for a+b of n float32 elements, building
// and releasing the Array (build), the backend's Eval of the cached plan
// with its result released (backend; backend-headers with the result
// buffer's header reused, as a Context does), and the output's arrow
// buffer (buffer).
func BenchmarkLatencyParts(b *testing.B) {
	for _, n := range []int{10, 1000} {
		be := cpu.New(cpu.Options{})
		c := array.MustContext(array.WithBackend(be))
		x := array.FromSlice(c, make([]float32, n), n)
		y := array.FromSlice(c, make([]float32, n), n)
		keep := x.Add(y) // keeps the node, so each build finds it
		lim := exec.NewLimitedAllocator(exec.DefaultPool(), exec.Limits{MemoryLimit: math.MaxInt64})
		b.Run(fmt.Sprintf("build/n=%d", n), func(b *testing.B) {
			cpuLoop(b, func() { x.Add(y).Release() })
		})
		b.Run(fmt.Sprintf("backend/n=%d", n), func(b *testing.B) {
			xt, yt := partsInput(b, lim, n), partsInput(b, lim, n)
			defer xt.Release()
			defer yt.Release()
			res := &exec.Tensor{Layout: graph.Layout{Shape: make(graph.Shape, 0, 4), Strides: make([]int, 0, 4)}}
			req := &exec.Request{
				Outputs:   []*graph.Node{keep.Node()},
				BoundList: []exec.Binding{{Node: x.Node(), Tensor: xt}, {Node: y.Node(), Tensor: yt}},
				Alloc:     lim,
				Results:   []*exec.Tensor{res},
			}
			ctx := context.Background()
			cpuLoop(b, func() {
				ts, err := be.Eval(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				ts[0].Release()
			})
		})
		b.Run(fmt.Sprintf("backend-headers/n=%d", n), func(b *testing.B) {
			// As backend, with the result buffer's header reused as a
			// Context reuses it (exec.Request.Buffers).
			xt, yt := partsInput(b, lim, n), partsInput(b, lim, n)
			defer xt.Release()
			defer yt.Release()
			res := &exec.Tensor{Layout: graph.Layout{Shape: make(graph.Shape, 0, 4), Strides: make([]int, 0, 4)}}
			var headers exec.BufferList
			req := &exec.Request{
				Outputs:   []*graph.Node{keep.Node()},
				BoundList: []exec.Binding{{Node: x.Node(), Tensor: xt}, {Node: y.Node(), Tensor: yt}},
				Alloc:     lim,
				Results:   []*exec.Tensor{res},
				Buffers:   &headers,
			}
			ctx := context.Background()
			cpuLoop(b, func() {
				headers.Reset(lim)
				ts, err := be.Eval(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				buf := ts[0].Buf
				if exec.ReleaseSole(buf) {
					headers.Put(buf)
				}
			})
		})
		b.Run(fmt.Sprintf("buffer/n=%d", n), func(b *testing.B) {
			cpuLoop(b, func() {
				buf := memory.NewResizableBuffer(lim)
				buf.Resize(4 * n)
				partsSink = buf
				buf.Release()
			})
		})
		keep.Release()
		x.Release()
		y.Release()
	}
}

// partsSink keeps the buffer benchmark's buffers on the heap, as an
// evaluation's output buffers are.
var partsSink *memory.Buffer

// partsInput returns a float32 tensor of n zeros from alloc.
func partsInput(b *testing.B, alloc memory.Allocator, n int) *exec.Tensor {
	t, err := exec.NewTensor(alloc, graph.Float32, graph.Shape{n})
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// cpuLoop runs body once to warm up, then b.N times, reporting
// allocations and the process's CPU time per call.
func cpuLoop(b *testing.B, body func()) {
	body()
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, ok0 := cpuTime()
	for range b.N {
		body()
	}
	if cpu1, ok1 := cpuTime(); ok0 && ok1 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
