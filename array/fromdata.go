// Constructors from data: Go slices, Arrow arrays and Go scalars.

package array

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Number is the set of Go element types arrays exchange with Go slices:
// bool, int8 ... int64, uint8 ... uint64, float32 and float64 map to the
// dtype of that name, int maps to Int64, and the 16-bit float bit
// patterns F16 and BF16 to Float16 and BFloat16 (FromFloat32s and
// ToFloat32s convert them from and to float32).
type Number interface {
	bool | int | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | F16 | BF16 | float32 | float64
}

// dtypeFor returns the dtype that Go type T maps to.
func dtypeFor[T Number]() DType {
	var z T
	switch any(z).(type) {
	case bool:
		return Bool
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int, int64:
		return Int64
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case F16:
		return Float16
	case BF16:
		return BFloat16
	case float32:
		return Float32
	}
	return Float64
}

var (
	errNilContext  = errors.New("nil *Context: make one with NewContext or use Default")
	errZeroContext = errors.New("zero Context: make one with NewContext or use Default")
)

// checkContext returns the error that keeps c from building arrays: c is
// nil, a zero Context (no backend), or one that carries an error.
func checkContext(c *Context) error {
	switch {
	case c == nil:
		return errNilContext
	case c.err != nil:
		return c.err
	case c.backend == nil || c.limited == nil:
		return errZeroContext
	}
	return nil
}

// inputShape returns the shape of n elements laid out as shape (1-d when
// shape is empty), checking sizes.
func inputShape(op string, d DType, n int, shape []int) (Shape, error) {
	s := Shape(shape).Clone()
	if len(shape) == 0 {
		s = Shape{n}
	}
	if err := graph.CheckShape(s, d); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if s.Size() != n {
		return nil, fmt.Errorf("%s: shape %v needs %d elements, the data has %d", op, s, s.Size(), n)
	}
	return s, nil
}

// FromSlice returns an array of data laid out row-major in shape (1-d of
// len(data) when no shape is given). The data is copied into a buffer from
// the Context's allocator; the Array holds that buffer until Release. It
// carries an error when the shape's size differs from len(data) or is
// invalid. Go int elements become Int64.
func FromSlice[T Number](c *Context, data []T, shape ...int) *Array {
	d := dtypeFor[T]()
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpInput, fmt.Errorf("FromSlice: %w", err))
	}
	s, err := inputShape("FromSlice", d, len(data), shape)
	if err != nil {
		return errArray(c, graph.OpInput, err)
	}
	t, err := exec.NewTensor(c.limited, d, s)
	if err != nil {
		return errArray(c, graph.OpInput, fmt.Errorf("FromSlice: %w", err))
	}
	if len(data) > 0 {
		if ints, ok := any(data).([]int); ok {
			copy(exec.Elems[int64](t), unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(ints))), len(ints)))
		} else {
			copy(exec.Elems[T](t), data)
		}
	}
	return c.input(d, s, "FromSlice", t)
}

// input returns a new Array for an input leaf holding t (owned).
func (c *Context) input(d DType, s Shape, label string, t *exec.Tensor) *Array {
	a := newArray(c, graph.Input(d, s, label))
	if err := a.node.Err(); err != nil {
		t.Release()
		return a
	}
	c.register(a, t)
	return a
}

// arrowDTypes maps the primitive Arrow types FromArrow accepts.
var arrowDTypes = map[arrow.Type]DType{
	arrow.BOOL:    Bool,
	arrow.INT8:    Int8,
	arrow.INT16:   Int16,
	arrow.INT32:   Int32,
	arrow.INT64:   Int64,
	arrow.UINT8:   Uint8,
	arrow.UINT16:  Uint16,
	arrow.UINT32:  Uint32,
	arrow.UINT64:  Uint64,
	arrow.FLOAT16: Float16,
	arrow.FLOAT32: Float32,
	arrow.FLOAT64: Float64,
}

