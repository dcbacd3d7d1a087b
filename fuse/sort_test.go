// Tests of Sort kernels in plans: a fusion boundary whose keys are read
// through the views of a buffer (an expression under them materialized
// by a Map first), one kernel for the Sort and ArgSort of one input,
// axis and count, the sorted axis last in Space, and plan keys that
// tell axes, counts and directions apart.

package fuse

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func TestSortBoundary(t *testing.T) {
	x := input(4, 8)
	s := add(graph.Sort(exp(x), -1), f32(1))
	p := mustPlan(t, s)
	require.Equal(t, []Kind{KindMap, KindSort, KindMap}, kindsOf(p), Explain(p))
	m, k, after := &p.Kernels[0], &p.Kernels[1], &p.Kernels[2]
	require.Equal(t, m.Stores[0].Buffer, k.Operands[0].Buffer, "the sort reads exp(x) stored by the Map")
	require.Equal(t, &SortSpec{N: 8, K: 8}, k.Sort())
	require.Equal(t, []int{4, 8}, k.Space)
	require.Len(t, k.Stores, 1)
	require.Equal(t, SortValues, k.Stores[0].Value)
	require.Equal(t, k.Stores[0].Buffer, after.Operands[0].Buffer, "the Map after reads the sorted values")
	require.Equal(t, int64(4*8*4), k.BytesRead)
	require.Equal(t, int64(4*8*4), k.BytesWritten)
	require.Contains(t, Explain(p), "sort rows of 8 keys of op0, ascending, NaN last, keep 8")
}

func TestSortAxisAndViews(t *testing.T) {
	// Axis 0 of a bound input: read in place, the axis last in Space.
	x := input(4, 8)
	p := mustPlan(t, graph.ArgSort(x, 0))
	require.Equal(t, []Kind{KindSort}, kindsOf(p), Explain(p))
	k := onlyKernel(t, KindSort, p)
	require.Equal(t, []int{8, 4}, k.Space)
	require.Equal(t, []int{1, 8}, k.Operands[0].Strides)
	require.Equal(t, BufInput, p.Buffers[k.Operands[0].Buffer].Kind)
	require.Equal(t, SortIndices, k.Stores[0].Value)
	require.Equal(t, graph.Int64, k.Stores[0].DType)
	require.Equal(t, []int{1, 8}, k.Stores[0].Strides, "the result (4, 8) is row-major")

	// A transposed, reversed view is folded into the operand.
	v := graph.Slice(graph.Permute(x, []int{1, 0}), []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}})
	p = mustPlan(t, graph.Sort(v, -1))
	require.Equal(t, []Kind{KindSort}, kindsOf(p), Explain(p))
	k = onlyKernel(t, KindSort, p)
	require.Equal(t, []int{8, 4}, k.Space)
	require.Equal(t, 24, k.Operands[0].Offset)
	require.Equal(t, []int{1, -8}, k.Operands[0].Strides)
}

func TestSortTopKOneKernel(t *testing.T) {
	x := input(3, 10)
	v, i := graph.TopK(x, 1, 4)
	p := mustPlan(t, v, i)
	k := onlyKernel(t, KindSort, p)
	require.Equal(t, &SortSpec{N: 10, K: 4, Desc: true}, k.Sort())
	require.Len(t, k.Stores, 2, Explain(p))
	require.Equal(t, p.Outputs[0].Buffer, k.Stores[0].Buffer)
	require.Equal(t, p.Outputs[1].Buffer, k.Stores[1].Buffer)
	require.Equal(t, int64(3*4*4+3*4*8), k.BytesWritten)

	// A Sort and an ArgSort of one input and axis share a kernel; another
	// axis is another kernel.
	p = mustPlan(t, graph.Sort(x, 1), graph.ArgSort(x, -1), graph.Sort(x, 0))
	require.Equal(t, []Kind{KindSort, KindSort}, kindsOf(p), Explain(p))
	require.Len(t, p.Kernels[0].Stores, 2)

	// k == 0 stores nothing: no kernel.
	v, i = graph.TopK(x, 1, 0)
	p = mustPlan(t, v, i)
	require.Empty(t, p.Kernels, Explain(p))
}

func TestSortKey(t *testing.T) {
	x := input(6, 6)
	key := func(n *graph.Node) string {
		k, _, err := Key([]*graph.Node{n}, bindAll(n))
		require.NoError(t, err)
		return k
	}
	base := key(graph.Sort(x, 1))
	require.Equal(t, base, key(graph.Sort(input(6, 6), -1)), "the same sort of another input")
	require.NotEqual(t, base, key(graph.Sort(x, 0)), "another axis")
	require.NotEqual(t, base, key(graph.ArgSort(x, 1)), "ArgSort")
	v3, _ := graph.TopK(x, 1, 3)
	v4, _ := graph.TopK(x, 1, 4)
	v6, _ := graph.TopK(x, 1, 6)
	require.NotEqual(t, key(v3), key(v4), "another k")
	require.NotEqual(t, base, key(v6), "descending")
}
