// Reduction benchmarks: each reduction over each axis of a large matrix
// (64 MiB, beyond every cache), a middle axis of a 3-d array, full
// reductions, ArgMax/ArgMin, Var and Any, in float32 and float64, at the
// shapes bench/reduce_peers.py gives NumPy.

package cpu_test

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// reduceInput returns a bound input of dtype d and shape s with values in
// [-1, 1) from a fixed seed.
func reduceInput(b testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape, seed uint64) (*graph.Node, *exec.Tensor) {
	n, t := newInput(b, alloc, d, s, "x")
	r := rand.New(rand.NewPCG(seed, 3))
	switch d {
	case graph.Float32:
		for i := range exec.Elems[float32](t) {
			exec.Elems[float32](t)[i] = 2*r.Float32() - 1
		}
	case graph.Float64:
		for i := range exec.Elems[float64](t) {
			exec.Elems[float64](t)[i] = 2*r.Float64() - 1
		}
	case graph.Int32:
		for i := range exec.Elems[int32](t) {
			exec.Elems[int32](t)[i] = int32(r.IntN(1 << 20))
		}
	default:
		b.Fatalf("reduceInput: dtype %v", d)
	}
	return n, t
}

// reduceCases lists the reductions: a 64 MiB input (4096 x 4096
// float32, 4096 x 2048 float64, 256^3 for the middle axis) and the graph
// to evaluate over it.
var reduceCases = []struct {
	name  string
	dt    graph.DType
	shape graph.Shape
	f     func(x *graph.Node) *graph.Node
}{
	{"SumAxis0/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpSum, 0)},
	{"SumAxis1/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpSum, 1)},
	{"SumAll/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpSum)},
	{"SumMiddle/f32", graph.Float32, graph.Shape{256, 256, 256}, redOf(graph.OpSum, 1)},
	{"SumAxis0/f64", graph.Float64, graph.Shape{4096, 2048}, redOf(graph.OpSum, 0)},
	{"SumAxis1/f64", graph.Float64, graph.Shape{4096, 2048}, redOf(graph.OpSum, 1)},
	{"SumMiddle/f64", graph.Float64, graph.Shape{128, 256, 256}, redOf(graph.OpSum, 1)},
	{"MaxAxis0/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpReduceMax, 0)},
	{"MaxAxis1/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpReduceMax, 1)},
	{"MinMiddle/f64", graph.Float64, graph.Shape{128, 256, 256}, redOf(graph.OpReduceMin, 1)},
	{"ProdAxis0/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpProd, 0)},
	{"SumSqAxis0/f32", graph.Float32, graph.Shape{4096, 4096}, func(x *graph.Node) *graph.Node {
		return graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, x), []int{0}, false)
	}},
	{"ArgMaxAxis1/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpArgMax, 1)},
	{"ArgMinAxis1/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpArgMin, 1)},
	{"ArgMaxAxis0/f32", graph.Float32, graph.Shape{4096, 4096}, redOf(graph.OpArgMax, 0)},
	{"ArgMaxAxis1/f64", graph.Float64, graph.Shape{4096, 2048}, redOf(graph.OpArgMax, 1)},
	{"ArgMaxAxis1/i32", graph.Int32, graph.Shape{4096, 4096}, redOf(graph.OpArgMax, 1)},
	{"AnyAxis1/f32", graph.Float32, graph.Shape{4096, 4096}, func(x *graph.Node) *graph.Node {
		return graph.Reduce(graph.OpAny, graph.Binary(graph.OpGt, x, graph.FloatConst(graph.Float32, 2)), []int{1}, false)
	}},
	{"AllAxis1/f32", graph.Float32, graph.Shape{4096, 4096}, func(x *graph.Node) *graph.Node {
		return graph.Reduce(graph.OpAll, graph.Binary(graph.OpLt, x, graph.FloatConst(graph.Float32, 0.9)), []int{1}, false)
	}},
	{"AnyDecided/f32", graph.Float32, graph.Shape{4096, 4096}, func(x *graph.Node) *graph.Node {
		return graph.Reduce(graph.OpAny, graph.Binary(graph.OpGt, x, graph.FloatConst(graph.Float32, 0)), nil, false)
	}},
	{"AllDecidedAxis1/f32", graph.Float32, graph.Shape{4096, 4096}, func(x *graph.Node) *graph.Node {
		return graph.Reduce(graph.OpAll, graph.Binary(graph.OpLt, x, graph.FloatConst(graph.Float32, 0)), []int{1}, false)
	}},
}

func redOf(op graph.Op, axes ...int) func(x *graph.Node) *graph.Node {
	return func(x *graph.Node) *graph.Node { return graph.Reduce(op, x, axes, false) }
}

// BenchmarkReduceShapes evaluates each reduction of reduceCases; the
// bytes are the input's.
func BenchmarkReduceShapes(b *testing.B) {
	for _, c := range reduceCases {
		b.Run(c.name, func(b *testing.B) {
			alloc := benchAlloc()
			x, t := reduceInput(b, alloc, c.dt, c.shape, 11)
			defer t.Release()
			runBench(b, benchBackend(), alloc, []*graph.Node{c.f(x)}, map[*graph.Node]*exec.Tensor{x: t},
				int64(c.shape.Size()*c.dt.Size()))
		})
	}
}

// BenchmarkReduceVar evaluates Var(ddof 0) through the array API over
// each axis of a 4096 x 4096 float32 matrix and the rows of a 4096 x
// 2048 float64 one.
func BenchmarkReduceVar(b *testing.B) {
	for _, c := range []struct {
		name  string
		dt    graph.DType
		shape graph.Shape
		axis  int
	}{
		{"Axis0/f32", graph.Float32, graph.Shape{4096, 4096}, 0},
		{"Axis1/f32", graph.Float32, graph.Shape{4096, 4096}, 1},
		{"Axis1/f64", graph.Float64, graph.Shape{4096, 2048}, 1},
	} {
		b.Run(c.name, func(b *testing.B) {
			alloc := benchAlloc()
			ctx := array.MustContext(array.WithBackend(benchBackend()), array.WithAllocator(alloc))
			_, t := reduceInput(b, alloc, c.dt, c.shape, 12)
			defer t.Release()
			var x *array.Array
			if c.dt == graph.Float32 {
				x = array.FromSlice(ctx, exec.Elems[float32](t), c.shape...)
			} else {
				x = array.FromSlice(ctx, exec.Elems[float64](t), c.shape...)
			}
			defer x.Release()
			if err := x.Eval(); err != nil {
				b.Fatal(err)
			}
			one := func() {
				v := x.Var(c.axis)
				if err := v.Eval(); err != nil {
					b.Fatal(err)
				}
				v.Release()
			}
			one()
			b.SetBytes(int64(c.shape.Size() * c.dt.Size()))
			b.ResetTimer()
			for range b.N {
				one()
			}
		})
	}
}
