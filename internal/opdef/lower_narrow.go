// IR lowerings for the dtypes that live in a wider register (their lane):
// int8, int16, uint8 and uint16 in s32, uint32 in s64, float16 and
// bfloat16 in f32 (holding a value of the dtype exactly); uint64 is u64.
// Narrowing wraps integers at their width and rounds floats to nearest
// even through the 16-bit pattern (a u16) with the IR's f32tof16 and
// f32tobf16, which the PTX emitter writes as native cvt where the target
// has it (codegen/ptx); the 16-bit patterns convert to and from f32 the
// same way on loads and stores. What they compute is
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

// HalfToF32 returns the f32 value of the 16-bit pattern h (a u16) of
// float16 or bfloat16 d: the IR's f16tof32 for float16, the pattern
// shifted into the top half for bfloat16.
func HalfToF32(bb *ir.Builder, h *ir.Value, d graph.DType) *ir.Value {
	if d == graph.BFloat16 {
		return bb.Bitcast(bb.Shl(bb.Cvt(h, ir.U32), bb.U32(16)), ir.F32)
	}
	return bb.F16ToF32(h)
}

// F32ToHalf returns the 16-bit pattern (a u16) of f32 x rounded to
// nearest even in float16 or bfloat16 d (the IR's f32tof16 and
// f32tobf16): overflow gives an infinity, NaN a quiet NaN keeping the
// sign and the high payload bits (as internal/half does).
func F32ToHalf(bb *ir.Builder, x *ir.Value, d graph.DType) *ir.Value {
	if d == graph.BFloat16 {
		return bb.F32ToBF16(x)
	}
	return bb.F32ToF16(x)
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
