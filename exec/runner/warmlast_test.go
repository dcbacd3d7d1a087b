// Tests of the warm index's last hit: the entry tried before the map,
// never one the cache dropped, and never in the way of the entry the map
// holds for the same outputs.

package runner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// lastEntry returns the cache's last warm hit and the entry its warm
// index maps out's ID to.
func lastEntry(r *Runner, out *graph.Node) (last, mapped *entry) {
	r.cache.mu.Lock()
	defer r.cache.mu.Unlock()
	return r.cache.last, r.cache.warm[out.ID()]
}

func TestCacheWarmLast(t *testing.T) {
	r, _, mem := newRunner(t, -1, 4)
	out, x, y := chain(4)
	reqA := request(t, mem, out, x, y)
	evalOnce(t, r, reqA)
	last, a := lastEntry(r, out)
	require.Nil(t, last, "a miss is no warm hit")
	evalOnce(t, r, reqA)
	last, _ = lastEntry(r, out)
	require.Same(t, a, last)

	// The same nodes with y transposed: another plan, which the map then
	// holds; the last hit (A) does not hide it.
	y2, err := exec.NewTensor(mem, graph.Float32, graph.Shape{64, 4})
	require.NoError(t, err)
	defer y2.Release()
	yT := &exec.Tensor{Buf: y2.Buf, Layout: graph.Layout{DType: graph.Float32, Shape: graph.Shape{4, 64}, Strides: []int{1, 4}}}
	reqB := &exec.Request{Outputs: reqA.Outputs, Alloc: mem, Bound: map[*graph.Node]*exec.Tensor{x: reqA.Bound[x], y: yT}}
	evalOnce(t, r, reqB)
	last, b := lastEntry(r, out)
	require.Same(t, a, last)
	require.NotSame(t, a, b)
	evalOnce(t, r, reqB)
	last, _ = lastEntry(r, out)
	require.Same(t, b, last, "B was a warm hit through the map")
	require.Equal(t, exec.CacheStats{Hits: 2, Misses: 2, Len: 2}, r.Stats())

	// A again: found by its key, then warm again.
	evalOnce(t, r, reqA)
	evalOnce(t, r, reqA)
	last, _ = lastEntry(r, out)
	require.Same(t, a, last)
	require.Equal(t, exec.CacheStats{Hits: 4, Misses: 2, Len: 2}, r.Stats())

	// Dropped entries are forgotten.
	r.Forget()
	last, mapped := lastEntry(r, out)
	require.Nil(t, last)
	require.Nil(t, mapped)
	evalOnce(t, r, reqA)
	require.Equal(t, exec.CacheStats{Hits: 4, Misses: 3, Len: 1}, r.Stats())
}

// TestCacheWarmLastEvicted: an entry the LRU drops is no longer the last
// hit, and its request is planned again.
func TestCacheWarmLastEvicted(t *testing.T) {
	r, ft, mem := newRunner(t, -1, 1)
	out1, x1, y1 := chain(4)
	out2, x2, y2 := chain(5)
	req1, req2 := request(t, mem, out1, x1, y1), request(t, mem, out2, x2, y2)
	evalOnce(t, r, req1)
	evalOnce(t, r, req1)
	last, _ := lastEntry(r, out1)
	require.NotNil(t, last)
	evalOnce(t, r, req2) // evicts the plan of req1
	last, _ = lastEntry(r, out1)
	require.Nil(t, last)
	res, err := r.Eval(context.Background(), req1)
	require.NoError(t, err)
	res[0].Release()
	require.Equal(t, 3, ft.prepared)
}
