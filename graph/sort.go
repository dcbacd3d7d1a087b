// Sorting along one axis: Sort, ArgSort and TopK, their shapes and
// dtypes.

package graph

// Sort returns x sorted along axis (negative counts from the end) in
// NumPy's order: stable, NaN last, -0 and +0 equal keys kept in their
// order. A 0-d x is an error (there is no axis); the array API flattens
// for the axis-free form.
func Sort(x *Node, axis int) *Node { return sortNode(OpSort, x, axis, -1, false) }

// ArgSort returns the int64 indices along axis that sort x stably (see
// Sort).
func ArgSort(x *Node, axis int) *Node { return sortNode(OpArgSort, x, axis, -1, false) }

// TopK returns the k largest elements of x along axis, largest first,
// and their int64 indices: the first k of a stable descending sort, so
// equal keys come lowest index first and NaN counts as the largest
// value (as torch.topk and jax.lax.top_k). k < 0 or k greater than the
// axis extent is an error carried by both nodes.
func TopK(x *Node, axis, k int) (values, indices *Node) {
	if k < 0 {
		e := errNode(OpSort, []*Node{x}, "TopK: k %d is negative", k)
		return e, e
	}
	return sortNode(OpSort, x, axis, k, true), sortNode(OpArgSort, x, axis, k, true)
}

// sortNode builds op over axis of x keeping k elements per row (-1: all).
func sortNode(op Op, x *Node, axis, k int, desc bool) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	name := "" // messages of TopK say so: its nodes are Sort and ArgSort
	if desc {
		name = "TopK: "
	}
	if len(x.shape) == 0 {
		return errNode(op, in, "%saxis %d is out of bounds for a 0-d array", name, axis)
	}
	ax, err := NormalizeAxis(axis, len(x.shape))
	if err != nil {
		return errNode(op, in, "%s%v", name, err)
	}
	n := x.shape[ax]
	if k < 0 {
		k = n
	}
	if k > n {
		return errNode(op, in, "%sk %d is larger than the extent %d of axis %d", name, k, n, ax)
	}
	s := x.shape.Clone()
	s[ax] = k
	d := x.dtype
	if op == OpArgSort {
		d = Int64
	}
	if err := CheckShape(s, d); err != nil {
		return errNode(op, in, "%v", err)
	}
	if l := matmulLane(x.dtype); x.dtype != Bool && l != x.dtype {
		// Narrow dtypes and uint64 sort in their lane (see toLane): the
		// same order, the values cast back.
		xl := toLane(x, l, true)
		if op == OpArgSort {
			return makeNode(op, d, s, []*Node{xl}, Attr{Axis: ax, K: k, Desc: desc})
		}
		return fromLane(makeNode(op, l, s, []*Node{xl}, Attr{Axis: ax, K: k, Desc: desc}), x.dtype, true)
	}
	return makeNode(op, d, s, in, Attr{Axis: ax, K: k, Desc: desc})
}

// recheckSort rebuilds a sort node from its input and attributes.
func recheckSort(n *Node) *Node {
	k := n.attr.K
	if !n.attr.Desc {
		k = -1
	}
	return sortNode(n.op, n.inputs[0], n.attr.Axis, k, n.attr.Desc)
}
