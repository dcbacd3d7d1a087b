// Indexing nodes: gathers (Take, TakeAlong), the compaction of a
// condition into the flat indices of its true elements (Nonzero) and
// scatters (Scatter, ScatterAdd, ScatterMax), with their shape and dtype
// rules. Index values are checked against the axis when evaluated: an
// out-of-range index is an evaluation error, not a build error.

package graph

import "fmt"

// IndexGeometry is the view every indexing op has of its operands: the
// array indexed (x for a gather, base for a scatter) as (Outer, Len,
// Inner) around the axis, and Count index positions along it (the size
// of the index array for Take and the scatters, the index array's extent
// along the axis for TakeAlong, the node's length for Nonzero, where
// Len is the condition's size and Outer and Inner are 1).
type IndexGeometry struct {
	Outer, Len, Inner, Count int
}

// IndexGeom returns the geometry of the indexing node n (see
// IndexGeometry); zero for other nodes.
func IndexGeom(n *Node) IndexGeometry {
	if n.op.Class() != ClassIndex || n.err != nil {
		return IndexGeometry{}
	}
	x := n.inputs[0]
	switch n.op {
	case OpNonzero:
		return IndexGeometry{Outer: 1, Len: x.Size(), Inner: 1, Count: n.shape[0]}
	case OpCompress:
		return IndexGeometry{Outer: 1, Len: x.shape[0], Inner: x.shape[1:].Size(), Count: n.shape[0]}
	}
	ax := n.attr.Axis
	g := IndexGeometry{Outer: x.shape[:ax].Size(), Len: x.shape[ax], Inner: x.shape[ax+1:].Size()}
	switch n.op {
	case OpTake:
		g.Count = n.inputs[1].Size()
	case OpTakeAlong:
		g.Count = n.shape[ax]
	default:
		g.Count = n.inputs[1].Size()
	}
	return g
}

// indexDType checks that idx holds integers: the name of the op's index
// operand and its dtype in the message otherwise.
func indexDType(op Op, in []*Node, idx *Node) *Node {
	if !idx.dtype.IsInt() {
		return errNode(op, in, "indices must be integers, not %v", idx.dtype)
	}
	return nil
}

// Take returns x's elements along axis at the indices idx (an integer
// array of any shape; negative indices count from the end): the result
// has shape x.shape[:axis] + idx.shape + x.shape[axis+1:] and x's dtype,
// as numpy.take. The node carries an error for a non-integer idx or an
// axis out of range; an index outside [-n, n) is an error of Eval.
func Take(x, idx *Node, axis int) *Node {
	in := []*Node{x, idx}
	if e := firstErr(in); e != nil {
		return e
	}
	if e := indexDType(OpTake, in, idx); e != nil {
		return e
	}
	if len(x.shape) == 0 {
		return errNode(OpTake, in, "cannot take from a 0-d array")
	}
	ax, s, err := takenShape(x.shape, idx.shape, axis)
	if err != nil {
		return errNode(OpTake, in, "%v", err)
	}
	if err := CheckShape(s, x.dtype); err != nil {
		return errNode(OpTake, in, "%v", err)
	}
	if x.shape[ax] == 0 && s.Size() > 0 {
		return errNode(OpTake, in, "cannot take from an empty axis %d", ax)
	}
	return makeNode(OpTake, x.dtype, s, in, Attr{Axis: ax})
}

// TakeAlong returns x's elements along axis at the index idx holds for
// the same point, as numpy.take_along_axis: x and idx have the same rank
// and broadcast against each other off the axis; the result has the
// broadcast shape with idx's extent along the axis. The node carries an
// error for a non-integer idx, ranks that differ, shapes that do not
// broadcast or an axis out of range; an index outside [-n, n) is an
// error of Eval.
func TakeAlong(x, idx *Node, axis int) *Node {
	in := []*Node{x, idx}
	if e := firstErr(in); e != nil {
		return e
	}
	if e := indexDType(OpTakeAlong, in, idx); e != nil {
		return e
	}
	if len(x.shape) != len(idx.shape) || len(x.shape) == 0 {
		return errNode(OpTakeAlong, in, "indices and array must have the same number of dimensions (at least 1)")
	}
	ax, err := NormalizeAxis(axis, len(x.shape))
	if err != nil {
		return errNode(OpTakeAlong, in, "%v", err)
	}
	xs, is := x.shape.Clone(), idx.shape.Clone()
	xs[ax], is[ax] = 1, 1
	b, err := Broadcast(xs, is)
	if err != nil {
		return errNode(OpTakeAlong, in, "%v", err)
	}
	s := b.Clone()
	s[ax] = idx.shape[ax]
	if err := CheckShape(s, x.dtype); err != nil {
		return errNode(OpTakeAlong, in, "%v", err)
	}
	if x.shape[ax] == 0 && s.Size() > 0 {
		return errNode(OpTakeAlong, in, "cannot take from an empty axis %d", ax)
	}
	xb := b.Clone()
	xb[ax] = x.shape[ax]
	return makeNode(OpTakeAlong, x.dtype, s, []*Node{broadcastIfNeeded(x, xb), broadcastIfNeeded(idx, s)}, Attr{Axis: ax})
}

// broadcastIfNeeded is x broadcast to s, or x when it has that shape.
func broadcastIfNeeded(x *Node, s Shape) *Node {
	if x.shape.Equal(s) {
		return x
	}
	return BroadcastTo(x, s)
}

