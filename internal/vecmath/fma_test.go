// Tests of fma32, the float32 fused multiply-add of the portable code,
// against a*b+c computed exactly with math/big and rounded once: random
// operands, operands whose float64 sum lands on a float32 midpoint
// (where rounding twice goes wrong), and results in float32's subnormal
// range.

package vecmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// fma32Exact returns a*b+c rounded once to float32 (NaN for NaN).
func fma32Exact(a, b, c float32) float32 {
	fa, fb, fc := float64(a), float64(b), float64(c)
	if math.IsNaN(fa) || math.IsNaN(fb) || math.IsNaN(fc) || math.IsInf(fa, 0) || math.IsInf(fb, 0) || math.IsInf(fc, 0) {
		return float32(fa*fb + fc)
	}
	x := new(big.Float).SetPrec(0).SetFloat64(fa)
	x.SetPrec(2000).Mul(x, big.NewFloat(fb)).Add(x, big.NewFloat(fc))
	f, _ := x.Float32()
	if f == 0 && x.Sign() == 0 { // an exact zero sum: IEEE's sign rules
		return float32(fa*fb + fc)
	}
	return f
}

func TestFMA32(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	bits := func() float32 { return math.Float32frombits(r.Uint32()) }
	check := func(a, b, c float32) {
		t.Helper()
		got, want := fma32(a, b, c), fma32Exact(a, b, c)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("fma32(%v, %v, %v) got:%v want:%v", a, b, c, got, want)
		}
	}
	for range 200000 {
		check(bits(), bits(), bits())
		// Moderate exponents, where a*b and c overlap.
		a, b := float32(r.NormFloat64()), float32(r.NormFloat64())
		check(a, b, float32(r.NormFloat64()))
		// c cancels most of a*b: the result's low bits come from the
		// product's tail, near float32 midpoints.
		p := float64(a) * float64(b)
		check(a, b, -float32(p))
		// A product on a float32 midpoint, 1.5*(1+k*2^-23) for odd k,
		// scaled, plus a c far below float64's precision there: the
		// float64 sum rounds to the midpoint, the exact sum lies beside
		// it (or on it, for c = 0: a tie).
		e1, e2 := r.IntN(60)-30, r.IntN(60)-30
		ma := float32(math.Ldexp(1.5, e1))
		mb := float32(math.Ldexp(1+float64(2*r.IntN(1<<20)+1)*0x1p-23, e2))
		tiny := float32(math.Ldexp(float64(r.IntN(3)-1), e1+e2-60))
		check(ma, mb, tiny)
		check(-ma, mb, tiny)
		// Subnormal results, and sums just beside a midpoint between two
		// subnormals: k*2^-149 + (1+2^-23)(1-2^-23)*2^-150 is
		// (k+1/2)*2^-149 - 2^-196, which rounds to the midpoint in
		// float64 for k above 2^20.
		check(a*0x1p-70, b*0x1p-70, float32(r.NormFloat64())*0x1p-140)
		k := float32(1<<20 + r.IntN(1<<22))
		check((1+0x1p-23)*0x1p-75, (1-0x1p-23)*0x1p-75, k*0x1p-149)
		check(-(1+0x1p-23)*0x1p-75, (1-0x1p-23)*0x1p-75, -k*0x1p-149)
	}
}
