// Constructors computed from parameters: Zeros, Ones, Full, Arange,
// ArangeStep, Linspace, Eye, Rand and Normal. None allocates until
// evaluated. Every constructor takes the dtype first, then its parameters,
// then the shape (variadic where there is one).

package array

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// fill returns the scalar v broadcast to shape (a view of one constant).
func (c *Context) fill(name string, d DType, v graph.Scalar, shape []int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpConst, fmt.Errorf("%s: %w", name, err))
	}
	s := Shape(shape).Clone()
	if !d.Supported() {
		return errArray(c, graph.OpConst, fmt.Errorf("%s(%v, shape %v): unsupported dtype %v", name, d, s, d))
	}
	if err := graph.CheckShape(s, d); err != nil {
		return errArray(c, graph.OpConst, fmt.Errorf("%s(%v, shape %v): %w", name, d, s, err))
	}
	return newArray(c, graph.BroadcastTo(graph.Const(v), s))
}

// Zeros returns an array of shape filled with 0 of dtype d. It is a
// broadcast view of one constant until something materializes it.
func (c *Context) Zeros(d DType, shape ...int) *Array {
	return c.fill("Zeros", d, graph.ScalarOf(d, 0), shape)
}

// Ones returns an array of shape filled with 1 of dtype d.
func (c *Context) Ones(d DType, shape ...int) *Array {
	return c.fill("Ones", d, graph.ScalarOf(d, 1), shape)
}

// Full returns an array of shape filled with value, a Go number (bool,
// any int, uint or float type), converted to d: integers exactly (Full(Int64,
// int64(math.MinInt64)) holds math.MinInt64, never a float64 rounding of
// it), floats as AsType converts them (truncation toward zero for integer
// dtypes, value != 0 for Bool). A value of another Go type, or an integer
// that d cannot hold (a Go int past int32's range for Int32), gives an
// Array carrying an error.
func (c *Context) Full(d DType, value any, shape ...int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpConst, fmt.Errorf("Full: %w", err))
	}
	w, ok := graph.WeakOf(value)
	if !ok {
		return errArray(c, graph.OpConst, fmt.Errorf("Full(%v, %v, shape %v): unsupported value type %T (want a Go number or bool)", d, value, Shape(shape), value))
	}
	if w.Kind == graph.KindFloat && (d == Int32 || d == Int64) && isUnsigned(value) {
		return errArray(c, graph.OpConst, fmt.Errorf("Full(%v, %v, shape %v): value out of range for %v", d, value, Shape(shape), d))
	}
	if !d.Supported() {
		return errArray(c, graph.OpConst, fmt.Errorf("Full(%v, %v, shape %v): unsupported dtype %v", d, value, Shape(shape), d))
	}
	v, err := w.Value(d)
	if err != nil {
		return errArray(c, graph.OpConst, fmt.Errorf("Full(%v, %v, shape %v): %w", d, value, Shape(shape), err))
	}
	return c.fill("Full", d, v, shape)
}

// isUnsigned reports whether v is a Go uint or uint64 (whose values past
// math.MaxInt64 WeakOf holds as floats).
func isUnsigned(v any) bool {
	switch v.(type) {
	case uint, uint64:
		return true
	}
	return false
}

// Arange returns the 1-d array 0, 1, ..., n-1 of dtype d, as NumPy's
// arange(n, dtype=d); ArangeStep takes a start, a stop and a step. A
// negative n gives an empty array, as in NumPy; Bool gives an Array
// carrying an error.
func (c *Context) Arange(d DType, n int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpIota, fmt.Errorf("Arange: %w", err))
	}
	if !d.Supported() || d == Bool {
		return errArray(c, graph.OpIota, fmt.Errorf("Arange(%v, %d): unsupported dtype %v", d, n, d))
	}
	if d == Int32 && n-1 > math.MaxInt32 {
		return errArray(c, graph.OpIota, fmt.Errorf("Arange(%v, %d): values past %d do not fit in int32", d, n, math.MaxInt32))
	}
	return newArray(c, named(fmt.Sprintf("Arange(%v, %d)", d, n), graph.Iota(d, max(n, 0), 0, 1, false, 0)))
}

