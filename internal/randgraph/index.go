// Error bounds of the indexing ops: a gather moves its operand's bound
// with its elements, Put and ScatterMax (1-Lipschitz) move the bounds of
// the base and the updates, and ScatterAdd adds them plus the rounding of
// sums taken in any order: Count ulps of the sum of the magnitudes that
// meet at each element. Indices that may differ from the reference's
// have no bound.

package randgraph

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// full returns e, or zeros of shape s where e is nil.
func full(e *graph.Node, s graph.Shape) *graph.Node {
	if e == nil {
		e = cst(0)
	}
	if !e.Shape().Equal(s) {
		e = graph.BroadcastTo(e, s)
	}
	return e
}

// index returns the bound of indexing node n from its inputs' bounds es.
func (b *bounder) index(n *graph.Node, es []*graph.Node) (*graph.Node, error) {
	in := n.Inputs()
	if n.Op() == graph.OpNonzero && es[0] != nil || n.Op() != graph.OpNonzero && es[1] != nil {
		return nil, fmt.Errorf("no rule for %v of indices that may differ", n.Op())
	}
	if n.Op() == graph.OpNonzero {
		return nil, nil
	}
	ax := n.Attr().Axis
	add0 := n.Op() == graph.OpScatterAdd && n.DType().IsFloat()
	if es[0] == nil && (len(es) < 3 || es[2] == nil) && !add0 {
		return nil, nil
	}
	switch n.Op() {
	case graph.OpTake:
		return graph.Take(full(es[0], in[0].Shape()), in[1], ax), nil
	case graph.OpTakeAlong:
		return graph.TakeAlong(full(es[0], in[0].Shape()), in[1], ax), nil
	}
	base, upd := full(es[0], in[0].Shape()), full(es[2], in[2].Shape())
	switch n.Op() {
	case graph.OpScatter:
		return graph.Scatter(graph.OpScatter, base, in[1], upd, ax), nil
	case graph.OpScatterMax:
		return b.finish(n, graph.Scatter(graph.OpScatterMax, base, in[1], upd, ax), nil), nil
	}
	e := graph.Scatter(graph.OpScatterAdd, base, in[1], upd, ax)
	if add0 {
		rel, a := spacing(n.DType())
		mag := graph.Scatter(graph.OpScatterAdd, fin(in[0]), in[1], full(fin(in[2]), in[2].Shape()), ax)
		k := cst(float64(in[1].Size() + 1))
		e = add(e, mul(k, add(mul(cst(rel), add(mag, e)), cst(a))))
		return b.finish(n, e, mag), nil
	}
	return e, nil
}
