// Fast exponential for float32 results, evaluated in float64: k =
// round(32x/ln2) by the add-a-magic-number trick (whose low bits are k),
// r = x - k*ln2/32 in [-ln2/64, ln2/64], e^r by a cubic, and the scale
// 2^(k/32) from a 32-entry table with k>>5 added to its exponent bits.
// The relative error is below 6e-10, so rounding the float64 value to
// float32 gives float32(math.Exp(x)) or a neighbour (1 ulp apart, where
// e^x lies within 6e-10 of a rounding boundary: about 1 value in 700).
// The chunk loops compute the fast formula for every element and replace
// it where |x| > 700 or x is NaN (where float64 would overflow or
// underflow), deciding per element before the store: a loop never reads
// its operand after writing its result, so it may run in place.

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
	// expLimBits is the float64 bits of 700: |x| above it (or NaN) takes
	// the careful path.
	expLimBits = 0x4085e00000000000
)

// expCore returns e^x for |x| <= 700 (see the file comment). The chunk
// loops repeat its body: the compiler does not inline it.
func expCore(x float64) float64 {
	t := x*invLn2x32 + roundMag
	kf := t - roundMag
	r := x - kf*ln2d32
	kb := math.Float64bits(t) // low bits: k, two's complement
	p := 1 + r + r*r*(0.5+r*(1.0/6))
	return p * math.Float64frombits(math.Float64bits(exp2Tab[kb&31])+(kb>>5)<<52)
}

// exp64r returns e^x for callers that round the result to float32: NaN
// gives NaN, inputs above 700 +Inf and below -700 0 (both far outside
// float32's range).
func exp64r(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > 700:
		return math.Inf(1)
	case x < -700:
		return 0
	}
	return expCore(x)
}

// outside returns 1 when |x| > 700 or x is NaN, else 0, without a branch.
// The loops test the float64 value: keeping the float32 one alive past
// its conversion lets the compiler convert into a register that still
// holds the previous element's result, and CVTSS2SD, which keeps the
// upper half of its destination, then chains every element to the one
// before (five times slower).
func outside(x float64) uint64 {
	return (expLimBits - math.Float64bits(x)&(1<<63-1)) >> 63
}

// exp32L computes e^x for a chunk (see the file comment). Each element
// is read once, before its result is stored: d may be a (in place).
func exp32L(d, a []float32) {
	d = d[:len(a)]
	for i, x32 := range a {
		x := float64(x32)
		t := x*invLn2x32 + roundMag
		kf := t - roundMag
		r := x - kf*ln2d32
		kb := math.Float64bits(t)
		p := 1 + r + r*r*(0.5+r*(1.0/6))
		v := float32(p * math.Float64frombits(math.Float64bits(exp2Tab[kb&31])+(kb>>5)<<52))
		if outside(x) != 0 {
			v = float32(exp64r(x))
		}
		d[i] = v
	}
}

// sigmoid32L computes 1/(1+e^-x) for a chunk with the same exponential,
// in place as exp32L.
func sigmoid32L(d, a []float32) {
	d = d[:len(a)]
	for i, x32 := range a {
		x := -float64(x32)
		t := x*invLn2x32 + roundMag
		kf := t - roundMag
		r := x - kf*ln2d32
		kb := math.Float64bits(t)
		p := 1 + r + r*r*(0.5+r*(1.0/6))
		v := float32(1 / (1 + p*math.Float64frombits(math.Float64bits(exp2Tab[kb&31])+(kb>>5)<<52)))
		if outside(x) != 0 {
			v = float32(1 / (1 + exp64r(x)))
		}
		d[i] = v
	}
}

// The range of the vector exponential (asm_amd64.s, whose constants are
// these): above expHi32 e^x overflows or comes too close to it for the
// scaling; below expLo32 it may be subnormal.
const (
	expHi32 = 88.0
	expLo32 = -86.5
)

// expInRange reports whether the vector loop computes e^x (false for NaN).
func expInRange(x float32) bool { return x <= expHi32 && x >= expLo32 }

// sigmoidInRange reports whether the vector loop computes 1/(1+e^-x)
// (false for NaN): for x above -expLo32 it uses e^expLo32 for e^-x, and
// the quotient rounds to 1 either way.
func sigmoidInRange(x float32) bool { return -x <= expHi32 }
