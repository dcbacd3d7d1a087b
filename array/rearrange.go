// Rearranging views NumPy users reach for: Flip, Roll, Tile, Repeat,
// RepeatCounts, Pad, PadEdge, Diagonal, Triu and Tril. Each is built from
// graph ops every backend has (slices with negative steps, Concat,
// broadcasts and reshapes, Where over iota comparisons), so each fuses
// with what surrounds it and runs everywhere without a kernel of its own.

package array

import (
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// axisRanges returns ranges selecting every element of a rank-r array
// except r on axis ax.
func axisRanges(rank, ax int, r Range) []Range {
	rs := make([]Range, rank)
	for i := range rs {
		rs[i] = All
	}
	rs[ax] = r
	return rs
}

// sliceAxis returns x[..., start:stop, ...] along axis ax.
func sliceAxis(x *graph.Node, ax, start, stop int) *graph.Node {
	return graph.Slice(x, axisRanges(x.Shape().Rank(), ax, R(start, stop)))
}

// withExtent returns s with axis ax set to e.
func withExtent(s Shape, ax, e int) Shape {
	out := s.Clone()
	out[ax] = e
	return out
}

// concatPieces joins the non-empty pieces along ax (the first piece when
// every one is empty, a lone piece as it is).
func concatPieces(ps []*graph.Node, ax int) *graph.Node {
	var keep []*graph.Node
	for _, p := range ps {
		if p.Shape()[ax] > 0 {
			keep = append(keep, p)
		}
	}
	switch len(keep) {
	case 0:
		return ps[0]
	case 1:
		return keep[0]
	}
	return graph.Concat(keep, ax)
}

// Flip returns a with the order of elements along axes reversed (every
// axis when none is given), as NumPy's flip: a strided view, no copy. An
// axis out of range or repeated gives an Array carrying an error.
func (a *Array) Flip(axes ...int) *Array {
	x := nodeFor(a, "Flip")
	if x.Err() != nil {
		return a.derive(x)
	}
	norm, err := graph.NormalizeAxes(axes, x.Shape().Rank())
	if err != nil {
		return a.derive(graph.ErrorNode(graph.OpSlice, opErr("Flip", []*graph.Node{x}, "%v", err)))
	}
	rs := make([]Range, x.Shape().Rank())
	for i := range rs {
		rs[i] = All
	}
	for _, ax := range norm {
		rs[ax] = Rev()
	}
	return a.derive(graph.Slice(x, rs))
}

// Roll returns a with its elements shifted by shift positions along each
// of axes, those pushed past the end coming back at the start, as NumPy's
// roll(a, shift, axis); with no axis, a is rolled as a flat array and
// reshaped back. The result is a Concat of two slices per rolled axis (one
// kernel writing each). An axis out of range gives an Array carrying an
// error.
func (a *Array) Roll(shift int, axes ...int) *Array {
	x := nodeFor(a, "Roll")
	if x.Err() != nil {
		return a.derive(x)
	}
	s := x.Shape()
	if len(axes) == 0 {
		flat := graph.Reshape(x, Shape{x.Size()})
		return a.derive(named("Roll", graph.Reshape(roll(flat, shift, 0), s.Clone()), x))
	}
	y := x
	for _, axis := range axes {
		ax, err := graph.NormalizeAxis(axis, s.Rank())
		if err != nil {
			return a.derive(graph.ErrorNode(graph.OpConcat, opErr("Roll", []*graph.Node{x}, "%v", err)))
		}
		y = roll(y, shift, ax)
	}
	return a.derive(named("Roll", y, x))
}

// roll rolls x by shift along axis ax.
func roll(x *graph.Node, shift, ax int) *graph.Node {
	n := x.Shape()[ax]
	if n == 0 {
		return x
	}
	k := shift % n
	if k < 0 {
		k += n
	}
	if k == 0 {
		return x
	}
	return graph.Concat([]*graph.Node{sliceAxis(x, ax, n-k, n), sliceAxis(x, ax, 0, n-k)}, ax)
}

// Tile returns a repeated reps[i] times along axis i, as NumPy's tile:
// with more reps than axes, a gains leading axes of extent 1; with fewer,
// the reps apply to the trailing axes. Built as a broadcast and a
// reshape, which no strides express: one copy kernel writes the result
// and what reads it reads that buffer. A negative rep gives an Array
// carrying an error.
func (a *Array) Tile(reps ...int) *Array {
	x := nodeFor(a, "Tile")
	if x.Err() != nil {
		return a.derive(x)
	}
	for _, r := range reps {
		if r < 0 {
			return a.derive(graph.ErrorNode(graph.OpBroadcast, opErr("Tile", []*graph.Node{x}, "negative repetition %d in %v", r, reps)))
		}
	}
	s := x.Shape()
	d := max(len(reps), s.Rank())
	full := make(Shape, d)
	rr := make([]int, d)
	for i := range d {
		full[i], rr[i] = 1, 1
	}
	copy(full[d-s.Rank():], s)
	copy(rr[d-len(reps):], reps)
	inter := make(Shape, 0, 2*d)
	wide := make(Shape, 0, 2*d)
	out := make(Shape, d)
	for i := range d {
		if full[i] != 0 && rr[i] > math.MaxInt/full[i] {
			return a.derive(graph.ErrorNode(graph.OpBroadcast, opErr("Tile", []*graph.Node{x}, "repetitions %v overflow the extents", reps)))
		}
		inter = append(inter, 1, full[i])
		wide = append(wide, rr[i], full[i])
		out[i] = rr[i] * full[i]
	}
	if err := graph.CheckShape(out, x.DType()); err != nil {
		return a.derive(graph.ErrorNode(graph.OpBroadcast, opErr("Tile", []*graph.Node{x}, "%v", err)))
	}
	y := graph.Reshape(graph.BroadcastTo(graph.Reshape(x, inter), wide), out)
	return a.derive(named("Tile", y, x))
}

// Repeat returns a with each element repeated repeats times along axis,
// consecutively, as NumPy's repeat(a, repeats, axis); with no axis, a is
// flattened first. Built as a broadcast and a reshape, written by one
// copy kernel as Tile's result is. A negative count,
// more than one axis or an axis out of range gives an Array carrying an
// error.
func (a *Array) Repeat(repeats int, axis ...int) *Array {
	x, ax, bad := repeatAxis(a, "Repeat", axis)
	if bad != nil {
		return a.derive(bad)
	}
	if repeats < 0 {
		return a.derive(graph.ErrorNode(graph.OpBroadcast, opErr("Repeat", []*graph.Node{x}, "negative count %d", repeats)))
	}
	if e := x.Shape()[ax]; e != 0 && repeats > math.MaxInt/e {
		return a.derive(graph.ErrorNode(graph.OpBroadcast, opErr("Repeat", []*graph.Node{x}, "count %d overflows the extent %d", repeats, e)))
	}
	return a.derive(named("Repeat", repeatEach(x, ax, repeats), x))
}

// repeatAxis returns a's node (flattened when axis is empty) and the
// normalized axis, or an error node.
func repeatAxis(a *Array, name string, axis []int) (*graph.Node, int, *graph.Node) {
	x := nodeFor(a, name)
	if x.Err() != nil {
		return x, 0, x
	}
	switch len(axis) {
	case 0:
		return graph.Reshape(x, Shape{x.Size()}), 0, nil
	case 1:
	default:
		return x, 0, graph.ErrorNode(graph.OpBroadcast, opErr(name, []*graph.Node{x}, "one axis at most, got %v", axis))
	}
	ax, err := graph.NormalizeAxis(axis[0], x.Shape().Rank())
	if err != nil {
		return x, 0, graph.ErrorNode(graph.OpBroadcast, opErr(name, []*graph.Node{x}, "%v", err))
	}
	return x, ax, nil
}

// repeatEach repeats every element of x along ax r times: x reshaped with
// an axis of extent 1 after ax, broadcast to r there, reshaped to merge.
func repeatEach(x *graph.Node, ax, r int) *graph.Node {
	if r == 1 {
		return x
	}
	s := x.Shape()
	inter := append(append(s[:ax+1:ax+1].Clone(), 1), s[ax+1:]...)
	wide := inter.Clone()
	wide[ax+1] = r
	return graph.Reshape(graph.BroadcastTo(graph.Reshape(x, inter), wide), withExtent(s, ax, s[ax]*r))
}

// RepeatCounts returns a with element i along axis repeated counts[i]
// times, as NumPy's repeat with an array of counts; with no axis, a is
// flattened first. One count applies to every element. Runs of equal
// counts become one broadcast piece each, joined by a Concat. Counts of
// another length than the axis's extent, a negative count, more than one
// axis or an axis out of range give an Array carrying an error.
func (a *Array) RepeatCounts(counts []int, axis ...int) *Array {
	x, ax, bad := repeatAxis(a, "RepeatCounts", axis)
	if bad != nil {
		return a.derive(bad)
	}
	n := x.Shape()[ax]
	if len(counts) == 1 {
		return a.Repeat(counts[0], axis...)
	}
	if len(counts) != n {
		return a.derive(graph.ErrorNode(graph.OpConcat, opErr("RepeatCounts", []*graph.Node{x},
			"%d counts for an axis of extent %d", len(counts), n)))
	}
	total := 0
	for _, c := range counts {
		if c < 0 {
			return a.derive(graph.ErrorNode(graph.OpConcat, opErr("RepeatCounts", []*graph.Node{x}, "negative count %d", c)))
		}
		if c > math.MaxInt-total {
			return a.derive(graph.ErrorNode(graph.OpConcat, opErr("RepeatCounts", []*graph.Node{x}, "counts %v overflow the extent", counts)))
		}
		total += c
	}
	if err := graph.CheckShape(withExtent(x.Shape(), ax, total), x.DType()); err != nil {
		return a.derive(graph.ErrorNode(graph.OpConcat, opErr("RepeatCounts", []*graph.Node{x}, "%v", err)))
	}
	pieces := []*graph.Node{sliceAxis(x, ax, 0, 0)}
	for i := 0; i < n; {
		j := i + 1
		for j < n && counts[j] == counts[i] {
			j++
		}
		if counts[i] > 0 {
			pieces = append(pieces, repeatEach(sliceAxis(x, ax, i, j), ax, counts[i]))
		}
		i = j
	}
	return a.derive(named("RepeatCounts", concatPieces(pieces, ax), x))
}

// padWidths checks widths against x's rank (one pair per axis, or one
// pair for every axis) and returns one pair per axis, or an error node.
func padWidths(name string, x *graph.Node, widths [][2]int) ([][2]int, *graph.Node) {
	r := x.Shape().Rank()
	switch {
	case len(widths) == 1 && r != 1:
		w := make([][2]int, r)
		for i := range w {
			w[i] = widths[0]
		}
		widths = w
	case len(widths) != r:
		return nil, graph.ErrorNode(graph.OpConcat, opErr(name, []*graph.Node{x},
			"%d (before, after) pairs for an array of dimension %d", len(widths), r))
	}
	out := x.Shape().Clone()
	for ax, w := range widths {
		if w[0] < 0 || w[1] < 0 {
			return nil, graph.ErrorNode(graph.OpConcat, opErr(name, []*graph.Node{x},
				"negative pad width %v on axis %d", w, ax))
		}
		if w[0] > math.MaxInt-out[ax] || w[1] > math.MaxInt-out[ax]-w[0] {
			return nil, graph.ErrorNode(graph.OpConcat, opErr(name, []*graph.Node{x},
				"pad width %v on axis %d overflows its extent", w, ax))
		}
		out[ax] += w[0] + w[1]
	}
	if err := graph.CheckShape(out, x.DType()); err != nil {
		return nil, graph.ErrorNode(graph.OpConcat, opErr(name, []*graph.Node{x}, "%v", err))
	}
	return widths, nil
}

// Pad returns a with widths[i][0] elements of value before and
// widths[i][1] after it along each axis i, as NumPy's pad(a, widths,
// constant_values=value) (one pair applies to every axis). value is a Go
// number converted to a's dtype as Full converts it. Each padded axis is a
// Concat of three pieces. Negative widths, a count of pairs other than 1
// or the rank, or a value that is not a Go number give an Array carrying
// an error.
func (a *Array) Pad(widths [][2]int, value any) *Array {
	x := nodeFor(a, "Pad")
	if x.Err() != nil {
		return a.derive(x)
	}
	ws, bad := padWidths("Pad", x, widths)
	if bad != nil {
		return a.derive(bad)
	}
	w, ok := graph.WeakOf(value)
	if !ok {
		return a.derive(graph.ErrorNode(graph.OpConcat, opErr("Pad", []*graph.Node{x}, "unsupported value type %T (want a Go number or bool)", value)))
	}
	v, err := w.Value(x.DType())
	if err != nil {
		return a.derive(graph.ErrorNode(graph.OpConcat, opErr("Pad", []*graph.Node{x}, "%v", err)))
	}
	fill := graph.Const(v)
	y := x
	for ax, p := range ws {
		s := y.Shape()
		y = concatPieces([]*graph.Node{
			graph.BroadcastTo(fill, withExtent(s, ax, p[0])), y, graph.BroadcastTo(fill, withExtent(s, ax, p[1])),
		}, ax)
	}
	return a.derive(named("Pad", y, x))
}

// PadEdge returns a padded as Pad pads it, with copies of the edge
// element of each axis instead of a constant (NumPy's mode="edge").
// Padding an empty axis, negative widths or a count of pairs other than 1
// or the rank give an Array carrying an error.
func (a *Array) PadEdge(widths [][2]int) *Array {
	x := nodeFor(a, "PadEdge")
	if x.Err() != nil {
		return a.derive(x)
	}
	ws, bad := padWidths("PadEdge", x, widths)
	if bad != nil {
		return a.derive(bad)
	}
	y := x
	for ax, p := range ws {
		s := y.Shape()
		n := s[ax]
		if p == [2]int{} {
			continue
		}
		if n == 0 {
			return a.derive(graph.ErrorNode(graph.OpConcat, opErr("PadEdge", []*graph.Node{x},
				"cannot extend empty axis %d with edge values", ax)))
		}
		y = concatPieces([]*graph.Node{
			graph.BroadcastTo(sliceAxis(y, ax, 0, 1), withExtent(s, ax, p[0])),
			y,
			graph.BroadcastTo(sliceAxis(y, ax, n-1, n), withExtent(s, ax, p[1])),
		}, ax)
	}
	return a.derive(named("PadEdge", y, x))
}

// Diagonal returns the diagonal a[..., i, i+offset] of the planes spanned
// by axis1 and axis2, as NumPy's diagonal(offset, axis1, axis2): those
// two axes are removed and the diagonal becomes the last axis. A strided
// view when axis1 and axis2 are the last two axes of a contiguous array
// (the planner copies the planes first otherwise). Equal axes or an axis
// out of range give an Array carrying an error.
func (a *Array) Diagonal(offset, axis1, axis2 int) *Array {
	x := nodeFor(a, "Diagonal")
	if x.Err() != nil {
		return a.derive(x)
	}
	s := x.Shape()
	fail := func(format string, args ...any) *Array {
		return a.derive(graph.ErrorNode(graph.OpSlice, opErr("Diagonal", []*graph.Node{x}, format, args...)))
	}
	if s.Rank() < 2 {
		return fail("diag requires an array of at least two dimensions")
	}
	a1, err1 := graph.NormalizeAxis(axis1, s.Rank())
	a2, err2 := graph.NormalizeAxis(axis2, s.Rank())
	switch {
	case err1 != nil:
		return fail("axis1: %v", err1)
	case err2 != nil:
		return fail("axis2: %v", err2)
	case a1 == a2:
		return fail("axis1 and axis2 cannot be the same")
	}
	return a.derive(named("Diagonal", diagonalOf(x, offset, a1, a2), x))
}

// diagonalOf returns the diagonal of x over the distinct normalized axes
// a1 and a2, appended as the last axis (see Diagonal).
func diagonalOf(x *graph.Node, offset, a1, a2 int) *graph.Node {
	s := x.Shape()
	perm := make([]int, 0, s.Rank())
	batch := Shape{}
	for i := range s.Rank() {
		if i != a1 && i != a2 {
			perm = append(perm, i)
			batch = append(batch, s[i])
		}
	}
	perm = append(perm, a1, a2)
	n, m := s[a1], s[a2]
	length, start := 0, 0
	if offset >= 0 {
		length, start = min(n, m-offset), offset
	} else {
		length, start = min(n+offset, m), -offset*m
	}
	length = max(length, 0)
	flat := graph.Reshape(graph.Permute(x, perm), append(batch.Clone(), n*m))
	r := R(0, 0)
	if length > 0 {
		r = RS(start, start+(length-1)*(m+1)+1, m+1)
	}
	return graph.Slice(flat, axisRanges(batch.Rank()+1, batch.Rank(), r))
}

// Triu returns a with the elements below the k-th diagonal of its last
// two axes zeroed (kept where column - row >= k), as NumPy's triu; a 1-d
// a is first broadcast to a square matrix, as NumPy does. One fused
// elementwise Where over iota comparisons. A 0-d a gives an Array
// carrying an error.
func (a *Array) Triu(k int) *Array { return a.triangle("Triu", k, graph.OpGe) }

// Tril returns a with the elements above the k-th diagonal of its last
// two axes zeroed (kept where column - row <= k), as NumPy's tril.
func (a *Array) Tril(k int) *Array { return a.triangle("Tril", k, graph.OpLe) }

func (a *Array) triangle(name string, k int, cmp graph.Op) *Array {
	x := nodeFor(a, name)
	if x.Err() != nil {
		return a.derive(x)
	}
	s := x.Shape()
	if s.Rank() == 0 {
		return a.derive(graph.ErrorNode(graph.OpWhere, opErr(name, []*graph.Node{x}, "a 0-d array has no diagonal")))
	}
	n, m := s[s.Rank()-1], s[s.Rank()-1]
	if s.Rank() >= 2 {
		n = s[s.Rank()-2]
	}
	rows := graph.Reshape(graph.Iota(Int64, n, 0, 1, false, 0), Shape{n, 1})
	cols := graph.Reshape(graph.Iota(Int64, m, 0, 1, false, 0), Shape{1, m})
	diff := graph.Binary(graph.OpSub, cols, rows)
	mask := graph.Binary(cmp, diff, graph.Const(graph.Scalar{DType: Int64, I: int64(k), F: float64(k)}))
	zero := graph.Const(graph.ScalarOf(x.DType(), 0))
	return a.derive(named(name, graph.Where(mask, x, zero), x))
}
