// Tests of requests that bind their values in a list (exec.Request's
// BoundList) instead of a map: the same evaluation, the same cache hits
// through the key and the warm index, the same errors.

package runner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// listed returns req with its bound values moved to BoundList, in the
// order of nodes.
func listed(req *exec.Request, nodes ...*graph.Node) *exec.Request {
	l := &exec.Request{Outputs: req.Outputs, Alloc: req.Alloc}
	for _, n := range nodes {
		l.BoundList = append(l.BoundList, exec.Binding{Node: n, Tensor: req.Bound[n]})
	}
	return l
}

func TestBoundList(t *testing.T) {
	r, ft, mem := newRunner(t, -1, 4)
	out, x, y := chain(4)
	req := request(t, mem, out, x, y)
	eval := func(req *exec.Request) []string {
		ft.mu.Lock()
		ft.log = nil
		ft.mu.Unlock()
		res, err := r.Eval(context.Background(), req)
		require.NoError(t, err)
		require.Len(t, res, 1)
		res[0].Release()
		return ft.log
	}
	byMap := eval(req)
	// The same nodes bound by a list, in either order: the same
	// evaluation, warm hits.
	for i, l := range []*exec.Request{listed(req, x, y), listed(req, y, x), listed(req, x, y)} {
		if got := eval(l); !equalLogs(got, byMap) {
			t.Errorf("list %d: got:%v want:%v", i, got, byMap)
		}
	}
	require.Equal(t, exec.CacheStats{Hits: 3, Misses: 1, Len: 1}, r.Stats())

	// New nodes of the same structure: a hit by the key, bound from the
	// list.
	out2, x2, y2 := chain(4)
	req2 := request(t, mem, out2, x2, y2)
	require.NotEmpty(t, eval(listed(req2, y2, x2)))
	require.Equal(t, exec.CacheStats{Hits: 4, Misses: 1, Len: 1}, r.Stats())

	// A missing value and a value without a buffer, warm (req's nodes
	// again) and cold (a new plan).
	require.NotEmpty(t, eval(listed(req, x, y)))
	_, err := r.Eval(context.Background(), listed(req, x))
	require.ErrorContains(t, err, "no bound value")
	bad := listed(req, x, y)
	bad.BoundList[1].Tensor = &exec.Tensor{Layout: req.Bound[y].Layout}
	_, err = r.Eval(context.Background(), bad)
	require.ErrorContains(t, err, "fake: bound value for input")
	out3, x3, y3 := chain(5)
	bad = listed(request(t, mem, out3, x3, y3), x3, y3)
	bad.BoundList[0].Tensor = &exec.Tensor{Layout: bad.BoundList[0].Tensor.Layout}
	_, err = r.Eval(context.Background(), bad)
	require.ErrorContains(t, err, "fake: bound value for Input (5, 64) has no buffer")
	require.Equal(t, 0, ft.live)
}

// equalLogs reports whether two evaluation logs are the same.
func equalLogs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRequestBoundValue(t *testing.T) {
	x := graph.Input(graph.Float32, graph.Shape{2}, "x")
	y := graph.Input(graph.Float32, graph.Shape{2}, "y")
	z := graph.Input(graph.Float32, graph.Shape{2}, "z")
	tx, ty := &exec.Tensor{}, &exec.Tensor{}
	req := &exec.Request{Bound: map[*graph.Node]*exec.Tensor{x: tx}, BoundList: []exec.Binding{{Node: y, Tensor: ty}}}
	for _, tc := range []struct {
		n    *graph.Node
		want *exec.Tensor
	}{{x, tx}, {y, ty}, {z, nil}} {
		if got := req.BoundValue(tc.n); got != tc.want {
			t.Errorf("BoundValue(%s) got:%p want:%p", tc.n.Attr().Label, got, tc.want)
		}
	}
	if got := req.NumBound(); got != 2 {
		t.Errorf("NumBound got:%d want:2", got)
	}
}
