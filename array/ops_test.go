// Tests of the ops on the reference backend: a few values each (the
// exhaustive NumPy comparison is numpy_test.go).

package array_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestElementwise(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{-1.5, 0, 2.5, 4})
	n := e.ints([]int64{-7, 0, 3, 8})
	nan := math.NaN()
	tests := []struct {
		name  string
		a     *array.Array
		dtype array.DType
		want  []float64
	}{
		{"Neg", x.Neg(), array.Float64, []float64{1.5, 0, -2.5, -4}},
		{"Abs", n.Abs(), array.Int64, []float64{7, 0, 3, 8}},
		{"Sign", x.Sign(), array.Float64, []float64{-1, 0, 1, 1}},
		{"Sqrt", x.Sqrt(), array.Float64, []float64{nan, 0, math.Sqrt(2.5), 2}},
		{"Rsqrt int", n.Slice(array.From(2)).Rsqrt(), array.Float64, []float64{1 / math.Sqrt(3), 1 / math.Sqrt(8)}},
		{"Exp", x.Exp(), array.Float64, []float64{math.Exp(-1.5), 1, math.Exp(2.5), math.Exp(4)}},
		{"Exp2", x.Exp2(), array.Float64, []float64{math.Exp2(-1.5), 1, math.Exp2(2.5), 16}},
		{"Log", x.Log(), array.Float64, []float64{nan, math.Inf(-1), math.Log(2.5), math.Log(4)}},
		{"Log2", x.Log2(), array.Float64, []float64{nan, math.Inf(-1), math.Log2(2.5), 2}},
		{"Log1p", x.Log1p(), array.Float64, []float64{nan, 0, math.Log1p(2.5), math.Log1p(4)}},
		{"Expm1", x.Expm1(), array.Float64, []float64{math.Expm1(-1.5), 0, math.Expm1(2.5), math.Expm1(4)}},
		{"Sin", x.Sin(), array.Float64, []float64{math.Sin(-1.5), 0, math.Sin(2.5), math.Sin(4)}},
		{"Cos", x.Cos(), array.Float64, []float64{math.Cos(-1.5), 1, math.Cos(2.5), math.Cos(4)}},
		{"Tan", x.Tan(), array.Float64, []float64{math.Tan(-1.5), 0, math.Tan(2.5), math.Tan(4)}},
		{"Tanh", x.Tanh(), array.Float64, []float64{math.Tanh(-1.5), 0, math.Tanh(2.5), math.Tanh(4)}},
		{"Sigmoid", x.Sigmoid(), array.Float64, []float64{1 / (1 + math.Exp(1.5)), 0.5, 1 / (1 + math.Exp(-2.5)), 1 / (1 + math.Exp(-4))}},
		{"Erf", x.Erf(), array.Float64, []float64{math.Erf(-1.5), 0, math.Erf(2.5), math.Erf(4)}},
		{"Floor", x.Floor(), array.Float64, []float64{-2, 0, 2, 4}},
		{"Ceil", x.Ceil(), array.Float64, []float64{-1, 0, 3, 4}},
		{"Round half even", x.Round(), array.Float64, []float64{-2, 0, 2, 4}},
		{"Trunc", x.Trunc(), array.Float64, []float64{-1, 0, 2, 4}},
		{"Reciprocal", x.Reciprocal(), array.Float64, []float64{-1 / 1.5, math.Inf(1), 0.4, 0.25}},
		{"Square", n.Square(), array.Int64, []float64{49, 0, 9, 64}},
		{"IsNaN", x.Sqrt().IsNaN(), array.Bool, []float64{1, 0, 0, 0}},
		{"IsInf", x.Log().IsInf(), array.Bool, []float64{0, 1, 0, 0}},
		{"Not int", n.Not(), array.Int64, []float64{6, -1, -4, -9}},
		{"Not bool", x.Gt(0).Not(), array.Bool, []float64{1, 1, 0, 0}},
		{"AsType", x.AsType(array.Int32), array.Int32, []float64{-1, 0, 2, 4}},
		{"Add weak", x.Add(1), array.Float64, []float64{-0.5, 1, 3.5, 5}},
		{"Sub array", x.Sub(x), array.Float64, []float64{0, 0, 0, 0}},
		{"Mul int", n.Mul(2), array.Int64, []float64{-14, 0, 6, 16}},
		{"Div int", n.Div(2), array.Float64, []float64{-3.5, 0, 1.5, 4}},
		{"FloorDiv", n.FloorDiv(3), array.Int64, []float64{-3, 0, 1, 2}},
		{"FloorDiv by zero", n.FloorDiv(0), array.Int64, []float64{0, 0, 0, 0}},
		{"Mod", n.Mod(3), array.Int64, []float64{2, 0, 0, 2}},
		{"Mod negative", n.Mod(-3), array.Int64, []float64{-1, 0, 0, -1}},
		{"Pow", n.Pow(2), array.Int64, []float64{49, 0, 9, 64}},
		{"Pow float", x.Pow(0.5), array.Float64, []float64{nan, 0, math.Sqrt(2.5), 2}},
		{"Maximum", x.Maximum(1), array.Float64, []float64{1, 1, 2.5, 4}},
		{"Minimum", x.Minimum(n), array.Float64, []float64{-7, 0, 2.5, 4}},
		{"Atan2", x.Atan2(2), array.Float64, []float64{math.Atan2(-1.5, 2), 0, math.Atan2(2.5, 2), math.Atan2(4, 2)}},
		{"Eq", n.Eq(3), array.Bool, []float64{0, 0, 1, 0}},
		{"Ne", n.Ne(3), array.Bool, []float64{1, 1, 0, 1}},
		{"Lt", x.Lt(n), array.Bool, []float64{0, 0, 1, 1}},
		{"Le", x.Le(0), array.Bool, []float64{1, 1, 0, 0}},
		{"Gt", x.Gt(0), array.Bool, []float64{0, 0, 1, 1}},
		{"Ge", x.Ge(2.5), array.Bool, []float64{0, 0, 1, 1}},
		{"And int", n.And(6), array.Int64, []float64{0, 0, 2, 0}},
		{"Or bool", x.Lt(0).Or(x.Gt(3)), array.Bool, []float64{1, 0, 0, 1}},
		{"Xor int", n.Xor(1), array.Int64, []float64{-8, 1, 2, 9}},
		{"Where", array.Where(x.Gt(0), x, 0), array.Float64, []float64{0, 0, 2.5, 4}},
		{"Where ints", array.Where(n.Gt(0), 1, -1), array.Int64, []float64{-1, -1, 1, 1}},
		{"Where weak mix", array.Where(n.Gt(0), 1, 0.5), array.Float64, []float64{0.5, 0.5, 1, 1}},
		{"Clip", x.Clip(-1, 3), array.Float64, []float64{-1, 0, 2.5, 3}},
		{"Clip int", n.Clip(0, 5), array.Int64, []float64{0, 0, 3, 5}},
		{"NaN propagates", x.Sqrt().Maximum(0), array.Float64, []float64{nan, 0, math.Sqrt(2.5), 2}},
	}
	for _, tt := range tests {
		a := e.keep(tt.a)
		require.NoError(t, a.Err(), tt.name)
		if a.DType() != tt.dtype {
			t.Errorf("%s dtype: got:%v want:%v", tt.name, a.DType(), tt.dtype)
		}
		if got := e.f64(a); !approx(got, tt.want) {
			t.Errorf("%s: got:%v want:%v", tt.name, got, tt.want)
		}
	}
}

