// Edge cases: scalars, empty arrays, bound outputs, repeated outputs,
// bound computed nodes.

package fuse

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func TestEdgeCases(t *testing.T) {
	x := input(5, 6)
	// A constant output is a one-point Map.
	p := check(t, nil, add(f32(2), f32(3)))
	require.Equal(t, []int{1}, p.Kernels[0].Space)

	// ArgMax of the flattened array.
	p = check(t, nil, graph.Reduce(graph.OpArgMax, mul(x, x), nil, false))
	require.Len(t, p.Kernels, 1)
	require.Equal(t, graph.Int64, p.Kernels[0].Reduce().Reductions[0].DType)

	// A bound input requested as an output is returned as itself.
	p = check(t, nil, x, exp(x), exp(x))
	require.True(t, p.Outputs[0].View)
	require.Equal(t, p.Inputs[0].Buffer, p.Outputs[0].Buffer)
	require.Equal(t, p.Outputs[1].Buffer, p.Outputs[2].Buffer)
	require.False(t, p.Outputs[1].View)
	require.True(t, p.Outputs[2].View)

	// An empty array plans no kernel.
	e := input(0, 4)
	p = mustPlan(t, exp(e))
	require.Empty(t, p.Kernels)
	require.Len(t, p.Outputs, 1)

	// A bound computed node is read, not recomputed.
	inner := exp(x)
	outer := add(inner, f32(1))
	bound := bindAll(outer)
	bound[inner] = graph.ContiguousLayout(graph.Float32, graph.Shape{5, 6})
	p = mustPlanOn(t, bound, outer)
	require.Len(t, p.Inputs, 1)
	require.Equal(t, "Exp", p.Inputs[0].Label)
	require.Zero(t, countOp(&p.Kernels[0], graph.OpExp))
}
