// Materializing ops: Concat, Stack and Contiguous.

package array

import (
	"errors"

	"github.com/fuseflow/fuseflow/graph"
)

// joinNodes returns the nodes of xs and their common Context, or an error
// node for an empty list, a nil array or mixed Contexts.
func joinNodes(name string, xs []*Array) ([]*graph.Node, *Context, *graph.Node) {
	if len(xs) == 0 {
		return nil, nil, graph.ErrorNode(graph.OpConcat, errors.New(name+": need at least one array"))
	}
	ns := make([]*graph.Node, len(xs))
	for i, x := range xs {
		ns[i] = nodeFor(x, name)
		if err := sameContext(name, xs[0], x); err != nil {
			return nil, ctxOf(xs[0]), graph.ErrorNode(graph.OpConcat, err)
		}
	}
	return ns, ctxOf(xs[0]), nil
}

// Concat joins xs along axis (negative counts from the end). All must have
// the same rank and the same extents off that axis; dtypes are promoted.
// The result is a new contiguous array.
func Concat(axis int, xs ...*Array) *Array {
	ns, c, bad := joinNodes("Concat", xs)
	if bad != nil {
		return newArray(c, bad)
	}
	return keepAll(newArray(c, graph.Concat(ns, axis)), xs)
}

// Stack joins xs, which must all have the same shape, along a new axis
// (in [-rank-1, rank]), as NumPy's stack.
func Stack(axis int, xs ...*Array) *Array {
	ns, c, bad := joinNodes("Stack", xs)
	if bad != nil {
		return newArray(c, bad)
	}
	for _, n := range ns {
		if n.Err() != nil {
			return newArray(c, n)
		}
	}
	s := ns[0].Shape()
	for _, n := range ns[1:] {
		if !n.Shape().Equal(s) {
			return newArray(c, graph.ErrorNode(graph.OpConcat, opErr("Stack", ns, "all input arrays must have the same shape")))
		}
	}
	ax, err := graph.NormalizeAxis(axis, len(s)+1)
	if err != nil {
		return newArray(c, graph.ErrorNode(graph.OpConcat, opErr("Stack", ns, "%v", err)))
	}
	ex := make([]*graph.Node, len(ns))
	for i, x := range xs {
		ex[i] = x.ExpandDims(ax).node
	}
	return keepAll(newArray(c, named("Stack", graph.Concat(ex, ax), ns...)), xs)
}

// Contiguous returns a row-major copy of a (a materialization point: a view
// chain is computed into a fresh buffer).
func (a *Array) Contiguous() *Array { return a.derive(graph.Copy(nodeFor(a, "Contiguous"))) }

// keepAll records xs as operands of r's expression (see Array.dep) and
// returns r.
func keepAll(r *Array, xs []*Array) *Array {
	r.addDeps(xs...)
	return r
}
