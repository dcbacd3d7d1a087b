// Division-like ops: integer floor division and modulo with Python's
// signs, NumPy's float floor division and modulo, and integer power.

package fmath

import "math"

// FloorDiv returns a // b rounded toward negative infinity; division by
// zero gives 0 and MinInt // -1 wraps to MinInt.
func FloorDiv[T Int](a, b T) T {
	var q T
	if b != 0 {
		q = a / b
		if (a%b != 0) && ((a < 0) != (b < 0)) {
			q--
		}
	}
	return q
}

// Mod returns a % b with the sign of b (Python's %); modulo by zero
// gives 0.
func Mod[T Int](a, b T) T {
	var r T
	if b != 0 {
		r = a % b
		if r != 0 && ((r < 0) != (b < 0)) {
			r += b
		}
	}
	return r
}

// Pow returns x ** e by repeated squaring, wrapping on overflow. A
// negative exponent gives the integer part of the true power: 1 for base
// 1, ±1 for base -1 by the parity of e, 0 otherwise (base 0 included).
func Pow[T Int](x, e T) T {
	if e < 0 {
		switch {
		case x == 1:
			return 1
		case x+1 == 0: // -1 (e < 0 only for signed types)
			if e&1 != 0 {
				return x
			}
			return 1
		}
		return 0
	}
	r := T(1)
	for e > 0 {
		if e&1 != 0 {
			r *= x
		}
		x *= x
		e >>= 1
	}
	return r
}

// DivModFloat returns NumPy's floor division and modulo of floats: the
// remainder is fmod(a, b) moved into b's sign by adding b (a zero
// remainder is ±0 with b's sign), the quotient (a - mod) / b rounded to
// the nearest integer (a zero quotient signed as a/b); division by zero
// gives a/b and NaN.
func DivModFloat(a, b float64) (div, mod float64) {
	mod = Fmod(a, b)
	if b == 0 {
		return a / b, mod
	}
	q := (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			q--
		}
	} else {
		mod = math.Copysign(0, b)
	}
	if q != 0 {
		f := math.Floor(q)
		if q-f > 0.5 {
			f++
		}
		return f, mod
	}
	return math.Copysign(0, a/b), mod
}

// FloorDivFloat returns NumPy's a // b (see DivModFloat).
func FloorDivFloat(a, b float64) float64 { q, _ := DivModFloat(a, b); return q }

// ModFloat returns NumPy's a % b (see DivModFloat).
func ModFloat(a, b float64) float64 { _, m := DivModFloat(a, b); return m }

// Fmod returns math.Mod(a, b), C's fmod: a - n*b for n = a/b truncated
// toward zero, exact, with a's sign. Where the quotient's magnitude is
// below 2^52 and a and b are finite with b nonzero, it takes n from the
// rounded quotient, one multiply-add and at most one correction: every
// integer below 2^53 is a float64 and rounding is monotone, so the
// rounded quotient truncates to n or n+1, never less; the remainder of
// the right n is representable, so the multiply-add gives it exactly,
// and that of n+1 is negative. Elsewhere it is math.Mod (whose loop over
// exponents costs several times more).
func Fmod(a, b float64) float64 {
	x, y := math.Abs(a), math.Abs(b)
	q := x / y
	if !(q < 1<<52) || y == 0 || y-y != 0 || x-x != 0 {
		return math.Mod(a, b) // NaN or infinite operands, zero divisor, huge quotient
	}
	n := math.Trunc(q)
	r := math.FMA(-n, y, x)
	if r < 0 { // n one too large
		r = math.FMA(-(n - 1), y, x)
	}
	return math.Copysign(r, a)
}