func TestWeakScalarsKeepDType(t *testing.T) {
	e := newEnv(t)
	f := e.keep(array.FromSlice(e.c, []float32{1, 2}))
	i := e.keep(array.FromSlice(e.c, []int32{1, 2}))
	tests := []struct {
		a    *array.Array
		want array.DType
	}{
		{f.Mul(2), array.Float32}, {f.Mul(2.5), array.Float32}, {i.Add(1), array.Int32},
		{i.Add(1.5), array.Float64}, {i.Mul(f), array.Float64}, {f.Add(true), array.Float32},
	}
	for k, tt := range tests {
		if got := tt.a.DType(); got != tt.want {
			t.Errorf("case %d: got:%v want:%v", k, got, tt.want)
		}
	}
}

func TestReductions(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b := e.keep(array.FromSlice(e.c, []bool{true, false, true, true}, 2, 2))
	e.check([]valueCase{
		{"Sum all", x.Sum(), array.Shape{}, []float64{21}},
		{"Sum 0", x.Sum(0), array.Shape{3}, []float64{5, 7, 9}},
		{"Sum -1 keep", x.SumKeepDims(-1), array.Shape{2, 1}, []float64{6, 15}},
		{"Prod 1", x.Prod(1), array.Shape{2}, []float64{6, 120}},
		{"ProdKeepDims", x.ProdKeepDims(), array.Shape{1, 1}, []float64{720}},
		{"Max 0", x.Max(0), array.Shape{3}, []float64{4, 5, 6}},
		{"MaxKeepDims", x.MaxKeepDims(1), array.Shape{2, 1}, []float64{3, 6}},
		{"Min", x.Min(), array.Shape{}, []float64{1}},
		{"MinKeepDims", x.MinKeepDims(0), array.Shape{1, 3}, []float64{1, 2, 3}},
		{"Any 1", b.Any(1), array.Shape{2}, []float64{1, 1}},
		{"AnyKeepDims", b.Not().AnyKeepDims(0), array.Shape{1, 2}, []float64{0, 1}},
		{"All 1", b.All(1), array.Shape{2}, []float64{0, 1}},
		{"AllKeepDims", b.AllKeepDims(), array.Shape{1, 1}, []float64{0}},
		{"ArgMax flat", x.ArgMax(), array.Shape{}, []float64{5}},
		{"ArgMax 0", x.Neg().ArgMax(0), array.Shape{3}, []float64{0, 0, 0}},
		{"ArgMin 1", x.ArgMin(1), array.Shape{2}, []float64{0, 0}},
		{"Mean", x.Mean(), array.Shape{}, []float64{3.5}},
		{"Mean 0", x.Mean(0), array.Shape{3}, []float64{2.5, 3.5, 4.5}},
		{"MeanKeepDims", x.MeanKeepDims(1), array.Shape{2, 1}, []float64{2, 5}},
		{"Mean bool", b.Mean(), array.Shape{}, []float64{0.75}},
		{"Var", x.Var(), array.Shape{}, []float64{35.0 / 12}},
		{"Var ddof 1 axis 1", x.VarDdof(1, 1), array.Shape{2}, []float64{1, 1}},
		{"VarKeepDims", x.VarKeepDims(0), array.Shape{1, 3}, []float64{2.25, 2.25, 2.25}},
		{"Std", x.Std(0), array.Shape{3}, []float64{1.5, 1.5, 1.5}},
		{"StdDdofKeepDims", x.StdDdofKeepDims(1, 1), array.Shape{2, 1}, []float64{1, 1}},
		// x.Var(1) reads as NumPy's x.var(1): axis 1, ddof 0.
		{"Var 1 is axis 1", x.Var(1), array.Shape{2}, []float64{2.0 / 3, 2.0 / 3}},
		{"Std 1 is axis 1", x.Std(1), array.Shape{2}, []float64{math.Sqrt(2.0 / 3), math.Sqrt(2.0 / 3)}},
		{"StdKeepDims", x.StdKeepDims(0), array.Shape{1, 3}, []float64{1.5, 1.5, 1.5}},
		{"VarDdofKeepDims", x.VarDdofKeepDims(1, 0), array.Shape{1, 3}, []float64{4.5, 4.5, 4.5}},
		{"StdDdof all", x.StdDdof(1), array.Shape{}, []float64{math.Sqrt(3.5)}},
		{"Sum bool", b.Sum(), array.Shape{}, []float64{3}},
		{"Mean empty", e.floats(nil, 0).Mean(), array.Shape{}, []float64{math.NaN()}},
	})
	f32 := e.keep(array.FromSlice(e.c, []float32{1, 2}))
	require.Equal(t, array.Float32, f32.Mean().DType())
	require.Equal(t, array.Float32, f32.Std().DType())
	require.Equal(t, array.Float64, e.ints([]int64{1}).Var().DType())
	require.Equal(t, array.Int64, b.Sum().DType())
}