// Nonzero returns the row-major flat indices (int64) of the elements of
// cond that are not zero (true for bool), in increasing order. count is
// their number, which the caller has counted (a node needs its shape
// before anything is evaluated); Eval fails when cond has another number
// of non-zero elements.
func Nonzero(cond *Node, count int) *Node {
	in := []*Node{cond}
	if e := firstErr(in); e != nil {
		return e
	}
	if count < 0 || count > cond.Size() {
		return errNode(OpNonzero, in, "count %d of non-zero elements outside [0, %d]", count, cond.Size())
	}
	return makeNode(OpNonzero, Int64, Shape{count}, in, Attr{})
}

// Compress returns the rows of x along axis 0 whose element of the 1-d
// cond (x.shape[0] elements, any dtype) is not zero, in order: shape
// (count,) + x.shape[1:], x's dtype. count is their number, counted by
// the caller (see Nonzero); Eval fails when cond has another number of
// non-zero elements. A boolean mask of any shape is a Compress of the
// array reshaped to (mask size, rest...) by the flattened mask.
func Compress(x, cond *Node, count int) *Node {
	in := []*Node{x, cond}
	if e := firstErr(in); e != nil {
		return e
	}
	if len(x.shape) == 0 {
		return errNode(OpCompress, in, "cannot select rows of a 0-d array")
	}
	if len(cond.shape) != 1 || cond.shape[0] != x.shape[0] {
		return errNode(OpCompress, in, "the condition must be 1-d with the array's %d rows", x.shape[0])
	}
	if count < 0 || count > cond.Size() {
		return errNode(OpCompress, in, "count %d of selected rows outside [0, %d]", count, cond.Size())
	}
	s := append(Shape{count}, x.shape[1:]...)
	return makeNode(OpCompress, x.dtype, s, in, Attr{})
}

// Scatter returns base with updates applied along axis at the indices
// idx: op OpScatter writes (where an index repeats, the last update in
// row-major order wins, as numpy.put), OpScatterAdd adds every update
// (numpy.add.at) and OpScatterMax keeps the maximum (numpy.maximum.at;
// NaN wins). upd is cast to base's dtype and broadcast to
// base.shape[:axis] + idx.shape + base.shape[axis+1:]. The result has
// base's shape and dtype; base itself is never changed. The node carries
// an error for a non-integer idx, updates that do not broadcast, bool
// for ScatterAdd, or an axis out of range; an index outside [-n, n) is an
// error of Eval.
func Scatter(op Op, base, idx, upd *Node, axis int) *Node {
	in := []*Node{base, idx, upd}
	if e := firstErr(in); e != nil {
		return e
	}
	if op != OpScatter && op != OpScatterAdd && op != OpScatterMax {
		return errNode(op, in, "not a scatter")
	}
	if e := indexDType(op, in, idx); e != nil {
		return e
	}
	if len(base.shape) == 0 {
		return errNode(op, in, "cannot scatter into a 0-d array")
	}
	if op == OpScatterAdd && base.dtype == Bool {
		return errNode(op, in, "unsupported dtype bool")
	}
	ax, us, err := takenShape(base.shape, idx.shape, axis)
	if err != nil {
		return errNode(op, in, "%v", err)
	}
	if !broadcastsInto(upd.shape, us) {
		return errNode(op, in, "updates of shape %v do not broadcast to %v", upd.shape, us)
	}
	if err := CheckShape(us, base.dtype); err != nil {
		return errNode(op, in, "%v", err)
	}
	if base.shape[ax] == 0 && us.Size() > 0 {
		return errNode(op, in, "cannot scatter into an empty axis %d", ax)
	}
	if l := matmulLane(base.dtype); l != base.dtype {
		// Narrow dtypes and uint64 scatter in their lane (see toLane).
		ord := op == OpScatterMax
		ul := broadcastIfNeeded(toLane(Cast(upd, base.dtype), l, ord), us)
		r := makeNode(op, l, base.shape, []*Node{toLane(base, l, ord), idx, ul}, Attr{Axis: ax})
		return fromLane(r, base.dtype, ord)
	}
	u := broadcastIfNeeded(Cast(upd, base.dtype), us)
	return makeNode(op, base.dtype, base.shape, []*Node{base, idx, u}, Attr{Axis: ax})
}

// recheckIndex rebuilds the indexing node n from its inputs.
func recheckIndex(n *Node) *Node {
	switch n.op {
	case OpTake:
		return Take(n.inputs[0], n.inputs[1], n.attr.Axis)
	case OpTakeAlong:
		return TakeAlong(n.inputs[0], n.inputs[1], n.attr.Axis)
	case OpNonzero:
		return Nonzero(n.inputs[0], n.shape[0])
	case OpCompress:
		return Compress(n.inputs[0], n.inputs[1], n.shape[0])
	}
	return Scatter(n.op, n.inputs[0], n.inputs[1], n.inputs[2], n.attr.Axis)
}

// IndexError is the error of an index outside its axis at evaluation:
// "Take: index 7 is out of bounds for axis 0 with size 5".
func IndexError(op Op, index int64, axis, size int) error {
	return fmt.Errorf("%v: index %d is out of bounds for axis %d with size %d", op, index, axis, size)
}

// takenShape normalizes axis of shape x and returns it with x's shape
// with that axis replaced by idx's shape: the shape of Take's result
// and of Scatter's updates.
func takenShape(x, idx Shape, axis int) (int, Shape, error) {
	ax, err := NormalizeAxis(axis, len(x))
	if err != nil {
		return 0, nil, err
	}
	s := make(Shape, 0, len(x)+len(idx)-1)
	return ax, append(append(append(s, x[:ax]...), idx...), x[ax+1:]...), nil
}
