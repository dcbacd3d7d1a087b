// ToArrow: results as flat Arrow arrays, sharing the buffer when the
// result is contiguous.

package array

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

// arrowTypes maps dtypes to the Arrow types ToArrow produces.
// BFloat16 has no Arrow primitive: it goes out as the fuseflow.bfloat16
// extension type over uint16 storage (see BFloat16Type).
var arrowTypes = map[DType]arrow.DataType{
	Bool:    arrow.FixedWidthTypes.Boolean,
	Int8:    arrow.PrimitiveTypes.Int8,
	Int16:   arrow.PrimitiveTypes.Int16,
	Int32:   arrow.PrimitiveTypes.Int32,
	Int64:   arrow.PrimitiveTypes.Int64,
	Uint8:   arrow.PrimitiveTypes.Uint8,
	Uint16:  arrow.PrimitiveTypes.Uint16,
	Uint32:  arrow.PrimitiveTypes.Uint32,
	Uint64:  arrow.PrimitiveTypes.Uint64,
	Float16: arrow.FixedWidthTypes.Float16,
	Float32: arrow.PrimitiveTypes.Float32,
	Float64: arrow.PrimitiveTypes.Float64,
}

// ToArrow evaluates a (the result then stays on a) and returns its
// elements as a flat Arrow array in row-major order, without nulls, of
// the Arrow type of a's dtype (Float16 as Arrow's float16, BFloat16 as
// the fuseflow.bfloat16 extension type over uint16 storage, see
// BFloat16Type). A
// contiguous numeric result is shared, not copied: the arrow.Array retains
// the buffer. Strided or broadcast results are copied into a buffer from
// the Context's allocator, and bool results are packed into Arrow's bit
// layout (a copy). The caller owns the returned array and must Release it;
// it stays valid after a.Release.
func (a *Array) ToArrow() (arrow.Array, error) {
	if err := evalErr(a); err != nil {
		return nil, fmt.Errorf("ToArrow: %w", err)
	}
	t, err := a.tensor("ToArrow")
	if err != nil {
		return nil, err
	}
	defer t.Release()
	n := t.Size()
	alloc := a.ctx.limited
	if !t.Contiguous() || t.DType == Bool {
		if err := exec.CheckAlloc(alloc, t.DType, t.Shape); err != nil {
			return nil, fmt.Errorf("ToArrow: %w", err)
		}
	}
	if t.DType == Bool {
		b := arrowarray.NewBooleanBuilder(alloc)
		defer b.Release()
		b.AppendValues(gather[bool](t), nil)
		return b.NewArray(), nil
	}
	buf, off := t.Buf, t.Offset
	if !t.Contiguous() || n == 0 {
		nb := memory.NewResizableBuffer(alloc)
		defer nb.Release()
		nb.Resize(n * t.DType.Size())
		copyRowMajor(nb.Bytes(), t)
		buf, off = nb, 0
	}
	if t.DType == BFloat16 {
		data := arrowarray.NewData(arrow.PrimitiveTypes.Uint16, n, []*memory.Buffer{nil, buf}, nil, 0, off)
		defer data.Release()
		storage := arrowarray.MakeFromData(data)
		defer storage.Release()
		return arrowarray.NewExtensionArrayWithStorage(bfloat16Type, storage), nil
	}
	data := arrowarray.NewData(arrowTypes[t.DType], n, []*memory.Buffer{nil, buf}, nil, 0, off)
	defer data.Release()
	return arrowarray.MakeFromData(data), nil
}

// copyRowMajor copies t's elements in row-major order into dst, which
// holds t.Size() elements of t's dtype.
func copyRowMajor(dst []byte, t *exec.Tensor) {
	if t.Size() == 0 {
		return
	}
	sz := t.DType.Size()
	src := t.Bytes()
	i := 0
	eachOffset(t, func(off int) {
		copy(dst[i*sz:(i+1)*sz], src[off*sz:(off+1)*sz])
		i++
	})
}
