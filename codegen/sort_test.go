// Sort kernels are not generated for the GPU yet: compiling a plan with
// one is an error naming the kernel and its kind, not a panic.

package codegen

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

func TestCompileSortIsAnError(t *testing.T) {
	x := graph.Input(graph.Float32, graph.Shape{4, 8}, "x")
	p, err := fuse.Build([]*graph.Node{graph.ArgSort(x, -1)}, map[*graph.Node]graph.Layout{
		x: graph.ContiguousLayout(graph.Float32, graph.Shape{4, 8})})
	require.NoError(t, err)
	_, err = Compile(p, H100(), Options{})
	require.Error(t, err)
	require.Contains(t, err.Error(), "kernel sort_argsort")
	require.Contains(t, err.Error(), "kind sort")
}
