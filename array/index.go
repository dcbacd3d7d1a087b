// Indexing: gathers (Take, TakeAlongAxis), boolean masks and Nonzero,
// functional updates (Put, Set, ScatterAdd, ScatterMax) and Bincount
// (Histogram, built on ScatterAdd, is in histogram.go).
//
// Mask, Nonzero, FlatNonzero, Bincount and Histogram without a range have
// a length that depends on the data, and a graph node needs its shape
// before anything runs: these methods first evaluate what fixes the
// length (the number of true elements, the largest value, the data's
// range) through the array's Context, as CuPy synchronises on boolean
// indexing, and then build a node of that length. Everything else here
// is lazy.

package array

import (
	"context"
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// indexOperand returns the node of an index array operand of the op
// name: an error node for a nil Array or one of another Context.
func indexOperand(name string, op graph.Op, a, idx *Array) *graph.Node {
	if idx == nil || idx.node == nil {
		return graph.ErrorNode(op, opErr(name, []*graph.Node{nodeOf(a)}, "indices are a nil *Array"))
	}
	if err := sameContext(name, a, idx); err != nil {
		return graph.ErrorNode(op, err)
	}
	return nodeOf(idx)
}

// Take returns a's elements along axis at indices (an integer array of
// any shape; negative indices count from the end), as numpy.take with an
// axis: the result has shape a.shape[:axis] + indices.shape +
// a.shape[axis+1:]. Non-integer indices or an axis out of range give an
// Array carrying an error; an index outside [-n, n) makes Eval fail with
// "Take: index 7 is out of bounds for axis 0 with size 5". What is
// computed before and after the gather fuses into the kernels around it.
func (a *Array) Take(indices *Array, axis int) *Array {
	idx := indexOperand("Take", graph.OpTake, a, indices)
	return a.derive(graph.Take(nodeFor(a, "Take"), idx, axis)).keep(indices)
}

// TakeAlongAxis returns a's elements along axis at the index indices holds
// for the same position, as numpy.take_along_axis: indices has a's rank,
// and both broadcast against each other off the axis (the result has
// indices' extent along it), so a.ArgSort-style indices pick per row.
// Errors as Take.
func (a *Array) TakeAlongAxis(indices *Array, axis int) *Array {
	idx := indexOperand("TakeAlongAxis", graph.OpTakeAlong, a, indices)
	return a.derive(graph.TakeAlong(nodeFor(a, "TakeAlongAxis"), idx, axis)).keep(indices)
}

// count evaluates the number of non-zero elements of x through c.
func (c *Context) countNonzero(x *graph.Node) (int, error) {
	cnt := newArray(c, graph.Reduce(graph.OpSum, graph.Cast(x, graph.Bool), nil, false))
	defer cnt.Release()
	n, err := cnt.ValueInt()
	return int(n), err
}

// flatNonzero returns the node of x's flat non-zero indices, counting
// them first.
func flatNonzero(name string, c *Context, x *graph.Node) *graph.Node {
	if x.Err() != nil {
		return x
	}
	n, err := c.countNonzero(x)
	if err != nil {
		return graph.ErrorNode(graph.OpNonzero, fmt.Errorf("%s: %w", name, err))
	}
	return graph.Nonzero(x, n)
}

// Mask returns the elements of a where cond is true, in row-major order,
// as a[cond] in NumPy: cond is a bool array whose shape is a's leading
// axes (all of them, or fewer: a (3, 4) array masked by a (3,) condition
// selects rows), and the result has shape (count,) + the axes after
// them. Mask evaluates the count of true elements at once (see the file
// comment); the selection itself is lazy: one compaction that copies the
// selected elements or rows in order. A cond of another dtype or shape
// gives an Array carrying an error.
func (a *Array) Mask(cond *Array) *Array {
	x := nodeFor(a, "Mask")
	cn := indexOperand("Mask", graph.OpNonzero, a, cond)
	if x.Err() != nil {
		return a.derive(x)
	}
	if cn.Err() != nil {
		return a.derive(cn)
	}
	if cn.DType() != graph.Bool {
		return errArray(ctxOf(a), graph.OpNonzero, opErr("Mask", []*graph.Node{x, cn}, "the mask must be bool, not %v", cn.DType()))
	}
	r := len(cn.Shape())
	if r > len(x.Shape()) || !x.Shape()[:r].Equal(cn.Shape()) {
		return errArray(ctxOf(a), graph.OpNonzero, opErr("Mask", []*graph.Node{x, cn},
			"boolean index of shape %v does not match the array's leading axes %v", cn.Shape(), x.Shape()[:min(r, len(x.Shape()))]))
	}
	flat := graph.Reshape(cn, graph.Shape{cn.Size()})
	n, err := ctxOf(a).countNonzero(flat)
	if err != nil {
		return errArray(ctxOf(a), graph.OpCompress, fmt.Errorf("Mask: %w", err))
	}
	xs := append(graph.Shape{cn.Size()}, x.Shape()[r:]...)
	return a.derive(graph.Compress(graph.Reshape(x, xs), flat, n)).keep(cond)
}

// FlatNonzero returns the row-major flat indices (int64) of a's non-zero
// elements (true for bool), as numpy.flatnonzero. It evaluates their
// count at once (see the file comment).
func (a *Array) FlatNonzero() *Array {
	x := nodeFor(a, "FlatNonzero")
	return a.derive(flatNonzero("FlatNonzero", ctxOf(a), graph.Reshape(x, graph.Shape{x.Size()})))
}

// Nonzero returns, per axis of a, the int64 coordinates of a's non-zero
// elements in row-major order, as numpy.nonzero (a 0-d array counts as
// one of shape (1,)). It evaluates their count at once (see the file
// comment); the coordinates are computed lazily from the flat indices.
func (a *Array) Nonzero() []*Array {
	x := nodeFor(a, "Nonzero")
	flat := a.FlatNonzero()
	s := x.Shape()
	if len(s) == 0 {
		s = graph.Shape{1}
	}
	out := make([]*Array, len(s))
	stride := 1
	for k := len(s) - 1; k >= 0; k-- {
		out[k] = flat.FloorDiv(stride).Mod(max(s[k], 1))
		stride *= s[k]
	}
	return out
}

// update builds a scatter of op into a along axis.
func (a *Array) update(name string, op graph.Op, indices *Array, values any, axis int) *Array {
	x := nodeFor(a, name)
	idx := indexOperand(name, op, a, indices)
	var v *graph.Node
	switch u := values.(type) {
	case *Array:
		if u == nil {
			return errArray(ctxOf(a), op, opErr(name, []*graph.Node{x}, "values are a nil *Array"))
		}
		if err := sameContext(name, a, u); err != nil {
			return errArray(ctxOf(a), op, err)
		}
		v = nodeOf(u)
	default:
		w, ok := graph.WeakOf(values)
		if !ok {
			return errArray(ctxOf(a), op, opErr(name, []*graph.Node{x}, "unsupported values type %T (want *array.Array or a Go number)", values))
		}
		c, err := w.Value(x.DType())
		if err != nil {
			return errArray(ctxOf(a), op, opErr(name, []*graph.Node{x}, "%v", err))
		}
		v = graph.Const(c)
	}
	return a.derive(named(name, graph.Scatter(op, x, idx, v, axis), x, idx, v)).keep(indices, values)
}

// Put returns a copy of a with the elements at the flat indices (into a
// flattened in row-major order) replaced by values, as numpy.put on a
// copy: values is an *Array or a Go number that broadcasts to indices'
// shape (NumPy repeats a short values array cyclically; here it must
// broadcast) and is cast to a's dtype. Where an index repeats the last
// value wins. a is never changed. Errors as Take.
func (a *Array) Put(indices *Array, values any) *Array {
	x := nodeFor(a, "Put")
	flat := a.derive(graph.Reshape(x, graph.Shape{x.Size()}))
	r := flat.update("Put", graph.OpScatter, indices, values, 0)
	return r.derive(graph.Reshape(nodeOf(r), x.Shape()))
}

// Set returns a copy of a whose slices along axis at indices are
// replaced by values, as a[..., indices, ...] = values on a copy in
// NumPy: values broadcasts to a.shape[:axis] + indices.shape +
// a.shape[axis+1:] and is cast to a's dtype; where an index repeats the
// last slice wins. a is never changed. Errors as Take.
func (a *Array) Set(indices *Array, values any, axis int) *Array {
	return a.update("Set", graph.OpScatter, indices, values, axis)
}

// ScatterAdd returns a copy of a with values added along axis at
// indices, every repeat of an index adding again, as numpy.add.at on a
// copy (values broadcast as for Set). a is never changed. Errors as
// Take; bool arrays give an error.
func (a *Array) ScatterAdd(indices *Array, values any, axis int) *Array {
	return a.update("ScatterAdd", graph.OpScatterAdd, indices, values, axis)
}

// ScatterMax returns a copy of a where each element at indices along
// axis becomes the maximum of itself and every value scattered to it, as
// numpy.maximum.at on a copy (NaN wins). a is never changed. Errors as
// Take.
func (a *Array) ScatterMax(indices *Array, values any, axis int) *Array {
	return a.update("ScatterMax", graph.OpScatterMax, indices, values, axis)
}

// Bincount counts the occurrences of each value of the 1-d non-negative
// integer array x, as numpy.bincount: the result has max(x)+1 elements
// (at least minlength), int64, or float64 sums of weights (an array of
// x's shape, nil for none) when weights are given. It evaluates x's
// minimum and maximum at once (see the file comment); the counting is a
// scatter-add. A non-integer, negative or multi-dimensional x gives an
// Array carrying an error.
func Bincount(x, weights *Array, minlength int) *Array {
	n := nodeFor(x, "Bincount")
	c := ctxOf(x)
	fail := func(format string, args ...any) *Array {
		return errArray(c, graph.OpScatterAdd, opErr("Bincount", []*graph.Node{n}, format, args...))
	}
	switch {
	case n.Err() != nil:
		return x
	case !n.DType().IsInt():
		return fail("x must be an integer array, not %v", n.DType())
	case len(n.Shape()) != 1:
		return fail("x must be 1-d")
	case minlength < 0:
		return fail("minlength %d must not be negative", minlength)
	}
	var w *graph.Node
	d := graph.Int64
	if weights != nil {
		w = nodeOf(weights)
		if err := sameContext("Bincount", x, weights); err != nil {
			return errArray(c, graph.OpScatterAdd, err)
		}
		if w.Err() != nil {
			return weights
		}
		if !w.Shape().Equal(n.Shape()) {
			return fail("weights of shape %v for x of shape %v", w.Shape(), n.Shape())
		}
		d = graph.Float64
	}
	length := minlength
	if n.Size() > 0 {
		lo, hi := x.Min(), x.Max()
		defer lo.Release()
		defer hi.Release()
		if err := Eval(context.Background(), lo, hi); err != nil {
			return errArray(c, graph.OpScatterAdd, fmt.Errorf("Bincount: %w", err))
		}
		l, _ := lo.ValueInt()
		h, _ := hi.ValueInt()
		if l < 0 {
			return fail("x must have no negative elements (found %d)", l)
		}
		length = max(length, int(h)+1)
	}
	if w == nil {
		w = graph.Const(graph.ScalarOf(d, 1))
	}
	base := nodeOf(c.Zeros(d, length))
	return x.derive(named("Bincount", graph.Scatter(graph.OpScatterAdd, base, n, w, 0), n)).keep(weights)
}
