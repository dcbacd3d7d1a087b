// Package math32 is the float32 math of explicit kernels: each function
// computes in float64 with Go's math package and rounds once to float32,
// which is what a kernel runs on the CPU and what the IR interpreter
// computes; kernelgen compiles each call to the float32 function of
// fuseflow's math library (codegen/mathlib), whose measured accuracy on
// the GPU is in codegen/mathlib/ULP.md (within 1 or 2 ulps of these
// results), the same code the lazy arrays' float32 math runs.
//
// Go's math package serves float64 kernels: kernelgen compiles math.Exp,
// math.Sqrt and the others of the kernel subset (see package kernel) to
// the float64 functions of the math library.
package math32

import "math"

// Exp returns e**x.
func Exp(x float32) float32 { return float32(math.Exp(float64(x))) }

// Exp2 returns 2**x.
func Exp2(x float32) float32 { return float32(math.Exp2(float64(x))) }

// Expm1 returns e**x - 1, accurate for x near 0.
func Expm1(x float32) float32 { return float32(math.Expm1(float64(x))) }

// Log returns the natural logarithm of x.
func Log(x float32) float32 { return float32(math.Log(float64(x))) }

// Log2 returns the binary logarithm of x.
func Log2(x float32) float32 { return float32(math.Log2(float64(x))) }

// Log1p returns the natural logarithm of 1+x, accurate for x near 0.
func Log1p(x float32) float32 { return float32(math.Log1p(float64(x))) }

// Sin returns the sine of x (radians).
func Sin(x float32) float32 { return float32(math.Sin(float64(x))) }

// Cos returns the cosine of x (radians).
func Cos(x float32) float32 { return float32(math.Cos(float64(x))) }

// Tan returns the tangent of x (radians).
func Tan(x float32) float32 { return float32(math.Tan(float64(x))) }

// Tanh returns the hyperbolic tangent of x.
func Tanh(x float32) float32 { return float32(math.Tanh(float64(x))) }

// Sigmoid returns 1/(1+e**-x).
func Sigmoid(x float32) float32 { return float32(1 / (1 + math.Exp(-float64(x)))) }

// Erf returns the error function of x.
func Erf(x float32) float32 { return float32(math.Erf(float64(x))) }

// Pow returns x**y with the special cases of math.Pow.
func Pow(x, y float32) float32 { return float32(math.Pow(float64(x), float64(y))) }

// Atan2 returns the arc tangent of y/x in the quadrant of (x, y).
func Atan2(y, x float32) float32 { return float32(math.Atan2(float64(y), float64(x))) }

// Sqrt returns the square root of x, correctly rounded.
func Sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Rsqrt returns 1/Sqrt(x), with two roundings as 1/Sqrt(x) written out.
func Rsqrt(x float32) float32 { return float32(1 / math.Sqrt(float64(x))) }

// Floor returns the greatest integer value at most x.
func Floor(x float32) float32 { return float32(math.Floor(float64(x))) }

// Ceil returns the least integer value at least x.
func Ceil(x float32) float32 { return float32(math.Ceil(float64(x))) }

// Trunc returns the integer value of x rounded toward zero.
func Trunc(x float32) float32 { return float32(math.Trunc(float64(x))) }

// RoundToEven returns x rounded to the nearest integer, halves to even.
func RoundToEven(x float32) float32 { return float32(math.RoundToEven(float64(x))) }

// Abs returns the absolute value of x.
func Abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// FMA returns x*y + z rounded once to float32.
func FMA(x, y, z float32) float32 {
	// The product is exact in float64. The sum s = p+z and its exact
	// error e (TwoSum) give the exact result s+e; rounding s to odd when
	// e is not zero keeps the final rounding to float32 single (53 bits
	// hold 2*24+2).
	p := float64(x) * float64(y)
	s := p + float64(z)
	if math.IsInf(s, 0) || math.IsNaN(s) || s == 0 {
		return float32(math.FMA(float64(x), float64(y), float64(z)))
	}
	bb := s - p
	e := (p - (s - bb)) + (float64(z) - bb)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return float32(s)
}

// IsNaN reports whether x is a NaN.
func IsNaN(x float32) bool { return x != x }

// IsInf reports whether x is an infinity: +Inf for sign > 0, -Inf for
// sign < 0, either for sign 0.
func IsInf(x float32, sign int) bool {
	return sign >= 0 && x > math.MaxFloat32 || sign <= 0 && x < -math.MaxFloat32
}
