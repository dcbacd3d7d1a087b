// Regression tests: products with a zero extent, values read through two
// views in one kernel, empty bound views, reductions over nothing, and
// the generated leaves and ArgMax semantics on the test interpreter.

package fuse

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func kinds(p *Plan) []Kind {
	var ks []Kind
	for _, k := range p.Kernels {
		ks = append(ks, k.Kind())
	}
	return ks
}

// A product whose result is empty reads nothing: its operands are not
// materialized or checked as GEMM operands, whatever their strides (this
// once made planning loop forever).
func TestMatMulEmptyResult(t *testing.T) {
	a := graph.Input(graph.Int32, graph.Shape{0, 4}, "a")
	m := graph.MatMul(graph.Reduce(graph.OpProd, a, []int{1}, true), graph.Input(graph.Int32, graph.Shape{1, 4}, "b"))
	out := graph.MatMul(m, graph.Permute(m, []int{1, 0}))
	lay := map[*graph.Node]graph.Layout{a: {DType: graph.Int32, Shape: graph.Shape{0, 4}, Strides: []int{4, -1}, Offset: 3}}
	p := check(t, lay, out)
	require.Empty(t, p.Kernels, Explain(p))
}

// A product with K == 0 is a Map filling its epilogue with a zero
// accumulator: no MatMul kernel, so no MatMulSpec has an operand that
// reads nothing.
func TestMatMulZeroK(t *testing.T) {
	tests := []struct {
		name string
		out  func() (*graph.Node, map[*graph.Node]graph.Layout)
	}{
		{"bound operands with stride 0", func() (*graph.Node, map[*graph.Node]graph.Layout) {
			x, w, bias := input(5, 0), input(0, 3), input(3)
			lay := map[*graph.Node]graph.Layout{x: {DType: graph.Float32, Shape: graph.Shape{5, 0}, Strides: []int{0, 1}}}
			return graph.Binary(graph.OpMax, add(graph.MatMul(x, w), bias), f32(0.5)), lay
		}},
		{"computed operand and its transpose", func() (*graph.Node, map[*graph.Node]graph.Layout) {
			s := graph.Unary(graph.OpSin, graph.Input(graph.Int32, graph.Shape{5, 0}, "i"))
			return graph.MatMul(s, graph.Permute(s, []int{1, 0})), nil
		}},
		{"batched, broadcast, bound non-contiguous", func() (*graph.Node, map[*graph.Node]graph.Layout) {
			x, w := input(1, 2, 0), input(0, 1)
			lay := map[*graph.Node]graph.Layout{w: {DType: graph.Float32, Shape: graph.Shape{0, 1}, Strides: []int{1, 0}}}
			return graph.MatMul(graph.BroadcastTo(exp(x), graph.Shape{3, 2, 0}), w), lay
		}},
		{"integer", func() (*graph.Node, map[*graph.Node]graph.Layout) {
			x := graph.Input(graph.Int64, graph.Shape{4, 0}, "x")
			return graph.MatMul(x, graph.Input(graph.Int64, graph.Shape{0, 4}, "w")), nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, lay := tt.out()
			p := check(t, lay, out)
			require.Equal(t, []Kind{KindMap}, kinds(p), Explain(p))
			require.Nil(t, p.Kernels[0].MatMul())
			for _, o := range p.Kernels[0].Operands {
				require.Positive(t, p.Buffers[o.Buffer].Elems, "reads only the epilogue's operands:\n%s", Explain(p))
			}
		})
	}
}

