// Strided iteration: walking a shape in row-major order while tracking
// element offsets in one or more strided layouts, and the broadcast
// layout of a tensor stretched to a larger shape.

package ref

import (
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// layoutOf returns t's own layout.
func layoutOf(t *exec.Tensor) graph.Layout { return t.Layout }

// contiguous returns the row-major layout of s.
func contiguous(s graph.Shape) graph.Layout {
	return graph.Layout{Shape: s, Strides: s.ContiguousStrides()}
}

// broadcastLayout returns the layout that reads t stretched to shape s by
// NumPy's rules: axes aligned on the right, stride 0 where t has extent 1
// (or no axis at all) and s does not. t's shape must broadcast to s.
func broadcastLayout(t *exec.Tensor, s graph.Shape) graph.Layout {
	st := make([]int, len(s))
	off := len(s) - len(t.Shape)
	for i := range t.Shape {
		if t.Shape[i] == s[off+i] {
			st[off+i] = t.Strides[i]
		}
	}
	return graph.Layout{DType: t.DType, Shape: s, Strides: st, Offset: t.Offset}
}

// iter walks the multi-indices of a shape in row-major order; off[j] is
// the offset of the current element in layout j.
type iter struct {
	shape   graph.Shape
	idx     []int
	strides [][]int
	off     []int
}

// newIter starts at element 0 of shape in every layout.
func newIter(shape graph.Shape, ls ...graph.Layout) *iter {
	it := &iter{shape: shape, idx: make([]int, len(shape)), strides: make([][]int, len(ls)), off: make([]int, len(ls))}
	for j, l := range ls {
		it.strides[j] = l.Strides
		it.off[j] = l.Offset
	}
	return it
}

// next advances to the following element. Past the last element the
// offsets are meaningless.
func (it *iter) next() {
	for ax := len(it.shape) - 1; ax >= 0; ax-- {
		it.idx[ax]++
		for j := range it.off {
			it.off[j] += it.strides[j][ax]
		}
		if it.idx[ax] < it.shape[ax] {
			return
		}
		for j := range it.off {
			it.off[j] -= it.strides[j][ax] * it.shape[ax]
		}
		it.idx[ax] = 0
	}
}
