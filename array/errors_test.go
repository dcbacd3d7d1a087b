// The bad-input table: every invalid use gives an error (never a panic)
// naming the op, the shapes and the dtypes, from Err, Eval and ToSlice.

package array_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestBadInput(t *testing.T) {
	e := newEnv(t)
	c := e.c
	other := array.MustContext()
	x := e.floats([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v := e.floats([]float64{1, 2, 3, 4})
	b := e.keep(array.FromSlice(c, []bool{true, false}))
	i32 := e.keep(array.FromSlice(c, []int32{1, 2}))
	o := other.Ones(array.Float64, 2, 3)
	tests := []struct {
		name string
		a    *array.Array
		want string
	}{
		{"broadcast", x.Add(v), "Add((2, 3) float64, (4,) float64): shapes (2, 3) (4,) cannot be broadcast together"},
		{"axis", x.Sum(2), "Sum((2, 3) float64): axis 2 is out of bounds for array of dimension 2"},
		{"repeated axis", x.Max(0, -2), "Max((2, 3) float64): repeated axis -2 in [0 -2]"},
		{"mean axis", x.Mean(-3), "Mean((2, 3) float64): axis -3 is out of bounds for array of dimension 2"},
		{"var axis", x.Var(1, 7), "Var((2, 3) float64): axis 7 is out of bounds for array of dimension 2"},
		{"reshape size", x.Reshape(4, 2), "Reshape((2, 3) float64): cannot reshape array of size 6 into shape (4, 2)"},
		{"reshape two -1", x.Reshape(-1, -1), "Reshape((2, 3) float64): invalid target shape (-1, -1)"},
		{"slice step 0", x.Slice(array.RS(0, 2, 0)), "Slice((2, 3) float64): axis 0: slice step cannot be zero"},
		{"too many ranges", v.Slice(array.All, array.All), "Slice((4,) float64): too many indices: 2 for array of dimension 1"},
		{"index range", x.Index(1, 3), "Index((2, 3) float64): index 3 is out of bounds for axis 1 with size 3"},
		{"index negative", x.Index(-3), "Index((2, 3) float64): index -3 is out of bounds for axis 0 with size 2"},
		{"sqrt bool", b.Sqrt(), "Sqrt((2,) bool): unsupported dtype bool"},
		{"neg bool", b.Neg(), "Neg((2,) bool): unsupported dtype bool"},
		{"add bool", b.Add(b), "Add((2,) bool, (2,) bool): unsupported dtype bool"},
		{"and float", x.And(x), "And((2, 3) float64, (2, 3) float64): unsupported dtype float64"},
		{"contexts", x.Add(o), "Add((2, 3) float64, (2, 3) float64): arrays belong to different Contexts (backends counting and ref)"},
		{"operand type", x.Mul("2"), "Mul((2, 3) float64): unsupported operand type string (want *array.Array or a Go number)"},
		{"nil operand", x.Sub((*array.Array)(nil)), "Sub((2, 3) float64): operand is a nil *Array"},
		{"int32 range", i32.Add(1 << 40), "Add((2,) int32): Go int 1099511627776 is out of range for int32"},
		{"overflow", c.Zeros(array.Float64, 1<<40, 1<<40), "Zeros(float64, shape (1099511627776, 1099511627776)): shape (1099511627776, 1099511627776) of float64 needs more than 9223372036854775807 bytes"},
		{"broadcast overflow", v.Reshape(4, 1).BroadcastTo(4, 1<<62), "BroadcastTo((4, 1) float64): shape (4, 4611686018427387904) of float64 needs more than 9223372036854775807 bytes"},
		{"negative extent", c.Ones(array.Int32, 2, -1), "Ones(int32, shape (2, -1)): negative dimension -1 in shape (2, -1)"},
		{"from slice size", array.FromSlice(c, []float64{1, 2, 3}, 2, 2), "FromSlice: shape (2, 2) needs 4 elements, the data has 3"},
		{"arange step", c.Arange(0, 1, 0, array.Float64), "Arange(0, 1, 0, float64): step must not be zero"},
		{"arange bool", c.Arange(0, 2, 1, array.Bool), "Arange(0, 2, 1, bool): unsupported dtype bool"},
		{"linspace bool", c.Linspace(0, 1, 2, array.Bool), "Linspace(0, 1, 2, bool): unsupported dtype bool"},
		{"linspace n", c.Linspace(0, 1, -1, array.Float64), "Linspace(0, 1, -1, float64): number of samples must be non-negative"},
		{"rand int", c.Rand(1, array.Int32, 2), "Rand: unsupported dtype int32: random arrays are float32 or float64"},
		{"scalar type", c.Scalar("x"), "Scalar: unsupported Go type string (want bool, int, int32, int64, float32 or float64)"},
		{"matmul 0-d", c.Scalar(1.0).MatMul(x), "MatMul(() float64, (2, 3) float64): operand 0 is 0-d; matmul needs at least 1 dimension"},
		{"matmul k", x.MatMul(x), "MatMul((2, 3) float64, (2, 3) float64): contracted dimensions differ: 3 (a) vs 2 (b)"},
		{"matmul vector", v.MatMul(x), "MatMul((4,) float64, (2, 3) float64): contracted dimensions differ: 4 (a) vs 2 (b)"},
		{"matmul bool", e.keep(array.FromSlice(c, []bool{true}, 1, 1)).MatMul(e.keep(array.FromSlice(c, []bool{true}, 1, 1))), "MatMul((1, 1) bool, (1, 1) bool): unsupported dtype bool"},
		{"matmul nil", array.MatMul(x, nil), "nil *Array"},
		{"concat ranks", array.Concat(0, x, v), "Concat((2, 3) float64, (4,) float64): all arrays must have the same number of dimensions"},
		{"concat extents", array.Concat(0, x, x.Transpose()), "Concat((2, 3) float64, (3, 2) float64): extents off axis 0 must match"},
		{"concat none", array.Concat(0), "Concat: need at least one array"},
		{"concat 0-d", array.Concat(0, c.Scalar(1), c.Scalar(2)), "Concat(() int64, () int64): zero-dimensional arrays cannot be concatenated"},
		{"stack shapes", array.Stack(0, x, x.Transpose()), "Stack((2, 3) float64, (3, 2) float64): all input arrays must have the same shape"},
		{"stack axis", array.Stack(3, v, v), "Stack((4,) float64, (4,) float64): axis 3 is out of bounds for array of dimension 2"},
		{"stack contexts", array.Stack(0, x, o), "Stack((2, 3) float64, (2, 3) float64): arrays belong to different Contexts"},
		{"squeeze", x.Squeeze(0), "Squeeze((2, 3) float64): cannot select axis 0, whose extent is 2, not 1"},
		{"expand dims", x.ExpandDims(4), "ExpandDims((2, 3) float64): axis 4 is out of bounds for array of dimension 3"},
		{"permute", x.Permute(0, 0), "Permute((2, 3) float64): repeated axis in [0 0]"},
		{"permute rank", x.Permute(0), "Permute((2, 3) float64): axes [0] don't match array of dimension 2"},
		{"broadcast to", x.BroadcastTo(3, 3), "BroadcastTo((2, 3) float64): cannot broadcast to shape (3, 3)"},
		{"where cond", array.Where(x, 1, 0), "Where((2, 3) float64, () int64, () int64): condition must be bool, not float64"},
		{"where type", array.Where(b, []int{1}, 0), "Where((2,) bool): unsupported operand type []int"},
		{"max empty", e.floats(nil, 0).Max(), "Max((0,) float64): zero-size selection has no identity for Max"},
		{"argmax axes", x.ArgMax(0, 1), "ArgMax((2, 3) float64): takes one axis or none, got [0 1]"},
		{"astype", x.AsType(array.DType(42)), "AsType((2, 3) float64): unsupported target dtype dtype(42)"},
		{"sticky", x.Reshape(5).Add(1).Exp().Sum(), "Reshape((2, 3) float64): cannot reshape array of size 6 into shape (5,)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotPanics(t, func() {
				err := tt.a.Err()
				require.Error(t, err)
				require.Contains(t, err.Error(), tt.want, "got:%v want:%v", err, tt.want)
				require.Equal(t, err, array.Eval(context.Background(), tt.a))
				_, err = array.ToSlice[float64](tt.a)
				require.ErrorContains(t, err, tt.want)
				_, err = tt.a.Value()
				require.ErrorContains(t, err, tt.want)
				_, err = tt.a.ToArrow()
				require.ErrorContains(t, err, tt.want)
			})
		})
	}
}

func TestBadResults(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{1, 2})
	_, err := array.ToSlice[float32](x)
	require.EqualError(t, err, "ToSlice: array (2,) is float64; cannot read it as []float32 (convert with AsType)")
	require.EqualError(t, array.Eval(context.Background(), x, nil), "Eval: array 1: nil *Array")
	var nilArray *array.Array
	_, err = nilArray.Value()
	require.EqualError(t, err, "Value: nil *Array")
	require.Error(t, nilArray.Err())
	require.Equal(t, 0, nilArray.Rank())
	_, err = array.ToDense(x)
	require.EqualError(t, err, "ToDense: array of shape (2,) float64 is not a non-empty matrix")
	require.Panics(t, func() { array.MustToSlice[int32](x) })
	require.Panics(t, func() { array.MustContext(array.WithBackend(nil)) })
	_, err = array.NewContext(array.WithAllocator(nil))
	require.EqualError(t, err, "array: WithAllocator: nil allocator")
	var nilCtx *array.Context
	require.EqualError(t, array.FromSlice(nilCtx, []float64{1}).Err(), "FromSlice: nil *Context")
}
