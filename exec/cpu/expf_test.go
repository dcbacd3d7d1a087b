// Tests of the float32 exponential and sigmoid loops against float64
// math, over the whole range, special values included.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many float32 steps apart got and want are.
func ulps(got, want float32) int64 {
	g, w := int64(math.Float32bits(got)), int64(math.Float32bits(want))
	if g < 0 {
		g = math.MinInt32 - g
	}
	if w < 0 {
		w = math.MinInt32 - w
	}
	if g > w {
		return g - w
	}
	return w - g
}

func TestExp32L(t *testing.T) {
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 88.72, 88.73, 89, -87.33, -103.9, -104, -150,
		700, -700, 701, -701, 1e10, -1e10, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.MaxFloat32, -math.MaxFloat32, 1e-30, -1e-45}
	r := rand.New(rand.NewPCG(3, 4))
	xs := append([]float32(nil), special...)
	for range 200000 {
		xs = append(xs, float32(-110+220*r.Float64()))
	}
	for range 1000 {
		xs = append(xs, math.Float32frombits(r.Uint32())) // any bit pattern
	}
	for _, tc := range []struct {
		name string
		loop func(d, a []float32)
		ref  func(float64) float64
	}{
		{"exp", exp32L, math.Exp},
		{"sigmoid", sigmoid32L, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }},
	} {
		d := make([]float32, len(xs))
		tc.loop(d, xs)
		differ := 0
		for i, x := range xs {
			want := float32(tc.ref(float64(x)))
			got := d[i]
			switch {
			case math.IsNaN(float64(want)):
				if !math.IsNaN(float64(got)) {
					t.Fatalf("%s(%v) got:%v want:%v", tc.name, x, got, want)
				}
			case ulps(got, want) > 1:
				t.Fatalf("%s(%v) got:%v want:%v (%d ulps)", tc.name, x, got, want, ulps(got, want))
			case got != want:
				differ++
			}
		}
		if differ > len(xs)/200 {
			t.Errorf("%s: %d of %d values 1 ulp off, want at most 0.5%%", tc.name, differ, len(xs))
		}
	}
}
