// Elementwise ops: unary, binary, comparisons, logic, Where and casts on
// small inputs with hand-computed results, edge cases included.

package ref_test

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func TestUnaryFloat64(t *testing.T) {
	tests := []struct {
		op   graph.Op
		in   []float64
		want []float64
	}{
		{graph.OpNeg, []float64{1, -2, 0}, []float64{-1, 2, math.Copysign(0, -1)}},
		{graph.OpAbs, []float64{-1.5, 2, nan}, []float64{1.5, 2, nan}},
		{graph.OpSign, []float64{-3, 2, 0, math.Copysign(0, -1), nan}, []float64{-1, 1, 0, 0, nan}},
		{graph.OpSqrt, []float64{4, 0, -1}, []float64{2, 0, nan}},
		{graph.OpRsqrt, []float64{4, 0}, []float64{0.5, inf}},
		{graph.OpExp, []float64{0, -inf}, []float64{1, 0}},
		{graph.OpExp2, []float64{3, -1}, []float64{8, 0.5}},
		{graph.OpLog, []float64{1, 0, -1}, []float64{0, -inf, nan}},
		{graph.OpLog2, []float64{8, 0.25}, []float64{3, -2}},
		{graph.OpLog1p, []float64{0, -1}, []float64{0, -inf}},
		{graph.OpExpm1, []float64{0, -inf}, []float64{0, -1}},
		{graph.OpSin, []float64{0}, []float64{0}},
		{graph.OpCos, []float64{0}, []float64{1}},
		{graph.OpTan, []float64{0}, []float64{0}},
		{graph.OpTanh, []float64{0, inf, -inf}, []float64{0, 1, -1}},
		{graph.OpSigmoid, []float64{0, inf, -inf}, []float64{0.5, 1, 0}},
		{graph.OpErf, []float64{0, inf, -inf}, []float64{0, 1, -1}},
		{graph.OpFloor, []float64{-1.5, 1.5, 2}, []float64{-2, 1, 2}},
		{graph.OpCeil, []float64{-1.5, 1.5, 2}, []float64{-1, 2, 2}},
		{graph.OpRound, []float64{0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.6},
			[]float64{0, 2, 2, math.Copysign(0, -1), -2, -2, 3}},
		{graph.OpTrunc, []float64{-1.7, 1.7}, []float64{-1, 1}},
		{graph.OpRecip, []float64{4, 0, -inf}, []float64{0.25, inf, math.Copysign(0, -1)}},
		{graph.OpSquare, []float64{-3, 0.5}, []float64{9, 0.25}},
	}
	for _, tc := range tests {
		t.Run(tc.op.String(), func(t *testing.T) {
			e := newEnv(t)
			x := e.input(graph.Float64, graph.Shape{len(tc.in)}, tc.in)
			check(t, e.one(graph.Unary(tc.op, x)), graph.Float64, graph.Shape{len(tc.in)}, tc.want)
		})
	}
}

func TestUnaryFloat32RoundsOnce(t *testing.T) {
	// Computed in float64 then rounded: exp(1) as float32, and 1/3.
	e := newEnv(t)
	x := e.input(graph.Float32, graph.Shape{2}, []float32{1, 3})
	check(t, e.one(graph.Unary(graph.OpExp, x)), graph.Float32, graph.Shape{2},
		[]float64{float64(float32(2.718281828459045)), float64(float32(20.085536923187668))})
	check(t, e.one(graph.Unary(graph.OpRecip, x)), graph.Float32, graph.Shape{2},
		[]float64{1, float64(float32(1.0 / 3))})
}

