// Views as stride arithmetic: the transforms that map a value's layout
// through broadcasts, Permute, Slice and Reshape into the coordinates of a
// kernel's iteration space.

package fuse

import (
	"fmt"
	"strconv"

	"github.com/fuseflow/fuseflow/graph"
)

// stepKind is one kind of index transform.
type stepKind uint8

const (
	stepBroadcast stepKind = iota + 1 // from shape to shape, NumPy rules
	stepPermute                       // perm
	stepSlice                         // slices
	stepReshape                       // from shape to shape, no copy
	stepEmbed                         // reduction output shape into a reduce kernel's space
)

// step maps strides over shape `from` to strides over shape `to`.
type step struct {
	kind     stepKind
	from, to graph.Shape
	perm     []int
	slices   []graph.SliceSpec
	// stepEmbed: the reduced axes of the space (len(to)) and whether the
	// output kept them as extent 1.
	reduced  []bool
	keepDims bool
	// at is the Reshape node of a stepReshape, to name what to
	// materialize when the reshape cannot be expressed.
	at *graph.Node
}

// reshapeError reports a Reshape that cannot be expressed as strides of
// the view below it; the planner then materializes that view.
type reshapeError struct{ at *graph.Node }

func (e *reshapeError) Error() string {
	return fmt.Sprintf("reshape of a non-contiguous view at %v", e.at.Op())
}

// apply maps (offset, strides over s.from) to strides over s.to. ok is
// false for a Reshape the strides cannot express.
func (s *step) apply(off int, st []int) (int, []int, bool) {
	switch s.kind {
	case stepBroadcast:
		out := make([]int, len(s.to))
		d := len(s.to) - len(s.from)
		for j := range s.to {
			i := j - d
			if i >= 0 && !(s.from[i] == 1 && s.to[j] != 1) {
				out[j] = st[i]
			}
		}
		return off, out, true
	case stepPermute:
		out := make([]int, len(s.perm))
		for i, p := range s.perm {
			out[i] = st[p]
		}
		return off, out, true
	case stepSlice:
		out := make([]int, len(st))
		for i, sp := range s.slices {
			if sp.Len > 0 {
				off += sp.Start * st[i]
			}
			out[i] = st[i] * sp.Step
		}
		return off, out, true
	case stepReshape:
		out, ok := reshapeStrides(s.from, st, s.to)
		return off, out, ok
	case stepEmbed:
		out := make([]int, len(s.reduced))
		k := 0
		for j, r := range s.reduced {
			switch {
			case r:
				if s.keepDims {
					k++
				}
			default:
				out[j] = st[k]
				k++
			}
		}
		return off, out, true
	}
	panic("fuse: unknown view step")
}

// reshapeStrides returns strides over shape to for the elements laid out
// with strides st over shape from, in row-major order, without moving
// them, or ok false when no such strides exist (NumPy's no-copy reshape).
func reshapeStrides(from graph.Shape, st []int, to graph.Shape) ([]int, bool) {
	if from.Size() == 0 {
		return to.ContiguousStrides(), true
	}
	return regroup(from, st, to, 1,
		func(s, k int) int { return s * k },
		func(outer, want int) bool { return outer == want })
}

// regroup is the grouping of axes behind a no-copy reshape of a
// non-empty shape, over strides of any kind T: the axes of from other
// than extent-1 ones and the axes of to are cut into runs of the same
// product. Within a run of from, each stride must be the next one scaled
// by that one's extent (join(outer, scale(inner, extent)) says whether
// it is, and false stops the reshape); the run of to gets the innermost
// stride of the run of from, scaled outward by to's extents. Trailing
// extents of 1 in to get the stride one.
func regroup[T any](from graph.Shape, st []T, to graph.Shape, one T, scale func(T, int) T, join func(outer, want T) bool) ([]T, bool) {
	out := make([]T, len(to))
	var od []int // from without extent-1 axes
	var os []T
	for i, e := range from {
		if e != 1 {
			od = append(od, e)
			os = append(os, st[i])
		}
	}
	ni, oi := 0, 0
	for ni < len(to) && oi < len(od) {
		nj, oj := ni+1, oi+1
		np, op := to[ni], od[oi]
		for np != op {
			if np < op {
				np *= to[nj]
				nj++
			} else {
				op *= od[oj]
				oj++
			}
		}
		for k := oi; k < oj-1; k++ {
			if !join(os[k], scale(os[k+1], od[k+1])) {
				return nil, false
			}
		}
		out[nj-1] = os[oj-1]
		for k := nj - 1; k > ni; k-- {
			out[k-1] = scale(out[k], to[k])
		}
		ni, oi = nj, oj
	}
	for ; ni < len(to); ni++ {
		out[ni] = one
	}
	return out, true
}

// xform is a chain of steps from a value up to a kernel's iteration
// space, interned per kernel build. sid is the same for chains that map
// strides the same way: it is the memo key of common subexpressions. id
// also tells apart chains through different Reshape nodes of the same
// shapes, so that a Reshape the strides cannot express is named exactly
// (see step.appendNode). m is the chain composed into one map (see
// composed), so applying a transform costs the rank of the value, not
// the depth of the chain.
type xform struct {
	parent  *xform // nearer the space; nil for the identity
	st      step
	id, sid int
	m       *smap
	mdone   bool // m is computed
}

