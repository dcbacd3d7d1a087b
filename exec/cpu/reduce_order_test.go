// Reductions folded in memory order against the reference evaluator:
// every op and dtype over all axes, and over blocks of axes, of
// transposed, permuted, reversed and stepped inputs (the executor folds
// those in the order of the input's memory, except ArgMax and ArgMin),
// with ties, NaN, infinities and signed zeros, in chunk sizes that split
// the rows and columns; ArgMax and ArgMin of the flattened permuted input
// keep the first index in the logical order. Sums and products of int32
// and bool, folded narrow, wrap in int64 as the reference does.

package cpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

func TestReduceMemoryOrderValues(t *testing.T) {
	rev0 := func(x *graph.Node) *graph.Node {
		return graph.Slice(x, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
	}
	step1 := func(x *graph.Node) *graph.Node {
		return graph.Slice(x, []graph.Range{graph.All, {Step: 2, NoStart: true, NoStop: true}})
	}
	cases := []struct {
		name  string
		shape graph.Shape // the input's
		view  func(*graph.Node) *graph.Node
		axes  [][]int // of the view
	}{
		{"T", graph.Shape{37, 13}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{1, 0}) }, [][]int{nil}},
		{"T wide", graph.Shape{1031, 9}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{1, 0}) }, [][]int{nil}},
		{"perm 3-D", graph.Shape{6, 5, 40}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{2, 0, 1}) },
			[][]int{nil, {0, 1}, {1, 2}}},
		{"perm 3-D b", graph.Shape{7, 3, 50}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{0, 2, 1}) },
			[][]int{nil, {1, 2}, {0, 1}}},
		{"rev T", graph.Shape{29, 31}, func(x *graph.Node) *graph.Node { return graph.Permute(rev0(x), []int{1, 0}) }, [][]int{nil}},
		{"rev1", graph.Shape{37, 45}, func(x *graph.Node) *graph.Node {
			return graph.Slice(x, []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}})
		}, [][]int{{1}, {0}, nil}},
		{"rev0 3-D", graph.Shape{30, 4, 9}, func(x *graph.Node) *graph.Node { return rev0(x) }, [][]int{{0}, {1, 2}, nil}},
		{"step T", graph.Shape{21, 34}, func(x *graph.Node) *graph.Node { return graph.Permute(step1(x), []int{1, 0}) }, [][]int{nil}},
		{"empty T", graph.Shape{0, 5}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{1, 0}) }, [][]int{nil}},
		// A kept axis with unit stride that is not the last kept axis:
		// the executor moves it inside and reorders the results.
		{"T 3-D last", graph.Shape{9, 7, 11}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{2, 1, 0}) },
			[][]int{{2}, {1}, {1, 2}}},
		{"T 3-D first", graph.Shape{5, 6, 70}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{2, 1, 0}) },
			[][]int{{0}, {1}, {0, 1}}},
		{"perm 4-D", graph.Shape{3, 4, 5, 6}, func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{3, 0, 2, 1}) },
			[][]int{{3}, {2, 3}, {0}, {1}}},
	}
	dtypes := []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64, graph.Bool}
	modes := map[graph.DType][]string{graph.Float32: {"rand", "ties", "nan", "inf"}, graph.Float64: {"rand", "nan"},
		graph.Int32: {"ties"}, graph.Int64: {"ties"}, graph.Bool: {"ties"}}
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 7}), cpu.New(cpu.Options{Chunk: 64, Workers: 3}),
		cpu.New(cpu.Options{})}
	r := rand.New(rand.NewPCG(19, 5))
	for _, c := range cases {
		for _, d := range dtypes {
			for _, mode := range modes[d] {
				alloc := checkedAlloc(t)
				in, tn := newInput(t, alloc, d, c.shape, "x")
				fillReduceInput(tn, mode, r)
				x := c.view(in)
				var outs []*graph.Node
				for _, axes := range c.axes {
					for _, op := range reduceOps {
						arg := op == graph.OpArgMax || op == graph.OpArgMin
						if arg && len(axes) > 1 || (arg || op == graph.OpReduceMax || op == graph.OpReduceMin) && c.shape.Size() == 0 {
							continue
						}
						outs = append(outs, graph.Reduce(op, x, axes, op == graph.OpSum || op == graph.OpArgMin))
					}
				}
				checkWithinRef(t, fmt.Sprintf("%s %v %v %s", c.name, c.shape, d, mode), backends, outs, map[*graph.Node]*exec.Tensor{in: tn}, alloc)
				tn.Release()
				alloc.AssertSize(t, 0)
			}
		}
	}
}

