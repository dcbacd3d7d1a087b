// Fusion tests: kernel counts, the recompute rule, views as strides,
// dimension collapsing, buffer reuse and bytes moved.

package fuse

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func TestKernelCounts(t *testing.T) {
	softmax := func() *graph.Node {
		x := input(64, 128)
		m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
		e := exp(sub(x, m))
		return div(e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	}
	chain := func() *graph.Node {
		a, b, c, d := input(100, 200), input(100, 200), input(100, 200), input(100, 200)
		y := a
		ins := []*graph.Node{b, c, d, a}
		ops := []graph.Op{graph.OpAdd, graph.OpMul, graph.OpSub, graph.OpMax}
		for i := range 20 {
			y = graph.Binary(ops[i%4], y, ins[i%4])
		}
		return y
	}
	tests := []struct {
		name string
		out  func() *graph.Node
		max  int
		rank int
	}{
		{"exp(a*b+c).Sum()", func() *graph.Node {
			a, b, c := input(1000), input(1000), input(1000)
			return graph.Reduce(graph.OpSum, exp(add(mul(a, b), c)), nil, false)
		}, 1, 1},
		{"row softmax", softmax, 3, 2},
		{"MatMul(x, w).Add(bias).Maximum(0)", func() *graph.Node {
			x, w, bias := input(32, 64), input(64, 16), input(16)
			return graph.Binary(graph.OpMax, add(graph.MatMul(x, w), bias), f32(0))
		}, 1, 2},
		{"20-op chain over 4 inputs", chain, 1, 1},
		{"mean", func() *graph.Node {
			x := input(10, 20)
			return div(graph.Reduce(graph.OpSum, x, []int{1}, false), f32(20))
		}, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := check(t, nil, tt.out())
			require.LessOrEqual(t, len(p.Kernels), tt.max, "kernels got:%d want:<=%d\n%s", len(p.Kernels), tt.max, Explain(p))
			last := p.Kernels[len(p.Kernels)-1]
			require.Len(t, last.Space, tt.rank, "rank of %v", last.Space)
		})
	}
}

func TestSeveralReductionsOneKernel(t *testing.T) {
	x := input(8, 32)
	s := graph.Reduce(graph.OpSum, x, []int{1}, false)
	ss := graph.Reduce(graph.OpSum, mul(x, x), []int{1}, false)
	mean := div(s, f32(32))
	variance := sub(div(ss, f32(32)), mul(mean, mean))
	p := check(t, nil, mean, variance)
	require.Len(t, p.Kernels, 1, Explain(p))
	require.Len(t, p.Kernels[0].Reduce().Reductions, 2)
	require.Len(t, p.Kernels[0].Stores, 2)
}

func countOp(k *Kernel, op graph.Op) int {
	n := 0
	body, _ := k.Bodies()
	for _, in := range body {
		if in.Kind == InstrOp && in.Op == op {
			n++
		}
	}
	return n
}

func TestRecomputeOrMaterialize(t *testing.T) {
	// Cheap: a*b read by reductions over different axes (two kernels) is
	// recomputed in each, nothing is materialized.
	a, b := input(64, 32), input(64, 32)
	ab := mul(a, b)
	r0 := graph.Reduce(graph.OpSum, ab, []int{0}, false)
	r1 := graph.Reduce(graph.OpSum, ab, []int{1}, false)
	p := check(t, nil, r0, r1)
	require.Len(t, p.Kernels, 2, Explain(p))
	for i := range p.Kernels {
		require.Equal(t, 1, countOp(&p.Kernels[i], graph.OpMul), "kernel %d recomputes a*b", i)
	}
	for _, bf := range p.Buffers {
		require.NotEqual(t, BufTemp, bf.Kind, "no intermediate: %s", Explain(p))
	}

	// Expensive: a chain of transcendental functions (cost > CheapOps)
	// read by the same two reductions is computed once and materialized.
	x := input(64, 32)
	heavy := exp(graph.Unary(graph.OpTanh, graph.Unary(graph.OpSin, x)))
	h0 := graph.Reduce(graph.OpSum, heavy, []int{0}, false)
	h1 := graph.Reduce(graph.OpSum, heavy, []int{1}, false)
	p = check(t, nil, h0, h1)
	require.Len(t, p.Kernels, 3, Explain(p))
	temps := 0
	for _, bf := range p.Buffers {
		if bf.Kind == BufTemp {
			temps++
		}
	}
	require.Equal(t, 1, temps, Explain(p))
	require.Equal(t, 1, countOp(&p.Kernels[0], graph.OpSin), "computed once")
	require.Zero(t, countOp(&p.Kernels[1], graph.OpSin)+countOp(&p.Kernels[2], graph.OpSin), "read, not recomputed")
}

