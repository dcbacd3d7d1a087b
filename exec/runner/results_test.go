// Tests of offered result tensors (exec.Request.Results): the runner
// returns the very tensors offered, their layouts written into the
// capacity they come with, new slices where it does not suffice, and
// makes its own when the offer does not match the outputs.

package runner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// offered is a result tensor offered with room for a layout of rank 4.
type offered struct {
	t    exec.Tensor
	dims [8]int
}

func newOffered() *offered {
	o := &offered{}
	o.t.Shape, o.t.Strides = o.dims[:0:4], o.dims[4:4:8]
	return o
}

func TestRunnerFillsOfferedResults(t *testing.T) {
	mem, g := layoutSetup(t)
	x, sum, exp, exp5, perm := g.x, g.sum, g.exp, g.exp5, g.perm
	r := New(&fakeTarget{failAt: -1}, 4)
	for _, tc := range []struct {
		name  string
		outs  []*graph.Node
		offer int // tensors offered; a count other than len(outs) is ignored
	}{
		{"one", []*graph.Node{exp}, 1},
		{"rank 0", []*graph.Node{sum}, 1},
		{"rank 5, beyond the room offered", []*graph.Node{exp5}, 1},
		{"input", []*graph.Node{x}, 1},
		{"permuted input", []*graph.Node{perm}, 1},
		{"several", []*graph.Node{exp, sum, perm, exp5, x}, 5},
		{"too few offered", []*graph.Node{exp, sum}, 1},
		{"none offered", []*graph.Node{exp}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, p := g.request(t, mem, tc.outs)
			offers := make([]*offered, tc.offer)
			for round := range 2 {
				req.Results = nil
				for i := range offers {
					offers[i] = newOffered()
					req.Results = append(req.Results, &offers[i].t)
				}
				res, err := r.Eval(context.Background(), req)
				require.NoError(t, err)
				require.Len(t, res, len(tc.outs))
				for i, v := range res {
					want := p.Outputs[i].Layout
					checkOutput(t, round, i, v, want)
					if tc.offer != len(tc.outs) {
						continue
					}
					o := offers[i]
					if v != &o.t {
						t.Fatalf("round %d output %d: got a tensor of the runner's own, want the one offered", round, i)
					}
					inRoom := len(want.Shape) > 0 && len(want.Shape) <= 4
					if got := inRoom && &v.Shape[0] == &o.dims[0]; got != inRoom {
						t.Errorf("round %d output %d: shape in the room offered got:%v want:%v", round, i, got, inRoom)
					}
				}
				for _, v := range res {
					v.Release()
				}
			}
		})
	}
}

// TestRunnerOfferedResultsOnError: a failed evaluation leaves the offered
// tensors without a buffer.
func TestRunnerOfferedResultsOnError(t *testing.T) {
	r, ft, mem := newRunner(t, 2, 4)
	out, x, y := chain(8)
	req := request(t, mem, out, x, y)
	o := newOffered()
	req.Results = []*exec.Tensor{&o.t}
	res, err := r.Eval(context.Background(), req)
	require.ErrorContains(t, err, "kernel failed")
	require.Nil(t, res)
	require.Nil(t, o.t.Buf)
	require.Zero(t, ft.live)
}

// TestCacheWarmIndexBoundNodes: the warm entry of a request serves only a
// request binding the very same nodes; as many others take the keyed
// path.
func TestCacheWarmIndexBoundNodes(t *testing.T) {
	r, _, mem := newRunner(t, -1, 4)
	out, x, y := chain(4)
	req := request(t, mem, out, x, y)
	for range 2 {
		evalOnce(t, r, req)
	}
	require.Equal(t, exec.CacheStats{Hits: 1, Misses: 1, Len: 1}, r.Stats())
	// x*y bound instead of y: two bound nodes again, not the same ones.
	xy := graph.Binary(graph.OpMul, x, y)
	v, err := exec.NewTensor(mem, xy.DType(), xy.Shape())
	require.NoError(t, err)
	defer v.Release()
	req2 := &exec.Request{Outputs: req.Outputs, Alloc: mem, Bound: map[*graph.Node]*exec.Tensor{x: req.Bound[x], xy: v}}
	for range 2 {
		evalOnce(t, r, req2)
	}
	require.Equal(t, exec.CacheStats{Hits: 2, Misses: 2, Len: 2}, r.Stats())
	r.cache.mu.Lock()
	e := r.cache.warm[out.ID()]
	var bound []*graph.Node
	for i := range len(e.pathOff) - 1 {
		bound = append(bound, follow(req.Outputs, e.paths[e.pathOff[i]:e.pathOff[i+1]]))
	}
	r.cache.mu.Unlock()
	require.ElementsMatch(t, []*graph.Node{x, xy}, bound, "the warm entry is the last request's")
}
