// Unary ops on one element: negation, magnitude, sign, square,
// reciprocal, bitwise not, the float predicates, rounding and the float
// math that fuseflow composes from Go's math package.

package fmath

import "math"

// Neg returns -x (integers wrap: the minimum value stays).
func Neg[T Number](x T) T { return -x }

// AbsInt returns |x|, wrapping: the minimum value stays.
func AbsInt[T Int](x T) T {
	if x < 0 {
		x = -x
	}
	return x
}

// AbsFloat returns |x|: the sign bit cleared, NaN included.
func AbsFloat[T Float](x T) T { return T(math.Abs(float64(x))) }

// SignInt returns -1, 0 or 1 by the sign of x.
func SignInt[T Int](x T) T {
	var s T
	if x > 0 {
		s = 1
	} else if x < 0 {
		s = 0
		s-- // -1 (x < 0 only for signed types)
	}
	return s
}

// SignFloat returns -1, 0 or 1 by the sign of x: both zeros give +0 and
// NaN stays NaN (NumPy).
func SignFloat[T Float](x T) T {
	switch {
	case x > 0:
		x = 1
	case x < 0:
		x = -1
	case x == 0:
		x = 0
	}
	return x
}

// Square returns x*x (integers wrap).
func Square[T Number](x T) T { return x * x }

// Recip returns 1/x.
func Recip[T Float](x T) T { return 1 / x }

// Sqrt returns the square root of x, correctly rounded for both float
// types (a float32 root computed in float64 and rounded once is).
func Sqrt[T Float](x T) T { return T(math.Sqrt(float64(x))) }

// Not returns the bitwise complement of x.
func Not[T Int](x T) T { return ^x }

// IsNaN reports whether x is NaN.
func IsNaN[T Float](x T) bool { return x != x }

// IsInf reports whether x is +Inf or -Inf.
func IsInf[T Float](x T) bool { return math.IsInf(float64(x), 0) }

// Round rounds x to the nearest integer, ties to even (NumPy's round).
func Round(x float64) float64 { return math.RoundToEven(x) }

// Rsqrt returns 1/sqrt(x), rounded twice as the two operations are.
func Rsqrt(x float64) float64 { return 1 / math.Sqrt(x) }

// Sigmoid returns 1/(1+e^-x).
func Sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