func TestUnaryInt(t *testing.T) {
	tests := []struct {
		op   graph.Op
		d    graph.DType
		in   []int64
		want []int64
	}{
		{graph.OpNeg, graph.Int32, []int64{5, math.MinInt32}, []int64{-5, math.MinInt32}},
		{graph.OpNeg, graph.Int64, []int64{math.MinInt64}, []int64{math.MinInt64}},
		{graph.OpAbs, graph.Int32, []int64{-5, math.MinInt32}, []int64{5, math.MinInt32}},
		{graph.OpAbs, graph.Int64, []int64{-5, math.MinInt64}, []int64{5, math.MinInt64}},
		{graph.OpSign, graph.Int64, []int64{-7, 0, 9}, []int64{-1, 0, 1}},
		{graph.OpSquare, graph.Int32, []int64{65536, -3}, []int64{0, 9}},
		{graph.OpFloor, graph.Int32, []int64{-3, 4}, []int64{-3, 4}},
		{graph.OpRound, graph.Int64, []int64{-3, 4}, []int64{-3, 4}},
		{graph.OpCeil, graph.Int64, []int64{-3, 4}, []int64{-3, 4}},
		{graph.OpTrunc, graph.Int32, []int64{-3, 4}, []int64{-3, 4}},
		{graph.OpNot, graph.Int32, []int64{5, -1, 0}, []int64{-6, 0, -1}},
	}
	for _, tc := range tests {
		t.Run(tc.op.String()+"/"+tc.d.String(), func(t *testing.T) {
			e := newEnv(t)
			x := e.input(tc.d, graph.Shape{len(tc.in)}, tc.in)
			check(t, e.one(graph.Unary(tc.op, x)), tc.d, graph.Shape{len(tc.in)}, tc.want)
		})
	}
}

func TestUnaryBoolAndPredicates(t *testing.T) {
	e := newEnv(t)
	b := e.input(graph.Bool, graph.Shape{2}, []bool{true, false})
	check(t, e.one(graph.Unary(graph.OpNot, b)), graph.Bool, graph.Shape{2}, []bool{false, true})
	check(t, e.one(graph.Unary(graph.OpAbs, b)), graph.Bool, graph.Shape{2}, []bool{true, false})
	f := e.input(graph.Float32, graph.Shape{4}, []float32{1, float32(nan), float32(inf), float32(-inf)})
	check(t, e.one(graph.Unary(graph.OpIsNaN, f)), graph.Bool, graph.Shape{4}, []bool{false, true, false, false})
	check(t, e.one(graph.Unary(graph.OpIsInf, f)), graph.Bool, graph.Shape{4}, []bool{false, false, true, true})
	i := e.input(graph.Int32, graph.Shape{2}, []int32{0, 7})
	check(t, e.one(graph.Unary(graph.OpIsNaN, i)), graph.Bool, graph.Shape{2}, []bool{false, false})
	check(t, e.one(graph.Unary(graph.OpIsInf, b)), graph.Bool, graph.Shape{2}, []bool{false, false})
	// Float math of integers computes in float64.
	check(t, e.one(graph.Unary(graph.OpSqrt, i)), graph.Float64, graph.Shape{2}, []float64{0, math.Sqrt(7)})
}

func TestBinaryFloat64(t *testing.T) {
	nz := math.Copysign(0, -1)
	tests := []struct {
		op   graph.Op
		a, b []float64
		want []float64
	}{
		{op: graph.OpAdd, a: []float64{1, inf, inf}, b: []float64{2, -inf, 1}, want: []float64{3, nan, inf}},
		{op: graph.OpSub, a: []float64{1, 0}, b: []float64{3, 0}, want: []float64{-2, 0}},
		{op: graph.OpMul, a: []float64{1.5, -0.0, 0}, b: []float64{2, 1, inf}, want: []float64{3, 0, nan}},
		{op: graph.OpDiv, a: []float64{1, 1, -1, 0}, b: []float64{4, 0, 0, 0}, want: []float64{0.25, inf, -inf, nan}},
		{op: graph.OpFloorDiv,
			a:    []float64{7, -7, 7, -7, 5.5, 1, -1, 0, 0, -0.5, nan, inf},
			b:    []float64{2, 2, -2, -2, 2, 0, 0, 0, -3, 2, 1, 2},
			want: []float64{3, -4, -4, 3, 2, inf, -inf, nan, nz, -1, nan, nan}},
		{op: graph.OpMod,
			a:    []float64{7, -7, 7, -7, 5.5, 1, -0.5, 0, 0, 6, inf},
			b:    []float64{2, 2, -2, -2, 2, 0, 2, -2, 2, 3, 2},
			want: []float64{1, 1, -1, -1, 1.5, nan, 1.5, nz, 0, 0, nan}},
		{op: graph.OpPow, a: []float64{2, 2, nan, -8, 4}, b: []float64{10, -1, 0, 1.0 / 3, 0.5}, want: []float64{1024, 0.5, 1, nan, 2}},
		{op: graph.OpMax, a: []float64{1, nan, 2, nz, 0}, b: []float64{nan, 1, 3, 0, nz}, want: []float64{nan, nan, 3, nz, 0}},
		{op: graph.OpMin, a: []float64{1, nan, 2, nz, 0}, b: []float64{nan, 1, 3, 0, nz}, want: []float64{nan, nan, 2, nz, 0}},
		{op: graph.OpAtan2, a: []float64{0, 1, 0}, b: []float64{-1, 0, 1}, want: []float64{math.Pi, math.Pi / 2, 0}},
	}
	for _, tc := range tests {
		checkBinary(t, tc.op, graph.Float64, tc.a, tc.b, tc.want)
	}
}