func TestViewsAsStrides(t *testing.T) {
	x, y := input(16, 8), input(8, 16)
	transposed := add(graph.Permute(x, []int{1, 0}), y)
	p := check(t, nil, transposed)
	require.Len(t, p.Kernels, 1)
	k := p.Kernels[0]
	require.ElementsMatch(t, [][]int{{1, 8}, {16, 1}}, [][]int{k.Operands[0].Strides, k.Operands[1].Strides})

	v, row := input(8, 16), input(16)
	bc := mul(v, graph.BroadcastTo(row, graph.Shape{8, 16}))
	p = check(t, nil, bc)
	require.Len(t, p.Kernels, 1)
	require.Contains(t, [][]int{p.Kernels[0].Operands[0].Strides, p.Kernels[0].Operands[1].Strides}, []int{0, 1})

	s := input(10, 12)
	rev := graph.Slice(s, []graph.Range{{Start: 8, Stop: 1, Step: -2}, {Start: 1, Stop: 12, Step: 3}})
	p = check(t, nil, exp(rev))
	require.Len(t, p.Kernels, 1)
	o := p.Kernels[0].Operands[0]
	require.Equal(t, 8*12+1, o.Offset)
	require.Equal(t, []int{-24, 3}, o.Strides)

	// A requested output that is a view of an input is returned as a view.
	p = check(t, nil, graph.Permute(x, []int{1, 0}))
	require.Empty(t, p.Kernels)
	require.True(t, p.Outputs[0].View)
	require.Equal(t, []int{1, 8}, p.Outputs[0].Layout.Strides)

	// A view of a computed output is a view of its buffer.
	e := exp(x)
	p = check(t, nil, e, graph.Permute(e, []int{1, 0}))
	require.Len(t, p.Kernels, 1)
	require.Equal(t, p.Outputs[0].Buffer, p.Outputs[1].Buffer)
	require.True(t, p.Outputs[1].View)
}

func TestReshapeOfNonContiguousView(t *testing.T) {
	x := input(6, 4)
	// Reshape of a transposed input cannot be strides: the view is copied
	// once (iterating in the view's shape), then read contiguously.
	r := graph.Reshape(graph.Permute(x, []int{1, 0}), graph.Shape{24})
	p := check(t, nil, exp(r))
	require.Len(t, p.Kernels, 2, Explain(p))
	// Reshape of a contiguous input is free.
	p = check(t, nil, exp(graph.Reshape(x, graph.Shape{3, 8})))
	require.Len(t, p.Kernels, 1)
	// A strided (non-contiguous) bound input reshaped as an output.
	big := input(6, 8)
	lay := graph.Layout{DType: graph.Float32, Shape: graph.Shape{6, 8}, Strides: []int{1, 6}}
	p = check(t, map[*graph.Node]graph.Layout{big: lay}, graph.Reshape(big, graph.Shape{48}))
	require.Len(t, p.Kernels, 1, Explain(p))
}

