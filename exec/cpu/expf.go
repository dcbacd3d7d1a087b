// Fast exponential for float32 results: evaluated in float64 with a
// 32-entry table of 2^(j/32) and a degree-4 polynomial (evaluated
// by Estrin's scheme: the latency of the chain, not the operation count,
// bounds its speed), so the float64
// value is within about 1e-12 (relative) of e^x and rounding it to
// float32 agrees with float32(math.Exp(x)) except where e^x lies within
// 1e-12 of a rounding boundary (at most 1 ulp apart then).

package cpu

import "math"

var exp2Tab = func() (t [32]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 32)
	}
	return t
}()

const (
	invLn2x32 = 32 / math.Ln2
	ln2d32    = math.Ln2 / 32
	roundMag  = 0x1.8p52 // adding and subtracting it rounds to an integer
)

// exp64r returns e^x to about 1e-12 relative accuracy, for callers that
// round the result to float32. Inputs above 709 give +Inf, inputs below
// -700 give 0 (both far outside float32's range), NaN gives NaN.
func exp64r(x float64) float64 {
	if !(x > -700) {
		if x != x {
			return x
		}
		return 0
	}
	if x > 709 {
		return math.Inf(1)
	}
	kf := (x*invLn2x32 + roundMag) - roundMag
	k := int64(kf)
	r := x - kf*ln2d32
	r2 := r * r
	p := (1 + r) + r2*((0.5+r*(1.0/6))+r2*(1.0/24)) // Estrin: a short dependency chain
	s := math.Float64frombits(math.Float64bits(exp2Tab[k&31]) + uint64(k>>5)<<52)
	return s * p
}

// exp32 returns e^x rounded to float32 (see exp64r).
func exp32(x float32) float32 { return float32(exp64r(float64(x))) }
