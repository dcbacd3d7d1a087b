// Shape: array extents, sizes with overflow checks, NumPy broadcasting and
// axis normalization.

package graph

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Shape lists the extent of each axis, outermost first. A 0-d array has an
// empty shape. Shapes are values: functions here never modify their
// arguments.
type Shape []int

// Rank returns the number of axes.
func (s Shape) Rank() int { return len(s) }

// Size returns the number of elements (1 for a 0-d shape). It assumes the
// shape was validated by CheckShape, which rules out overflow: every node's
// shape is.
func (s Shape) Size() int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// Equal reports whether s and t have the same extents.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy of s that shares no memory with it.
func (s Shape) Clone() Shape {
	if s == nil {
		return Shape{}
	}
	return append(Shape{}, s...)
}

// String formats s as NumPy does: "(3, 4)", "(5,)", "()".
func (s Shape) String() string {
	if len(s) == 1 {
		return fmt.Sprintf("(%d,)", s[0])
	}
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// ContiguousStrides returns the row-major strides of s in elements.
func (s Shape) ContiguousStrides() []int {
	st := make([]int, len(s))
	acc := 1
	for i := len(s) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= s[i]
	}
	return st
}

// CheckShape returns an error when an extent is negative, or when the
// product of the non-zero extents times the element size of d does not
// fit in an int. This is NumPy's rule: zero extents are left out, so a
// shape such as (0, 1<<32, 1<<32) of float64 is too big although it has
// no elements, and every product of a subset of the extents of a valid
// shape (its size, its strides, its byte size) fits in an int. Every
// shape a node gets passes it; it is the one definition of a valid shape.
func CheckShape(s Shape, d DType) error {
	for _, e := range s {
		if e < 0 {
			return fmt.Errorf("negative dimension %d in shape %v", e, s)
		}
	}
	n := max(d.Size(), 1)
	for _, e := range s {
		if e == 0 {
			continue
		}
		var ok bool
		if n, ok = mulExtents(n, e); !ok {
			if slices.Contains(s, 0) {
				return fmt.Errorf("shape %v of %v is too big: its non-zero extents times the %d-byte element size exceed %d bytes",
					s, d, max(d.Size(), 1), math.MaxInt)
			}
			return fmt.Errorf("shape %v of %v needs more than %d bytes", s, d, math.MaxInt)
		}
	}
	return nil
}

// mulExtents returns a*b for non-negative a and b, and whether it fits
// in an int.
func mulExtents(a, b int) (int, bool) {
	if a != 0 && b > math.MaxInt/a {
		return 0, false
	}
	return a * b, true
}

// addExtents returns a+b for non-negative a and b, and whether it fits in
// an int.
func addExtents(a, b int) (int, bool) {
	if a > math.MaxInt-b {
		return 0, false
	}
	return a + b, true
}

// Broadcast returns the NumPy broadcast of shapes: axes are aligned on the
// right and an extent of 1 stretches to match the other.
func Broadcast(shapes ...Shape) (Shape, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make(Shape, rank)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		off := rank - len(s)
		for i, d := range s {
			o := out[off+i]
			switch {
			case o == d || d == 1:
			case o == 1:
				out[off+i] = d
			default:
				return nil, fmt.Errorf("shapes %s cannot be broadcast together", shapeList(shapes))
			}
		}
	}
	return out, nil
}

// broadcast2 is Broadcast of two shapes; when the result is one of them
// (equal shapes, a scalar, a row against a matrix) it returns that shape
// itself, allocating nothing (node shapes are never modified, so the
// result may be shared).
func broadcast2(a, b Shape) (Shape, error) {
	if broadcastsInto(b, a) {
		return a, nil
	}
	if broadcastsInto(a, b) {
		return b, nil
	}
	return Broadcast(a, b)
}

// broadcastsInto reports whether broadcasting s against t gives t.
func broadcastsInto(s, t Shape) bool {
	if len(s) > len(t) {
		return false
	}
	off := len(t) - len(s)
	for i, d := range s {
		if d != 1 && d != t[off+i] {
			return false
		}
	}
	return true
}

func shapeList(shapes []Shape) string {
	parts := make([]string, len(shapes))
	for i, s := range shapes {
		parts[i] = s.String()
	}
	return strings.Join(parts, " ")
}

// NormalizeAxis maps a possibly negative axis into [0, rank).
func NormalizeAxis(axis, rank int) (int, error) {
	if axis < -rank || axis >= rank {
		return 0, fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// NormalizeAxes maps axes into [0, rank), sorted, rejecting repeats. An
// empty or nil list means every axis.
func NormalizeAxes(axes []int, rank int) ([]int, error) {
	if len(axes) == 0 {
		all := make([]int, rank)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	seen := make([]bool, rank)
	out := make([]int, 0, len(axes))
	for _, a := range axes {
		n, err := NormalizeAxis(a, rank)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("repeated axis %d in %v", a, axes)
		}
		seen[n] = true
	}
	for i, s := range seen {
		if s {
			out = append(out, i)
		}
	}
	return out, nil
}
