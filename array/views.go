// Views: Reshape, Transpose, Permute, BroadcastTo, Slice and Index,
// ExpandDims, Squeeze and Flatten. None copies data: each is a strided
// view of its operand until something materializes it.

package array

import (
	"github.com/fuseflow/fuseflow/graph"
)

// Range selects along one axis of a Slice, in Python's start:stop:step
// terms; build one with R, RS, From, To, Rev, Stride or All.
type Range = graph.Range

// All selects a whole axis (Python's ":").
var All = graph.All

// R returns the Range start:stop (negative bounds count from the end; out
// of range bounds are clamped, as in Python).
func R(start, stop int) Range { return Range{Start: start, Stop: stop, Step: 1} }

// RS returns the Range start:stop:step. A zero step makes Slice carry an
// error.
func RS(start, stop, step int) Range { return Range{Start: start, Stop: stop, Step: step} }

// From returns the Range start: (to the end).
func From(start int) Range { return Range{Start: start, Step: 1, NoStop: true} }

// To returns the Range :stop (from the beginning).
func To(stop int) Range { return Range{Stop: stop, Step: 1, NoStart: true} }

// Stride returns the Range ::step (every step-th element; from the end
// when step is negative).
func Stride(step int) Range { return Range{Step: step, NoStart: true, NoStop: true} }

// Rev returns the Range ::-1 (the axis reversed).
func Rev() Range { return Stride(-1) }

// Reshape returns a with a new shape of the same size, elements in
// row-major order; one extent may be -1 and is inferred. Another size, or
// more than one -1, gives an Array carrying an error.
func (a *Array) Reshape(shape ...int) *Array {
	return a.derive(graph.Reshape(nodeFor(a, "Reshape"), Shape(shape)))
}

// Transpose returns a with its axes reversed (NumPy's a.T).
func (a *Array) Transpose() *Array {
	r := a.Rank()
	perm := make([]int, r)
	for i := range perm {
		perm[i] = r - 1 - i
	}
	return a.derive(graph.Permute(nodeFor(a, "Transpose"), perm))
}

// Permute returns a with its axes reordered: axis i of the result is axis
// axes[i] of a (NumPy's transpose(axes)); negative axes count from the end.
func (a *Array) Permute(axes ...int) *Array {
	return a.derive(graph.Permute(nodeFor(a, "Permute"), axes))
}

// BroadcastTo returns a stretched to shape by NumPy's broadcasting rules.
func (a *Array) BroadcastTo(shape ...int) *Array {
	return a.derive(graph.BroadcastTo(nodeFor(a, "BroadcastTo"), Shape(shape)))
}

// Slice returns the strided view a[r0, r1, ...]: one Range per leading
// axis, the remaining axes whole. Negative steps walk backwards; a zero
// step or more ranges than axes gives an Array carrying an error.
func (a *Array) Slice(ranges ...Range) *Array {
	return a.derive(sliceNode(ctxOf(a), nodeFor(a, "Slice"), ranges))
}

// Index returns a[i0, i1, ...]: the element indices[k] of axis k, with
// those leading axes removed (as NumPy's integer indexing; a[i] of a
// matrix is its row i). Negative indices count from the end; an index
// out of range gives an Array carrying an error naming it and the extent.
func (a *Array) Index(indices ...int) *Array {
	x := nodeFor(a, "Index")
	if x.Err() != nil {
		return a.derive(x)
	}
	s := x.Shape()
	if len(indices) > len(s) {
		return a.derive(graph.ErrorNode(graph.OpSlice, opErr("Index", []*graph.Node{x},
			"too many indices: %d for array of dimension %d", len(indices), len(s))))
	}
	ranges := make([]Range, len(indices))
	for k, i := range indices {
		if i < -s[k] || i >= s[k] {
			return a.derive(graph.ErrorNode(graph.OpSlice, opErr("Index", []*graph.Node{x},
				"index %d is out of bounds for axis %d with size %d", i, k, s[k])))
		}
		if i < 0 {
			i += s[k]
		}
		ranges[k] = R(i, i+1)
	}
	return a.derive(graph.Reshape(graph.Slice(x, ranges), s[len(indices):].Clone()))
}

// ExpandDims returns a with a new axis of extent 1 inserted at axis (in
// [-rank-1, rank], negative counting from the end of the result).
func (a *Array) ExpandDims(axis int) *Array {
	x := nodeFor(a, "ExpandDims")
	if x.Err() != nil {
		return a.derive(x)
	}
	s := x.Shape()
	ax, err := graph.NormalizeAxis(axis, len(s)+1)
	if err != nil {
		return a.derive(graph.ErrorNode(graph.OpReshape, opErr("ExpandDims", []*graph.Node{x}, "%v", err)))
	}
	out := append(append(s[:ax:ax].Clone(), 1), s[ax:]...)
	return a.derive(graph.Reshape(x, out))
}

// Squeeze returns a without the given axes, which must have extent 1; with
// no axes, without every axis of extent 1.
func (a *Array) Squeeze(axes ...int) *Array {
	x := nodeFor(a, "Squeeze")
	if x.Err() != nil {
		return a.derive(x)
	}
	s := x.Shape()
	drop := make([]bool, len(s))
	if len(axes) == 0 {
		for i, e := range s {
			drop[i] = e == 1
		}
	} else {
		norm, err := graph.NormalizeAxes(axes, len(s))
		if err != nil {
			return a.derive(graph.ErrorNode(graph.OpReshape, opErr("Squeeze", []*graph.Node{x}, "%v", err)))
		}
		for _, ax := range norm {
			if s[ax] != 1 {
				return a.derive(graph.ErrorNode(graph.OpReshape, opErr("Squeeze", []*graph.Node{x},
					"cannot select axis %d, whose extent is %d, not 1", ax, s[ax])))
			}
			drop[ax] = true
		}
	}
	out := Shape{}
	for i, e := range s {
		if !drop[i] {
			out = append(out, e)
		}
	}
	return a.derive(graph.Reshape(x, out))
}

// Flatten returns a as a 1-d array in row-major order.
func (a *Array) Flatten() *Array {
	x := nodeFor(a, "Flatten")
	return a.derive(graph.Reshape(x, Shape{x.Size()}))
}