// composed returns the chain composed into one map, computing it (and
// those of the transforms above without one) on first use: transforms
// only constants are read through never need it. nil for the identity,
// or when the composition overflows: the steps are then applied one by
// one.
func (t *xform) composed() *smap {
	if t.mdone || t.parent == nil {
		return t.m
	}
	var todo []*xform
	for c := t; c.parent != nil && !c.mdone; c = c.parent {
		todo = append(todo, c)
	}
	for k := len(todo) - 1; k >= 0; k-- {
		c := todo[k]
		c.m = stepSmap(&c.st, c.st.inRank(), c)
		if c.parent.parent != nil {
			c.m = compose(c.parent.m, c.m)
		}
		c.mdone = true
	}
	return t.m
}

// xforms interns transforms.
type xforms struct {
	byKey  map[string]*xform
	sidKey map[string]int
	ident  *xform
	n, ns  int
	buf    []byte
}

func newXforms() *xforms {
	return &xforms{byKey: map[string]*xform{}, sidKey: map[string]int{}, ident: &xform{}}
}

// child returns the transform of parent preceded by st (st is applied
// first, then parent's chain).
func (x *xforms) child(parent *xform, st step) *xform {
	x.buf = strconv.AppendInt(x.buf[:0], int64(parent.id), 10)
	x.buf = append(x.buf, '/')
	x.buf = st.appendKey(x.buf)
	x.buf = st.appendNode(x.buf)
	if t, ok := x.byKey[string(x.buf)]; ok {
		return t
	}
	x.n++
	t := &xform{parent: parent, st: st, id: x.n}
	x.byKey[string(x.buf)] = t
	x.buf = strconv.AppendInt(x.buf[:0], int64(parent.sid), 10)
	x.buf = append(x.buf, '/')
	x.buf = st.appendKey(x.buf)
	sid, ok := x.sidKey[string(x.buf)]
	if !ok {
		x.ns++
		sid = x.ns
		x.sidKey[string(x.buf)] = sid
	}
	t.sid = sid
	return t
}

// inRank returns the rank of the strides the step maps.
func (st *step) inRank() int {
	switch st.kind {
	case stepPermute:
		return len(st.perm)
	case stepSlice:
		return len(st.slices)
	case stepEmbed:
		n := 0
		for _, r := range st.reduced {
			if !r || st.keepDims {
				n++
			}
		}
		return n
	}
	return len(st.from)
}

// key encodes the step: equal keys map strides the same way.
func (st *step) key() string { return string(st.appendKey(nil)) }

// appendNode appends the identity of a Reshape step's node: two Reshapes
// of the same shapes over different values fail or not independently,
// and a failure must name the one to materialize.
func (st *step) appendNode(b []byte) []byte {
	if st.kind == stepReshape && st.at != nil {
		b = append(b, '#')
		b = strconv.AppendUint(b, st.at.ID(), 10)
	}
	return b
}

func (st *step) appendKey(b []byte) []byte {
	b = strconv.AppendInt(b, int64(st.kind), 10)
	for _, v := range [][]int{st.from, st.to, st.perm} {
		b = append(b, ':')
		for _, e := range v {
			b = strconv.AppendInt(b, int64(e), 10)
			b = append(b, ',')
		}
	}
	for _, sp := range st.slices {
		b = strconv.AppendInt(b, int64(sp.Start), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(sp.Step), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(sp.Len), 10)
		b = append(b, ',')
	}
	for _, r := range st.reduced {
		if r {
			b = append(b, 'r')
		} else {
			b = append(b, 'k')
		}
	}
	if st.keepDims {
		b = append(b, 'K')
	}
	return b
}

// apply maps a layout (offset, strides over the value's shape) through
// every step to the space. It returns a *reshapeError for a Reshape the
// strides cannot express.
func (t *xform) apply(off int, st []int) (int, []int, error) {
	off, st, fx := t.applyAt(off, st)
	if fx != nil {
		return 0, nil, &reshapeError{at: fx.st.at}
	}
	return off, st, nil
}

// applyAt is apply returning the transform whose Reshape fails (the one
// nearest the value), or nil.
func (t *xform) applyAt(off int, st []int) (int, []int, *xform) {
	if m := t.composed(); m != nil {
		if o, s, fx, ok := m.eval(off, st); ok {
			return o, s, fx
		}
	}
	return t.applySteps(off, st)
}

// cost is the work of applyAt: the terms of the composed map, or the
// steps.
func (t *xform) cost() int {
	if m := t.composed(); m != nil {
		return 1 + len(m.conds) + len(m.out)
	}
	n := 1
	for c := t; c.parent != nil; c = c.parent {
		n++
	}
	return n
}

// applySteps applies the steps one by one.
func (t *xform) applySteps(off int, st []int) (int, []int, *xform) {
	for c := t; c.parent != nil; c = c.parent {
		var ok bool
		off, st, ok = c.st.apply(off, st)
		if !ok {
			return 0, nil, c
		}
	}
	return off, st, nil
}

// inputStep returns the step from input i of n to n's own coordinates, or
// ok false when the two coordinate systems are the same.
func inputStep(n *graph.Node, i int) (step, bool) {
	in := n.Input(i)
	switch n.Op() {
	case graph.OpPermute:
		return step{kind: stepPermute, perm: n.Attr().Perm}, true
	case graph.OpSlice:
		return step{kind: stepSlice, slices: n.Attr().Slices}, true
	case graph.OpReshape:
		return step{kind: stepReshape, from: in.Shape(), to: n.Shape(), at: n}, true
	}
	if in.Shape().Equal(n.Shape()) {
		return step{}, false
	}
	return step{kind: stepBroadcast, from: in.Shape(), to: n.Shape()}, true
}
