// Scans in random graphs: CumSum, CumProd, CumMax and CumMin along a
// random axis, and their error bounds.

package randgraph

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

var scanOps = []graph.Op{graph.OpCumSum, graph.OpCumProd, graph.OpCumMax, graph.OpCumMin}

// scan adds a scan of a along a random axis (negative one time in two).
func (g *gen) scan(a *graph.Node) (bool, error) {
	rank := len(a.Shape())
	if rank == 0 {
		return false, nil
	}
	op := scanOps[g.r.IntN(len(scanOps))]
	axis := g.r.IntN(rank) - rank*g.r.IntN(2)
	n := graph.Scan(op, a, axis)
	inexact := g.inex[a] || (op == graph.OpCumSum || op == graph.OpCumProd) && n.DType().IsFloat()
	return g.push(n, inexact, fmt.Sprintf("%v(n%d, axis %d)", op, g.index(a), axis)), nil
}

// scan returns the bound of scan node n from its input's bound ex. A
// float running sum or product is bounded as the Sum or Prod of the
// elements up to each point, plus the rounding of every step in the
// result's dtype (the reference and a backend each round n times; a
// backend that splits the lane adds piece totals to the carry in
// another order): 2*n units of the dtype's spacing times the running
// magnitude. Integer scans are exact where their inputs are; an
// uncertain input element makes every later running value uncertain.
func (b *bounder) scan(n, ex *graph.Node) (*graph.Node, error) {
	ax := n.Attr().Axis
	sc := func(op graph.Op, v *graph.Node) *graph.Node { return graph.Scan(op, v, ax) }
	var keeps *graph.Node
	if ex != nil {
		keeps = sc(graph.OpCumSum, keep(ex))
	}
	d := n.DType()
	if !d.IsFloat() {
		return keeps, nil
	}
	length := n.Shape()[ax]
	rel, _ := spacing(d)
	steps := 2 * float64(length) * rel
	anyOf := func(v *graph.Node) *graph.Node { return sc(graph.OpCumMax, v) } // any so far
	switch n.Op() {
	case graph.OpCumSum:
		total := func(v *graph.Node) *graph.Node { return sc(graph.OpCumSum, v) }
		return b.total(n, ex, total, anyOf, b.m.Sum(d, length)+steps), nil
	case graph.OpCumProd:
		// A running product may underflow in one dtype's steps and not
		// in another's unless a factor is 0 (as Prod's rule).
		prod := func(v *graph.Node) *graph.Node { return sc(graph.OpCumProd, v) }
		floor := 0x1p-1022
		if d == graph.Float32 {
			floor = 0x1p-126
		}
		return b.product(n, ex, prod, anyOf, b.m.Prod(d, length)+steps, floor), nil
	}
	var e *graph.Node
	if ex != nil {
		e = sc(graph.OpCumMax, ex)
	}
	return sum(e, zeroSign(n)), nil
}