// ArangeStep returns the 1-d array start, start+step, ... below stop
// (above it for a negative step) of dtype d: ceil((stop-start)/step)
// elements, as NumPy's arange(start, stop, step, dtype=d), computed in
// float64 and converted to d. A zero or non-finite step, non-finite bounds
// and Bool give an Array carrying an error.
func (c *Context) ArangeStep(d DType, start, stop, step float64) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpIota, fmt.Errorf("ArangeStep: %w", err))
	}
	bad := func(msg string) *Array {
		return errArray(c, graph.OpIota, fmt.Errorf("ArangeStep(%v, %v, %v, %v): %s", d, start, stop, step, msg))
	}
	switch {
	case !d.Supported() || d == Bool:
		return bad(fmt.Sprintf("unsupported dtype %v", d))
	case step == 0:
		return bad("step must not be zero")
	case !graph.IsFiniteFloat(start) || !graph.IsFiniteFloat(stop) || !graph.IsFiniteFloat(step):
		return bad("bounds and step must be finite")
	}
	n := math.Ceil((stop - start) / step)
	if n > math.MaxInt32*float64(1<<31) {
		return bad("too many elements")
	}
	length := max(int(n), 0)
	return newArray(c, named(fmt.Sprintf("ArangeStep(%v, %v, %v, %v)", d, start, stop, step), graph.Iota(d, length, start, step, false, 0)))
}

// Linspace returns n evenly spaced values of dtype d from start to stop,
// both included (NumPy's linspace with endpoint=True; the last element is
// exactly stop). For an integer dtype the values are computed in float64
// and rounded toward minus infinity, as NumPy 2 does (Linspace(Int64, -1,
// 0, 3) is [-1 -1 0]). A negative n, non-finite bounds and Bool give an
// Array carrying an error.
func (c *Context) Linspace(d DType, start, stop float64, n int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpIota, fmt.Errorf("Linspace: %w", err))
	}
	name := fmt.Sprintf("Linspace(%v, %v, %v, %d)", d, start, stop, n)
	if !graph.IsFiniteFloat(start) || !graph.IsFiniteFloat(stop) {
		return errArray(c, graph.OpIota, fmt.Errorf("%s: bounds must be finite", name))
	}
	if !d.Supported() || d == Bool {
		return errArray(c, graph.OpIota, fmt.Errorf("%s: unsupported dtype %v", name, d))
	}
	if n < 0 {
		return errArray(c, graph.OpIota, fmt.Errorf("%s: number of samples must be non-negative", name))
	}
	step := 0.0
	if n > 1 {
		step = (stop - start) / float64(n-1)
	}
	if d.Kind() == graph.KindFloat {
		return newArray(c, named(name, graph.Iota(d, n, start, step, n > 1, stop)))
	}
	f := graph.Iota(Float64, n, start, step, n > 1, stop)
	return newArray(c, named(name, graph.Cast(graph.Unary(graph.OpFloor, f), d)))
}

// Eye returns an n x m array of dtype d with ones on the k-th diagonal
// (column - row == k) and zeros elsewhere, as NumPy's eye(n, m, k, dtype=d).
func (c *Context) Eye(d DType, n, m, k int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpEye, fmt.Errorf("Eye: %w", err))
	}
	return newArray(c, graph.Eye(d, n, m, k))
}

// Rand returns an array of shape of uniform values in [0, 1) of the float
// dtype d, drawn from Philox4x32-10 keyed by seed with the flat element
// index as counter: every backend gives the same values for the same seed
// and shape.
func (c *Context) Rand(d DType, seed uint64, shape ...int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpRandU, fmt.Errorf("Rand: %w", err))
	}
	return newArray(c, graph.Random(graph.OpRandU, d, Shape(shape), seed))
}

// Normal returns an array of shape of standard normal values of the float
// dtype d from the same counter-based stream as Rand (Box-Muller).
func (c *Context) Normal(d DType, seed uint64, shape ...int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpRandN, fmt.Errorf("Normal: %w", err))
	}
	return newArray(c, graph.Random(graph.OpRandN, d, Shape(shape), seed))
}
