// Views, Concat, Contiguous and MatMul, over contiguous and strided
// bindings.

package ref_test

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func TestViews(t *testing.T) {
	e := newEnv(t)
	// x[i, j, k] = 100i + 10j + k over shape (2, 3, 2).
	x := e.input(graph.Int32, graph.Shape{2, 3, 2}, []int32{0, 1, 10, 11, 20, 21, 100, 101, 110, 111, 120, 121})
	tests := []struct {
		name  string
		n     *graph.Node
		shape graph.Shape
		want  []int64
	}{
		{"reshape", graph.Reshape(x, graph.Shape{4, 3}), graph.Shape{4, 3},
			[]int64{0, 1, 10, 11, 20, 21, 100, 101, 110, 111, 120, 121}},
		{"permute", graph.Permute(x, []int{2, 0, 1}), graph.Shape{2, 2, 3},
			[]int64{0, 10, 20, 100, 110, 120, 1, 11, 21, 101, 111, 121}},
		{"permute-reshape", graph.Reshape(graph.Permute(x, []int{1, 0, 2}), graph.Shape{12}), graph.Shape{12},
			[]int64{0, 1, 100, 101, 10, 11, 110, 111, 20, 21, 120, 121}},
		{"slice-steps", graph.Slice(x, []graph.Range{{Step: -1, NoStart: true, NoStop: true}, {Start: 0, Step: 2, NoStop: true}, {Start: 1, Stop: 2, Step: 1}}),
			graph.Shape{2, 2, 1}, []int64{101, 121, 1, 21}},
		{"slice-empty", graph.Slice(x, []graph.Range{{Start: 1, Stop: 1, Step: 1}}), graph.Shape{0, 3, 2}, []int64{}},
		{"slice-transpose-reshape", graph.Reshape(graph.Permute(graph.Slice(x, []graph.Range{graph.All, {Start: 2, Stop: 0, Step: -1}}), []int{2, 1, 0}), graph.Shape{8}),
			graph.Shape{8}, []int64{20, 120, 10, 110, 21, 121, 11, 111}},
		{"broadcast", graph.BroadcastTo(graph.Slice(x, []graph.Range{{Start: 0, Stop: 1, Step: 1}, graph.All, {Start: 0, Stop: 1, Step: 1}}), graph.Shape{2, 2, 3, 2}),
			graph.Shape{2, 2, 3, 2}, []int64{0, 0, 10, 10, 20, 20, 0, 0, 10, 10, 20, 20, 0, 0, 10, 10, 20, 20, 0, 0, 10, 10, 20, 20}},
		{"copy", graph.Copy(graph.Permute(x, []int{0, 2, 1})), graph.Shape{2, 2, 3},
			[]int64{0, 10, 20, 1, 11, 21, 100, 110, 120, 101, 111, 121}},
		{"concat-axis1", graph.Concat([]*graph.Node{x, graph.Slice(x, []graph.Range{graph.All, {Start: 2, Stop: 3, Step: 1}})}, 1),
			graph.Shape{2, 4, 2}, []int64{0, 1, 10, 11, 20, 21, 20, 21, 100, 101, 110, 111, 120, 121, 120, 121}},
		{"concat-empty-part", graph.Concat([]*graph.Node{graph.Slice(x, []graph.Range{{Start: 0, Stop: 0, Step: 1}}), graph.Slice(x, []graph.Range{{Start: 1, Stop: 2, Step: 1}})}, 0),
			graph.Shape{1, 3, 2}, []int64{100, 101, 110, 111, 120, 121}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check(t, e.one(tc.n), graph.Int32, tc.shape, tc.want)
		})
	}
}

func TestViewsOfStridedBindings(t *testing.T) {
	e := newEnv(t)
	buf := []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	tests := []struct {
		name    string
		shape   graph.Shape
		strides []int
		offset  int
		build   func(*graph.Node) *graph.Node
		outS    graph.Shape
		want    []float64
	}{
		// (2, 3) view of the buffer at offset 1 with row stride 4.
		{"reshape", graph.Shape{2, 3}, []int{4, 1}, 1, func(x *graph.Node) *graph.Node { return graph.Reshape(x, graph.Shape{3, 2}) },
			graph.Shape{3, 2}, []float64{1, 2, 3, 5, 6, 7}},
		{"negative-stride", graph.Shape{4}, []int{-2}, 9, func(x *graph.Node) *graph.Node { return graph.Copy(x) },
			graph.Shape{4}, []float64{9, 7, 5, 3}},
		{"stride0-add", graph.Shape{3, 2}, []int{0, 1}, 4, func(x *graph.Node) *graph.Node { return graph.Binary(graph.OpAdd, x, x) },
			graph.Shape{3, 2}, []float64{8, 10, 8, 10, 8, 10}},
		{"transpose-slice", graph.Shape{3, 2}, []int{1, 5}, 0, func(x *graph.Node) *graph.Node {
			return graph.Slice(x, []graph.Range{{Start: 2, Stop: 0, Step: -2, NoStop: true}})
		}, graph.Shape{2, 2}, []float64{2, 7, 0, 5}},
		{"concat", graph.Shape{2, 1}, []int{3, 7}, 2, func(x *graph.Node) *graph.Node { return graph.Concat([]*graph.Node{x, x}, 1) },
			graph.Shape{2, 2}, []float64{2, 2, 5, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := e.bind(e.raw(graph.Float32, buf, tc.shape, tc.strides, tc.offset))
			check(t, e.one(tc.build(x)), graph.Float32, tc.outS, tc.want)
		})
	}
}