// FromArrow returns an array of the values of a primitive Arrow array
// (boolean, int8 ... int64, uint8 ... uint64, float16, float32,
// float64, or the fuseflow.bfloat16 extension type, see BFloat16Type)
// laid out row-major in shape (1-d when no shape is given). Numeric
// arrays are zero-copy: the Array retains a's data buffer (honouring a's
// offset) until Release, and a may be released by the caller at once.
// Boolean arrays are bit-packed in Arrow and are copied into one byte per
// element. Arrays with nulls, other types and shapes of another size give
// an Array carrying an error.
func (c *Context) FromArrow(a arrow.Array, shape ...int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpInput, fmt.Errorf("FromArrow: %w", err))
	}
	if a == nil {
		return errArray(c, graph.OpInput, errors.New("FromArrow: nil arrow.Array"))
	}
	d, ok := arrowDTypes[a.DataType().ID()]
	if ext, isExt := a.(arrowarray.ExtensionArray); isExt {
		if _, bf := ext.ExtensionType().(*BFloat16Type); bf {
			a, d, ok = ext.Storage(), BFloat16, true
		}
	}
	if !ok {
		return errArray(c, graph.OpInput, fmt.Errorf("FromArrow: unsupported arrow type %v (want bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64 or the %s extension)", a.DataType(), bfloat16ExtName))
	}
	if a.NullN() > 0 {
		return errArray(c, graph.OpInput, fmt.Errorf("FromArrow: arrow %v array of length %d has %d nulls; arrays with nulls are not supported", a.DataType(), a.Len(), a.NullN()))
	}
	n := a.Len()
	s, err := inputShape("FromArrow", d, n, shape)
	if err != nil {
		return errArray(c, graph.OpInput, err)
	}
	if d == Bool {
		t, err := exec.NewTensor(c.limited, Bool, s)
		if err != nil {
			return errArray(c, graph.OpInput, fmt.Errorf("FromArrow: %w", err))
		}
		if n > 0 {
			dst := exec.Elems[bool](t)
			b := a.(*arrowarray.Boolean)
			for i := range n {
				dst[i] = b.Value(i)
			}
		}
		return c.input(d, s, "FromArrow", t)
	}
	buf := a.Data().Buffers()[1]
	off := a.Data().Offset()
	if buf == nil || buf.Len() < (off+n)*d.Size() {
		if n > 0 {
			return errArray(c, graph.OpInput, fmt.Errorf("FromArrow: %v data buffer is shorter than offset %d + length %d", a.DataType(), off, n))
		}
		buf = memory.NewResizableBuffer(c.alloc)
		defer buf.Release()
		off = 0
	}
	buf.Retain()
	t := &exec.Tensor{Buf: buf, Layout: graph.Layout{DType: d, Shape: s, Strides: s.ContiguousStrides(), Offset: off}}
	return c.input(d, s, "FromArrow", t)
}

// Scalar returns a 0-d array of v, whose dtype comes from v's Go type:
// the types of Number map as they do for FromSlice. Other types give an
// Array carrying an error.
func (c *Context) Scalar(v any) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpConst, fmt.Errorf("Scalar: %w", err))
	}
	var s graph.Scalar
	switch x := v.(type) {
	case bool:
		s = graph.ScalarOf(Bool, b2f(x))
	case int:
		s = graph.ScalarInt(Int64, int64(x))
	case int8:
		s = graph.ScalarInt(Int8, int64(x))
	case int16:
		s = graph.ScalarInt(Int16, int64(x))
	case int32:
		s = graph.ScalarInt(Int32, int64(x))
	case int64:
		s = graph.ScalarInt(Int64, x)
	case uint8:
		s = graph.ScalarInt(Uint8, int64(x))
	case uint16:
		s = graph.ScalarInt(Uint16, int64(x))
	case uint32:
		s = graph.ScalarInt(Uint32, int64(x))
	case uint64:
		s = graph.ScalarInt(Uint64, int64(x))
	case F16:
		s = graph.ScalarOf(Float16, float64(x.Float32()))
	case BF16:
		s = graph.ScalarOf(BFloat16, float64(x.Float32()))
	case float32:
		s = graph.ScalarOf(Float32, float64(x))
	case float64:
		s = graph.ScalarOf(Float64, x)
	default:
		return errArray(c, graph.OpConst, fmt.Errorf("Scalar: unsupported Go type %T (want a type of array.Number)", v))
	}
	return newArray(c, graph.Const(s))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