// A value read through two views in one kernel (x and x reversed in a
// Concat) is computed once per view; when that moves more bytes than
// materializing it, it is materialized, so the plan never moves more
// than the unfused graph (mustPlanOn asserts it).
func TestReadSites(t *testing.T) {
	x := graph.Input(graph.Int64, graph.Shape{4}, "x")
	c := graph.Cast(x, graph.Bool)
	rev := graph.Slice(c, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
	p := check(t, nil, graph.Concat([]*graph.Node{c, rev}, 0))
	require.LessOrEqual(t, p.Bytes, p.UnfusedBytes, Explain(p))
	require.Len(t, p.Kernels, 2, "the cast is materialized once:\n%s", Explain(p))

	// The same view twice is computed once: nothing to materialize.
	y := input(8)
	e := exp(y)
	p = check(t, nil, graph.Concat([]*graph.Node{e, e}, 0))
	require.Len(t, p.Kernels, 1, Explain(p))
	require.Equal(t, 1, countOp(&p.Kernels[0], graph.OpExp))
}

// An empty bound view needs no element of its buffer, whatever its
// offset.
func TestEmptyBoundView(t *testing.T) {
	x := graph.Input(graph.Float64, graph.Shape{1, 0, 4}, "x")
	lay := map[*graph.Node]graph.Layout{x: {DType: graph.Float64, Shape: graph.Shape{1, 0, 4}, Strides: []int{4, 4, -1}, Offset: 3}}
	p := check(t, lay, graph.Unary(graph.OpNeg, x), x)
	require.Zero(t, p.Buffers[p.Inputs[0].Buffer].Elems)
	require.Zero(t, p.Buffers[p.Inputs[0].Buffer].Bytes)
}

// A reduction over an empty selection evaluates its body nowhere: it
// reads no operand (the empty value it reduces has no buffer).
func TestReduceOverNothing(t *testing.T) {
	x := graph.Input(graph.Int32, graph.Shape{0, 5}, "x")
	m := graph.MatMul(x, graph.Permute(x, []int{1, 0}))
	s := graph.Reduce(graph.OpSum, m, nil, false)
	bias := input(3)
	p := check(t, nil, graph.BroadcastTo(s, graph.Shape{3}), add(graph.Reduce(graph.OpProd, exp(input(2, 0)), []int{1}, false), f32(1)), bias)
	for _, k := range p.Kernels {
		require.Equal(t, KindReduce, k.Kind(), Explain(p))
		require.Empty(t, k.Operands, Explain(p))
	}
}

// Iota with and without a stop (Arange, Linspace), Eye and the random
// generators, read through views that reverse, slice and broadcast them:
// the flat index each generated element gets is the one of its own
// array.
func TestGeneratedLeaves(t *testing.T) {
	rev := []graph.Range{{Step: -1, NoStart: true, NoStop: true}}
	lin := graph.Iota(graph.Float32, 7, -1, 0.3333, true, 1) // the last element is exactly 1
	p := check(t, nil, lin, graph.Slice(lin, rev))
	require.True(t, p.Kernels[0].Map().Body[0].Gen.HasStop)
	require.Equal(t, 7, p.Kernels[0].Map().Body[0].Gen.Len)

	for _, op := range []graph.Op{graph.OpRandU, graph.OpRandN} {
		for _, d := range []graph.DType{graph.Float32, graph.Float64} {
			r := graph.Random(op, d, graph.Shape{3, 4}, 0x5eed)
			v := input(5, 3, 2)
			out := mul(graph.Cast(v, d), graph.Slice(r, []graph.Range{{Step: -1, NoStart: true, NoStop: true}, {Start: 1, Stop: 4, Step: 2}}))
			check(t, nil, out, graph.Permute(r, []int{1, 0}), graph.Reduce(graph.OpSum, r, []int{0}, false))
		}
	}
	ar := graph.Iota(graph.Int64, 12, 3, -2, false, 0)
	check(t, nil, graph.Reshape(ar, graph.Shape{3, 4}), mul(graph.Eye(graph.Float64, 3, 4, 1), graph.Cast(graph.Reshape(ar, graph.Shape{3, 4}), graph.Float64)))
}

// ArgMax and ArgMin give the first of equal values and the first NaN, as
// NumPy does, along any axis (rows, columns, flattened, of a transposed
// or reversed view); Max and Min propagate NaN.
func TestArgMaxTiesAndNaN(t *testing.T) {
	for _, nanRate := range []int{0, 7} {
		rng := rand.New(rand.NewPCG(3, uint64(nanRate)))
		fill := func(graph.DType) float64 {
			if nanRate > 0 && rng.IntN(nanRate) == 0 {
				return math.NaN()
			}
			return float64(rng.IntN(3)) // many ties
		}
		x := input(6, 5)
		xt := graph.Permute(x, []int{1, 0})
		xr := graph.Slice(x, []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}})
		lay := map[*graph.Node]graph.Layout{x: {DType: graph.Float32, Shape: graph.Shape{6, 5}, Strides: []int{1, 6}}}
		var outs []*graph.Node
		for _, op := range []graph.Op{graph.OpArgMax, graph.OpArgMin} {
			for _, v := range []*graph.Node{x, xt, xr} {
				outs = append(outs, graph.Reduce(op, v, []int{0}, false), graph.Reduce(op, v, []int{1}, true),
					graph.Reduce(op, v, nil, false))
			}
		}
		outs = append(outs, graph.Reduce(graph.OpReduceMax, x, []int{1}, false), graph.Reduce(graph.OpReduceMin, xt, nil, false))
		checkValues(t, lay, fill, outs...)
	}
	// The naive evaluator states the semantics directly.
	for _, tt := range []struct {
		op   graph.Op
		in   []float64
		want float64
	}{
		{graph.OpArgMax, []float64{1, 3, 3, 2}, 1},
		{graph.OpArgMin, []float64{2, 1, 5, 1}, 1},
		{graph.OpArgMax, []float64{1, math.NaN(), 9, math.NaN()}, 1},
		{graph.OpArgMin, []float64{math.Inf(-1), math.Inf(-1)}, 0},
		{graph.OpArgMax, []float64{math.Inf(-1), math.Inf(-1)}, 0},
	} {
		got, err := reduceAll(tt.op, tt.in)
		require.NoError(t, err)
		r := newReducer(tt.op)
		for _, v := range tt.in {
			r.add(v)
		}
		require.Equal(t, tt.want, got, "%v%v got:%v want:%v", tt.op, tt.in, got, tt.want)
		require.Equal(t, tt.want, r.result(graph.Int64), "streaming %v%v", tt.op, tt.in)
	}
}

