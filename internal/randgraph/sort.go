// Sorting in random graphs: Sort, ArgSort or TopK along a random axis
// (negative half the time), and their error bounds: sorting moves no
// value by more than the largest error of its row, and the order (the
// indices) is promised only for rows without any error.

package randgraph

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

func (g *gen) sort(a *graph.Node) (bool, error) {
	rank := len(a.Shape())
	if rank == 0 {
		return false, nil
	}
	ia := g.inex[a]
	ax := g.r.IntN(rank)
	n := a.Shape()[ax]
	if g.r.IntN(2) == 0 {
		ax -= rank
	}
	switch g.r.IntN(3) {
	case 0:
		return g.push(graph.Sort(a, ax), ia, fmt.Sprintf("Sort(n%d, %d)", g.index(a), ax)), nil
	case 1:
		return g.push(graph.ArgSort(a, ax), ia, fmt.Sprintf("ArgSort(n%d, %d)", g.index(a), ax)), nil
	}
	k := g.r.IntN(n + 1)
	v, i := graph.TopK(a, ax, k)
	if g.r.IntN(2) == 0 {
		return g.push(v, ia, fmt.Sprintf("TopK(n%d, %d, %d).values", g.index(a), ax, k)), nil
	}
	return g.push(i, ia, fmt.Sprintf("TopK(n%d, %d, %d).indices", g.index(a), ax, k)), nil
}

// sortBound returns the bound of sort node n whose operand has bound e
// (nil: exact): the largest bound of each row for the values, nothing
// promised (NaN) for the indices of a row with any error.
func sortBound(n, e *graph.Node) *graph.Node {
	if e == nil || n.Size() == 0 {
		return nil
	}
	m := graph.BroadcastTo(graph.Reduce(graph.OpReduceMax, e, []int{n.Attr().Axis}, true), n.Shape())
	if n.Op() == graph.OpArgSort {
		return unc(not(graph.Binary(graph.OpLe, m, cst(0))))
	}
	return m
}
