// The bad-input table: every invalid use gives an error (never a panic)
// naming the op, the shapes and the dtypes, from Err, Eval and ToSlice.

package array_test

import (
	"context"
	"github.com/fuseflow/fuseflow/exec/ref"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestBadInput(t *testing.T) {
	e := newEnv(t)
	c := e.c
	other := array.MustContext(array.WithBackend(ref.New()))
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
		{"var axis", x.VarDdof(1, 7), "Var((2, 3) float64): axis 7 is out of bounds for array of dimension 2"},
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
		{"arange step", c.ArangeStep(array.Float64, 0, 1, 0), "ArangeStep(float64, 0, 1, 0): step must not be zero"},
		{"arange bool", c.ArangeStep(array.Bool, 0, 2, 1), "ArangeStep(bool, 0, 2, 1): unsupported dtype bool"},
		{"linspace bool", c.Linspace(array.Bool, 0, 1, 2), "Linspace(bool, 0, 1, 2): unsupported dtype bool"},
		{"linspace n", c.Linspace(array.Float64, 0, 1, -1), "Linspace(float64, 0, 1, -1): number of samples must be non-negative"},
		{"rand int", c.Rand(array.Int32, 1, 2), "Rand: unsupported dtype int32: random arrays are float32 or float64"},
		{"scalar type", c.Scalar("x"), "Scalar: unsupported Go type string (want a type of array.Number)"},
		{"matmul 0-d", c.Scalar(1.0).MatMul(x), "MatMul(() float64, (2, 3) float64): operand 0 is 0-d; matmul needs at least 1 dimension"},
		{"matmul k", x.MatMul(x), "MatMul((2, 3) float64, (2, 3) float64): contracted dimensions differ: 3 (a) vs 2 (b)"},
		{"matmul vector", v.MatMul(x), "MatMul((4,) float64, (2, 3) float64): contracted dimensions differ: 4 (a) vs 2 (b)"},
		{"matmul bool", e.keep(array.FromSlice(c, []bool{true}, 1, 1)).MatMul(e.keep(array.FromSlice(c, []bool{true}, 1, 1))), "MatMul((1, 1) bool, (1, 1) bool): unsupported dtype bool"},
		{"matmul nil", array.MatMul(x, nil), "MatMul: nil *Array"},
		{"concat nil", array.Concat(0, x, nil), "Concat: nil *Array"},
		{"stack nil", array.Stack(0, nil, x), "Stack: nil *Array"},
		{"where nil", array.Where(nil, x, 1), "Where: nil *Array"},
		{"nil receiver unary", (*array.Array)(nil).Exp(), "Exp: nil *Array"},
		{"nil receiver binary", (*array.Array)(nil).Add(1), "Add: nil *Array"},
		{"nil receiver reduce", (*array.Array)(nil).StdDdof(1, 0), "Std: nil *Array"},
		{"nil receiver view", (*array.Array)(nil).Index(0), "Index: nil *Array"},
		{"nil receiver clip", (*array.Array)(nil).Clip(0, 1), "Clip: Maximum: nil *Array"},
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
		{"broadcast size overflow", c.Ones(array.Int32, 1<<40, 1).Add(c.Ones(array.Int32, 1, 1<<40)),
			"Add((1099511627776, 1) int32, (1, 1099511627776) int32): shape (1099511627776, 1099511627776) of int32 needs more than 9223372036854775807 bytes"},
		{"where size overflow", array.Where(c.Ones(array.Bool, 1<<32, 1), c.Ones(array.Float32, 1, 1<<32), 0),
			"Where((4294967296, 1) bool, (1, 4294967296) float32, () float32): shape (4294967296, 4294967296) of float32 needs more than"},
		{"clip operand", x.Clip(0, "1"), "Clip: Minimum((2, 3) float64): unsupported operand type string"},
		{"clip shapes", x.Clip(v, 1), "Clip: Maximum((2, 3) float64, (4,) float64): shapes (2, 3) (4,) cannot be broadcast together"},
		{"where weak and invalid", array.Where(b, 3, "2"), "Where((2,) bool): unsupported operand type string"},
		{"where invalid and weak", array.Where(b, "2", 3), "Where((2,) bool): unsupported operand type string"},
		{"where int32 range", array.Where(b, i32, 1<<40), "Where: Go int 1099511627776 is out of range for int32"},
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
	require.EqualError(t, array.FromSlice(nilCtx, []float64{1}).Err(), "FromSlice: nil *Context: make one with NewContext or use Default")
}

// TestEmptyAndZeroD runs size-0 and 0-d arrays through every kind of op
// and checks NumPy's results (shapes and values).
func TestEmptyAndZeroD(t *testing.T) {
	e := newEnv(t)
	c := e.c
	em := e.floats(nil, 0, 3)           // shape (0, 3)
	ez := e.floats(nil, 2, 0)           // shape (2, 0)
	z := e.keep(c.Scalar(2.5))          // shape ()
	zi := e.keep(c.Scalar(int32(-7)))   // shape (), int32
	row := e.floats([]float64{1, 2, 3}) // shape (3,)
	m32 := e.floats([]float64{1, 2, 3, 4, 5, 6}, 3, 2)
	e.check([]valueCase{
		{"unary empty", em.Exp(), []int{0, 3}, []float64{}},
		{"binary empty broadcast", em.Add(row), []int{0, 3}, []float64{}},
		{"binary 0-d", z.Mul(row), []int{3}, []float64{2.5, 5, 7.5}},
		{"where empty", array.Where(em.Gt(0), em, 1), []int{0, 3}, []float64{}},
		{"sum empty axis 0", em.Sum(0), []int{3}, []float64{0, 0, 0}},
		{"sum empty axis 1", em.Sum(1), []int{0}, []float64{}},
		{"sum empty all", em.Sum(), []int{}, []float64{0}},
		{"prod empty", ez.Prod(1), []int{2}, []float64{1, 1}},
		{"mean empty", em.Mean(), []int{}, []float64{math.NaN()}},
		{"var empty", em.Var(0), []int{3}, []float64{math.NaN(), math.NaN(), math.NaN()}},
		{"any empty", em.Any(), []int{}, []float64{0}},
		{"all empty", em.All(), []int{}, []float64{1}},
		{"max of empty rows", em.Max(1), []int{0}, []float64{}},
		{"argmax of empty rows", em.ArgMax(1), []int{0}, []float64{}},
		{"sum keepdims empty", em.SumKeepDims(0), []int{1, 3}, []float64{0, 0, 0}},
		{"matmul empty rows", array.MatMul(em, m32), []int{0, 2}, []float64{}},
		{"matmul empty k", array.MatMul(ez, e.floats(nil, 0, 4)), []int{2, 4}, []float64{0, 0, 0, 0, 0, 0, 0, 0}},
		{"concat empty", array.Concat(0, em, row.Reshape(1, 3)), []int{1, 3}, []float64{1, 2, 3}},
		{"stack empty", array.Stack(1, em, em), []int{0, 2, 3}, []float64{}},
		{"reshape empty", em.Reshape(3, 0, 5), []int{3, 0, 5}, []float64{}},
		{"transpose empty", em.Transpose(), []int{3, 0}, []float64{}},
		{"slice to empty", row.Slice(array.R(2, 1)), []int{0}, []float64{}},
		{"slice empty reversed", em.Slice(array.Rev(), array.Rev()), []int{0, 3}, []float64{}},
		{"broadcast to empty", row.BroadcastTo(0, 3), []int{0, 3}, []float64{}},
		{"expand empty", em.ExpandDims(-1), []int{0, 3, 1}, []float64{}},
		{"astype empty", em.AsType(array.Int32), []int{0, 3}, []float64{}},
		{"0-d unary", z.Floor(), []int{}, []float64{2}},
		{"0-d sum", z.Sum(), []int{}, []float64{2.5}},
		{"0-d argmax", z.ArgMax(), []int{}, []float64{0}},
		{"0-d mean", zi.Mean(), []int{}, []float64{-7}},
		{"0-d transpose", z.Transpose(), []int{}, []float64{2.5}},
		{"0-d reshape", z.Reshape(1, 1), []int{1, 1}, []float64{2.5}},
		{"0-d reshape -1", z.Reshape(-1), []int{1}, []float64{2.5}},
		{"0-d index none", z.Index(), []int{}, []float64{2.5}},
		{"0-d squeeze", z.Squeeze(), []int{}, []float64{2.5}},
		{"0-d expand", z.ExpandDims(0), []int{1}, []float64{2.5}},
		{"0-d flatten", z.Flatten(), []int{1}, []float64{2.5}},
		{"0-d broadcast", zi.BroadcastTo(2), []int{2}, []float64{-7, -7}},
		{"0-d stack", array.Stack(0, z, z), []int{2}, []float64{2.5, 2.5}},
		{"0-d matmul vector dot", array.MatMul(row, row), []int{}, []float64{14}},
		{"0-d where", array.Where(z.Gt(2), z, 0), []int{}, []float64{2.5}},
		{"int floordiv by zero", zi.FloorDiv(0), []int{}, []float64{0}},
		{"int mod by zero", zi.Mod(0), []int{}, []float64{0}},
		{"int div by zero", zi.Div(0), []int{}, []float64{math.Inf(-1)}},
		{"float floordiv by zero", z.FloorDiv(0), []int{}, []float64{math.Inf(1)}},
		{"float mod by zero", z.Mod(0), []int{}, []float64{math.NaN()}},
		{"nan max", row.Div(0).Sub(math.Inf(1)).Max(), []int{}, []float64{math.NaN()}},
	})
	// Reductions without an identity over an empty selection are errors.
	for _, a := range []*array.Array{em.Max(), em.Min(0), em.ArgMax(), em.ArgMin(0), ez.Max(1)} {
		require.Regexp(t, "zero-size selection has no identity|of an empty sequence", e.keep(a).Eval())
	}
}

// TestExtremeArguments: ints at the ends of their range as slice bounds,
// steps and ddof give Python's and NumPy's results, not overflow.
func TestExtremeArguments(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{1, 2, 3})
	e.check([]valueCase{
		{"step MaxInt", x.Slice(array.Stride(math.MaxInt)), []int{1}, []float64{1}},
		{"step MinInt", x.Slice(array.Stride(math.MinInt)), []int{1}, []float64{3}},
		{"bounds MinInt MaxInt", x.Slice(array.RS(math.MinInt, math.MaxInt, 2)), []int{2}, []float64{1, 3}},
		{"bounds MaxInt MinInt", x.Slice(array.RS(math.MaxInt, math.MinInt, -2)), []int{2}, []float64{3, 1}},
		{"index MinInt", x.Slice(array.R(math.MinInt, math.MinInt)), []int{0}, []float64{}},
		{"ddof MinInt", x.VarDdof(math.MinInt), []int{}, []float64{2 / (3 + 0x1p63)}},
		{"ddof MaxInt", x.VarDdof(math.MaxInt), []int{}, []float64{math.Inf(1)}},
	})
	for _, bad := range []*array.Array{x.Index(math.MinInt), x.Index(math.MaxInt), x.ExpandDims(math.MinInt), x.Sum(math.MinInt), x.Permute(math.MinInt)} {
		require.ErrorContains(t, e.keep(bad).Err(), "out of bounds")
	}
}