// A GEMM operand whose strides BLAS cannot take (a broadcast) is copied
// for the GEMM alone: another reader of the same view still reads the
// small value under it, not the copy.
func TestGemmCopyIsPrivate(t *testing.T) {
	v, w := graph.Input(graph.Float64, graph.Shape{4}, "v"), graph.Input(graph.Float64, graph.Shape{4, 5}, "w")
	bv := graph.BroadcastTo(v, graph.Shape{3, 4})
	prod := graph.Reduce(graph.OpProd, bv, nil, true)
	p := check(t, nil, graph.MatMul(bv, w), graph.Unary(graph.OpSin, prod))
	for _, k := range p.Kernels {
		if k.Kind() == KindReduce {
			require.Equal(t, int64(4*8), k.BytesRead, "the reduction reads v itself:\n%s", Explain(p))
		}
	}
}

// An output that is a view of another output which must be copied (a
// Reshape of a transpose) is a view of that copy, whatever the order the
// outputs are requested in.
func TestOutputViewOfOutput(t *testing.T) {
	x := graph.Input(graph.Int64, graph.Shape{5, 5}, "x")
	flat := graph.Reshape(graph.Permute(x, []int{1, 0}), graph.Shape{25})
	wide := graph.BroadcastTo(flat, graph.Shape{3, 25})
	for _, outs := range [][]*graph.Node{{wide, flat}, {flat, wide}} {
		p := check(t, nil, outs...)
		require.Len(t, p.Kernels, 1, Explain(p))
		require.Equal(t, p.Outputs[0].Buffer, p.Outputs[1].Buffer, Explain(p))
	}
}

// A value under a Reshape the strides cannot express, read also by
// another kernel, is computed once.
func TestReshapeCopySharesMap(t *testing.T) {
	x := graph.Input(graph.Float64, graph.Shape{2, 3, 2}, "x")
	lay := map[*graph.Node]graph.Layout{x: {DType: graph.Float64, Shape: graph.Shape{2, 3, 2}, Strides: []int{-3, 1, -6}, Offset: 9}}
	nan := graph.Unary(graph.OpIsNaN, x)
	flat := graph.Reshape(nan, graph.Shape{12})
	rev := graph.Slice(flat, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
	p := check(t, lay, graph.Cast(nan, graph.Int32), graph.Concat([]*graph.Node{flat, rev}, 0))
	n := 0
	for i := range p.Kernels {
		n += countOp(&p.Kernels[i], graph.OpIsNaN)
	}
	require.Equal(t, 1, n, Explain(p))
}

// An expensive value read at several sites through a broadcast is
// materialized under the broadcast, at its own size.
func TestMaterializeUnderBroadcast(t *testing.T) {
	r := graph.Random(graph.OpRandN, graph.Float32, graph.Shape{3, 3, 5}, 7)
	b := graph.BroadcastTo(r, graph.Shape{2, 3, 3, 5})
	rev := graph.Slice(b, []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}})
	p := check(t, nil, graph.Reduce(graph.OpArgMax, graph.Concat([]*graph.Node{b, rev}, 1), []int{0}, false))
	require.Equal(t, int64(3*3*5*4), p.Kernels[0].BytesWritten, "the normal values are stored once, unbroadcast:\n%s", Explain(p))
}

