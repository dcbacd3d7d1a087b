// Reductions: every op over one, several and all axes, with keepdims,
// NaN propagation, first-index ArgMax, empty and 0-d inputs.

package ref_test

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func TestReduce(t *testing.T) {
	// x[i, j, k] = 6i + 2j + k over shape (2, 3, 2).
	x12 := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	tests := []struct {
		name  string
		op    graph.Op
		d     graph.DType
		shape graph.Shape
		in    any
		axes  []int
		keep  bool
		wantS graph.Shape
		wantD graph.DType
		want  any
	}{
		{"sum-0-2-keep", graph.OpSum, graph.Float64, graph.Shape{2, 3, 2}, x12, []int{0, 2}, true,
			graph.Shape{1, 3, 1}, graph.Float64, []float64{14, 22, 30}},
		{"sum-neg-axis", graph.OpSum, graph.Float32, graph.Shape{2, 3, 2}, x12, []int{-1}, false,
			graph.Shape{2, 3}, graph.Float32, []float64{1, 5, 9, 13, 17, 21}},
		{"sum-all-int32", graph.OpSum, graph.Int32, graph.Shape{2, 3, 2}, x12, nil, false,
			graph.Shape{}, graph.Int64, []int64{66}},
		{"sum-int64-wraps", graph.OpSum, graph.Int64, graph.Shape{2}, []int64{math.MaxInt64, 1}, nil, false,
			graph.Shape{}, graph.Int64, []int64{math.MinInt64}},
		{"sum-int32-widens", graph.OpSum, graph.Int32, graph.Shape{2}, []int32{math.MaxInt32, 1}, nil, false,
			graph.Shape{}, graph.Int64, []int64{math.MaxInt32 + 1}},
		{"sum-f32-in-f64", graph.OpSum, graph.Float32, graph.Shape{3}, []float32{16777216, 1, 1}, nil, false,
			graph.Shape{}, graph.Float32, []float64{16777218}},
		{"sum-negzero", graph.OpSum, graph.Float64, graph.Shape{2}, []float64{math.Copysign(0, -1), math.Copysign(0, -1)}, nil, false,
			graph.Shape{}, graph.Float64, []float64{math.Copysign(0, -1)}},
		{"sum-bool", graph.OpSum, graph.Bool, graph.Shape{3}, []bool{true, false, true}, nil, false,
			graph.Shape{}, graph.Int64, []int64{2}},
		{"prod-axis1", graph.OpProd, graph.Float64, graph.Shape{2, 3}, []float64{1, 2, 3, 4, 5, 6}, []int{1}, false,
			graph.Shape{2}, graph.Float64, []float64{6, 120}},
		{"prod-int32-wraps", graph.OpProd, graph.Int32, graph.Shape{3}, []int32{1 << 30, 1 << 30, 16}, nil, false,
			graph.Shape{}, graph.Int64, []int64{0}},
		{"max-nan", graph.OpReduceMax, graph.Float64, graph.Shape{2, 2}, []float64{1, nan, 3, 2}, []int{1}, false,
			graph.Shape{2}, graph.Float64, []float64{nan, 3}},
		{"max-nan-first", graph.OpReduceMax, graph.Float32, graph.Shape{3}, []float32{float32(nan), 1, 2}, nil, false,
			graph.Shape{}, graph.Float32, []float64{nan}},
		{"min-axis0-keep", graph.OpReduceMin, graph.Float64, graph.Shape{2, 2}, []float64{1, nan, -inf, 2}, []int{0}, true,
			graph.Shape{1, 2}, graph.Float64, []float64{-inf, nan}},
		{"max-int", graph.OpReduceMax, graph.Int64, graph.Shape{3}, []int64{math.MinInt64, -5, -7}, nil, false,
			graph.Shape{}, graph.Int64, []int64{-5}},
		{"min-int32", graph.OpReduceMin, graph.Int32, graph.Shape{2, 2}, []int32{4, 9, math.MinInt32, 3}, []int{0, 1}, false,
			graph.Shape{}, graph.Int32, []int64{math.MinInt32}},
		{"max-bool", graph.OpReduceMax, graph.Bool, graph.Shape{2}, []bool{false, true}, nil, false,
			graph.Shape{}, graph.Bool, []bool{true}},
		{"argmax-first-and-nan", graph.OpArgMax, graph.Float64, graph.Shape{3, 3},
			[]float64{1, 3, 3, nan, 5, nan, 2, 2, 1}, []int{1}, false,
			graph.Shape{3}, graph.Int64, []int64{1, 0, 0}},
		{"argmin-first-and-nan", graph.OpArgMin, graph.Float64, graph.Shape{3, 3},
			[]float64{1, 3, 1, 4, 5, nan, 2, 2, 1}, []int{1}, false,
			graph.Shape{3}, graph.Int64, []int64{0, 2, 2}},
		{"argmax-axis0-keep", graph.OpArgMax, graph.Int32, graph.Shape{3, 2},
			[]int32{1, 7, 5, 7, 5, 0}, []int{0}, true,
			graph.Shape{1, 2}, graph.Int64, []int64{1, 0}},
		{"argmax-flat", graph.OpArgMax, graph.Float32, graph.Shape{2, 2}, []float32{1, 5, 5, 2}, nil, false,
			graph.Shape{}, graph.Int64, []int64{1}},
		{"argmin-flat-keep", graph.OpArgMin, graph.Int64, graph.Shape{2, 2}, []int64{3, 5, -1, -1}, nil, true,
			graph.Shape{1, 1}, graph.Int64, []int64{2}},
		{"argmax-all-neginf", graph.OpArgMax, graph.Float64, graph.Shape{2}, []float64{-inf, -inf}, []int{0}, false,
			graph.Shape{}, graph.Int64, []int64{0}},
		{"any-nan", graph.OpAny, graph.Float64, graph.Shape{2, 2}, []float64{0, nan, 0, 0}, []int{1}, false,
			graph.Shape{2}, graph.Bool, []bool{true, false}},
		{"all-nan", graph.OpAll, graph.Float32, graph.Shape{2, 2}, []float32{1, float32(nan), 1, 0}, []int{1}, false,
			graph.Shape{2}, graph.Bool, []bool{true, false}},
		{"any-int-keep", graph.OpAny, graph.Int32, graph.Shape{2, 2}, []int32{0, 0, 0, -4}, []int{0}, true,
			graph.Shape{1, 2}, graph.Bool, []bool{false, true}},
		{"all-bool", graph.OpAll, graph.Bool, graph.Shape{3}, []bool{true, true, false}, nil, false,
			graph.Shape{}, graph.Bool, []bool{false}},
		{"sum-empty", graph.OpSum, graph.Float64, graph.Shape{0, 3}, []float64{}, []int{0}, false,
			graph.Shape{3}, graph.Float64, []float64{0, 0, 0}},
		{"sum-empty-out", graph.OpSum, graph.Float64, graph.Shape{0, 3}, []float64{}, []int{1}, false,
			graph.Shape{0}, graph.Float64, []float64{}},
		{"prod-empty", graph.OpProd, graph.Int64, graph.Shape{3, 0}, []int64{}, []int{1}, true,
			graph.Shape{3, 1}, graph.Int64, []int64{1, 1, 1}},
		{"any-empty", graph.OpAny, graph.Bool, graph.Shape{0}, []bool{}, nil, false,
			graph.Shape{}, graph.Bool, []bool{false}},
		{"all-empty", graph.OpAll, graph.Float32, graph.Shape{2, 0}, []float32{}, []int{1}, false,
			graph.Shape{2}, graph.Bool, []bool{true, true}},
		{"max-empty-out", graph.OpReduceMax, graph.Float32, graph.Shape{0, 2}, []float32{}, []int{1}, false,
			graph.Shape{0}, graph.Float32, []float64{}},
		{"sum-0d", graph.OpSum, graph.Float64, graph.Shape{}, []float64{2.5}, nil, false,
			graph.Shape{}, graph.Float64, []float64{2.5}},
		{"max-0d-keep", graph.OpReduceMax, graph.Int32, graph.Shape{}, []int32{-4}, nil, true,
			graph.Shape{}, graph.Int32, []int64{-4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			x := e.input(tc.d, tc.shape, tc.in)
			n := graph.Reduce(tc.op, x, tc.axes, tc.keep)
			check(t, e.one(n), tc.wantD, tc.wantS, tc.want)
		})
	}
}

func TestReduceStridedInput(t *testing.T) {
	// The transpose of [[1 2 3] [4 5 6]] as a strided binding; sum over
	// axis 1 of the (3, 2) view is [5 7 9]; a 0-stride axis counts each
	// element again.
	e := newEnv(t)
	v := e.raw(graph.Float64, []float64{1, 2, 3, 4, 5, 6}, graph.Shape{3, 2}, []int{1, 3}, 0)
	check(t, e.one(graph.Reduce(graph.OpSum, e.bind(v), []int{1}, false)), graph.Float64, graph.Shape{3}, []float64{5, 7, 9})
	b := e.raw(graph.Int64, []int64{1, 2, 3}, graph.Shape{4, 3}, []int{0, 1}, 0)
	check(t, e.one(graph.Reduce(graph.OpSum, e.bind(b), []int{0}, false)), graph.Int64, graph.Shape{3}, []int64{4, 8, 12})
	check(t, e.one(graph.Reduce(graph.OpArgMax, e.bind(b), []int{1}, false)), graph.Int64, graph.Shape{4}, []int64{2, 2, 2, 2})
}
