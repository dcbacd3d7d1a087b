// Benchmarks: fused elementwise chains against one kernel per op, sum,
// row softmax and matmul, at the sizes bench/cpu_peers.py uses for NumPy
// and NumExpr. Buffers come from a caching pool (run with -goalloc to
// allocate each from the Go heap instead).

package cpu_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

var chunkFlag = flag.Int("chunk", 0, "points per chunk (0: the backend's choice)")

// benchBackend returns the backend the benchmarks run.
func benchBackend() *cpu.Backend { return cpu.New(cpu.Options{Chunk: *chunkFlag}) }

var goAllocFlag = flag.Bool("goalloc", false, "benchmarks allocate from a Go allocator instead of a caching pool")

// benchAlloc returns the allocator of a benchmark: a caching pool (the
// array package's default), so that steady-state evaluations reuse their
// buffers, or with -goalloc a fresh Go allocation per buffer.
func benchAlloc() memory.Allocator {
	if *goAllocFlag {
		return memory.NewGoAllocator()
	}
	return exec.NewPool(memory.NewGoAllocator())
}

// benchInput returns a bound float32 input of shape s with values in
// [lo, hi) from a fixed seed.
func benchInput(b *testing.B, alloc memory.Allocator, s graph.Shape, seed uint64, lo, hi float32) (*graph.Node, *exec.Tensor) {
	return benchInputT(b, alloc, s, seed, lo, hi)
}

// benchInputT is benchInput for tests and benchmarks.
func benchInputT(b testing.TB, alloc memory.Allocator, s graph.Shape, seed uint64, lo, hi float32) (*graph.Node, *exec.Tensor) {
	return benchInputD(b, alloc, graph.Float32, s, seed, lo, hi)
}

// benchInputD is benchInputT in float32 or float64.
func benchInputD(b testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape, seed uint64, lo, hi float32) (*graph.Node, *exec.Tensor) {
	n, t := newInput(b, alloc, d, s, "x")
	r := rand.New(rand.NewPCG(seed, 1))
	if d == graph.Float64 {
		for i := range exec.Elems[float64](t) {
			exec.Elems[float64](t)[i] = float64(lo) + float64(hi-lo)*r.Float64()
		}
		return n, t
	}
	v := exec.Elems[float32](t)
	for i := range v {
		v[i] = lo + (hi-lo)*r.Float32()
	}
	return n, t
}

// runBench evaluates outs over bound b.N times; bytes is what one
// evaluation reads and writes.
func runBench(b *testing.B, be exec.Backend, alloc memory.Allocator, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor, bytes int64) {
	ctx := context.Background()
	req := &exec.Request{Outputs: outs, Bound: bound, Alloc: alloc}
	res, err := be.Eval(ctx, req) // plan once
	if err != nil {
		b.Fatal(err)
	}
	release(res)
	runtime.GC() // no collection of the setup's garbage while timing
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		res, err := be.Eval(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		release(res)
	}
}

// unfused evaluates nodes one op per Eval, binding each result for the
// next: the one-kernel-per-op baseline.
func unfused(b *testing.B, be exec.Backend, alloc memory.Allocator, out *graph.Node, bound map[*graph.Node]*exec.Tensor, bytes int64) {
	ctx := context.Background()
	order := graph.Topo(out)
	runtime.GC()
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		vals := map[*graph.Node]*exec.Tensor{}
		for n, t := range bound {
			vals[n] = t
		}
		var mine []*exec.Tensor
		for _, n := range order {
			if vals[n] != nil || n.Op() == graph.OpConst {
				continue
			}
			res, err := be.Eval(ctx, &exec.Request{Outputs: []*graph.Node{n}, Bound: vals, Alloc: alloc})
			if err != nil {
				b.Fatal(err)
			}
			vals[n] = res[0]
			mine = append(mine, res[0])
		}
		release(mine)
	}
}

const elemN = 1 << 24

// elementwise lists the fused workloads over 2^24 float32 elements.
var elementwise = []struct {
	name string
	f    func(a, b, c, d *graph.Node) *graph.Node
}{
	{"chain", func(a, b, c, d *graph.Node) *graph.Node { // 2*a + 3*b*c - d
		two := graph.FloatConst(graph.Float32, 2)
		three := graph.FloatConst(graph.Float32, 3)
		return graph.Binary(graph.OpSub, graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, two, a),
			graph.Binary(graph.OpMul, graph.Binary(graph.OpMul, three, b), c)), d)
	}},
	{"expr", func(a, b, c, _ *graph.Node) *graph.Node { // exp(-a*a)*b + sqrt(c)
		return graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul,
			graph.Unary(graph.OpExp, graph.Unary(graph.OpNeg, graph.Binary(graph.OpMul, a, a))), b),
			graph.Unary(graph.OpSqrt, c))
	}},
}