// checkBinary evaluates op on operands a and b of dtype d (slices as
// env.input takes them) and checks the result, of dtype d, against want.
func checkBinary(t *testing.T, op graph.Op, d graph.DType, a, b, want any) {
	t.Run(op.String()+"/"+d.String(), func(t *testing.T) {
		e := newEnv(t)
		s := graph.Shape{len(scalars(a))}
		check(t, e.one(graph.Binary(op, e.input(d, s, a), e.input(d, s, b))), d, s, want)
	})
}

func TestBinaryFloat32(t *testing.T) {
	e := newEnv(t)
	a := e.input(graph.Float32, graph.Shape{3}, []float32{16777216, 1, 0.1})
	b := e.input(graph.Float32, graph.Shape{3}, []float32{1, 3, 0.2})
	check(t, e.one(graph.Binary(graph.OpAdd, a, b)), graph.Float32, graph.Shape{3},
		[]float64{16777216, 4, float64(float32(0.1) + float32(0.2))})
	check(t, e.one(graph.Binary(graph.OpDiv, a, b)), graph.Float32, graph.Shape{3},
		[]float64{16777216, float64(float32(1.0 / 3)), 0.5})
}

func TestBinaryInt(t *testing.T) {
	tests := []struct {
		op   graph.Op
		d    graph.DType
		a, b []int64
		want []int64
	}{
		{graph.OpAdd, graph.Int32, []int64{math.MaxInt32, 2}, []int64{1, 3}, []int64{math.MinInt32, 5}},
		{graph.OpAdd, graph.Int64, []int64{math.MaxInt64}, []int64{1}, []int64{math.MinInt64}},
		{graph.OpSub, graph.Int32, []int64{math.MinInt32}, []int64{1}, []int64{math.MaxInt32}},
		{graph.OpMul, graph.Int64, []int64{1 << 62, -3}, []int64{4, 5}, []int64{0, -15}},
		{graph.OpFloorDiv, graph.Int32,
			[]int64{7, -7, 7, -7, 5, 0, math.MinInt32, 6},
			[]int64{2, 2, -2, -2, 0, 0, -1, 3},
			[]int64{3, -4, -4, 3, 0, 0, math.MinInt32, 2}},
		{graph.OpFloorDiv, graph.Int64, []int64{math.MinInt64, -1}, []int64{-1, 0}, []int64{math.MinInt64, 0}},
		{graph.OpMod, graph.Int32,
			[]int64{7, -7, 7, -7, 5, math.MinInt32, 6},
			[]int64{2, 2, -2, -2, 0, -1, 3},
			[]int64{1, 1, -1, -1, 0, 0, 0}},
		{graph.OpMod, graph.Int64, []int64{math.MinInt64, -1}, []int64{-1, 0}, []int64{0, 0}},
		{graph.OpPow, graph.Int32,
			[]int64{2, 2, 3, 1, -1, -1, 2, 0, 0, 3, -2},
			[]int64{10, -1, 0, -5, -3, -4, 31, 0, 5, 21, 3},
			[]int64{1024, 0, 1, 1, -1, 1, math.MinInt32, 1, 0, int64(int32(10460353203 % (1 << 32))), -8}},
		{graph.OpPow, graph.Int64, []int64{3, 2}, []int64{40, 64}, []int64{12157665459056928801 - 1<<64, 0}},
		{graph.OpMax, graph.Int32, []int64{1, -5}, []int64{-2, 3}, []int64{1, 3}},
		{graph.OpMin, graph.Int64, []int64{1, -5}, []int64{-2, 3}, []int64{-2, -5}},
		{graph.OpAnd, graph.Int32, []int64{12, -1}, []int64{10, 5}, []int64{8, 5}},
		{graph.OpOr, graph.Int64, []int64{12, -8}, []int64{10, 1}, []int64{14, -7}},
		{graph.OpXor, graph.Int32, []int64{12, -1}, []int64{10, 0}, []int64{6, -1}},
	}
	for _, tc := range tests {
		checkBinary(t, tc.op, tc.d, tc.a, tc.b, tc.want)
	}
}