// TestReduceNarrowWrap checks int32 sums and products that wrap in int64
// (and would not in int32 alone) and bool sums, over rows, columns and
// all axes, against the reference bit for bit.
func TestReduceNarrowWrap(t *testing.T) {
	for _, shape := range []graph.Shape{{3, 1000}, {1000, 3}, {17, 70001}} {
		alloc := checkedAlloc(t)
		xi, ti := newInput(t, alloc, graph.Int32, shape, "x")
		xb, tb := newInput(t, alloc, graph.Bool, shape, "b")
		vi, vb := exec.Elems[int32](ti), exec.Elems[uint8](tb)
		for k := range vi {
			vi[k] = []int32{math.MaxInt32, math.MinInt32, 3, -7, 65537}[k%5]
			vb[k] = []uint8{0, 1, 2, 0xff}[k%4] // any nonzero byte is true
		}
		var outs []*graph.Node
		for _, axes := range [][]int{{0}, {1}, nil} {
			for _, op := range []graph.Op{graph.OpSum, graph.OpProd} {
				outs = append(outs, graph.Reduce(op, xi, axes, false), graph.Reduce(op, xb, axes, false))
			}
		}
		bound := map[*graph.Node]*exec.Tensor{xi: ti, xb: tb}
		for _, be := range []*cpu.Backend{cpu.New(cpu.Options{Chunk: 100}), cpu.New(cpu.Options{})} {
			sameAsRef(t, be, outs, bound, alloc, fmt.Sprintf("%v", shape))
		}
		ti.Release()
		tb.Release()
		alloc.AssertSize(t, 0)
	}
}

// TestReduceKeptInside checks reductions whose unit-stride kept axis is
// not the last one, with a second operand broadcast over the reduced
// axis (Var's shift), several reductions in one kernel and keepdims:
// the results are reordered into the output's order.
func TestReduceKeptInside(t *testing.T) {
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 64}), cpu.New(cpu.Options{Chunk: 512, Workers: 3}), cpu.New(cpu.Options{})}
	for _, shape := range []graph.Shape{{6, 5, 40}, {2, 300, 7}, {9, 1, 33}} {
		alloc := checkedAlloc(t)
		x, tx := newInput(t, alloc, graph.Float64, shape, "x")
		fillReduceInput(tx, "rand", rand.New(rand.NewPCG(3, 4)))
		xt := graph.Permute(x, []int{2, 1, 0})
		c, tc := newInput(t, alloc, graph.Float64, graph.Shape{shape[2], 1, shape[0]}, "c")
		fillReduceInput(tc, "rand", rand.New(rand.NewPCG(5, 6)))
		d := graph.Binary(graph.OpSub, xt, c)
		outs := []*graph.Node{
			graph.Reduce(graph.OpSum, d, []int{1}, true),
			graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, d, d), []int{1}, true),
			graph.Reduce(graph.OpArgMax, d, []int{1}, false),
			graph.Reduce(graph.OpReduceMin, xt, []int{2}, false),
			graph.Reduce(graph.OpArgMin, xt, []int{2}, true),
		}
		checkWithinRef(t, fmt.Sprintf("%v", shape), backends, outs, map[*graph.Node]*exec.Tensor{x: tx, c: tc}, alloc)
		tx.Release()
		tc.Release()
		alloc.AssertSize(t, 0)
	}
}

// TestReduceSpreadValues compares reductions over axes on both sides of
// the kept ones (run in memory order, folded per inner run) with the
// reference: every order-free op and dtype, plain, reversed and
// permuted inputs, inner runs longer and shorter than a chunk, chunks
// that split the runs.
func TestReduceSpreadValues(t *testing.T) {
	rev0 := func(x *graph.Node) *graph.Node {
		return graph.Slice(x, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
	}
	cases := []struct {
		name  string
		shape graph.Shape
		view  func(*graph.Node) *graph.Node
		axes  [][]int
	}{
		{"c", graph.Shape{7, 9, 70}, func(x *graph.Node) *graph.Node { return x }, [][]int{{0, 2}}},
		{"rev0", graph.Shape{5, 3, 70}, rev0, [][]int{{0, 2}}},
		{"4-D", graph.Shape{3, 4, 5, 70}, func(x *graph.Node) *graph.Node { return x }, [][]int{{0, 2, 3}, {0, 3}, {0, 1, 3}}},
		{"long runs", graph.Shape{3, 2, 1100}, func(x *graph.Node) *graph.Node { return x }, [][]int{{0, 2}}},
	}
	ops := []graph.Op{graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin, graph.OpAny, graph.OpAll}
	dtypes := []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64, graph.Bool}
	modes := map[graph.DType][]string{graph.Float32: {"rand", "nan", "inf"}, graph.Float64: {"rand", "ties"},
		graph.Int32: {"ties"}, graph.Int64: {"ties"}, graph.Bool: {"ties"}}
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 7}), cpu.New(cpu.Options{Chunk: 64, Workers: 3}),
		cpu.New(cpu.Options{Chunk: 1000}), cpu.New(cpu.Options{})}
	r := rand.New(rand.NewPCG(23, 5))
	for _, c := range cases {
		for _, d := range dtypes {
			for _, mode := range modes[d] {
				alloc := checkedAlloc(t)
				in, tn := newInput(t, alloc, d, c.shape, "x")
				fillReduceInput(tn, mode, r)
				x := c.view(in)
				var outs []*graph.Node
				for _, axes := range c.axes {
					for _, op := range ops {
						outs = append(outs, graph.Reduce(op, x, axes, op == graph.OpSum))
					}
				}
				checkWithinRef(t, fmt.Sprintf("%s %v %v %s", c.name, c.shape, d, mode), backends, outs, map[*graph.Node]*exec.Tensor{in: tn}, alloc)
				tn.Release()
				alloc.AssertSize(t, 0)
			}
		}
	}
}
