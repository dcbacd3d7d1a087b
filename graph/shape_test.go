package graph

import (
	"math"
	"strings"
	"testing"
)

func TestCheckShape(t *testing.T) {
	tests := []struct {
		s    Shape
		d    DType
		want string // "" for a valid shape
	}{
		{Shape{}, Float64, ""},
		{Shape{0}, Float64, ""},
		{Shape{math.MaxInt}, Bool, ""},
		{Shape{math.MaxInt / 8}, Float64, ""},
		{Shape{math.MaxInt/8 + 1}, Float64, "needs more than"},
		{Shape{math.MaxInt}, Int32, "needs more than"},
		{Shape{1 << 31, 1 << 31, 4}, Float64, "needs more than"},
		{Shape{2, -1}, Float32, "negative dimension -1 in shape (2, -1)"},
		// Zero extents are left out of the product, but the rest must fit.
		{Shape{0, 1 << 31, 1 << 31}, Bool, ""},
		{Shape{0, math.MaxInt}, Bool, ""},
		{Shape{0, 1 << 32, 1 << 32}, Float64, "shape (0, 4294967296, 4294967296) of float64 is too big: its non-zero extents times the 8-byte element size exceed"},
		{Shape{1 << 32, 0, 1 << 32}, Bool, "is too big"},
		{Shape{0, 1 << 31, 1 << 31}, Float64, "is too big"},
		{Shape{math.MaxInt, 2, 0}, Bool, "is too big"},
	}
	for _, tt := range tests {
		err := CheckShape(tt.s, tt.d)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckShape(%v, %v) got:%v want:nil", tt.s, tt.d, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CheckShape(%v, %v) got:%v want:%q", tt.s, tt.d, err, tt.want)
		}
	}
}

// TestShapeOverflow builds every op whose result shape adds or multiplies
// extents with operands chosen so that the arithmetic overflows int: each
// must carry an error naming the op and its operands, never a wrapped
// shape.
func TestShapeOverflow(t *testing.T) {
	big := Input(Bool, Shape{math.MaxInt}, "big")
	two := Input(Bool, Shape{2}, "two")
	empty := Input(Bool, Shape{0, 1 << 31, 1 << 31}, "empty")
	col := Input(Float64, Shape{1 << 31, 1}, "col")
	row := Input(Float64, Shape{1, 1 << 31}, "row")
	tests := []struct {
		name string
		n    *Node
		want string
	}{
		{"concat sum", Concat([]*Node{big, big, two}, 0),
			"Concat((9223372036854775807,) bool, (9223372036854775807,) bool, (2,) bool): the extents along axis 0 add up to more than 9223372036854775807"},
		{"concat one over", Concat([]*Node{big, Input(Bool, Shape{1}, "one")}, -1), "Concat((9223372036854775807,) bool, (1,) bool): the extents along axis 0 add up"},
		{"concat bytes", Concat([]*Node{Input(Bool, Shape{1 << 61}, "a"), Input(Int32, Shape{1 << 60}, "b")}, 0),
			"Concat((2305843009213693952,) bool, (1152921504606846976,) int32): shape (3458764513820540928,) of int32 needs more than"},
		{"zero-size input", Input(Float64, Shape{0, 1 << 32, 1 << 32}, "z"), "is too big"},
		{"zero-size sum", Reduce(OpSum, empty, []int{0}, false),
			"Sum((0, 2147483648, 2147483648) bool): shape (0, 2147483648, 2147483648) of int64 is too big"},
		{"zero-size max keepdims", Reduce(OpReduceMax, empty, []int{0}, true), "no identity"},
		{"zero-size cast", Cast(empty, Float32), "AsType((0, 2147483648, 2147483648) bool): shape (0, 2147483648, 2147483648) of float32 is too big"},
		{"zero-size float math", Unary(OpExp, Input(Int32, Shape{0, 1 << 30, 1 << 30}, "i")),
			"Exp((0, 1073741824, 1073741824) int32): shape (0, 1073741824, 1073741824) of float64 is too big"},
		{"zero-size div", Binary(OpDiv, Input(Int32, Shape{0, 1 << 30, 1 << 30}, "i"), Input(Int32, Shape{1}, "j")),
			"Div((0, 1073741824, 1073741824) int32, (1,) int32): shape (0, 1073741824, 1073741824) of float64 is too big"},
		{"broadcast", Binary(OpAdd, col, row), "Add((2147483648, 1) float64, (1, 2147483648) float64): shape (2147483648, 2147483648) of float64 needs more than"},
		{"broadcast with zero", Binary(OpAdd, Input(Float64, Shape{0, 1, 1 << 31}, "z"), Input(Float64, Shape{1, 1 << 31, 1}, "w")),
			"Add((0, 1, 2147483648) float64, (1, 2147483648, 1) float64): shape (0, 2147483648, 2147483648) of float64 is too big"},
		{"matmul batch", MatMul(Input(Float32, Shape{1 << 31, 1, 1, 1}, "a"), Input(Float32, Shape{1 << 31, 1, 1}, "b")),
			"MatMul((2147483648, 1, 1, 1) float32, (2147483648, 1, 1) float32): shape (2147483648, 2147483648, 1, 1) of float32 needs more than"},
		{"matmul zero batch", MatMul(Input(Float32, Shape{0, 1 << 31, 1}, "a"), Input(Float32, Shape{1, 1 << 31}, "b")),
			"MatMul((0, 2147483648, 1) float32, (1, 2147483648) float32): shape (0, 2147483648, 2147483648) of float32 is too big"},
		{"reshape product", Reshape(Input(Float32, Shape{0}, "z"), Shape{1 << 62, 4, 0}), "Reshape((0,) float32): cannot reshape array of size 0 into shape (4611686018427387904, 4, 0): the extents' product overflows"},
		{"reshape infer", Reshape(Input(Float32, Shape{0}, "z"), Shape{-1, 1 << 62, 4}), "Reshape((0,) float32): cannot reshape array of size 0 into shape (-1, 4611686018427387904, 4): the extents' product overflows"},
		{"reshape zero-size", Reshape(Input(Float32, Shape{0}, "z"), Shape{0, 1 << 62}), "Reshape((0,) float32): shape (0, 4611686018427387904) of float32 is too big"},
		{"broadcast to", BroadcastTo(Input(Float32, Shape{0, 1}, "z"), Shape{0, 1 << 62}), "BroadcastTo((0, 1) float32): shape (0, 4611686018427387904) of float32 is too big"},
		{"where", Where(Input(Bool, Shape{0, 1, 1 << 31}, "c"), Input(Float64, Shape{1, 1 << 31, 1}, "x"), FloatConst(Float64, 0)),
			"Where((0, 1, 2147483648) bool, (1, 2147483648, 1) float64, () float64): shape (0, 2147483648, 2147483648) of float64 is too big"},
		{"eye", Eye(Float64, 0, 1<<61, 0), "Eye: shape (0, 2305843009213693952) of float64 is too big"},
		{"iota", Iota(Float64, 1<<61, 0, 1, false, 0), "Iota: shape (2305843009213693952,) of float64 needs more than"},
		{"random", Random(OpRandU, Float64, Shape{0, 1 << 61}, 1), "Rand: shape (0, 2305843009213693952) of float64 is too big"},
	}
	for _, tt := range tests {
		err := tt.n.Err()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s got:%v (shape %v) want:%q", tt.name, err, tt.n.Shape(), tt.want)
		}
		if Verify(tt.n) == nil {
			t.Errorf("%s: Verify accepted an errored node", tt.name)
		}
	}
	// Valid neighbours of the cases above still build.
	for _, n := range []*Node{
		Concat([]*Node{Input(Bool, Shape{math.MaxInt - 2}, "a"), two}, 0),
		Reduce(OpAny, empty, []int{0}, false),
		Reduce(OpSum, Input(Int64, Shape{0, 1 << 30, 1 << 29}, "e"), []int{0}, false),
		Reshape(Input(Float32, Shape{0}, "z"), Shape{-1, 1 << 40, 4}),
		MatMul(Input(Float32, Shape{0, 1 << 20, 1}, "a"), Input(Float32, Shape{1, 1 << 20}, "b")),
	} {
		if err := n.Err(); err != nil {
			t.Errorf("%v %v got:%v want:nil", n.Op(), n.Shape(), err)
		}
	}
}

