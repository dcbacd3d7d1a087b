// Sort and ArgSort (and TopK, a descending sort keeping k per row): the
// naive oracle, one sort.SliceStable per row with NumPy's ordering.

package ref

import (
	"math"
	"sort"

	"github.com/fuseflow/fuseflow/graph"
)

// sortRows sorts x (the row-major lanes of n's input) along n's axis and
// keeps the first Attr.K of each row: the values for OpSort, the int64
// indices along the axis for OpArgSort. Ascending order puts NaN last
// and is stable, so -0 and +0 keep their order; descending order (TopK)
// puts NaN first and equal keys lowest index first.
func sortRows(n *graph.Node, x vec) vec {
	in := n.Input(0).Shape()
	a := n.Attr()
	ax, k, desc := a.Axis, a.K, a.Desc
	m := in[ax]
	inner := 1
	for _, e := range in[ax+1:] {
		inner *= e
	}
	outer := 1
	for _, e := range in[:ax] {
		outer *= e
	}
	var out vec
	size := outer * k * inner
	switch {
	case n.Op() == graph.OpArgSort || !x.isFloat():
		out.i = make([]int64, size)
	default:
		out.f = make([]float64, size)
	}
	before := func(i, j int) bool { // element i of the input goes before j
		if x.isFloat() {
			p, q := x.f[i], x.f[j]
			if desc {
				p, q = q, p
			}
			return !math.IsNaN(p) && (math.IsNaN(q) || p < q)
		}
		if desc {
			return x.i[j] < x.i[i]
		}
		return x.i[i] < x.i[j]
	}
	idx := make([]int, m)
	for o := range outer {
		for in := range inner {
			base := o*m*inner + in
			for r := range idx {
				idx[r] = base + r*inner
			}
			sort.SliceStable(idx, func(p, q int) bool { return before(idx[p], idx[q]) })
			for r := range k {
				dst := o*k*inner + r*inner + in
				switch {
				case n.Op() == graph.OpArgSort:
					out.i[dst] = int64((idx[r] - base) / inner)
				case x.isFloat():
					out.f[dst] = x.f[idx[r]]
				default:
					out.i[dst] = x.i[idx[r]]
				}
			}
		}
	}
	return out
}
