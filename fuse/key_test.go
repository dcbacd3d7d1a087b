// Tests of the structural key and Walk.

package fuse

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func expr(n int) (*graph.Node, *graph.Node, *graph.Node) {
	a, b := input(n, 4), input(4)
	return graph.Reduce(graph.OpSum, exp(add(mul(a, b), f32(1))), []int{1}, false), a, b
}

// TestWalkKeysNewData: a structurally identical graph on new inputs has
// the same key and its own slots; another shape or layout another key.
func TestWalkKeysNewData(t *testing.T) {
	out1, a1, b1 := expr(16)
	g1, err := Walk([]*graph.Node{out1}, bindAll(out1))
	require.NoError(t, err)
	require.Equal(t, []*graph.Node{a1, b1}, g1.Slots())
	out2, a2, b2 := expr(16)
	g2, err := Walk([]*graph.Node{out2}, bindAll(out2))
	require.NoError(t, err)
	require.Equal(t, g1.Key(), g2.Key())
	require.Equal(t, []*graph.Node{a2, b2}, g2.Slots())
	p, err := g2.Build()
	require.NoError(t, err)
	require.Len(t, p.Inputs, 2)

	out3, _, _ := expr(32)
	g3, err := Walk([]*graph.Node{out3}, bindAll(out3))
	require.NoError(t, err)
	out4, a4, _ := expr(16)
	lay := bindAll(out4)
	lay[a4] = graph.Layout{DType: graph.Float32, Shape: graph.Shape{16, 4}, Strides: []int{1, 16}}
	g4, err := Walk([]*graph.Node{out4}, lay)
	require.NoError(t, err)
	require.Len(t, map[string]bool{g1.Key(): true, g3.Key(): true, g4.Key(): true}, 3)
	k, slots, err := Key([]*graph.Node{out4}, lay)
	require.NoError(t, err)
	require.Equal(t, g4.Key(), k)
	require.Equal(t, g4.Slots(), slots)
}

func TestKeyDistinguishesStructure(t *testing.T) {
	a, b := input(4), input(4)
	k1, _, err := Key([]*graph.Node{add(a, b)}, bindAll(a, b))
	require.NoError(t, err)
	k2, _, err := Key([]*graph.Node{add(a, a)}, bindAll(a))
	require.NoError(t, err)
	k3, _, err := Key([]*graph.Node{sub(a, b)}, bindAll(a, b))
	require.NoError(t, err)
	lay := bindAll(a, b)
	lay[b] = graph.Layout{DType: graph.Float32, Shape: graph.Shape{4}, Strides: []int{-1}, Offset: 3}
	k4, _, err := Key([]*graph.Node{add(a, b)}, lay)
	require.NoError(t, err)
	require.Len(t, map[string]bool{k1: true, k2: true, k3: true, k4: true}, 4)
}

func TestPlanErrors(t *testing.T) {
	a := input(4)
	_, err := Build([]*graph.Node{exp(a)}, nil)
	require.ErrorContains(t, err, "no bound value")
	bad := graph.Binary(graph.OpAdd, input(3), input(4))
	_, err = Build([]*graph.Node{bad}, bindAll(bad))
	require.ErrorContains(t, err, "cannot be broadcast")
	_, err = Build([]*graph.Node{exp(a)}, map[*graph.Node]graph.Layout{a: graph.ContiguousLayout(graph.Float64, graph.Shape{4})})
	require.ErrorContains(t, err, "layout")
}
