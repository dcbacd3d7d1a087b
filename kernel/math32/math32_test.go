// This file tests package math32 against Go's math package on sampled
// inputs and the special values.

package math32_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/kernel/math32"
	"github.com/stretchr/testify/require"
)

func TestRoundedOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fns := []struct {
		name string
		f32  func(float32) float32
		f64  func(float64) float64
	}{
		{"Exp", math32.Exp, math.Exp}, {"Exp2", math32.Exp2, math.Exp2}, {"Expm1", math32.Expm1, math.Expm1},
		{"Log", math32.Log, math.Log}, {"Log2", math32.Log2, math.Log2}, {"Log1p", math32.Log1p, math.Log1p},
		{"Sin", math32.Sin, math.Sin}, {"Cos", math32.Cos, math.Cos}, {"Tan", math32.Tan, math.Tan},
		{"Tanh", math32.Tanh, math.Tanh}, {"Erf", math32.Erf, math.Erf}, {"Sqrt", math32.Sqrt, math.Sqrt},
		{"Floor", math32.Floor, math.Floor}, {"Ceil", math32.Ceil, math.Ceil}, {"Trunc", math32.Trunc, math.Trunc},
		{"RoundToEven", math32.RoundToEven, math.RoundToEven}, {"Abs", math32.Abs, math.Abs},
		{"Sigmoid", math32.Sigmoid, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }},
		{"Rsqrt", math32.Rsqrt, func(x float64) float64 { return 1 / math.Sqrt(x) }},
	}
	specials := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, 3e38}
	for _, fn := range fns {
		xs := append([]float32(nil), specials...)
		for range 2000 {
			xs = append(xs, float32((r.Float64()-0.5)*40))
		}
		for _, x := range xs {
			got, want := fn.f32(x), float32(fn.f64(float64(x)))
			if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
				t.Fatalf("%s(%v) got:%v want:%v", fn.name, x, got, want)
			}
		}
	}
	require.Equal(t, float32(math.Pow(1.5, 2.5)), math32.Pow(1.5, 2.5))
	require.Equal(t, float32(math.Atan2(1, -2)), math32.Atan2(1, -2))
	require.True(t, math32.IsNaN(float32(math.NaN())))
	require.True(t, math32.IsInf(float32(math.Inf(-1)), -1))
	require.False(t, math32.IsInf(float32(math.Inf(-1)), 1))
	require.False(t, math32.IsInf(3, 0))
}

// TestFMA compares FMA with the exact value rounded once (big.Float) on
// random operands whose magnitudes differ widely.
func TestFMA(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		x := float32(r.NormFloat64())
		y := float32(r.NormFloat64())
		z := float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20)))
		got := math32.FMA(x, y, z)
		want := fmaBig(x, y, z)
		if got != want {
			t.Fatalf("FMA(%v, %v, %v) got:%v want:%v", x, y, z, got, want)
		}
	}
}
