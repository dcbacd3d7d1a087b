// Uninitialized tensors: the allocation path for results a kernel
// overwrites completely, which need not pay for clearing their bytes.

package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/graph"
)

// NewTensorUninit is NewTensor without the clearing: the bytes are
// whatever alloc hands out (garbage from a Pool's cache, zeroes from a Go
// allocator). Use it only for tensors whose every element is written
// before it is read. The caller owns the result and must Release it.
// Errors are those of NewTensor.
func NewTensorUninit(alloc memory.Allocator, d graph.DType, s graph.Shape) (*Tensor, error) {
	if alloc == nil {
		return nil, fmt.Errorf("exec: NewTensorUninit of %v %v: nil allocator", s, d)
	}
	if err := CheckAlloc(alloc, d, s); err != nil {
		return nil, err
	}
	buf := memory.NewResizableBuffer(alloc)
	if err := allocate(buf, s.Size()*d.Size(), d, s); err != nil {
		buf.Release()
		return nil, err
	}
	return &Tensor{Buf: buf, Layout: graph.ContiguousLayout(d, s)}, nil
}