func TestCompareAndLogic(t *testing.T) {
	fa := []float64{1, nan, nan, 1, 2}
	fb := []float64{1, nan, 1, 2, 1}
	ia := []int64{1, 2, 3}
	ib := []int64{1, 3, 2}
	tests := []struct {
		op    graph.Op
		wantF []bool
		wantI []bool
	}{
		{graph.OpEq, []bool{true, false, false, false, false}, []bool{true, false, false}},
		{graph.OpNe, []bool{false, true, true, true, true}, []bool{false, true, true}},
		{graph.OpLt, []bool{false, false, false, true, false}, []bool{false, true, false}},
		{graph.OpLe, []bool{true, false, false, true, false}, []bool{true, true, false}},
		{graph.OpGt, []bool{false, false, false, false, true}, []bool{false, false, true}},
		{graph.OpGe, []bool{true, false, false, false, true}, []bool{true, false, true}},
	}
	for _, tc := range tests {
		t.Run(tc.op.String(), func(t *testing.T) {
			e := newEnv(t)
			a := e.input(graph.Float32, graph.Shape{5}, fa)
			b := e.input(graph.Float32, graph.Shape{5}, fb)
			check(t, e.one(graph.Binary(tc.op, a, b)), graph.Bool, graph.Shape{5}, tc.wantF)
			x := e.input(graph.Int64, graph.Shape{3}, ia)
			y := e.input(graph.Int64, graph.Shape{3}, ib)
			check(t, e.one(graph.Binary(tc.op, x, y)), graph.Bool, graph.Shape{3}, tc.wantI)
		})
	}
	e := newEnv(t)
	p := e.input(graph.Bool, graph.Shape{4}, []bool{true, true, false, false})
	q := e.input(graph.Bool, graph.Shape{4}, []bool{true, false, true, false})
	for _, tc := range []struct {
		op   graph.Op
		want []bool
	}{
		{graph.OpAnd, []bool{true, false, false, false}},
		{graph.OpOr, []bool{true, true, true, false}},
		{graph.OpXor, []bool{false, true, true, false}},
		{graph.OpMax, []bool{true, true, true, false}},
		{graph.OpMin, []bool{true, false, false, false}},
		{graph.OpEq, []bool{true, false, false, true}},
		{graph.OpGt, []bool{false, true, false, false}},
	} {
		check(t, e.one(graph.Binary(tc.op, p, q)), graph.Bool, graph.Shape{4}, tc.want)
	}
	// True division of integers and bools computes in float64.
	i := e.input(graph.Int32, graph.Shape{3}, []int32{7, -1, 0})
	j := e.input(graph.Int32, graph.Shape{3}, []int32{2, 0, 0})
	check(t, e.one(graph.Binary(graph.OpDiv, i, j)), graph.Float64, graph.Shape{3}, []float64{3.5, -inf, nan})
}