func TestDimensionCollapsing(t *testing.T) {
	a, b := input(4, 8, 16), input(4, 8, 16)
	p := check(t, nil, add(a, b))
	require.Equal(t, []int{512}, p.Kernels[0].Space)

	bias := input(16)
	p = check(t, nil, add(a, bias))
	require.Equal(t, []int{32, 16}, p.Kernels[0].Space)

	p = check(t, nil, graph.Reduce(graph.OpSum, a, []int{2}, false))
	require.Equal(t, []int{32, 16}, p.Kernels[0].Space)
	require.Equal(t, []int{1}, p.Kernels[0].Reduce().Axes)

	p = check(t, nil, graph.Reduce(graph.OpSum, a, []int{0, 1}, true))
	require.Equal(t, []int{32, 16}, p.Kernels[0].Space)
	require.Equal(t, []int{0}, p.Kernels[0].Reduce().Axes)

	// Mixed axes move the reduced ones last, keeping their order.
	p = check(t, nil, graph.Reduce(graph.OpSum, a, []int{0, 2}, false))
	require.Equal(t, []int{8, 4, 16}, p.Kernels[0].Space)
	require.Equal(t, []int{1, 2}, p.Kernels[0].Reduce().Axes)

	p = check(t, nil, graph.Reduce(graph.OpArgMax, a, nil, false))
	require.Equal(t, []int{512}, p.Kernels[0].Space)
}

func TestBufferReuse(t *testing.T) {
	x := input(64, 64)
	r := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
	for range 10 {
		r = graph.Reduce(graph.OpReduceMax, mul(x, r), []int{1}, true)
	}
	p := check(t, nil, r)
	require.Len(t, p.Kernels, 11)
	temps := 0
	for _, bf := range p.Buffers {
		if bf.Kind == BufTemp {
			temps++
		}
	}
	require.Equal(t, 2, temps, "10 intermediates in 2 buffers:\n%s", Explain(p))
	for i, bf := range p.Buffers {
		if bf.Kind == BufResult {
			for _, in := range p.Inputs {
				require.NotEqual(t, in.Buffer, i)
			}
		}
	}
}

func TestConcatAndGenerators(t *testing.T) {
	a, b := input(3, 4), input(3, 2)
	c := graph.Concat([]*graph.Node{exp(a), b}, 1)
	p := check(t, nil, c)
	require.Len(t, p.Kernels, 2, Explain(p))
	require.Equal(t, p.Kernels[0].Stores[0].Buffer, p.Kernels[1].Stores[0].Buffer)

	io := graph.Iota(graph.Float32, 12, 1, 0.5, false, 0)
	eye := graph.Eye(graph.Float32, 4, 3, 0)
	g := add(graph.Reshape(io, graph.Shape{4, 3}), eye)
	p = check(t, nil, g)
	require.Len(t, p.Kernels, 1)
	require.Empty(t, p.Inputs)
}

func TestMatMulTransposedOperandNotCopied(t *testing.T) {
	x, w := input(32, 64), input(16, 64)
	out := graph.MatMul(x, graph.Permute(w, []int{1, 0}))
	p := check(t, nil, out)
	require.Len(t, p.Kernels, 1, Explain(p))
	require.True(t, p.Kernels[0].MatMul().B.Trans)
	require.Equal(t, 64, p.Kernels[0].MatMul().B.LD)

	// A broadcast batch operand and an elementwise operand.
	bx, bw := input(3, 8, 5), input(5, 4)
	p = check(t, nil, graph.MatMul(exp(bx), bw))
	require.Len(t, p.Kernels, 2, Explain(p))
	require.Equal(t, 0, p.Kernels[1].MatMul().B.Strides[0])

	// A strided bound operand BLAS cannot take is copied first.
	s := input(8, 10)
	lay := graph.Layout{DType: graph.Float32, Shape: graph.Shape{8, 10}, Strides: []int{20, 2}}
	p = check(t, map[*graph.Node]graph.Layout{s: lay}, graph.MatMul(s, input(10, 3)))
	require.Len(t, p.Kernels, 2, Explain(p))
}