func TestMatMul(t *testing.T) {
	e := newEnv(t)
	a := e.floats([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b := e.floats([]float64{1, 0, 0, 1, 1, 1}, 3, 2)
	v := e.floats([]float64{1, 2, 3})
	w := e.floats([]float64{1, -1})
	batch := e.floats([]float64{1, 0, 0, 1, 2, 0, 0, 2}, 2, 2, 2)
	e.check([]valueCase{
		{"2-d", array.MatMul(a, b), array.Shape{2, 2}, []float64{4, 5, 10, 11}},
		{"method", a.MatMul(b), array.Shape{2, 2}, []float64{4, 5, 10, 11}},
		{"matrix vector", a.MatMul(v), array.Shape{2}, []float64{14, 32}},
		{"vector matrix", w.MatMul(a), array.Shape{3}, []float64{-3, -3, -3}},
		{"vector vector", v.MatMul(v), array.Shape{}, []float64{14}},
		{"batched broadcast", batch.MatMul(a.Slice(array.All, array.To(2))), array.Shape{2, 2, 2}, []float64{1, 2, 4, 5, 2, 4, 8, 10}},
		{"vector batched", w.MatMul(batch), array.Shape{2, 2}, []float64{1, -1, 2, -2}},
		{"int", e.ints([]int64{1, 2, 3, 4}, 2, 2).MatMul(e.ints([]int64{1, 1}, 2, 1)), array.Shape{2, 1}, []float64{3, 7}},
	})
}

func TestViews(t *testing.T) {
	e := newEnv(t)
	x := e.keep(e.c.ArangeStep(array.Int64, 0, 24, 1)).Reshape(4, 6)
	e.check([]valueCase{
		{"Reshape -1", x.Reshape(3, -1), array.Shape{3, 8}, nil},
		{"Transpose", x.Slice(array.To(2), array.To(3)).Transpose(), array.Shape{3, 2}, []float64{0, 6, 1, 7, 2, 8}},
		{"Permute", x.Reshape(2, 3, 4).Permute(2, 0, 1).Slice(array.R(1, 2)), array.Shape{1, 2, 3}, []float64{1, 5, 9, 13, 17, 21}},
		{"BroadcastTo", e.ints([]int64{1, 2}).BroadcastTo(2, 2), array.Shape{2, 2}, []float64{1, 2, 1, 2}},
		{"Slice steps", x.Slice(array.RS(3, 0, -2), array.RS(1, 6, 2)), array.Shape{2, 3}, []float64{19, 21, 23, 7, 9, 11}},
		{"Slice from/to", x.Slice(array.From(-1), array.To(-4)), array.Shape{1, 2}, []float64{18, 19}},
		{"Rev", x.Slice(array.All, array.Rev()).Index(0), array.Shape{6}, []float64{5, 4, 3, 2, 1, 0}},
		{"Stride", x.Slice(array.Stride(3)).Index(1, -1), array.Shape{}, []float64{23}},
		// slice with steps, then transpose, then reshape: NumPy copies here.
		{"composed", x.Slice(array.RS(0, 4, 2), array.RS(5, 0, -2)).Transpose().Reshape(6), array.Shape{6}, []float64{5, 17, 3, 15, 1, 13}},
		{"composed 2", x.Slice(array.Rev(), array.R(1, 5)).Transpose().Reshape(2, 8).Slice(array.All, array.Stride(4)), array.Shape{2, 2}, []float64{19, 20, 21, 22}},
		{"ExpandDims", e.ints([]int64{1, 2}).ExpandDims(-1), array.Shape{2, 1}, []float64{1, 2}},
		{"ExpandDims 0", e.ints([]int64{1, 2}).ExpandDims(0), array.Shape{1, 2}, []float64{1, 2}},
		{"Squeeze all", e.ints([]int64{1, 2}, 1, 2, 1).Squeeze(), array.Shape{2}, []float64{1, 2}},
		{"Squeeze one", e.ints([]int64{1, 2}, 1, 2, 1).Squeeze(-1), array.Shape{1, 2}, []float64{1, 2}},
		{"Flatten", x.Transpose().Slice(array.To(2)).Flatten(), array.Shape{8}, []float64{0, 6, 12, 18, 1, 7, 13, 19}},
		{"Index row", x.Index(-2), array.Shape{6}, []float64{12, 13, 14, 15, 16, 17}},
		{"Concat", array.Concat(0, e.ints([]int64{1, 2}), e.ints([]int64{3})), array.Shape{3}, []float64{1, 2, 3}},
		{"Concat promote", array.Concat(-1, e.ints([]int64{1}, 1, 1), e.floats([]float64{0.5}, 1, 1)), array.Shape{1, 2}, []float64{1, 0.5}},
		{"Stack", array.Stack(1, e.ints([]int64{1, 2}), e.ints([]int64{3, 4})), array.Shape{2, 2}, []float64{1, 3, 2, 4}},
		{"Stack 0", array.Stack(0, e.ints([]int64{1, 2}), e.ints([]int64{3, 4})), array.Shape{2, 2}, []float64{1, 2, 3, 4}},
		{"Contiguous", x.Transpose().Contiguous().Slice(array.To(1)), array.Shape{1, 4}, []float64{0, 6, 12, 18}},
	})
	// The chain.
	y := e.keep(e.c.ArangeStep(array.Float32, 0, 12, 1).Reshape(3, 4).Transpose().Mul(2).Sum(0))
	require.Equal(t, []float32{12, 44, 76}, array.MustToSlice[float32](y))
}
