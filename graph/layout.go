// Layout: how the elements of a value lie in a buffer (dtype, shape,
// strides and offset in elements), the one description of a strided view
// that the planner, the executors and their tensors share.

package graph

import "slices"

// Layout describes how the elements of a value lie in a buffer: element
// (i0, i1, ...) of a value of shape Shape is element
// Offset + sum(ik*Strides[k]) of the buffer, counted in elements of DType
// (not bytes). A stride of 0 repeats (broadcasts) an axis; strides may be
// negative (a reversed slice). len(Strides) == len(Shape). A Layout is a
// value; its methods never modify it. exec.Tensor is a Layout over a
// buffer.
type Layout struct {
	DType   DType
	Shape   Shape
	Strides []int
	Offset  int
}

// ContiguousLayout returns the dense row-major layout of d and s at
// offset 0.
func ContiguousLayout(d DType, s Shape) Layout {
	return Layout{DType: d, Shape: s.Clone(), Strides: s.ContiguousStrides()}
}

// InputLayouts returns the contiguous layout (ContiguousLayout of its
// dtype and shape) of every input under roots: the layouts of inputs
// bound to fresh dense buffers, as fuse.Build takes them. Nil roots are
// passed over.
func InputLayouts(roots ...*Node) map[*Node]Layout {
	out := map[*Node]Layout{}
	for _, n := range Topo(roots...) {
		if n.op == OpInput {
			out[n] = ContiguousLayout(n.dtype, n.shape)
		}
	}
	return out
}

// Size returns the number of elements of the view.
func (l Layout) Size() int { return l.Shape.Size() }

// Contiguous reports whether l is dense row-major (extents of 1 may have
// any stride), whatever its Offset. A view without elements is.
func (l Layout) Contiguous() bool {
	acc := 1
	for i := len(l.Shape) - 1; i >= 0; i-- {
		if l.Shape[i] != 1 && l.Strides[i] != acc {
			return l.Shape.Size() == 0
		}
		acc *= l.Shape[i]
	}
	return true
}

// Index returns the buffer element index of the element at multi-index
// idx.
func (l Layout) Index(idx []int) int {
	o := l.Offset
	for k, i := range idx {
		o += i * l.Strides[k]
	}
	return o
}

// Span returns the lowest and the highest element index of the buffer
// the view touches; for a view without elements it returns 0, -1.
func (l Layout) Span() (lo, hi int) {
	lo, hi = l.Offset, l.Offset
	for k, n := range l.Shape {
		if n == 0 {
			return 0, -1
		}
		d := (n - 1) * l.Strides[k]
		if d < 0 {
			lo += d
		} else {
			hi += d
		}
	}
	return lo, hi
}

// Equal reports whether l and m are the same view: the same dtype,
// shape, strides and offset.
func (l Layout) Equal(m Layout) bool {
	return l.DType == m.DType && l.Offset == m.Offset && l.Shape.Equal(m.Shape) && slices.Equal(l.Strides, m.Strides)
}

// Clone returns a copy of l that shares no memory with it.
func (l Layout) Clone() Layout {
	return Layout{DType: l.DType, Shape: l.Shape.Clone(), Strides: slices.Clone(l.Strides), Offset: l.Offset}
}
