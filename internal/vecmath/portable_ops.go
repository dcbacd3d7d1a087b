// This file implements the helpers of the generated portable code
// (zportable.go) whose IR semantics differ from Go's operators: PTX min
// and max, float32 fused multiply-add rounded once, sign operations on
// the bits, selects, saturating float-to-integer conversions and the
// 64-bit high product. Each gives the IR interpreter's result bit for
// bit.

package vecmath

import (
	"math"
	"math/bits"
)

func neg32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) ^ 1<<31) }
func neg64(x float64) float64 { return math.Float64frombits(math.Float64bits(x) ^ 1<<63) }
func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
func abs64(x float64) float64 { return math.Float64frombits(math.Float64bits(x) &^ (1 << 63)) }

// fmin32 and the others are PTX's min and max: a NaN operand yields the
// other operand, and -0 orders below +0.
func fmin32(a, b float32) float32 {
	return math.Float32frombits(uint32(minmax(float64(a), float64(b), uint64(math.Float32bits(a)), uint64(math.Float32bits(b)), true)))
}

func fmax32(a, b float32) float32 {
	return math.Float32frombits(uint32(minmax(float64(a), float64(b), uint64(math.Float32bits(a)), uint64(math.Float32bits(b)), false)))
}

func fmin64(a, b float64) float64 {
	return math.Float64frombits(minmax(a, b, math.Float64bits(a), math.Float64bits(b), true))
}

func fmax64(a, b float64) float64 {
	return math.Float64frombits(minmax(a, b, math.Float64bits(a), math.Float64bits(b), false))
}

// minmax picks between x and y (with bits xb and yb) as PTX min (isMin)
// or max does.
func minmax(x, y float64, xb, yb uint64, isMin bool) uint64 {
	switch {
	case x != x:
		return yb
	case y != y:
		return xb
	case x == y:
		if isMin {
			return xb | yb // equal: only the signs of zeros may differ
		}
		return xb & yb
	case (x < y) == isMin:
		return xb
	}
	return yb
}

// fma32 returns a*b+c rounded once to float32. r, the float64 fused
// multiply-add, is a*b+c rounded once to float64; rounding r to float32
// gives the correct result unless r is a midpoint between two float32
// values (the midpoints are float64 values, so none lies strictly
// between a*b+c and r): where r's 29 bits below float32's precision are
// 1 and 28 zeros, or where r is below float32's normal range (whose
// midpoints sit elsewhere) or zero, fma32Odd decides.
func fma32(a, b, c float32) float32 {
	r := math.FMA(float64(a), float64(b), float64(c))
	if u := math.Float64bits(r); u&(1<<29-1) != 1<<28 && (u>>52)&0x7ff >= 1023-126 {
		return float32(r)
	}
	return fma32Odd(a, b, c)
}

// fma32Odd is fma32 by rounding to odd: the product is exact in float64;
// the sum, computed as s plus its exact error, is rounded to odd in
// float64 (its last bit set when inexact), after which the rounding to
// float32 is the correct one (float64 has more than twice float32's
// precision plus two bits).
func fma32Odd(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	if s == 0 || s-s != 0 { // zero, infinite or NaN: no rounding error to keep
		return float32(math.FMA(float64(a), float64(b), float64(c)))
	}
	bb := s - p
	e := (p - (s - bb)) + (float64(c) - bb)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		if (e > 0) == (s > 0) {
			s = math.Float64frombits(math.Float64bits(s) + 1)
		} else {
			s = math.Float64frombits(math.Float64bits(s) - 1)
		}
	}
	return float32(s)
}

func mulhiU64(a, b uint64) uint64 { hi, _ := bits.Mul64(a, b); return hi }

// sel is the IR's select: a when c, else b.
func sel[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// cvtInt32 and the others convert an integral float64 (already rounded)
// with PTX's saturation: NaN gives 0, values beyond the range its ends.
func cvtInt32(x float64) int32 {
	switch {
	case x != x:
		return 0
	case x <= -0x1p31:
		return math.MinInt32
	case x >= 0x1p31:
		return math.MaxInt32
	}
	return int32(x)
}

func cvtInt64(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x <= -0x1p63:
		return math.MinInt64
	case x >= 0x1p63:
		return math.MaxInt64
	}
	return int64(x)
}

func cvtUint32(x float64) uint32 {
	switch {
	case x != x || x <= 0:
		return 0
	case x >= 0x1p32:
		return math.MaxUint32
	}
	return uint32(x)
}

func cvtUint64(x float64) uint64 {
	switch {
	case x != x || x <= 0:
		return 0
	case x >= 0x1p64:
		return math.MaxUint64
	}
	return uint64(x)
}
