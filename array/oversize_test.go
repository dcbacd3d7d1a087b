// Shapes too big for an int: every way of making one is a build error on
// every backend, never a wrapped shape that evaluates to garbage or
// crashes the process.

package array_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestOversizedShapes(t *testing.T) {
	for name, be := range testBackends() {
		t.Run(name, func(t *testing.T) {
			c := array.MustContext(array.WithBackend(be))
			tests := []struct {
				name string
				a    func() *array.Array
				want string
			}{
				// The sum of the extents wrapped to 0: the CPU backend copied
				// MaxInt bytes into an empty buffer.
				{"concat wraps", func() *array.Array {
					return array.Concat(0, c.Zeros(array.Bool, math.MaxInt), c.Zeros(array.Bool, math.MaxInt), c.Zeros(array.Bool, 2))
				}, "Concat((9223372036854775807,) bool, (9223372036854775807,) bool, (2,) bool): the extents along axis 0 add up to more than 9223372036854775807"},
				{"concat wraps small", func() *array.Array {
					return array.Concat(0, c.Zeros(array.Bool, math.MaxInt), c.Zeros(array.Bool, 4))
				}, "Concat((9223372036854775807,) bool, (4,) bool): the extents along axis 0 add up to more than"},
				{"stack wraps", func() *array.Array {
					return array.Stack(0, c.Zeros(array.Bool, 1<<62), c.Zeros(array.Bool, 1<<62))
				}, "shape (2, 4611686018427387904) of bool"},
				{"zero-size zeros", func() *array.Array {
					return c.Zeros(array.Float64, 0, 1<<32, 1<<32)
				}, "Zeros(float64, shape (0, 4294967296, 4294967296)): shape (0, 4294967296, 4294967296) of float64 is too big"},
				{"zero-size sum", func() *array.Array {
					return c.Zeros(array.Bool, 0, 1<<31, 1<<31).Sum(0)
				}, "Sum((0, 2147483648, 2147483648) bool): shape (0, 2147483648, 2147483648) of int64 is too big"},
				{"zero-size mean", func() *array.Array {
					return c.Zeros(array.Int32, 0, 1<<30, 1<<30).Mean(0)
				}, "shape (0, 1073741824, 1073741824) of float64 is too big"},
				{"zero-size broadcast", func() *array.Array {
					return c.Zeros(array.Float64, 0, 1, 1<<31).Add(c.Zeros(array.Float64, 1<<31, 1))
				}, "Add((0, 1, 2147483648) float64, (2147483648, 1) float64): shape (0, 2147483648, 2147483648) of float64 is too big"},
				{"zero-size matmul", func() *array.Array {
					return array.MatMul(c.Zeros(array.Float32, 0, 1<<31, 1), c.Zeros(array.Float32, 1, 1<<31))
				}, "MatMul((0, 2147483648, 1) float32, (1, 2147483648) float32): shape (0, 2147483648, 2147483648) of float32 is too big"},
				// Ops the array package composes name themselves, not the
				// internal op that failed.
				{"mean names itself", func() *array.Array {
					return c.Ones(array.Bool, 1<<31, 1<<31).MeanKeepDims()
				}, "Mean((2147483648, 2147483648) bool): shape (2147483648, 2147483648) of float64 needs more than"},
				{"var names itself", func() *array.Array {
					return c.Ones(array.Int32, 1<<60).VarDdof(1, 0)
				}, "Var((1152921504606846976,) int32): shape (1152921504606846976,) of float64 needs more than"},
				{"std names itself", func() *array.Array {
					return c.Zeros(array.Bool, 0, 1<<62).Std()
				}, "Std((0, 4611686018427387904) bool): shape (0, 4611686018427387904) of float64 is too big"},
				{"stack names itself", func() *array.Array {
					return array.Stack(0, c.Zeros(array.Int32, 1<<60), c.Zeros(array.Int32, 1<<60))
				}, "Stack((1152921504606846976,) int32, (1152921504606846976,) int32): shape (2, 1152921504606846976) of int32 needs more than"},
				{"arange names itself", func() *array.Array {
					return c.ArangeStep(array.Float64, 0, 1<<61, 1)
				}, "ArangeStep(float64, 0, 2.305843009213694e+18, 1): shape (2305843009213693952,) of float64 needs more than"},
				{"linspace names itself", func() *array.Array {
					return c.Linspace(array.Float32, 0, 1, 1<<61)
				}, "Linspace(float32, 0, 1, 2305843009213693952): shape (2305843009213693952,) of float32 needs more than"},
				{"zero-size reshape", func() *array.Array {
					return c.Zeros(array.Float32, 0).Reshape(-1, 1<<62, 4)
				}, "Reshape((0,) float32): cannot reshape array of size 0 into shape (-1, 4611686018427387904, 4): the extents' product overflows"},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					a := tt.a()
					defer a.Release()
					require.ErrorContains(t, a.Err(), tt.want)
					require.ErrorContains(t, array.Eval(context.Background(), a), tt.want)
					_, err := array.ToSlice[bool](a)
					require.ErrorContains(t, err, tt.want)
				})
			}
		})
	}
}

// TestEmptyEnormousExtents evaluates empty arrays whose other extents are
// as big as their dtype allows: valid shapes with no elements, on every
// backend.
func TestEmptyEnormousExtents(t *testing.T) {
	for name, be := range testBackends() {
		t.Run(name, func(t *testing.T) {
			c := array.MustContext(array.WithBackend(be))
			e := c.Zeros(array.Bool, 0, 1<<31, 1<<31)
			tests := []struct {
				name  string
				a     *array.Array
				shape array.Shape
			}{
				{"eq", e.Eq(e), array.Shape{0, 1 << 31, 1 << 31}},
				{"not", e.Not(), array.Shape{0, 1 << 31, 1 << 31}},
				{"any", e.Any(2), array.Shape{0, 1 << 31}},
				{"all keepdims", e.AllKeepDims(1), array.Shape{0, 1, 1 << 31}},
				{"transpose", e.Transpose().Contiguous(), array.Shape{1 << 31, 1 << 31, 0}},
				{"slice", e.Slice(array.All, array.R(1, 3)), array.Shape{0, 2, 1 << 31}},
				{"concat", array.Concat(1, e, e.Slice(array.All, array.R(0, 5))), array.Shape{0, 1<<31 + 5, 1 << 31}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					defer tt.a.Release()
					require.NoError(t, tt.a.Err())
					require.NoError(t, tt.a.Eval())
					require.Equal(t, tt.shape, tt.a.Shape(), "got:%v want:%v", tt.a.Shape(), tt.shape)
					got, err := array.ToSlice[bool](tt.a)
					require.NoError(t, err)
					require.Empty(t, got)
				})
			}
		})
	}
}
