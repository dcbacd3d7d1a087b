// Tests of the plan cache and the structural key.

package fuse

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func expr(n int) (*graph.Node, *graph.Node, *graph.Node) {
	a, b := input(n, 4), input(4)
	return graph.Reduce(graph.OpSum, exp(add(mul(a, b), f32(1))), []int{1}, false), a, b
}

func TestCacheHitsOnNewData(t *testing.T) {
	c := NewCache(8)
	out1, a1, b1 := expr(16)
	p1, slots1, err := c.Get([]*graph.Node{out1}, bindAll(out1))
	require.NoError(t, err)
	require.Equal(t, []*graph.Node{a1, b1}, slots1)

	out2, a2, b2 := expr(16) // same expression, new inputs
	p2, slots2, err := c.Get([]*graph.Node{out2}, bindAll(out2))
	require.NoError(t, err)
	require.Same(t, p1, p2, "structurally identical graph plans nothing")
	require.Equal(t, []*graph.Node{a2, b2}, slots2)
	require.Equal(t, CacheStats{Hits: 1, Misses: 1, Len: 1}, c.Stats())

	out3, _, _ := expr(32) // another shape
	_, _, err = c.Get([]*graph.Node{out3}, bindAll(out3))
	require.NoError(t, err)
	// Another layout of the same shape.
	out4, a4, _ := expr(16)
	lay := bindAll(out4)
	lay[a4] = graph.Layout{DType: graph.Float32, Shape: graph.Shape{16, 4}, Strides: []int{1, 16}}
	_, _, err = c.Get([]*graph.Node{out4}, lay)
	require.NoError(t, err)
	require.Equal(t, CacheStats{Hits: 1, Misses: 3, Len: 3}, c.Stats())
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := NewCache(2)
	get := func(n int) {
		o, _, _ := expr(n)
		_, _, err := c.Get([]*graph.Node{o}, bindAll(o))
		require.NoError(t, err)
	}
	get(1)
	get(2)
	get(1) // hit, 1 is now the most recent
	get(3) // evicts 2
	get(1) // hit
	get(2) // miss
	require.Equal(t, CacheStats{Hits: 2, Misses: 4, Len: 2}, c.Stats())
}

func TestCacheConcurrent(t *testing.T) {
	c := NewCache(4)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				o, _, _ := expr(8)
				_, _, err := c.Get([]*graph.Node{o}, bindAll(o))
				require.NoError(t, err)
			}
		})
	}
	wg.Wait()
	st := c.Stats()
	require.Equal(t, int64(160), st.Hits+st.Misses)
	require.Equal(t, 1, st.Len)
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
