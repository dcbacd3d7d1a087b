// Tests of reused registry entries: an entry freed while an evaluation
// reads its result, or while a host copy of its result runs, and taken
// again by another evaluation meanwhile, changes nothing the first one
// sees.

package array

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// gatedEval is a CPU backend whose Eval of the node hold announces
// itself on started and waits for gate before it runs.
type gatedEval struct {
	*cpu.Backend
	hold    *graph.Node
	started chan struct{}
	gate    chan struct{}
}

func (g *gatedEval) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	if len(req.Outputs) > 0 && req.Outputs[0] == g.hold {
		g.started <- struct{}{}
		<-g.gate
	}
	return g.Backend.Eval(ctx, req)
}

func TestEntryReusedDuringEval(t *testing.T) {
	g := &gatedEval{Backend: cpu.New(cpu.Options{}), started: make(chan struct{}), gate: make(chan struct{})}
	c := MustContext(WithBackend(g))
	a := FromSlice(c, []float32{1, 2, 3, 4}, 4)
	defer a.Release()
	x := a.Add(1)
	require.NoError(t, x.Eval())
	y := x.Mul(2) // reads x's result, bound to its evaluation
	defer y.Release()
	g.hold = y.node
	errc := make(chan error, 1)
	go func() { errc <- y.Eval() }()
	<-g.started
	// x's entry is freed and taken by the next evaluation, of another
	// shape, while y's evaluation has x's result bound.
	x.Release()
	z := FromSlice(c, []float32{5, 6}, 2).Neg()
	defer z.Release()
	require.NoError(t, z.Eval())
	close(g.gate)
	require.NoError(t, <-errc)
	got, err := ToSlice[float32](y)
	require.NoError(t, err)
	if want := []float32{4, 6, 8, 10}; !slices.Equal(got, want) {
		t.Errorf("y got:%v want:%v", got, want)
	}
}

func TestEntryNotReusedDuringCopy(t *testing.T) {
	c, g, x, y := gatedContext(t)
	got := read(y)
	<-g.started
	// y's entry is freed while its host copy runs; an evaluation made
	// meanwhile must not get it, or the copy would land on its result.
	y.Release()
	w := x.Add(10)
	defer w.Release()
	require.NoError(t, w.Eval())
	g.gate <- struct{}{}
	require.Equal(t, []float64{2, 4, 6, 8}, <-got)
	// w has no host copy yet: reading it makes one (with a host copy
	// wrongly kept on its entry, it would come back at once).
	ws := read(w)
	var gotW []float64
	select {
	case <-g.started:
		g.gate <- struct{}{}
		gotW = <-ws
	case gotW = <-ws:
	}
	require.Equal(t, []float64{11, 12, 13, 14}, gotW)
	require.Equal(t, 2, c.Live()) // x, w
}