func TestBoolBytesNormalized(t *testing.T) {
	e := newEnv(t)
	x := e.tensor(graph.Bool, graph.Shape{3}, []bool{true, false, true})
	x.Bytes()[0] = 7
	n := e.bind(x)
	check(t, e.one(graph.Copy(n)), graph.Bool, graph.Shape{3}, []bool{true, false, true})
	c := e.one(graph.Concat([]*graph.Node{n, n}, 0))
	if got := c.Bytes()[:6]; got[0] != 1 || got[3] != 1 {
		t.Fatalf("got:%v want:bytes 0 or 1", got)
	}
	check(t, e.one(graph.Unary(graph.OpNot, n)), graph.Bool, graph.Shape{3}, []bool{false, true, false})
}

func TestMatMul(t *testing.T) {
	tests := []struct {
		name   string
		d      graph.DType
		as, bs graph.Shape
		a, b   any
		outS   graph.Shape
		want   any
	}{
		{"2d", graph.Float64, graph.Shape{2, 3}, graph.Shape{3, 2},
			[]float64{1, 2, 3, 4, 5, 6}, []float64{7, 8, 9, 10, 11, 12},
			graph.Shape{2, 2}, []float64{58, 64, 139, 154}},
		{"f32-accumulates-in-f64", graph.Float32, graph.Shape{1, 3}, graph.Shape{3, 1},
			[]float32{16777216, 1, 1}, []float32{1, 1, 1}, graph.Shape{1, 1}, []float64{16777218}},
		{"int32-wraps", graph.Int32, graph.Shape{1, 2}, graph.Shape{2, 1},
			[]int32{65536, 3}, []int32{65536, -2}, graph.Shape{1, 1}, []int64{-6}},
		{"k0", graph.Float32, graph.Shape{2, 0}, graph.Shape{0, 3}, []float32{}, []float32{},
			graph.Shape{2, 3}, []float64{0, 0, 0, 0, 0, 0}},
		{"m0", graph.Int64, graph.Shape{0, 2}, graph.Shape{2, 3}, []int64{}, []int64{1, 2, 3, 4, 5, 6},
			graph.Shape{0, 3}, []int64{}},
		// Batch (2, 1) against (3): a[p] = (p+1)*I, b[q] = [[q, 1], [0, q]];
		// out[p, q] = (p+1) * b[q].
		{"batch-broadcast", graph.Int64, graph.Shape{2, 1, 2, 2}, graph.Shape{3, 2, 2},
			[]int64{1, 0, 0, 1, 2, 0, 0, 2}, []int64{0, 1, 0, 0, 1, 1, 0, 1, 2, 1, 0, 2},
			graph.Shape{2, 3, 2, 2}, []int64{
				0, 1, 0, 0, 1, 1, 0, 1, 2, 1, 0, 2,
				0, 2, 0, 0, 2, 2, 0, 2, 4, 2, 0, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			a := e.input(tc.d, tc.as, tc.a)
			b := e.input(tc.d, tc.bs, tc.b)
			check(t, e.one(graph.MatMul(a, b)), tc.d, tc.outS, tc.want)
		})
	}
}

func TestMatMulStridedAndPromoted(t *testing.T) {
	e := newEnv(t)
	// a is the transpose of [[1 2] [3 4] [5 6]] (a strided binding), b a
	// broadcast row [1 -1] repeated 3 times, as int32 promoted to float64.
	a := e.bind(e.raw(graph.Float64, []float64{1, 2, 3, 4, 5, 6}, graph.Shape{2, 3}, []int{1, 2}, 0))
	b := e.bind(e.raw(graph.Int32, []int32{1, -1}, graph.Shape{3, 2}, []int{0, 1}, 0))
	check(t, e.one(graph.MatMul(a, b)), graph.Float64, graph.Shape{2, 2}, []float64{9, -9, 12, -12})
	nanA := e.input(graph.Float64, graph.Shape{1, 3}, []float64{math.NaN(), 0, 0})
	check(t, e.one(graph.MatMul(nanA, b)), graph.Float64, graph.Shape{1, 2}, []float64{nan, nan})
}
