// Constructors computed from parameters: Zeros, Ones, Full, Arange,
// Linspace, Eye, Rand and Normal. None allocates until evaluated.

package array

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// fill returns value broadcast to shape (a view of one constant).
func (c *Context) fill(name string, d DType, value float64, shape []int) *Array {
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
	return newArray(c, graph.BroadcastTo(graph.FloatConst(d, value), s))
}

// Zeros returns an array of shape filled with 0 of dtype d. It is a
// broadcast view of one constant until something materializes it.
func (c *Context) Zeros(d DType, shape ...int) *Array { return c.fill("Zeros", d, 0, shape) }

// Ones returns an array of shape filled with 1 of dtype d.
func (c *Context) Ones(d DType, shape ...int) *Array { return c.fill("Ones", d, 1, shape) }

// Full returns an array of shape filled with value converted to d (as
// AsType converts: truncation for integers, value != 0 for Bool).
func (c *Context) Full(d DType, value float64, shape ...int) *Array {
	return c.fill("Full", d, value, shape)
}

// Arange returns the 1-d array start, start+step, ... below stop (above it
// for a negative step) of dtype d: ceil((stop-start)/step) elements, as
// NumPy's arange, computed in float64 and converted to d. A zero or
// non-finite step, non-finite bounds and Bool give an Array carrying an
// error.
func (c *Context) Arange(start, stop, step float64, d DType) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpIota, fmt.Errorf("Arange: %w", err))
	}
	bad := func(msg string) *Array {
		return errArray(c, graph.OpIota, fmt.Errorf("Arange(%v, %v, %v, %v): %s", start, stop, step, d, msg))
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
	return newArray(c, named(fmt.Sprintf("Arange(%v, %v, %v, %v)", start, stop, step, d), graph.Iota(d, length, start, step, false, 0)))
}

// Linspace returns n evenly spaced values of dtype d from start to stop,
// both included (NumPy's linspace with endpoint=True; the last element is
// exactly stop). A negative n, non-finite bounds and Bool give an Array
// carrying an error.
func (c *Context) Linspace(start, stop float64, n int, d DType) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpIota, fmt.Errorf("Linspace: %w", err))
	}
	if !graph.IsFiniteFloat(start) || !graph.IsFiniteFloat(stop) {
		return errArray(c, graph.OpIota, fmt.Errorf("Linspace(%v, %v, %d, %v): bounds must be finite", start, stop, n, d))
	}
	if !d.Supported() || d == Bool {
		return errArray(c, graph.OpIota, fmt.Errorf("Linspace(%v, %v, %d, %v): unsupported dtype %v", start, stop, n, d, d))
	}
	if n < 0 {
		return errArray(c, graph.OpIota, fmt.Errorf("Linspace(%v, %v, %d, %v): number of samples must be non-negative", start, stop, n, d))
	}
	step := 0.0
	if n > 1 {
		step = (stop - start) / float64(n-1)
	}
	return newArray(c, named(fmt.Sprintf("Linspace(%v, %v, %d, %v)", start, stop, n, d), graph.Iota(d, n, start, step, n > 1, stop)))
}

// Eye returns an n x m array of dtype d with ones on the k-th diagonal
// (column - row == k) and zeros elsewhere, as NumPy's eye(n, m, k).
func (c *Context) Eye(n, m, k int, d DType) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpEye, fmt.Errorf("Eye: %w", err))
	}
	return newArray(c, graph.Eye(d, n, m, k))
}

// Rand returns an array of shape of uniform values in [0, 1) of the float
// dtype d, drawn from Philox4x32-10 keyed by seed with the flat element
// index as counter: every backend gives the same values for the same seed
// and shape.
func (c *Context) Rand(seed uint64, d DType, shape ...int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpRandU, fmt.Errorf("Rand: %w", err))
	}
	return newArray(c, graph.Random(graph.OpRandU, d, Shape(shape), seed))
}

// Normal returns an array of shape of standard normal values of the float
// dtype d from the same counter-based stream as Rand (Box-Muller).
func (c *Context) Normal(seed uint64, d DType, shape ...int) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpRandN, fmt.Errorf("Normal: %w", err))
	}
	return newArray(c, graph.Random(graph.OpRandN, d, Shape(shape), seed))
}