func elemSetup(b *testing.B, alloc memory.Allocator) ([]*graph.Node, map[*graph.Node]*exec.Tensor) {
	bound := map[*graph.Node]*exec.Tensor{}
	var ins []*graph.Node
	for i := range 4 {
		n, t := benchInput(b, alloc, graph.Shape{elemN}, uint64(i), 0, 1)
		ins = append(ins, n)
		bound[n] = t
	}
	return ins, bound
}

// BenchmarkElementwise runs the fused chains (one kernel each) and the
// same expressions one op per kernel.
func BenchmarkElementwise(b *testing.B) {
	for _, w := range elementwise {
		for _, fused := range []bool{true, false} {
			name := w.name + "/fused"
			if !fused {
				name = w.name + "/unfused"
			}
			b.Run(name, func(b *testing.B) {
				alloc := benchAlloc()
				ins, bound := elemSetup(b, alloc)
				defer releaseBound(bound)
				out := w.f(ins[0], ins[1], ins[2], ins[3])
				be := benchBackend()
				if fused {
					runBench(b, be, alloc, []*graph.Node{out}, bound, 5*4*elemN)
				} else {
					unfused(b, be, alloc, out, bound, 5*4*elemN)
				}
			})
		}
	}
}

// BenchmarkSum sums 2^24 float32 values.
func BenchmarkSum(b *testing.B) {
	alloc := benchAlloc()
	x, t := benchInput(b, alloc, graph.Shape{elemN}, 7, -1, 1)
	defer t.Release()
	runBench(b, benchBackend(), alloc, []*graph.Node{graph.Reduce(graph.OpSum, x, nil, false)},
		map[*graph.Node]*exec.Tensor{x: t}, 4*elemN)
}

// BenchmarkSoftmax computes exp(x - max) / sum over the rows of a 4096 x
// 4096 float32 matrix.
func BenchmarkSoftmax(b *testing.B) {
	const n = 4096
	alloc := benchAlloc()
	x, t := benchInput(b, alloc, graph.Shape{n, n}, 8, -4, 4)
	defer t.Release()
	m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m))
	s := graph.Reduce(graph.OpSum, e, []int{1}, true)
	out := graph.Binary(graph.OpDiv, e, s)
	runBench(b, benchBackend(), alloc, []*graph.Node{out}, map[*graph.Node]*exec.Tensor{x: t}, 2*4*n*n)
}

// BenchmarkMatMul multiplies square matrices through the executor (plan
// cached, output from the pool): BenchmarkMatMul/<dtype>/<n> one n×n
// product, BenchmarkMatMul/<dtype>/<count>x<n> a batch of count of them.
// bench/gemm_peers.py --exec runs NumPy on the same shapes interleaved.
func BenchmarkMatMul(b *testing.B) {
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		name := map[graph.DType]string{graph.Float32: "f32", graph.Float64: "f64"}[d]
		for _, s := range matMulBenchShapes {
			id := fmt.Sprint(s.n)
			if s.count > 1 {
				id = fmt.Sprintf("%dx%d", s.count, s.n)
			}
			b.Run(name+"/"+id, func(b *testing.B) {
				alloc := benchAlloc()
				shape := graph.Shape{s.n, s.n}
				if s.count > 1 {
					shape = graph.Shape{s.count, s.n, s.n}
				}
				x, xt := benchInputD(b, alloc, d, shape, 9, -1, 1)
				y, yt := benchInputD(b, alloc, d, shape, 10, -1, 1)
				defer xt.Release()
				defer yt.Release()
				runBench(b, benchBackend(), alloc, []*graph.Node{graph.MatMul(x, y)},
					map[*graph.Node]*exec.Tensor{x: xt, y: yt}, int64(3*shape.Size()*d.Size()))
				b.ReportMetric(2*float64(s.count)*float64(s.n*s.n*s.n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// matMulBenchShapes are BenchmarkMatMul's products: count n×n·n×n.
var matMulBenchShapes = []struct{ count, n int }{
	{1, 64}, {1, 128}, {1, 256}, {1, 512}, {1, 1024}, {1, 2048}, {64, 64}, {1024, 16},
}