// TestBroadcast2 checks broadcast2 against Broadcast, and that it returns
// an operand's own shape when the result is that shape.
func TestBroadcast2(t *testing.T) {
	for _, tc := range []struct {
		a, b  Shape
		share int // 1: a's shape, 2: b's, 0: a new one
	}{
		{Shape{3}, Shape{3}, 1},
		{Shape{}, Shape{3, 4}, 2},
		{Shape{3, 4}, Shape{}, 1},
		{Shape{3, 4}, Shape{4}, 1},
		{Shape{4}, Shape{3, 4}, 2},
		{Shape{3, 1}, Shape{3, 4}, 2},
		{Shape{1, 4}, Shape{3, 1}, 0},
		{Shape{2, 1, 4}, Shape{3, 1}, 0},
		{Shape{3}, Shape{4}, 0},
		{Shape{2, 3}, Shape{3, 3}, 0},
	} {
		want, wantErr := Broadcast(tc.a, tc.b)
		got, err := broadcast2(tc.a, tc.b)
		if (err != nil) != (wantErr != nil) || !got.Equal(want) {
			t.Errorf("broadcast2(%v, %v) got:%v, %v want:%v, %v", tc.a, tc.b, got, err, want, wantErr)
			continue
		}
		shared := 0
		switch {
		case err != nil:
		case len(got) > 0 && len(tc.a) > 0 && &got[0] == &tc.a[0]:
			shared = 1
		case len(got) > 0 && len(tc.b) > 0 && &got[0] == &tc.b[0]:
			shared = 2
		case len(got) == 0:
			shared = tc.share // nothing to share
		}
		if err == nil && shared != tc.share {
			t.Errorf("broadcast2(%v, %v) shares operand got:%d want:%d", tc.a, tc.b, shared, tc.share)
		}
	}
}
