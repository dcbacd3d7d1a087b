// Package half converts between float32 (and float64) and the two 16-bit
// float formats fuseflow stores: IEEE 754 binary16 (float16) and
// bfloat16 (the top half of a float32). Conversions to the 16-bit
// formats round to nearest, ties to even, with subnormals; overflow gives
// an infinity; NaN stays a quiet NaN with its sign. Conversions from them
// are exact. All functions are pure and safe for concurrent use.
package half

import "math"

// Float16 is the bit pattern of an IEEE 754 binary16 value.
type Float16 uint16

// BFloat16 is the bit pattern of a bfloat16 value.
type BFloat16 uint16

// Float32 returns h exactly as a float32.
func (h Float16) Float32() float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	man := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: man * 2^-24, exact in float32.
	f := float32(man) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}

// Float32 returns b exactly as a float32.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// FromFloat32 returns f rounded to float16.
func FromFloat32(f float32) Float16 {
	x := math.Float32bits(f)
	sign := uint16(x>>16) & 0x8000
	exp := int(x>>23) & 0xff
	man := x & 0x7fffff
	switch {
	case exp == 0xff:
		if man != 0 {
			return Float16(sign | 0x7e00 | uint16(man>>13)) // quiet NaN
		}
		return Float16(sign | 0x7c00)
	case exp > 142: // >= 2^16: overflow
		return Float16(sign | 0x7c00)
	case exp >= 113: // normal float16 range (2^-14 and up)
		// 13 bits go; round to nearest even on the combined exponent and
		// mantissa, which carries into the exponent (and to Inf) as it
		// should.
		v := uint32(exp-112)<<10 | man>>13
		rest := man & 0x1fff
		if rest > 0x1000 || rest == 0x1000 && v&1 != 0 {
			v++
		}
		return Float16(sign | uint16(v))
	case exp < 102: // below half the smallest subnormal (2^-25), or zero
		return Float16(sign)
	}
	// Subnormal result: the full significand shifted right.
	m := man | 0x800000
	shift := uint(126 - exp) // 14..24
	v := m >> shift
	rest := m & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rest > half || rest == half && v&1 != 0 {
		v++
	}
	return Float16(sign | uint16(v))
}

// FromFloat64 returns f rounded once to float16 (not through float32,
// which could round twice).
func FromFloat64(f float64) Float16 { return FromFloat32(sticky32(f)) }

// sticky32 returns f as a float32 that rounds to a narrower format as f
// does: f itself when float32 holds it exactly (or f is NaN), else f
// rounded toward zero with the sticky low bit set, so that a tie in the
// narrower format is seen as above the tie.
func sticky32(f float64) float32 {
	r := float32(f)
	if float64(r) == f || f != f {
		return r
	}
	if math.Abs(float64(r)) > math.Abs(f) {
		r = math.Float32frombits(math.Float32bits(r) - 1)
	}
	return math.Float32frombits(math.Float32bits(r) | 1)
}

// BFromFloat32 returns f rounded to bfloat16.
func BFromFloat32(f float32) BFloat16 {
	x := math.Float32bits(f)
	if x&0x7fffffff > 0x7f800000 { // NaN: keep it quiet
		return BFloat16(x>>16 | 0x40)
	}
	x += 0x7fff + (x>>16)&1
	return BFloat16(x >> 16)
}

// BFromFloat64 returns f rounded once to bfloat16.
func BFromFloat64(f float64) BFloat16 { return BFromFloat32(sticky32(f)) }

// Float16s converts src to float16 into dst (len(dst) >= len(src)).
func Float16s(dst []Float16, src []float32) {
	dst = dst[:len(src)]
	for i, f := range src {
		dst[i] = FromFloat32(f)
	}
}

// BFloat16s converts src to bfloat16 into dst (len(dst) >= len(src)).
func BFloat16s(dst []BFloat16, src []float32) {
	dst = dst[:len(src)]
	for i, f := range src {
		dst[i] = BFromFloat32(f)
	}
}
