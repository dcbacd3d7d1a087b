// Reductions of empty selections, on the CPU executor and the reference
// evaluator, against NumPy's results: Sum 0 (+0, never -0), Prod 1, Mean,
// Var and Std NaN, Any false, All true, and Max, Min, ArgMax and ArgMin
// errors; for every dtype, over every axis, with and without keepdims.
// Reductions over a non-empty axis of an empty array give empty results.

package array_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestEmptyReductions(t *testing.T) {
	nan := math.NaN()
	// fill returns n copies of v.
	fill := func(n int, v float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	type reduceCase struct {
		name  string
		shape []int
		f     func(x *array.Array) *array.Array
		shp   []int     // result shape
		want  []float64 // NumPy's values (read as float64)
		err   string    // the op the error names, when NumPy raises
	}
	cases := []reduceCase{
		{"sum", []int{0}, func(x *array.Array) *array.Array { return x.Sum() }, []int{}, []float64{0}, ""},
		{"sum-2d", []int{0, 3}, func(x *array.Array) *array.Array { return x.Sum() }, []int{}, []float64{0}, ""},
		{"sum-axis0", []int{0, 3}, func(x *array.Array) *array.Array { return x.Sum(0) }, []int{3}, fill(3, 0), ""},
		{"sum-axis0-keep", []int{0, 3}, func(x *array.Array) *array.Array { return x.SumKeepDims(0) }, []int{1, 3}, fill(3, 0), ""},
		{"sum-axis1-of-empty-rows", []int{0, 3}, func(x *array.Array) *array.Array { return x.Sum(1) }, []int{0}, nil, ""},
		{"sum-axis1", []int{3, 0}, func(x *array.Array) *array.Array { return x.Sum(1) }, []int{3}, fill(3, 0), ""},
		{"sum-axis-neg1-keep", []int{3, 0}, func(x *array.Array) *array.Array { return x.SumKeepDims(-1) }, []int{3, 1}, fill(3, 0), ""},
		{"sum-axes02", []int{0, 2, 3}, func(x *array.Array) *array.Array { return x.Sum(0, 2) }, []int{2}, fill(2, 0), ""},
		{"sum-axes02-keep", []int{0, 2, 3}, func(x *array.Array) *array.Array { return x.SumKeepDims(0, 2) }, []int{1, 2, 1}, fill(2, 0), ""},
		{"prod", []int{0}, func(x *array.Array) *array.Array { return x.Prod() }, []int{}, []float64{1}, ""},
		{"prod-axis1-keep", []int{2, 0}, func(x *array.Array) *array.Array { return x.ProdKeepDims(1) }, []int{2, 1}, fill(2, 1), ""},
		{"mean", []int{0}, func(x *array.Array) *array.Array { return x.Mean() }, []int{}, []float64{nan}, ""},
		{"mean-axis0", []int{0, 2}, func(x *array.Array) *array.Array { return x.Mean(0) }, []int{2}, fill(2, nan), ""},
		{"var", []int{0}, func(x *array.Array) *array.Array { return x.Var() }, []int{}, []float64{nan}, ""},
		{"std-axis1", []int{2, 0}, func(x *array.Array) *array.Array { return x.Std(1) }, []int{2}, fill(2, nan), ""},
		{"any", []int{0}, func(x *array.Array) *array.Array { return x.Any() }, []int{}, []float64{0}, ""},
		{"all", []int{0}, func(x *array.Array) *array.Array { return x.All() }, []int{}, []float64{1}, ""},
		{"any-axis0-keep", []int{0, 2}, func(x *array.Array) *array.Array { return x.AnyKeepDims(0) }, []int{1, 2}, fill(2, 0), ""},
		{"all-axis1", []int{2, 0}, func(x *array.Array) *array.Array { return x.All(1) }, []int{2}, fill(2, 1), ""},
		{"max", []int{0}, func(x *array.Array) *array.Array { return x.Max() }, nil, nil, "Max"},
		{"min-axis0", []int{0, 3}, func(x *array.Array) *array.Array { return x.Min(0) }, nil, nil, "Min"},
		{"max-axis1-of-empty-rows", []int{0, 3}, func(x *array.Array) *array.Array { return x.Max(1) }, []int{0}, nil, ""},
		{"argmax", []int{0}, func(x *array.Array) *array.Array { return x.ArgMax() }, nil, nil, "ArgMax"},
		{"argmin-axis0", []int{0, 2}, func(x *array.Array) *array.Array { return x.ArgMin(0) }, nil, nil, "ArgMin"},
	}
	for _, be := range testBackends() {
		c, mem := checkedContext(t, be)
		for _, d := range []array.DType{array.Bool, array.Int32, array.Int64, array.Float32, array.Float64} {
			for _, tc := range cases {
				x := c.Zeros(d, tc.shape...)
				y := tc.f(x)
				what := be.Name() + " " + tc.name + " " + d.String()
				if tc.err != "" {
					err := y.Eval()
					require.Error(t, err, what)
					require.Contains(t, err.Error(), tc.err, what)
					y.Release()
					x.Release()
					continue
				}
				require.NoError(t, y.Eval(), what)
				require.Equal(t, tc.shp, []int(y.Shape()), what)
				yf := y.AsType(array.Float64)
				got, err := array.ToSlice[float64](yf)
				require.NoError(t, err, what)
				require.Len(t, got, len(tc.want), what)
				for i, w := range tc.want {
					g := got[i]
					ok := g == w && math.Signbit(g) == math.Signbit(w) || math.IsNaN(g) && math.IsNaN(w)
					require.True(t, ok, "%s: element %d got:%v (sign bit %v) want:%v", what, i, g, math.Signbit(g), w)
				}
				yf.Release()
				y.Release()
				x.Release()
			}
		}
		require.Zero(t, c.Live(), "results still held")
		mem.AssertSize(t, 0)
	}
}
