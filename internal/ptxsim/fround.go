// This file implements correctly rounded float arithmetic in the four
// IEEE 754 rounding modes PTX names (.rn, .rz, .rm, .rp; PTX ISA 9.7.3):
// f32 operations are computed in float64 together with the sign of their
// rounding error, made round-to-odd and rounded once more to f32 (exact
// for every mode since 53 >= 24+2 bits); f64 operations round to nearest
// natively and, in the directed modes, step by one ulp where the exact
// value (computed with math/big) lies on the other side. Also flushing
// subnormals (.ftz) and clamping to [0, 1] (.sat).

package ptxsim

import (
	"math"
	"math/big"
)

// flush32 returns x with a subnormal value replaced by a zero of the
// same sign (.ftz).
func flush32(x float32) float32 {
	if x != 0 && math.Abs(float64(x)) < 0x1p-126 {
		return float32(math.Copysign(0, float64(x)))
	}
	return x
}

// sat01 clamps x to [0.0, 1.0]; NaN becomes +0.0 (.sat).
func sat01(x float64) float64 {
	switch {
	case x != x || x <= 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// twoSum returns s = fl(a+b) and the exact error a+b-s.
func twoSum(a, b float64) (float64, float64) {
	s := a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// sign returns -1, 0 or +1.
func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// exactZero fixes the sign of a sum x+y that is exactly zero: +0 in
// every rounding mode but .rm, where it is -0, unless both addends are +0
// (IEEE 754 6.3, which PTX's IEEE-compliant rounding follows).
func exactZero(r, x, y float64, rnd uint8) float64 {
	if r != 0 || rnd != rndRM || x == 0 && y == 0 && !math.Signbit(x) && !math.Signbit(y) {
		return r
	}
	return math.Copysign(0, -1)
}

// round32 rounds the exact value v to float32 in mode rnd, where hi is v
// rounded to nearest float64 and errSign the sign of v-hi.
func round32(hi float64, errSign int, rnd uint8) float32 {
	if errSign != 0 && !math.IsInf(hi, 0) {
		// Round to odd: an inexact hi gets an odd last bit, moving toward v.
		u := math.Float64bits(hi)
		if u&1 == 0 {
			if hi == 0 {
				hi = math.Copysign(math.SmallestNonzeroFloat64, float64(errSign))
			} else if (errSign > 0) == (hi > 0) {
				hi = math.Float64frombits(u + 1)
			} else {
				hi = math.Float64frombits(u - 1)
			}
		}
	}
	r := float32(hi)
	if rnd == rndRN || rnd == rndNone || float64(r) == hi || hi != hi {
		return r
	}
	switch rnd {
	case rndRZ:
		if math.Abs(float64(r)) > math.Abs(hi) {
			return math.Nextafter32(r, 0)
		}
	case rndRM:
		if float64(r) > hi {
			return math.Nextafter32(r, float32(math.Inf(-1)))
		}
	case rndRP:
		if float64(r) < hi {
			return math.Nextafter32(r, float32(math.Inf(1)))
		}
	}
	return r
}

// Exact f32 operations as (hi, errSign) for round32. Every f32 product
// is exact in float64; sums are exact with their twoSum error; quotient
// and square root errors come from the exact fma residual.
func add32(a, b float32) (float64, int) {
	s, e := twoSum(float64(a), float64(b))
	return s, sign(e)
}

func mul32(a, b float32) (float64, int) { return float64(a) * float64(b), 0 }

func fma32(a, b, c float32) (float64, int) {
	p := float64(a) * float64(b)
	s, e := twoSum(p, float64(c))
	if math.IsInf(p, 0) || math.IsNaN(s) {
		return s, 0
	}
	return s, sign(e)
}

func div32(a, b float32) (float64, int) {
	x, y := float64(a), float64(b)
	q := x / y
	if y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0) || q != q || q == 0 && x == 0 {
		return q, 0
	}
	return q, sign(math.FMA(-q, y, x)) * sign(y)
}

func sqrt32(a float32) (float64, int) {
	x := float64(a)
	s := math.Sqrt(x)
	if x <= 0 || math.IsInf(x, 0) || s != s {
		return s, 0
	}
	return s, sign(math.FMA(-s, s, x))
}

// round64 returns the correctly rounded f64 result of an operation whose
// round-to-nearest result is r, in mode rnd; errSign returns the sign of
// the exact value minus r (called only for the directed modes, which PTX
// code rarely uses, so it may be slow).
func round64(r float64, rnd uint8, errSign func() int) float64 {
	if rnd == rndRN || rnd == rndNone || r != r {
		return r
	}
	c := errSign()
	switch {
	case c == 0:
		return r
	case rnd == rndRZ && ((r > 0 && c < 0) || (r < 0 && c > 0)):
		return math.Nextafter(r, 0)
	case rnd == rndRM && c < 0:
		return math.Nextafter(r, math.Inf(-1))
	case rnd == rndRP && c > 0:
		return math.Nextafter(r, math.Inf(1))
	}
	return r
}

// exactPrec is enough bits to hold exactly any sum of a product of two
// float64s and a float64.
const exactPrec = 2400

// exact returns x exactly, or nil for infinities and NaN.
func exact(x float64) *big.Float {
	if math.IsInf(x, 0) || x != x {
		return nil
	}
	return new(big.Float).SetPrec(exactPrec).SetFloat64(x)
}

// cmpExact returns the sign of v-r, where r may have overflowed to an
// infinity (the finite v then lies inside the range).
func cmpExact(v *big.Float, r float64) int {
	if math.IsInf(r, 0) {
		return -sign(r)
	}
	return v.Cmp(exact(r))
}

// errFMA returns the sign of a*b+c - r (a*b - r for c nil-like: pass 0).
func errFMA(a, b, c, r float64) func() int {
	return func() int {
		x, y, z := exact(a), exact(b), exact(c)
		if x == nil || y == nil || z == nil {
			return 0
		}
		p := new(big.Float).SetPrec(exactPrec).Mul(x, y)
		return cmpExact(p.Add(p, z), r)
	}
}

// errAdd returns the sign of a+b - r.
func errAdd(a, b, r float64) func() int { return errFMA(a, 1, b, r) }

// errMul returns the sign of a*b - r.
func errMul(a, b, r float64) func() int { return errFMA(a, b, 0, r) }

// errDiv returns the sign of a/b - q: that of (a - q*b) * b.
func errDiv(a, b, q float64) func() int {
	return func() int {
		x, y := exact(a), exact(b)
		if x == nil || y == nil || b == 0 {
			return 0
		}
		if math.IsInf(q, 0) {
			return -sign(q)
		}
		r := new(big.Float).SetPrec(exactPrec).Mul(exact(q), y)
		return r.Sub(x, r).Sign() * sign(b)
	}
}

// errSqrt returns the sign of sqrt(a) - s: that of a - s*s.
func errSqrt(a, s float64) func() int {
	return func() int {
		x := exact(a)
		if x == nil || a <= 0 {
			return 0
		}
		r := new(big.Float).SetPrec(exactPrec).Mul(exact(s), exact(s))
		return r.Sub(x, r).Sign()
	}
}
