// gonum interop without copies: arrays that are views of a mat.Dense,
// blas64.General or blas32.General (row-major, any row stride) on host
// backends, and gonum matrices over a result's own host buffer.

package array

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// ViewDense returns a float64 (rows, cols) array of m's elements. On a
// host backend (cpu, ref) the array is a view of m's backing slice, row
// stride included: nothing is copied, and m must not be written until
// the array and the arrays computed from it are evaluated and released
// (they read m's memory when they are evaluated). On a device backend the
// elements are copied into a contiguous buffer from c's allocator (the
// transfer to the device is a copy anyway). A nil or empty m gives an
// Array carrying an error.
func ViewDense(c *Context, m *mat.Dense) *Array {
	if m == nil {
		return errArray(c, graph.OpInput, errors.New("ViewDense: nil *mat.Dense"))
	}
	if m.IsEmpty() {
		return errArray(c, graph.OpInput, errors.New("ViewDense: empty *mat.Dense"))
	}
	return viewGeneral(c, "ViewDense", m.RawMatrix().Rows, m.RawMatrix().Cols, m.RawMatrix().Stride, m.RawMatrix().Data)
}

// ViewGeneral64 is ViewDense for a blas64.General (Rows, Cols, Stride,
// Data): a view of g.Data on host backends, a copy on device backends.
// A general matrix whose Data is too short for its shape and stride, or
// whose Stride is below Cols, gives an Array carrying an error.
func ViewGeneral64(c *Context, g blas64.General) *Array {
	return viewGeneral(c, "ViewGeneral64", g.Rows, g.Cols, g.Stride, g.Data)
}

// ViewGeneral32 is ViewGeneral64 for a blas32.General: a float32 array.
func ViewGeneral32(c *Context, g blas32.General) *Array {
	return viewGeneral(c, "ViewGeneral32", g.Rows, g.Cols, g.Stride, g.Data)
}

// viewGeneral returns the (rows, cols) array of row-major data with row
// stride stride: a view on host backends, a copy on device backends.
func viewGeneral[T float32 | float64](c *Context, op string, rows, cols, stride int, data []T) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpInput, fmt.Errorf("%s: %w", op, err))
	}
	d := dtypeFor[T]()
	switch {
	case rows <= 0 || cols <= 0:
		return errArray(c, graph.OpInput, fmt.Errorf("%s: %dx%d matrix: want positive rows and columns", op, rows, cols))
	case stride < cols:
		return errArray(c, graph.OpInput, fmt.Errorf("%s: %dx%d matrix with row stride %d: the stride is below the columns", op, rows, cols, stride))
	case len(data) < (rows-1)*stride+cols:
		return errArray(c, graph.OpInput, fmt.Errorf("%s: %dx%d matrix with row stride %d needs %d elements, the data has %d", op, rows, cols, stride, (rows-1)*stride+cols, len(data)))
	}
	s := Shape{rows, cols}
	if err := graph.CheckShape(s, d); err != nil {
		return errArray(c, graph.OpInput, fmt.Errorf("%s: %w", op, err))
	}
	if rows == 1 {
		stride = cols
	}
	if _, device := c.backend.(exec.HostCopier); device {
		t, err := exec.NewTensorUninit(c.limited, d, s)
		if err != nil {
			return errArray(c, graph.OpInput, fmt.Errorf("%s: %w", op, err))
		}
		dst := exec.Elems[T](t)
		for i := range rows {
			copy(dst[i*cols:(i+1)*cols], data[i*stride:i*stride+cols])
		}
		return c.input(d, s, op, t)
	}
	n := (rows-1)*stride + cols
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), n*d.Size())
	t := &exec.Tensor{Buf: memory.NewBufferBytes(b), Layout: graph.Layout{DType: d, Shape: s, Strides: []int{stride, 1}}}
	return c.input(d, s, op, t)
}

// AsDense evaluates a, a float64 matrix (2-d, no zero extent), and
// returns it as a mat.Dense over the result's own host buffer when the
// result is row-major with unit column stride (contiguous, or with a row
// stride such as a column slice's): no copy. A device result is read
// through its host copy (one transfer, kept with a, as ToSlice does); a
// result of another layout (a transpose, a broadcast) is copied. The
// caller must call release once it no longer uses the Dense (or a slice
// of its data): until then the buffer stays allocated, after it the
// memory may be reused. The Dense may be read after a.Release (it holds
// its own reference), and must not be written while a is in use. Other
// dtypes are an error (use ToDense, which converts).
func AsDense(a *Array) (m *mat.Dense, release func(), err error) {
	g, release, err := asGeneral[float64](a, "AsDense")
	if err != nil {
		return nil, nil, err
	}
	m = &mat.Dense{}
	m.SetRawMatrix(blas64.General{Rows: g.rows, Cols: g.cols, Stride: g.stride, Data: g.data})
	return m, release, nil
}

// AsGeneral64 is AsDense returning a blas64.General.
func AsGeneral64(a *Array) (blas64.General, func(), error) {
	g, release, err := asGeneral[float64](a, "AsGeneral64")
	if err != nil {
		return blas64.General{}, nil, err
	}
	return blas64.General{Rows: g.rows, Cols: g.cols, Stride: g.stride, Data: g.data}, release, nil
}

// AsGeneral32 is AsGeneral64 for a float32 matrix: a blas32.General.
func AsGeneral32(a *Array) (blas32.General, func(), error) {
	g, release, err := asGeneral[float32](a, "AsGeneral32")
	if err != nil {
		return blas32.General{}, nil, err
	}
	return blas32.General{Rows: g.rows, Cols: g.cols, Stride: g.stride, Data: g.data}, release, nil
}

// general is a row-major matrix over data.
type general[T float32 | float64] struct {
	rows, cols, stride int
	data               []T
}

// asGeneral returns a's result as a general matrix over its host buffer
// (or a contiguous copy when its layout is not row-major with unit column
// stride) and the func that releases it.
func asGeneral[T float32 | float64](a *Array, op string) (general[T], func(), error) {
	if err := evalErr(a); err != nil {
		return general[T]{}, nil, fmt.Errorf("%s: %w", op, err)
	}
	d := dtypeFor[T]()
	s := a.node.Shape()
	if s.Rank() != 2 || s[0] == 0 || s[1] == 0 || a.DType() != d {
		return general[T]{}, nil, fmt.Errorf("%s: array of shape %v %v is not a non-empty %v matrix", op, s, a.DType(), d)
	}
	t, err := a.tensor(op)
	if err != nil {
		return general[T]{}, nil, err
	}
	rows, cols := s[0], s[1]
	stride := t.Strides[0]
	if rows == 1 {
		stride = cols
	}
	if (t.Strides[1] == 1 || cols == 1) && stride >= cols {
		all := exec.Elems[T](t)
		g := general[T]{rows: rows, cols: cols, stride: stride, data: all[t.Offset : t.Offset+(rows-1)*stride+cols]}
		return g, t.Release, nil
	}
	defer t.Release()
	if err := exec.CheckAlloc(a.ctx.limited, d, s); err != nil {
		return general[T]{}, nil, fmt.Errorf("%s: %w", op, err)
	}
	return general[T]{rows: rows, cols: cols, stride: cols, data: gather[T](t)}, func() {}, nil
}
