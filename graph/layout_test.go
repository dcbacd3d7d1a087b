// Tests of Layout: contiguity, spans of strided views, equality and
// copies.

package graph

import (
	"slices"
	"testing"
)

func TestLayout(t *testing.T) {
	tests := []struct {
		name       string
		l          Layout
		contiguous bool
		lo, hi     int
	}{
		{"row-major", ContiguousLayout(Float32, Shape{3, 4}), true, 0, 11},
		{"scalar at an offset", Layout{DType: Int64, Shape: Shape{}, Offset: 7}, true, 7, 7},
		{"transpose", Layout{DType: Float32, Shape: Shape{4, 3}, Strides: []int{1, 4}}, false, 0, 11},
		{"reversed rows", Layout{DType: Float64, Shape: Shape{3, 4}, Strides: []int{-4, 1}, Offset: 8}, false, 0, 11},
		{"broadcast", Layout{DType: Bool, Shape: Shape{5, 2}, Strides: []int{0, 1}, Offset: 3}, false, 3, 4},
		{"extent 1 with any stride", Layout{DType: Int32, Shape: Shape{1, 4}, Strides: []int{99, 1}, Offset: 2}, true, 2, 5},
		{"empty", Layout{DType: Float32, Shape: Shape{0, 4}, Strides: []int{4, -1}, Offset: 3}, true, 0, -1},
	}
	for _, tt := range tests {
		if got := tt.l.Contiguous(); got != tt.contiguous {
			t.Errorf("%s: Contiguous got:%v want:%v", tt.name, got, tt.contiguous)
		}
		if lo, hi := tt.l.Span(); lo != tt.lo || hi != tt.hi {
			t.Errorf("%s: Span got:%d,%d want:%d,%d", tt.name, lo, hi, tt.lo, tt.hi)
		}
		c := tt.l.Clone()
		if !c.Equal(tt.l) {
			t.Errorf("%s: Clone got:%+v want:%+v", tt.name, c, tt.l)
		}
		if len(c.Strides) > 0 {
			c.Strides[0]++
			if c.Equal(tt.l) || slices.Equal(c.Strides, tt.l.Strides) {
				t.Errorf("%s: the clone shares its strides", tt.name)
			}
		}
	}
	l := Layout{DType: Float32, Shape: Shape{2, 3}, Strides: []int{-3, 1}, Offset: 3}
	if got := l.Index([]int{1, 2}); got != 2 {
		t.Errorf("Index got:%d want:2", got)
	}
	if got, want := l.Equal(Layout{DType: Float64, Shape: l.Shape, Strides: l.Strides, Offset: 3}), false; got != want {
		t.Errorf("Equal of another dtype got:%v want:%v", got, want)
	}
}

func TestInputLayouts(t *testing.T) {
	x := Input(Float32, Shape{2, 3}, "x")
	y := Input(Int64, Shape{3}, "y")
	z := Input(Float64, Shape{4}, "z") // not under the roots
	a := Binary(OpAdd, x, Cast(y, Float32))
	got := InputLayouts(Binary(OpMul, a, a), Unary(OpExp, x), nil)
	want := map[*Node]Layout{
		x: {DType: Float32, Shape: Shape{2, 3}, Strides: []int{3, 1}},
		y: {DType: Int64, Shape: Shape{3}, Strides: []int{1}},
	}
	if len(got) != len(want) {
		t.Fatalf("got:%v want:%v", got, want)
	}
	for n, w := range want {
		if g, ok := got[n]; !ok || !g.Equal(w) {
			t.Errorf("input %v got:%+v want:%+v", n.DType(), g, w)
		}
	}
	if _, ok := got[z]; ok {
		t.Errorf("z is not under the roots but has a layout")
	}
	if got := InputLayouts(); len(got) != 0 {
		t.Errorf("no roots got:%v want:map[]", got)
	}
}
