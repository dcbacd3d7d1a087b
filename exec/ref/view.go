// Views and copies: Reshape, Permute, BroadcastTo, Slice, Contiguous and
// Concat, all materialized as new contiguous tensors by copying elements
// bit for bit through strided layouts.

package ref

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// viewLayout returns where the elements of view node n (shape n.Shape())
// lie in x's buffer:
//
//   - Permute: axis i of the result is axis Perm[i] of x.
//   - BroadcastTo: NumPy broadcasting (stride 0 on stretched axes).
//   - Slice: element i along an axis is x's element Start + i*Step.
func viewLayout(n *graph.Node, x *exec.Tensor) graph.Layout {
	a := n.Attr()
	switch n.Op() {
	case graph.OpPermute:
		st := make([]int, len(a.Perm))
		for i, p := range a.Perm {
			st[i] = x.Strides[p]
		}
		return graph.Layout{DType: x.DType, Shape: n.Shape(), Strides: st, Offset: x.Offset}
	case graph.OpBroadcast:
		return broadcastLayout(x, n.Shape())
	case graph.OpSlice:
		st := make([]int, len(a.Slices))
		off := x.Offset
		for i, sp := range a.Slices {
			st[i] = x.Strides[i] * sp.Step
			if sp.Len > 0 {
				off += sp.Start * x.Strides[i]
			}
		}
		return graph.Layout{DType: x.DType, Shape: n.Shape(), Strides: st, Offset: off}
	}
	panic("ref: viewLayout of " + n.Op().String())
}

// view materializes view node n (or Contiguous) of x. Reshape and
// Contiguous walk x's shape, the other views the node's shape; either way
// the result is written in row-major order.
func view(alloc memory.Allocator, n *graph.Node, x *exec.Tensor) (*exec.Tensor, error) {
	out, err := exec.NewTensor(alloc, n.DType(), n.Shape())
	if err != nil {
		return nil, err
	}
	if n.Op() == graph.OpReshape || n.Op() == graph.OpCopy {
		copyElems(out, contiguous(x.Shape), x, layoutOf(x), x.Shape)
	} else {
		copyElems(out, contiguous(n.Shape()), x, viewLayout(n, x), n.Shape())
	}
	return out, nil
}

// concat joins xs along Attr.Axis into a new contiguous tensor.
func concat(alloc memory.Allocator, n *graph.Node, xs []*exec.Tensor) (*exec.Tensor, error) {
	out, err := exec.NewTensor(alloc, n.DType(), n.Shape())
	if err != nil {
		return nil, err
	}
	ax := n.Attr().Axis
	dst := contiguous(n.Shape())
	for _, x := range xs {
		copyElems(out, dst, x, layoutOf(x), x.Shape)
		dst.Offset += x.Shape[ax] * dst.Strides[ax]
	}
	return out, nil
}

// copyElems copies the elements of shape s from src (read through sl) to
// dst (written through dl); both have the same dtype. Bool bytes are
// normalized to 0 or 1.
func copyElems(dst *exec.Tensor, dl graph.Layout, src *exec.Tensor, sl graph.Layout, s graph.Shape) {
	if s.Size() == 0 {
		return
	}
	it := newIter(s, dl, sl)
	switch dst.DType.Size() {
	case 1:
		copyStrided(exec.Elems[uint8](dst), exec.Elems[uint8](src), it, s.Size())
		if dst.DType == graph.Bool {
			b := exec.Elems[uint8](dst)
			for k, v := range b {
				if v != 0 {
					b[k] = 1
				}
			}
		}
	case 2:
		copyStrided(exec.Elems[uint16](dst), exec.Elems[uint16](src), it, s.Size())
	case 4:
		copyStrided(exec.Elems[uint32](dst), exec.Elems[uint32](src), it, s.Size())
	case 8:
		copyStrided(exec.Elems[uint64](dst), exec.Elems[uint64](src), it, s.Size())
	default:
		panic("ref: copy of unsupported element size")
	}
}

func copyStrided[T any](dst, src []T, it *iter, n int) {
	for range n {
		dst[it.off[0]] = src[it.off[1]]
		it.next()
	}
}
