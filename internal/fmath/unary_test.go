package fmath

import (
	"math"
	"testing"
)

// TestSignAbsNaN checks the float rules a plain comparison gets wrong:
// Sign keeps NaN and gives +0 for -0; Abs clears the sign of -0 and NaN;
// the int versions wrap at the minimum.
func TestSignAbsNaN(t *testing.T) {
	nz := math.Copysign(0, -1)
	negNaN := math.Float64frombits(0xfff8000000000001)
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"SignFloat(-0)", SignFloat(nz), 0},
		{"SignFloat(-Inf)", SignFloat(math.Inf(-1)), -1},
		{"SignFloat(5e-324)", SignFloat(5e-324), 1},
		{"AbsFloat(-0)", AbsFloat(nz), 0},
		{"AbsFloat(-NaN)", AbsFloat(negNaN), math.Float64frombits(0x7ff8000000000001)},
		{"AbsFloat(float32 -2)", float64(AbsFloat(float32(-2))), 2},
	} {
		if math.Float64bits(tc.got) != math.Float64bits(tc.want) {
			t.Errorf("%s got:%v (%#x) want:%v", tc.name, tc.got, math.Float64bits(tc.got), tc.want)
		}
	}
	if got := SignFloat(float32(math.NaN())); got == got {
		t.Errorf("SignFloat(NaN) got:%v want:NaN", got)
	}
	for _, tc := range []struct {
		name      string
		got, want int64
	}{
		{"AbsInt(MinInt32)", int64(AbsInt(int32(math.MinInt32))), math.MinInt32},
		{"AbsInt(-5)", AbsInt(int64(-5)), 5},
		{"Neg(MinInt64)", Neg(int64(math.MinInt64)), math.MinInt64},
		{"SignInt(MinInt64)", SignInt(int64(math.MinInt64)), -1},
		{"Square(65536) int32", int64(Square(int32(65536))), 0},
		{"Not(0)", Not(int64(0)), -1},
	} {
		if tc.got != tc.want {
			t.Errorf("%s got:%d want:%d", tc.name, tc.got, tc.want)
		}
	}
}

// TestMaxMin checks NaN propagation from either side and the order of
// signed zeros.
func TestMaxMin(t *testing.T) {
	nan, nz := math.NaN(), math.Copysign(0, -1)
	for _, p := range [][2]float64{{nan, 1}, {1, nan}} {
		if x, y := Max(p[0], p[1]), Min(p[0], p[1]); x == x || y == y {
			t.Errorf("Max, Min(%v, %v) got:%v, %v want:NaN, NaN", p[0], p[1], x, y)
		}
	}
	for _, p := range [][2]float64{{nz, 0}, {0, nz}} {
		if x, y := Max(p[0], p[1]), Min(p[0], p[1]); math.Signbit(x) || !math.Signbit(y) {
			t.Errorf("Max, Min(%v, %v) got:%v, %v want:0, -0", p[0], p[1], x, y)
		}
	}
}

// TestRound checks ties to even, in both directions.
func TestRound(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{0.5, 0}, {1.5, 2}, {2.5, 2}, {-0.5, math.Copysign(0, -1)}, {-2.5, -2}, {2.6, 3}, {0x1p52 + 1, 0x1p52 + 1},
	} {
		if got := Round(tc.x); math.Float64bits(got) != math.Float64bits(tc.want) {
			t.Errorf("Round(%v) got:%v want:%v", tc.x, got, tc.want)
		}
	}
}
