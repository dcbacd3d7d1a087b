// Results: copies out of evaluated arrays as Go slices and Go numbers,
// reading possibly strided tensors in row-major order.

package array

import (
	"fmt"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// eachOffset calls f with the buffer element index of every element of t
// in row-major order.
func eachOffset(t *exec.Tensor, f func(off int)) {
	n := t.Size()
	if n == 0 {
		return
	}
	r := len(t.Shape)
	idx := make([]int, r)
	off := t.Offset
	for range n {
		f(off)
		for k := r - 1; k >= 0; k-- {
			idx[k]++
			off += t.Strides[k]
			if idx[k] < t.Shape[k] {
				break
			}
			off -= idx[k] * t.Strides[k]
			idx[k] = 0
		}
	}
}

// gather copies t's elements, of Go type T, in row-major order.
func gather[T any](t *exec.Tensor) []T {
	n := t.Size()
	out := make([]T, n)
	if n == 0 {
		return out
	}
	src := exec.Elems[T](t)
	if t.Contiguous() {
		copy(out, src[t.Offset:t.Offset+n])
		return out
	}
	i := 0
	eachOffset(t, func(off int) {
		out[i] = src[off]
		i++
	})
	return out
}

// ToSlice evaluates a (when it holds no result yet; the result then stays
// on a, see Array) and returns a row-major copy of its elements. T must
// match a's dtype exactly (int for Int64 is accepted); any other T, a build
// error or an evaluation error is returned as an error. The caller owns
// the slice.
func ToSlice[T Number](a *Array) ([]T, error) {
	want := dtypeFor[T]()
	if err := evalErr(a); err != nil {
		return nil, fmt.Errorf("ToSlice: %w", err)
	}
	if a.DType() != want {
		var z T
		return nil, fmt.Errorf("ToSlice: array %v is %v; cannot read it as []%T (convert with AsType)", a.node.Shape(), a.DType(), z)
	}
	t, err := a.tensor("ToSlice")
	if err != nil {
		return nil, err
	}
	defer t.Release()
	if err := exec.CheckAlloc(a.ctx.limited, t.DType, t.Shape); err != nil {
		return nil, fmt.Errorf("ToSlice: %w", err)
	}
	var out []T
	if p, ok := any(&out).(*[]int); ok {
		src := gather[int64](t)
		*p = make([]int, len(src))
		for i, v := range src {
			(*p)[i] = int(v)
		}
		return out, nil
	}
	return gather[T](t), nil
}

// MustToSlice is ToSlice that panics on error, for examples and tests.
func MustToSlice[T Number](a *Array) []T {
	s, err := ToSlice[T](a)
	if err != nil {
		panic(err)
	}
	return s
}

// evalErr returns the error that keeps a from being read before evaluation
// (nil Array, build error).
func evalErr(a *Array) error {
	if a == nil {
		return errNilArray
	}
	return a.Err()
}

// scalarAt returns element off of t as a float64, an int64 and a bool.
func scalarAt(t *exec.Tensor, off int) (f float64, i int64, b bool) {
	switch t.DType {
	case Bool:
		b = exec.Elems[bool](t)[off]
		if b {
			return 1, 1, true
		}
		return 0, 0, false
	case Int8:
		return intAt[int8](t, off)
	case Int16:
		return intAt[int16](t, off)
	case Int32:
		return intAt[int32](t, off)
	case Int64:
		return intAt[int64](t, off)
	case Uint8:
		return intAt[uint8](t, off)
	case Uint16:
		return intAt[uint16](t, off)
	case Uint32:
		return intAt[uint32](t, off)
	case Uint64:
		u := exec.Elems[uint64](t)[off]
		return float64(u), int64(u), u != 0 // ValueInt wraps above MaxInt64
	case Float16:
		f = float64(exec.Elems[F16](t)[off].Float32())
	case BFloat16:
		f = float64(exec.Elems[BF16](t)[off].Float32())
	case Float32:
		f = float64(exec.Elems[float32](t)[off])
	default:
		f = exec.Elems[float64](t)[off]
	}
	return f, graph.CastFloatToInt64(f), f != 0
}

// intAt is scalarAt for the integer types that fit an int64 exactly.
func intAt[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](t *exec.Tensor, off int) (float64, int64, bool) {
	i := int64(exec.Elems[T](t)[off])
	return float64(i), i, i != 0
}

// one evaluates a, which must have exactly one element, and returns it.
func (a *Array) one(name string) (float64, int64, bool, error) {
	if err := evalErr(a); err != nil {
		return 0, 0, false, fmt.Errorf("%s: %w", name, err)
	}
	if n := a.Size(); n != 1 {
		return 0, 0, false, fmt.Errorf("%s: array of shape %v has %d elements; want exactly 1", name, a.node.Shape(), n)
	}
	t, err := a.tensor(name)
	if err != nil {
		return 0, 0, false, err
	}
	defer t.Release()
	f, i, b := scalarAt(t, t.Offset)
	return f, i, b, nil
}

// Value evaluates a, which must have exactly one element (a 0-d array or
// any shape of size 1), and returns it as a float64 (bool as 0 or 1; int64
// beyond 2**53 rounds). The result stays on a.
func (a *Array) Value() (float64, error) {
	f, _, _, err := a.one("Value")
	return f, err
}

// ValueInt is Value returning an int64: exact for integer and bool arrays;
// floats truncate toward zero, saturating, NaN giving 0 (as AsType).
func (a *Array) ValueInt() (int64, error) {
	_, i, _, err := a.one("ValueInt")
	return i, err
}

// ValueBool is Value returning whether the element is nonzero (the value
// itself for bool arrays).
func (a *Array) ValueBool() (bool, error) {
	_, _, b, err := a.one("ValueBool")
	return b, err
}

// MustValue is Value that panics on error, for examples and tests.
func (a *Array) MustValue() float64 {
	v, err := a.Value()
	if err != nil {
		panic(err)
	}
	return v
}
