// Tests of Call kernels in plans: the call is a boundary with the work
// before it fused into the Map that stores its arguments and the work
// after it reading its results; one Call kernel per call whatever
// outputs are asked for, scratch buffers for the others; read-only
// arguments read in place when contiguous, copied otherwise; and calls
// that differ only in their attributes get different plan keys.

package fuse

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

type testKernel struct{ name string }

func (k *testKernel) Name() string { return k.name }

var saxpyK = &testKernel{"Saxpy"}

func saxpyCall(a any, x, y *graph.Node) *graph.Node {
	return graph.Call(&graph.CallAttr{Kernel: saxpyK, Args: []graph.CallArg{{Name: "a", Input: -1, Value: a},
		{Name: "x", Input: 0}, {Name: "y", Input: 1, Written: true}}, ForAll: true, Tasks: x.Size()}, []*graph.Node{x, y})[0]
}

func TestCallBoundary(t *testing.T) {
	x, y := input(64), input(64)
	out := saxpyCall(float32(2), exp(x), mul(y, f32(2)))
	s := graph.Reduce(graph.OpSum, add(out, f32(1)), nil, false)
	p := mustPlan(t, s)
	require.Equal(t, []Kind{KindMap, KindCall, KindReduce}, kindsOf(p), Explain(p))
	m, c, r := &p.Kernels[0], &p.Kernels[1], &p.Kernels[2]
	require.Len(t, m.Stores, 2, "exp(x) and 2*y stored by one Map")
	cs := c.Call()
	require.Same(t, graph.Callee(saxpyK), cs.Kernel)
	require.Equal(t, float32(2), cs.Args[0].Value)
	require.Equal(t, NoBuffer, cs.Args[0].Buffer)
	stored := map[int]bool{m.Stores[0].Buffer: true, m.Stores[1].Buffer: true}
	require.True(t, stored[cs.Args[1].Buffer] && stored[cs.Args[2].Buffer] && cs.Args[1].Buffer != cs.Args[2].Buffer, Explain(p))
	require.True(t, cs.Args[2].Written)
	require.Equal(t, 64, cs.Args[2].Len)
	require.Equal(t, cs.Args[2].Buffer, r.Operands[0].Buffer, "the reduce reads the call's result")
	require.Equal(t, int64(64*4*2), c.BytesRead)
	require.Equal(t, int64(64*4), c.BytesWritten)
	require.Contains(t, Explain(p), "call Saxpy forall 64")
	require.Contains(t, Explain(p), "arg y buf")
}

func TestCallOneKernelPerCall(t *testing.T) {
	k := &testKernel{"Bounds"}
	x, lo, hi := input(8), input(8), input(8)
	outs := graph.Call(&graph.CallAttr{Kernel: k, Args: []graph.CallArg{{Name: "x", Input: 0},
		{Name: "lo", Input: 1, Written: true}, {Name: "hi", Input: 2, Written: true}}, ForAll: true, Tasks: 8}, []*graph.Node{x, lo, hi})
	both := mustPlan(t, outs...)
	c := onlyKernel(t, KindCall, both)
	require.Equal(t, both.Outputs[0].Buffer, c.Call().Args[1].Buffer)
	require.Equal(t, both.Outputs[1].Buffer, c.Call().Args[2].Buffer)

	// Only the second output: the first written slice gets a scratch
	// buffer of its own.
	one := mustPlan(t, outs[1])
	c = onlyKernel(t, KindCall, one)
	lb, hb := c.Call().Args[1].Buffer, c.Call().Args[2].Buffer
	require.NotEqual(t, lb, hb)
	require.Equal(t, BufTemp, one.Buffers[lb].Kind, Explain(one))
	require.Equal(t, one.Outputs[0].Buffer, hb)
	require.Equal(t, BufInput, one.Buffers[c.Call().Args[0].Buffer].Kind)
}

func TestCallReadOnlyLayouts(t *testing.T) {
	// A contiguous bound view at an offset is read in place.
	x, y := input(16), input(16)
	out := saxpyCall(float32(1), x, y)
	bound := bindAll(out)
	bound[x] = graph.Layout{DType: graph.Float32, Shape: graph.Shape{16}, Strides: []int{1}, Offset: 5}
	p := mustPlanOn(t, bound, out)
	c := onlyKernel(t, KindCall, p)
	require.Equal(t, BufInput, p.Buffers[c.Call().Args[1].Buffer].Kind)
	require.Equal(t, 5, c.Call().Args[1].Offset)

	// A reversed one is copied first.
	bound[x] = graph.Layout{DType: graph.Float32, Shape: graph.Shape{16}, Strides: []int{-1}, Offset: 15}
	p = mustPlanOn(t, bound, out)
	c = onlyKernel(t, KindCall, p)
	require.Equal(t, BufTemp, p.Buffers[c.Call().Args[1].Buffer].Kind, Explain(p))
	require.Equal(t, 0, c.Call().Args[1].Offset)

	// A transposed view of an input is materialized; a reshape of a
	// contiguous one is read in place.
	m := graph.Input(graph.Float32, graph.Shape{4, 4}, "m")
	tr := saxpyCall(float32(1), graph.Permute(m, []int{1, 0}), input(4, 4))
	p = mustPlan(t, tr)
	c = onlyKernel(t, KindCall, p)
	require.NotEqual(t, BufInput, p.Buffers[c.Call().Args[1].Buffer].Kind, Explain(p))
	rs := saxpyCall(float32(1), graph.Reshape(m, graph.Shape{16}), input(16))
	p = mustPlan(t, rs)
	require.Equal(t, BufInput, p.Buffers[onlyKernel(t, KindCall, p).Call().Args[1].Buffer].Kind, Explain(p))
}

func TestCallKey(t *testing.T) {
	x, y := input(8), input(8)
	key := func(n *graph.Node) string {
		k, _, err := Key([]*graph.Node{n}, bindAll(n))
		require.NoError(t, err)
		return k
	}
	base := key(saxpyCall(float32(2), x, y))
	require.Equal(t, base, key(saxpyCall(float32(2), input(8), input(8))), "the same call over other inputs")
	require.NotEqual(t, base, key(saxpyCall(float32(3), x, y)), "another scalar")
	other := graph.Call(&graph.CallAttr{Kernel: &testKernel{"Saxpy"}, Args: []graph.CallArg{{Name: "a", Input: -1, Value: float32(2)},
		{Name: "x", Input: 0}, {Name: "y", Input: 1, Written: true}}, ForAll: true, Tasks: 8}, []*graph.Node{x, y})[0]
	require.NotEqual(t, base, key(other), "another kernel")
}
