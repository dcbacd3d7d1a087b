// This file implements the interpreter's 16-bit float conversions
// (OpF32ToF16, OpF16ToF32, OpF32ToBF16) from the values' magnitudes in
// float64 arithmetic: rounding to nearest even at the format's precision,
// overflow to infinity, subnormals, and NaNs with their sign and high
// payload bits, quieted.

package ir

import "math"

// f32ToF16Bits returns f32 bits x rounded to binary16, as its pattern.
func f32ToF16Bits(x uint32) uint16 {
	sign := uint16(x>>16) & 0x8000
	if x&0x7fffffff > 0x7f800000 {
		return sign | 0x7e00 | uint16(x>>13)&0x3ff
	}
	a := math.Abs(float64(math.Float32frombits(x)))
	switch {
	case a >= 65520: // the tie between 65504 and 2^16 rounds to Inf
		return sign | 0x7c00
	case a < 0x1p-14: // subnormal: a multiple of 2^-24 (0x400 = 2^-14 when it rounds up)
		return sign | uint16(math.RoundToEven(a*0x1p24))
	}
	_, e := math.Frexp(a)                      // a = f * 2^e, f in [0.5, 1)
	m := math.RoundToEven(math.Ldexp(a, 11-e)) // 1024..2048: 11 significant bits
	return sign | (uint16(e+14)<<10 + uint16(m) - 1024)
}

// f16ToF32Bits returns binary16 pattern h exactly as f32 bits.
func f16ToF32Bits(h uint16) uint32 {
	sign := uint32(h&0x8000) << 16
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch {
	case e == 0x1f:
		return sign | 0x7f800000 | uint32(h&0x3ff)<<13
	case e == 0:
		return sign | math.Float32bits(float32(math.Ldexp(m, -24)))
	}
	return sign | math.Float32bits(float32(math.Ldexp(1024+m, e-25)))
}

// f32ToBF16Bits returns f32 bits x rounded to bfloat16, as its pattern.
func f32ToBF16Bits(x uint32) uint16 {
	sign := uint16(x>>16) & 0x8000
	if x&0x7fffffff > 0x7f800000 {
		return uint16(x>>16) | 0x40
	}
	a := math.Abs(float64(math.Float32frombits(x)))
	if a < 0x1p-126 { // subnormal: a multiple of 2^-133
		return sign | uint16(math.RoundToEven(a*0x1p133))
	}
	if math.IsInf(a, 0) {
		return sign | 0x7f80
	}
	_, e := math.Frexp(a)
	m := math.RoundToEven(math.Ldexp(a, 8-e)) // 128..256: 8 significant bits
	return sign | (uint16(e+126)<<7 + uint16(m) - 128)
}
