// Sorting along an axis: Sort, ArgSort and TopK, and the flat forms
// SortFlat and ArgSortFlat.

package array

import (
	"github.com/fuseflow/fuseflow/graph"
)

// sortAxis returns the one axis of a sort call (the last when none is
// given), or an error node naming the op.
func sortAxis(op graph.Op, name string, x *graph.Node, axis []int) (int, *graph.Node) {
	switch len(axis) {
	case 0:
		return -1, nil
	case 1:
		return axis[0], nil
	}
	return 0, graph.ErrorNode(op, opErr(name, []*graph.Node{x}, "takes one axis or none, got %v", axis))
}

// Sort returns a sorted along axis (the last when none is given;
// negative axes count from the end), as numpy.sort: stable, NaN last,
// -0 and +0 equal keys kept in their order. A 0-d array, an axis out of
// range or more than one axis give an Array carrying an error.
func (a *Array) Sort(axis ...int) *Array {
	x := nodeFor(a, "Sort")
	ax, e := sortAxis(graph.OpSort, "Sort", x, axis)
	if e != nil {
		return a.derive(e)
	}
	return a.derive(graph.Sort(x, ax))
}

// ArgSort returns the int64 indices along axis that sort a stably (see
// Sort), as numpy.argsort(kind="stable").
func (a *Array) ArgSort(axis ...int) *Array {
	x := nodeFor(a, "ArgSort")
	ax, e := sortAxis(graph.OpArgSort, "ArgSort", x, axis)
	if e != nil {
		return a.derive(e)
	}
	return a.derive(graph.ArgSort(x, ax))
}

// SortFlat returns the elements of a in row-major order, sorted: a 1-d
// array, as numpy.sort(a, axis=None).
func (a *Array) SortFlat() *Array { return a.Flatten().Sort(0) }

// ArgSortFlat returns the int64 indices into the flattened a that sort
// it, as numpy.argsort(a, axis=None, kind="stable").
func (a *Array) ArgSortFlat() *Array { return a.Flatten().ArgSort(0) }

// TopK returns the k largest elements of a along axis (the last when
// none is given), largest first, and their int64 indices along the
// axis. Equal elements come lowest index first; NaN counts as larger
// than every number (as torch.topk and jax.lax.top_k do; NumPy has no
// TopK). A negative k, a k larger than the axis extent or a bad axis
// give two Arrays carrying the error.
func (a *Array) TopK(k int, axis ...int) (values, indices *Array) {
	x := nodeFor(a, "TopK")
	ax, e := sortAxis(graph.OpSort, "TopK", x, axis)
	if e != nil {
		return a.derive(e), a.derive(e)
	}
	v, i := graph.TopK(x, ax, k)
	return a.derive(v), a.derive(i)
}