// Map roots of one shape land in separate kernels when one of them
// depends on a reduction; a value both read is then computed in two
// kernels, and the plan without recomputation materializes it (the
// plan moves no more bytes than the unfused graph; check asserts it).
func TestRecomputeAcrossDependentMaps(t *testing.T) {
	x, v := graph.Input(graph.Float64, graph.Shape{5, 3, 5}, "x"), graph.Input(graph.Float64, graph.Shape{5, 1, 1}, "v")
	cond := graph.Binary(graph.OpGt, x, graph.FloatConst(graph.Float64, 0))
	a := graph.Where(cond, graph.Cast(graph.Eye(graph.Int32, 1, 5, 0), graph.Float64), graph.FloatConst(graph.Float64, -1.5))
	am := graph.Cast(graph.Reduce(graph.OpArgMax, v, nil, true), graph.Float64)
	b := graph.Where(cond, a, am)
	p := check(t, nil, b, graph.Unary(graph.OpExpm1, v), a)
	require.LessOrEqual(t, p.Bytes, p.UnfusedBytes, Explain(p))
}

// Two flat ArgMins over views of one shape, one of them a transpose: only
// the transpose is copied. (Both Reshapes to the flat shape map strides
// the same way; the one whose strides fail must be the one copied.)
func TestFlatArgMinOfTransposeCopiesOnlyIt(t *testing.T) {
	x := input(4, 4, 4)
	a := graph.Reduce(graph.OpArgMin, x, nil, true)
	b := graph.Reduce(graph.OpArgMin, graph.Permute(x, []int{2, 0, 1}), nil, false)
	c := graph.Reduce(graph.OpArgMax, exp(graph.Permute(x, []int{1, 0, 2})), nil, false)
	p := check(t, nil, a, b, c)
	copies := 0
	for _, k := range p.Kernels {
		if k.Kind() == KindMap {
			copies += len(k.Stores)
		}
	}
	require.Equal(t, 2, copies, "stores of copies got:%d want:2\n%s", copies, Explain(p))
	require.LessOrEqual(t, p.Bytes, p.UnfusedBytes)
}

// A Reshape of a broadcast of a computed value, over transposed input
// data: the strides that fail are the input's, under the computation, so
// the value under the broadcast is materialized (as one kernel per op
// does), not the four times larger broadcast array.
func TestReshapeOfBroadcastMaterializesTheValueBelow(t *testing.T) {
	x := input(6, 6)
	lay := map[*graph.Node]graph.Layout{x: {DType: graph.Float32, Shape: graph.Shape{6, 6}, Strides: []int{1, 6}}}
	r := graph.Reshape(graph.BroadcastTo(exp(x), graph.Shape{4, 6, 6}), graph.Shape{4, 36})
	p := check(t, lay, graph.Unary(graph.OpLog1p, r))
	require.Len(t, p.Kernels, 2, Explain(p))
	require.Equal(t, int64(36*4), p.Kernels[0].BytesWritten, "the first kernel writes Exp(x):\n%s", Explain(p))
}

// Products reading one operand BLAS cannot take (columns reversed) share
// one contiguous copy of it.
func TestProductsShareOperandCopy(t *testing.T) {
	w := graph.Slice(input(8, 8), []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}})
	a, b := graph.MatMul(input(4, 8), w), graph.MatMul(input(3, 8), w)
	p := check(t, nil, a, b)
	copies := 0
	for _, k := range p.Kernels {
		if k.Kind() == KindMap {
			copies += len(k.Stores)
		}
	}
	require.Equal(t, []Kind{KindMap, KindMatMul, KindMatMul}, kinds(p), Explain(p))
	require.Equal(t, 1, copies, "stores of copies got:%d want:1\n%s", copies, Explain(p))
}