func TestBroadcastAndPromotion(t *testing.T) {
	e := newEnv(t)
	a := e.input(graph.Int32, graph.Shape{2, 1}, []int32{10, 20})
	b := e.input(graph.Float32, graph.Shape{3}, []float32{1, 2, 3})
	// int32 with float32 promotes to float64.
	check(t, e.one(graph.Binary(graph.OpAdd, a, b)), graph.Float64, graph.Shape{2, 3},
		[]float64{11, 12, 13, 21, 22, 23})
	s := e.input(graph.Int64, graph.Shape{}, []int64{-3})
	check(t, e.one(graph.Binary(graph.OpMul, s, s)), graph.Int64, graph.Shape{}, []int64{9})
	check(t, e.one(graph.Binary(graph.OpSub, a, s)), graph.Int64, graph.Shape{2, 1}, []int64{13, 23})
	// A weak Go float keeps float32.
	check(t, e.one(graph.BinaryWeak(graph.OpMul, b, graph.Weak{Kind: graph.KindFloat, Float: 0.5}, false)),
		graph.Float32, graph.Shape{3}, []float64{0.5, 1, 1.5})
	z := e.input(graph.Float64, graph.Shape{0, 3}, []float64{})
	check(t, e.one(graph.Binary(graph.OpAdd, z, b)), graph.Float64, graph.Shape{0, 3}, []float64{})
	check(t, e.one(graph.Unary(graph.OpExp, z)), graph.Float64, graph.Shape{0, 3}, []float64{})
}

func TestWhere(t *testing.T) {
	e := newEnv(t)
	c := e.input(graph.Bool, graph.Shape{2, 1}, []bool{true, false})
	a := e.input(graph.Int32, graph.Shape{3}, []int32{1, 2, 3})
	b := e.input(graph.Float64, graph.Shape{}, []float64{nan})
	check(t, e.one(graph.Where(c, a, b)), graph.Float64, graph.Shape{2, 3}, []float64{1, 2, 3, nan, nan, nan})
	x := e.input(graph.Int64, graph.Shape{3}, []int64{-1, -2, -3})
	check(t, e.one(graph.Where(c, a, x)), graph.Int64, graph.Shape{2, 3}, []int64{1, 2, 3, -1, -2, -3})
}

func TestCast(t *testing.T) {
	tests := []struct {
		name string
		from graph.DType
		to   graph.DType
		in   any
		want any
	}{
		{"f64-i32", graph.Float64, graph.Int32,
			[]float64{1.9, -1.9, nan, 1e10, -1e10, inf, -inf, 2147483647.5},
			[]int64{1, -1, 0, math.MaxInt32, math.MinInt32, math.MaxInt32, math.MinInt32, math.MaxInt32}},
		{"f64-i64", graph.Float64, graph.Int64, []float64{1e19, -1e19, nan, -2.5, 9007199254740993},
			[]int64{math.MaxInt64, math.MinInt64, 0, -2, 9007199254740992}},
		{"f32-i64", graph.Float32, graph.Int64, []float32{-0.5, 3.99}, []int64{0, 3}},
		{"f64-bool", graph.Float64, graph.Bool, []float64{0, math.Copysign(0, -1), nan, 0.5, -inf}, []bool{false, false, true, true, true}},
		{"f64-f32", graph.Float64, graph.Float32, []float64{0.1, 1e40, nan}, []float64{float64(float32(0.1)), inf, nan}},
		{"f32-f64", graph.Float32, graph.Float64, []float32{0.1}, []float64{float64(float32(0.1))}},
		{"i64-i32", graph.Int64, graph.Int32, []int64{1<<32 + 5, 1 << 31, -1}, []int64{5, math.MinInt32, -1}},
		{"i64-f32", graph.Int64, graph.Float32, []int64{16777217, 1<<53 + 1, -3}, []float64{16777216, 1 << 53, -3}},
		{"i64-f32-once", graph.Int64, graph.Float32, []int64{1<<60 + 1<<36 + 1}, []float64{1<<60 + 1<<37}},
		{"i64-f64", graph.Int64, graph.Float64, []int64{1<<53 + 1}, []float64{1 << 53}},
		{"i32-bool", graph.Int32, graph.Bool, []int32{0, -3, 1}, []bool{false, true, true}},
		{"bool-f32", graph.Bool, graph.Float32, []bool{true, false}, []float64{1, 0}},
		{"bool-i32", graph.Bool, graph.Int32, []bool{true, false}, []int64{1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			s := graph.Shape{len(scalars(tc.in))}
			x := e.input(tc.from, s, tc.in)
			check(t, e.one(graph.Cast(x, tc.to)), tc.to, s, tc.want)
		})
	}
}
