// Tensor: a strided view of a host buffer, the unit backends exchange.

package exec

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/graph"
)

// Tensor is a strided view of elements in a host buffer (Buf) or in device
// memory (Dev, with Buf nil): its Layout places element (i0, i1, ...) at
// index Offset + sum(ik*Strides[k]) of the buffer's elements of DType
// (strides in elements, 0 for a broadcast axis). A Tensor holds one
// reference to its buffer; Release drops it. Tensors are not safe for
// concurrent mutation; concurrent reads are fine.
type Tensor struct {
	Buf *memory.Buffer
	Dev DeviceBuffer
	graph.Layout
}

// NewTensor allocates a contiguous tensor of dtype d and shape s from
// alloc. The caller owns the result and must Release it. Its bytes are
// zeroed. An invalid shape is an error; a tensor larger than
// AllocLimit(alloc), or an allocator that panics, gives a *MemoryError
// (see CheckAlloc).
func NewTensor(alloc memory.Allocator, d graph.DType, s graph.Shape) (*Tensor, error) {
	if alloc == nil {
		return nil, fmt.Errorf("exec: NewTensor of %v %v: nil allocator", s, d)
	}
	if err := CheckAlloc(alloc, d, s); err != nil {
		return nil, err
	}
	buf := memory.NewResizableBuffer(alloc)
	n := s.Size() * d.Size()
	if err := allocate(buf, n, d, s); err != nil {
		buf.Release()
		return nil, err
	}
	b := buf.Bytes()
	clear(b)
	return &Tensor{Buf: buf, Layout: graph.ContiguousLayout(d, s)}, nil
}

// Wrap returns a contiguous tensor over buf (which it retains).
func Wrap(buf *memory.Buffer, d graph.DType, s graph.Shape) (*Tensor, error) {
	if err := graph.CheckShape(s, d); err != nil {
		return nil, err
	}
	if need := s.Size() * d.Size(); buf.Len() < need {
		return nil, fmt.Errorf("exec: buffer of %d bytes is too small for %v %v (%d bytes)", buf.Len(), s, d, need)
	}
	buf.Retain()
	return &Tensor{Buf: buf, Layout: graph.ContiguousLayout(d, s)}, nil
}

// Release drops the tensor's reference to its buffer. It is safe to call
// on a nil tensor and more than once.
func (t *Tensor) Release() {
	if t == nil {
		return
	}
	if t.Buf != nil {
		t.Buf.Release()
		t.Buf = nil
	}
	if t.Dev != nil {
		t.Dev.Release()
		t.Dev = nil
	}
}

// OnDevice reports whether the tensor's elements live in device memory.
func (t *Tensor) OnDevice() bool { return t.Buf == nil && t.Dev != nil }

// View returns a new tensor over the same buffer (retained) with the given
// layout. The caller owns it.
func (t *Tensor) View(s graph.Shape, strides []int, offset int) *Tensor {
	return t.ViewAs(graph.Layout{DType: t.DType, Shape: s, Strides: strides, Offset: offset})
}

// ViewAs returns a new tensor over the same buffer (retained) with layout
// l (copied). The caller owns it.
func (t *Tensor) ViewAs(l graph.Layout) *Tensor {
	if t.Buf != nil {
		t.Buf.Retain()
	}
	if t.Dev != nil {
		t.Dev.Retain()
	}
	return &Tensor{Buf: t.Buf, Dev: t.Dev, Layout: l.Clone()}
}

// Bytes returns the bytes of the whole underlying buffer.
func (t *Tensor) Bytes() []byte { return t.Buf.Bytes() }

// Elems returns the whole underlying buffer as a slice of T, which must
// match the tensor's dtype in size (bool is one byte: use uint8 or bool).
// The slice aliases the buffer.
func Elems[T any](t *Tensor) []T {
	b := t.Buf.Bytes()
	var z T
	sz := int(unsafe.Sizeof(z))
	if sz != t.DType.Size() {
		panic(fmt.Sprintf("exec.Elems: element size %d does not match %v", sz, t.DType))
	}
	if len(b) < sz {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/sz)
}
