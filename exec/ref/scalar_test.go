// Scalar semantics and strided iteration, tested directly.

package ref

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func TestDivmodFloat(t *testing.T) {
	nz := math.Copysign(0, -1)
	tests := []struct {
		a, b, div, mod float64
	}{
		{7, 2, 3, 1},
		{-7, 2, -4, 1},
		{7, -2, -4, -1},
		{-7, -2, 3, -1},
		{0, 5, 0, 0},
		{nz, 5, nz, 0},
		{0, -5, nz, nz},
		{1, -inf, -1, -inf},
		{-1, inf, -1, inf},
		{1, inf, 0, 1},
		{0.5, 0.1, 4, 0.09999999999999998},
		{5.28, -0.49, -11, -0.10999999999999965}, // (a-mod)/b is -11.000000000000002
		{-2.1, 0.15, -15, 0.14999999999999983},
	}
	for _, tc := range tests {
		d, m := divmodFloat(tc.a, tc.b)
		if math.Float64bits(d) != math.Float64bits(tc.div) || math.Float64bits(m) != math.Float64bits(tc.mod) {
			t.Errorf("divmod(%v, %v) got:%v, %v want:%v, %v", tc.a, tc.b, d, m, tc.div, tc.mod)
		}
	}
}

var inf = math.Inf(1)

func TestIntSemantics(t *testing.T) {
	tests := []struct {
		name      string
		f         func(a, b int64) int64
		a, b, out int64
	}{
		{"floordiv", floorDivInt, -1, 3, -1},
		{"floordiv-exact", floorDivInt, -6, 3, -2},
		{"floordiv-min", floorDivInt, math.MinInt64, -1, math.MinInt64},
		{"floordiv-zero", floorDivInt, 5, 0, 0},
		{"mod", modInt, -1, 3, 2},
		{"mod-neg-divisor", modInt, 1, -3, -2},
		{"mod-zero", modInt, -5, 0, 0},
		{"pow", powInt, -3, 3, -27},
		{"pow-wraps", powInt, 2, 64, 0},
		{"pow-odd-wraps", powInt, 3, 41, -420491770248316829}, // 3**41 mod 2**64,
		{"pow-neg", powInt, 2, -1, 0},
		{"pow-neg-one", powInt, 1, math.MinInt64, 1},
		{"pow-neg-minus-one-odd", powInt, -1, -1, -1},
		{"pow-neg-minus-one-even", powInt, -1, math.MinInt64, 1},
		{"pow-zero-zero", powInt, 0, 0, 1},
		{"IntOp(FloorDiv)", IntOp(graph.OpFloorDiv), -7, 2, -4},
		{"IntOp(Mod)", IntOp(graph.OpMod), -7, 2, 1},
	}
	for _, tc := range tests {
		if got := tc.f(tc.a, tc.b); got != tc.out {
			t.Errorf("%s(%d, %d) got:%d want:%d", tc.name, tc.a, tc.b, got, tc.out)
		}
	}
	if IntOp(graph.OpExp) != nil {
		t.Errorf("IntOp(Exp) got:a function want:nil")
	}
}

func TestCastFloat(t *testing.T) {
	tests := []struct {
		x    float64
		d    graph.DType
		want int64
	}{
		{-2.9, graph.Int32, -2},
		{math.NaN(), graph.Int64, 0},
		{-inf, graph.Int64, math.MinInt64},
		{3e9, graph.Int32, math.MaxInt32},
		{math.NaN(), graph.Bool, 1},
		{math.Copysign(0, -1), graph.Bool, 0},
	}
	for _, tc := range tests {
		if got := castFloat(tc.x, tc.d); got != tc.want {
			t.Errorf("cast %v to %v got:%d want:%d", tc.x, tc.d, got, tc.want)
		}
	}
}

func TestIter(t *testing.T) {
	// Shape (2, 3): layout 0 row-major, layout 1 the transpose of a (3, 2)
	// buffer at offset 1, layout 2 a broadcast row.
	it := newIter(graph.Shape{2, 3}, graph.Layout{Strides: []int{3, 1}}, graph.Layout{Strides: []int{1, 2}, Offset: 1}, graph.Layout{Strides: []int{0, 1}})
	var got [3][]int
	for range 6 {
		for j := range got {
			got[j] = append(got[j], it.off[j])
		}
		it.next()
	}
	want := [3][]int{{0, 1, 2, 3, 4, 5}, {1, 3, 5, 2, 4, 6}, {0, 1, 2, 0, 1, 2}}
	for j := range want {
		for k := range want[j] {
			if got[j][k] != want[j][k] {
				t.Fatalf("layout %d got:%v want:%v", j, got[j], want[j])
			}
		}
	}
	// A 0-d shape has one element at the offset.
	z := newIter(graph.Shape{}, graph.Layout{Offset: 4})
	if z.off[0] != 4 {
		t.Fatalf("got:%d want:4", z.off[0])
	}
	z.next()
}
