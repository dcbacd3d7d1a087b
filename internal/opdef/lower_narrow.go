// IR lowerings for the dtypes that live in a wider register (their lane):
// int8, int16, uint8 and uint16 in s32, uint32 in s64, float16 and
// bfloat16 in f32 (holding a value of the dtype exactly); uint64 is u64.
// Narrowing wraps integers at their width and rounds floats to nearest
// even (through the 16-bit pattern, with integer operations only, so no
// f16 register type is needed); the 16-bit patterns convert to and from
// f32 the same way on loads and stores. What they compute is
// graph.CastFloatToInt and graph.RoundFloat (checked on the IR
// interpreter against internal/opdef's conversions).

package opdef

import (
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
)

// RegType returns the register type values of dtype d live in (Invalid
// for an unsupported dtype).
func RegType(d graph.DType) ir.Type { return regTypes[d] }

// WrapInt wraps x, an integer in the lane register of the integer dtype
// d, to d's width (two's complement); x itself when d fills its lane.
func WrapInt(bb *ir.Builder, x *ir.Value, d graph.DType) *ir.Value {
	t := x.Type
	drop := t.Bits() - d.Bits()
	if !d.Narrow() || drop <= 0 {
		return x
	}
	if d.Unsigned() {
		return bb.And(x, bb.Int(t, 1<<uint(d.Bits())-1))
	}
	n := bb.U32(uint32(drop))
	return bb.Shr(bb.Shl(x, n), n) // arithmetic shift: sign extension
}

// HalfToF32 returns the f32 value of the 16-bit pattern h (a u32 holding
// it in the low bits) of float16 or bfloat16 d.
func HalfToF32(bb *ir.Builder, h *ir.Value, d graph.DType) *ir.Value {
	u := func(v uint32) *ir.Value { return bb.U32(v) }
	if d == graph.BFloat16 {
		return bb.Bitcast(bb.Shl(h, u(16)), ir.F32)
	}
	sign := bb.Shl(bb.And(h, u(0x8000)), u(16))
	e := bb.And(bb.Shr(h, u(10)), u(0x1f))
	m := bb.And(h, u(0x3ff))
	normal := bb.Or(sign, bb.Or(bb.Shl(bb.Add(e, u(112)), u(23)), bb.Shl(m, u(13))))
	special := bb.Or(sign, bb.Or(u(0x7f800000), bb.Shl(m, u(13))))
	// Subnormal (and zero): m * 2^-24, exact in f32, with the sign.
	sub := bb.Or(sign, bb.Bitcast(bb.Mul(bb.Cvt(m, ir.F32), bb.Float(ir.F32, 0x1p-24)), ir.U32))
	r := bb.Select(bb.Eq(e, u(0x1f)), special, normal)
	r = bb.Select(bb.Eq(e, u(0)), sub, r)
	return bb.Bitcast(r, ir.F32)
}

// F32ToHalf returns the 16-bit pattern (in a u32) of f32 x rounded to
// nearest even in float16 or bfloat16 d: overflow gives an infinity, NaN
// a quiet NaN keeping the sign and the high payload bits (as
// internal/half does).
func F32ToHalf(bb *ir.Builder, x *ir.Value, d graph.DType) *ir.Value {
	u := func(v uint32) *ir.Value { return bb.U32(v) }
	bits := bb.Bitcast(x, ir.U32)
	abs := bb.And(bits, u(0x7fffffff))
	nan := bb.Gt(abs, u(0x7f800000))
	if d == graph.BFloat16 {
		r := bb.Shr(bb.Add(bits, bb.Add(u(0x7fff), bb.And(bb.Shr(bits, u(16)), u(1)))), u(16))
		return bb.Select(nan, bb.Or(bb.Shr(bits, u(16)), u(0x40)), r)
	}
	sign := bb.And(bb.Shr(bits, u(16)), u(0x8000))
	// Normal results (|x| >= 2^-14): drop 13 bits, rounding to nearest
	// even; the carry runs into the exponent and on to Inf as it should.
	normal := bb.Sub(bb.Shr(bb.Add(abs, bb.Add(u(0xfff), bb.And(bb.Shr(abs, u(13)), u(1)))), u(13)), u(112<<10))
	// Subnormal results: |x| * 2^24 rounded to an integer, nearest even.
	sub := bb.CvtRnd(bb.Mul(bb.Abs(x), bb.Float(ir.F32, 0x1p24)), ir.U32, ir.RndRN)
	r := bb.Select(bb.Lt(abs, u(0x38800000)), sub, normal)
	r = bb.Select(bb.Ge(abs, u(0x477ff000)), u(0x7c00), r) // >= 65520: Inf
	r = bb.Select(nan, bb.Or(u(0x7e00), bb.Shr(bb.And(abs, u(0x7fffff)), u(13))), r)
	return bb.Or(sign, r)
}

// F64ToHalf is F32ToHalf for an f64 x, rounding once: x is rounded to f32
// toward zero and, when that was inexact, the lowest bit is set (a sticky
// bit below float16's and bfloat16's precision), which F32ToHalf then
// rounds correctly.
func F64ToHalf(bb *ir.Builder, x *ir.Value, d graph.DType) *ir.Value {
	r := bb.CvtRnd(x, ir.F32, ir.RndRZ)
	inexact := bb.Cmp(ir.CmpNE, bb.Cvt(r, ir.F64), x) // false for NaN
	rb := bb.Bitcast(r, ir.U32)
	rb = bb.Select(inexact, bb.Or(rb, bb.U32(1)), rb)
	return F32ToHalf(bb, bb.Bitcast(rb, ir.F32), d)
}

// roundToHalf returns x (f32 or f64) rounded to float16 or bfloat16 d, as
// the f32 lane value.
func roundToHalf(bb *ir.Builder, x *ir.Value, d graph.DType) *ir.Value {
	if x.Type == ir.F64 {
		return HalfToF32(bb, F64ToHalf(bb, x, d), d)
	}
	return HalfToF32(bb, F32ToHalf(bb, x, d), d)
}
