package graph

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPromoteTable(t *testing.T) {
	tests := []struct {
		a, b, want DType
	}{
		{Bool, Bool, Bool}, {Bool, Int32, Int32}, {Bool, Int64, Int64}, {Bool, Float32, Float32}, {Bool, Float64, Float64},
		{Int32, Int32, Int32}, {Int32, Int64, Int64}, {Int32, Float32, Float64}, {Int32, Float64, Float64},
		{Int64, Int64, Int64}, {Int64, Float32, Float64}, {Int64, Float64, Float64},
		{Float32, Float32, Float32}, {Float32, Float64, Float64}, {Float64, Float64, Float64},
	}
	for _, tt := range tests {
		if got := Promote(tt.a, tt.b); got != tt.want {
			t.Errorf("Promote(%v, %v) got:%v want:%v", tt.a, tt.b, got, tt.want)
		}
		if got := Promote(tt.b, tt.a); got != tt.want {
			t.Errorf("Promote(%v, %v) got:%v want:%v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestPromoteWeakTable(t *testing.T) {
	tests := []struct {
		d    DType
		v    any
		want DType
	}{
		{Bool, true, Bool}, {Bool, 2, Int64}, {Bool, 2.5, Float64},
		{Int32, true, Int32}, {Int32, 2, Int32}, {Int32, 2.5, Float64},
		{Int64, 2, Int64}, {Int64, 2.5, Float64},
		{Float32, 2, Float32}, {Float32, 2.5, Float32}, {Float32, float32(1), Float32},
		{Float64, 2, Float64}, {Float64, true, Float64},
	}
	for _, tt := range tests {
		w, ok := WeakOf(tt.v)
		require.True(t, ok)
		if got := PromoteWeak(tt.d, w); got != tt.want {
			t.Errorf("PromoteWeak(%v, %v) got:%v want:%v", tt.d, tt.v, got, tt.want)
		}
	}
	_, ok := WeakOf("x")
	require.False(t, ok)
}

func TestWeakOutOfRange(t *testing.T) {
	x := Input(Int32, Shape{3}, "x")
	n := BinaryWeak(OpAdd, x, Weak{Kind: KindInt, Int: 1 << 40}, false)
	require.Error(t, n.Err())
	require.Contains(t, n.Err().Error(), "out of range for int32")
	require.Contains(t, n.Err().Error(), "Add((3,) int32)")
}

// TestWeakIntToFloat32 checks that a Go int meeting a float32 array is
// rounded to float32 once, as float32(int64) and AsType round it, not
// through float64 first (which rounds twice).
func TestWeakIntToFloat32(t *testing.T) {
	for _, v := range []int64{1<<60 + 1<<36 + 1, -(1<<60 + 1<<36 + 1), 1<<24 + 1, 1<<53 + 1<<29 + 1, math.MaxInt64, math.MinInt64} {
		s, err := Weak{Kind: KindInt, Int: v}.Value(Float32)
		require.NoError(t, err)
		want := float64(float32(v))
		require.Equal(t, want, s.F, "%d got:%v want:%v", v, s.F, want)
	}
}

func TestBroadcastTable(t *testing.T) {
	tests := []struct {
		a, b Shape
		want Shape
		err  bool
	}{
		{Shape{3, 1}, Shape{4}, Shape{3, 4}, false},
		{Shape{2, 1, 3}, Shape{1, 4, 1}, Shape{2, 4, 3}, false},
		{Shape{}, Shape{5}, Shape{5}, false},
		{Shape{0}, Shape{1}, Shape{0}, false},
		{Shape{3}, Shape{4}, nil, true},
		{Shape{2, 3}, Shape{3, 3}, nil, true},
	}
	for _, tt := range tests {
		got, err := Broadcast(tt.a, tt.b)
		if tt.err {
			if err == nil {
				t.Errorf("Broadcast(%v, %v) got:%v want:error", tt.a, tt.b, got)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("Broadcast(%v, %v) got:%v,%v want:%v", tt.a, tt.b, got, err, tt.want)
		}
	}
}

func TestHashConsing(t *testing.T) {
	x := Input(Float32, Shape{4}, "x")
	y := Input(Float32, Shape{4}, "y")
	a := Binary(OpAdd, x, y)
	b := Binary(OpAdd, x, y)
	require.Same(t, a, b, "identical subexpressions must be one node")
	require.NotSame(t, a, Binary(OpAdd, y, x))
	require.Same(t, Unary(OpExp, a), Unary(OpExp, b))
	require.NotSame(t, x, Input(Float32, Shape{4}, "x"), "inputs are unique")
	require.Same(t, Reduce(OpSum, a, []int{0}, false), Reduce(OpSum, a, []int{-1}, false))
	require.NotSame(t, Reduce(OpSum, a, nil, false), Reduce(OpSum, a, nil, true))
}

func TestInference(t *testing.T) {
	f32 := Input(Float32, Shape{3, 4}, "f")
	i32 := Input(Int32, Shape{4}, "i")
	b := Input(Bool, Shape{3, 1}, "b")
	tests := []struct {
		name  string
		n     *Node
		shape Shape
		dtype DType
	}{
		{"f32*2", BinaryWeak(OpMul, f32, Weak{Kind: KindInt, Int: 2}, false), Shape{3, 4}, Float32},
		{"i32*2.5", BinaryWeak(OpMul, i32, Weak{Kind: KindFloat, Float: 2.5}, false), Shape{4}, Float64},
		{"i32/i32", Binary(OpDiv, i32, i32), Shape{4}, Float64},
		{"sqrt i32", Unary(OpSqrt, i32), Shape{4}, Float64},
		{"f32+i32", Binary(OpAdd, f32, i32), Shape{3, 4}, Float64},
		{"cmp", Binary(OpLt, f32, i32), Shape{3, 4}, Bool},
		{"where", Where(b, f32, i32), Shape{3, 4}, Float64},
		{"sum i32", Reduce(OpSum, i32, nil, false), Shape{}, Int64},
		{"sum keep", Reduce(OpSum, f32, []int{1}, true), Shape{3, 1}, Float32},
		{"argmax flat", Reduce(OpArgMax, f32, nil, false), Shape{}, Int64},
		{"argmax axis", Reduce(OpArgMax, f32, []int{0}, false), Shape{4}, Int64},
		{"any", Reduce(OpAny, f32, []int{0, 1}, false), Shape{}, Bool},
		{"reshape -1", Reshape(f32, Shape{-1, 2}), Shape{6, 2}, Float32},
		{"permute", Permute(f32, []int{1, 0}), Shape{4, 3}, Float32},
		{"broadcast", BroadcastTo(i32, Shape{2, 4}), Shape{2, 4}, Int32},
		{"slice", Slice(f32, []Range{{Start: 0, Stop: 3, Step: 2}, {Step: -1, NoStart: true, NoStop: true}}), Shape{2, 4}, Float32},
		{"concat", Concat([]*Node{f32, f32}, 0), Shape{6, 4}, Float32},
		{"matmul", MatMul(f32, Reshape(i32, Shape{4, 1})), Shape{3, 1}, Float64},
		{"batched", MatMul(Input(Float32, Shape{5, 1, 2, 3}, "a"), Input(Float32, Shape{4, 3, 6}, "b")), Shape{5, 4, 2, 6}, Float32},
	}
	for _, tt := range tests {
		require.NoError(t, tt.n.Err(), tt.name)
		if !tt.n.Shape().Equal(tt.shape) || tt.n.DType() != tt.dtype {
			t.Errorf("%s got:%v %v want:%v %v", tt.name, tt.n.Shape(), tt.n.DType(), tt.shape, tt.dtype)
		}
		require.NoError(t, Verify(tt.n), tt.name)
	}
}

func TestErrors(t *testing.T) {
	f := Input(Float32, Shape{3}, "f")
	g := Input(Float32, Shape{4}, "g")
	b := Input(Bool, Shape{3}, "b")
	m := Input(Float32, Shape{2, 3}, "m")
	tests := []struct {
		name string
		n    *Node
		want string
	}{
		{"broadcast", Binary(OpAdd, f, g), "Add((3,) float32, (4,) float32): shapes (3,) (4,) cannot be broadcast together"},
		{"sqrt bool", Unary(OpSqrt, b), "Sqrt((3,) bool): unsupported dtype bool"},
		{"bool add", Binary(OpAdd, b, b), "unsupported dtype bool"},
		{"float and", Binary(OpAnd, f, f), "And((3,) float32, (3,) float32): unsupported dtype float32"},
		{"axis", Reduce(OpSum, m, []int{2}, false), "Sum((2, 3) float32): axis 2 is out of bounds for array of dimension 2"},
		{"repeat axis", Reduce(OpSum, m, []int{1, -1}, false), "repeated axis"},
		{"reshape", Reshape(m, Shape{4}), "Reshape((2, 3) float32): cannot reshape array of size 6 into shape (4,)"},
		{"slice step", Slice(m, []Range{{Step: 0}}), "slice step cannot be zero"},
		{"too many", Slice(f, []Range{All, All}), "too many indices"},
		{"max empty", Reduce(OpReduceMax, Input(Float32, Shape{0}, "e"), nil, false), "no identity"},
		{"matmul k", MatMul(m, m), "MatMul((2, 3) float32, (2, 3) float32): contracted dimensions differ: 3 (a) vs 2 (b)"},
		{"where cond", Where(f, f, f), "condition must be bool"},
		{"overflow", Input(Float64, Shape{1 << 31, 1 << 31, 4}, "big"), "needs more than"},
		{"sticky", Unary(OpExp, Binary(OpAdd, Binary(OpAdd, f, g), f)), "cannot be broadcast"},
		{"permute", Permute(m, []int{0, 0}), "repeated axis"},
		{"broadcast to", BroadcastTo(f, Shape{3, 4}), "cannot broadcast to shape (3, 4)"},
		{"broadcast overflow", Binary(OpAdd, Input(Int32, Shape{1 << 40, 1}, "col"), Input(Int32, Shape{1, 1 << 40}, "row")),
			"Add((1099511627776, 1) int32, (1, 1099511627776) int32): shape (1099511627776, 1099511627776) of int32 needs more than"},
		{"where overflow", Where(Input(Bool, Shape{1 << 32, 1}, "c"), Input(Float32, Shape{1, 1 << 32}, "x"), f),
			"Where((4294967296, 1) bool, (1, 4294967296) float32, (3,) float32): shapes"},
		{"where size overflow", Where(Input(Bool, Shape{1 << 32, 1}, "c"), Input(Float32, Shape{1, 1 << 32}, "x"), FloatConst(Float32, 1)),
			"Where((4294967296, 1) bool, (1, 4294967296) float32, () float32): shape (4294967296, 4294967296) of float32 needs more than"},
	}
	for _, tt := range tests {
		err := tt.n.Err()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s got:%v want:%q", tt.name, err, tt.want)
		}
		if Verify(tt.n) == nil {
			t.Errorf("%s: Verify accepted an errored node", tt.name)
		}
	}
}

func TestSliceNormalize(t *testing.T) {
	tests := []struct {
		r    Range
		n    int
		want SliceSpec
	}{
		{Range{Start: 1, Stop: 5, Step: 1}, 10, SliceSpec{1, 1, 4}},
		{Range{Start: -3, Step: 1, NoStop: true}, 10, SliceSpec{7, 1, 3}},
		{Range{Step: -1, NoStart: true, NoStop: true}, 5, SliceSpec{4, -1, 5}},
		{Range{Start: 8, Stop: 1, Step: -3}, 10, SliceSpec{8, -3, 3}},
		{Range{Start: 0, Stop: 10, Step: 4}, 10, SliceSpec{0, 4, 3}},
		{Range{Start: 5, Stop: 2, Step: 1}, 10, SliceSpec{0, 1, 0}},
		{Range{Start: 100, Stop: 200, Step: 1}, 10, SliceSpec{0, 1, 0}},
		{Range{Start: -100, Stop: 100, Step: 1}, 10, SliceSpec{0, 1, 10}},
		{Range{Start: 5, Stop: 2, Step: -7}, 10, SliceSpec{5, 1, 1}},
		// Steps at the ends of int: one element, no overflow.
		{Range{Step: math.MaxInt, NoStart: true, NoStop: true}, 3, SliceSpec{0, 1, 1}},
		{Range{Step: math.MinInt, NoStart: true, NoStop: true}, 3, SliceSpec{2, 1, 1}},
		{Range{Start: math.MinInt, Stop: math.MaxInt, Step: math.MaxInt}, 3, SliceSpec{0, 1, 1}},
		{Range{Start: math.MaxInt, Stop: math.MinInt, Step: math.MinInt}, 3, SliceSpec{2, 1, 1}},
		{Range{Start: 0, Stop: math.MaxInt, Step: 2}, 7, SliceSpec{0, 2, 4}},
		{Range{Start: math.MaxInt, Stop: math.MinInt, Step: -3}, 7, SliceSpec{6, -3, 3}},
	}
	for _, tt := range tests {
		got, err := tt.r.Normalize(tt.n)
		require.NoError(t, err)
		if got != tt.want {
			t.Errorf("%+v over %d got:%+v want:%+v", tt.r, tt.n, got, tt.want)
		}
	}
}

func TestTopoAndConsumers(t *testing.T) {
	x := Input(Float64, Shape{2}, "x")
	a := Unary(OpExp, x)
	b := Binary(OpMul, a, a)
	c := Binary(OpAdd, b, x)
	order := Topo(c)
	pos := map[*Node]int{}
	for i, n := range order {
		pos[n] = i
	}
	require.Len(t, order, 4)
	require.Less(t, pos[x], pos[a])
	require.Less(t, pos[a], pos[b])
	uses := Consumers(c)
	require.Equal(t, 2, uses[a])
	require.Equal(t, 2, uses[x])
	require.Equal(t, 1, uses[c])
}

func TestWriteDOT(t *testing.T) {
	x := Input(Float32, Shape{2, 3}, "x")
	s := Reduce(OpSum, Unary(OpExp, x), []int{1}, false)
	var buf bytes.Buffer
	require.NoError(t, WriteDOT(&buf, s))
	out := buf.String()
	require.Contains(t, out, "digraph fuseflow")
	require.Contains(t, out, "Exp (2, 3) float32")
	require.Contains(t, out, "Sum axes=[1] (2,) float32")
	require.Contains(t, out, "style=bold")
}

func TestDTypes(t *testing.T) {
	for _, d := range DTypes() {
		p, err := ParseDType(d.String())
		require.NoError(t, err)
		require.Equal(t, d, p)
	}
	_, err := ParseDType("complex64")
	require.Error(t, err)
	require.True(t, Float16.Supported())
	require.False(t, DType(200).Supported())
	require.Equal(t, 2, BFloat16.Size())
}

func TestCastFloatToInt(t *testing.T) {
	tests := []struct {
		v   float64
		i64 int64
		i32 int32
	}{
		{2.9, 2, 2}, {-2.9, -2, -2}, {nanF(), 0, 0}, {1e30, 1<<63 - 1, 1<<31 - 1}, {-1e30, -1 << 63, -1 << 31},
	}
	for _, tt := range tests {
		if got := CastFloatToInt64(tt.v); got != tt.i64 {
			t.Errorf("CastFloatToInt64(%v) got:%v want:%v", tt.v, got, tt.i64)
		}
		if got := CastFloatToInt32(tt.v); got != tt.i32 {
			t.Errorf("CastFloatToInt32(%v) got:%v want:%v", tt.v, got, tt.i32)
		}
	}
}

func nanF() float64 { z := 0.0; return z / z }

// TestVerifyRemembers checks that Verify remembers consistent nodes yet
// still checks what is built on them: a second Verify of a verified graph
// allocates nothing, and an error node over it is still reported.
func TestVerifyRemembers(t *testing.T) {
	a := Input(Float32, Shape{3}, "a")
	b := Input(Float32, Shape{3}, "b")
	s := Binary(OpAdd, a, b)
	if err := Verify(s); err != nil {
		t.Fatalf("got:%v want:nil", err)
	}
	if n := testing.AllocsPerRun(10, func() { _ = Verify(s) }); n != 0 {
		t.Errorf("allocs of a second Verify got:%v want:0", n)
	}
	c := Input(Float32, Shape{4}, "c")
	bad := Binary(OpAdd, s, c)
	if err := Verify(bad); err == nil {
		t.Errorf("Verify of %v + %v got:nil want:an error", s.Shape(), c.Shape())
	}
}
