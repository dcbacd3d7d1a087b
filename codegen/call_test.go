// Call kernels in Compile and Annotate: they run their own PTX, so they
// get no entry in the plan's module, and the rest of the plan compiles.

package codegen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

type callee struct{}

func (*callee) Name() string { return "Saxpy" }

func TestCompileSkipsCalls(t *testing.T) {
	x := graph.Input(graph.Float32, graph.Shape{256}, "x")
	y := graph.Input(graph.Float32, graph.Shape{256}, "y")
	out := graph.Call(&graph.CallAttr{Kernel: &callee{}, Args: []graph.CallArg{{Name: "a", Input: -1, Value: float32(2)},
		{Name: "x", Input: 0}, {Name: "y", Input: 1, Written: true}}, ForAll: true, Tasks: 256},
		[]*graph.Node{graph.Unary(graph.OpExp, x), y})[0]
	s := graph.Reduce(graph.OpSum, out, nil, false)
	p, err := fuse.Build([]*graph.Node{s}, map[*graph.Node]graph.Layout{
		x: graph.ContiguousLayout(graph.Float32, graph.Shape{256}), y: graph.ContiguousLayout(graph.Float32, graph.Shape{256})})
	require.NoError(t, err)
	require.Equal(t, fuse.KindCall, p.Kernels[1].Kind())
	m, err := codegen.Compile(p, codegen.H100(), codegen.Options{})
	require.NoError(t, err)
	require.Len(t, m.Kernels, 3)
	require.Empty(t, m.Kernels[1].Entry)
	require.NotEmpty(t, m.Kernels[0].Entry)
	require.NotEmpty(t, m.Kernels[2].Entry)
	require.Equal(t, 2, strings.Count(m.PTX, ".entry"), "the map and the reduce")
	a, err := codegen.Annotate(p, codegen.H100())
	require.NoError(t, err)
	require.Equal(t, "explicit kernel Saxpy (its own PTX)", a.Kernel(1))
}
