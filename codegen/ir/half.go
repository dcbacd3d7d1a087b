// This file implements the 16-bit float arithmetic of the IR: the
// formats (HalfFmt), the builder of OpHAdd, OpHSub, OpHMul and OpHCmp,
// their verifier check and their meaning on the interpreter. The ops
// compute on 16-bit patterns held in u16 values and are defined as the
// f32 path they replace: both operands widened exactly (f16tof32, or
// the bfloat16 pattern shifted into the top half of an f32), the f32 op
// as the interpreter computes it, the result narrowed with f32tof16 or
// f32tobf16. For + - * that is the correctly rounded result in the
// 16-bit format. The PTX emitter writes them as native half-precision
// instructions where the target has them and as the f32 path elsewhere.

package ir

import "github.com/fuseflow/fuseflow/internal/enum"

// HalfFmt is the format of a 16-bit float pattern: IEEE binary16 or
// bfloat16.
type HalfFmt uint8

// The 16-bit float formats.
const (
	HalfF16 HalfFmt = iota
	HalfBF16
	numHalfFmts
)

var halfFmtNames = [numHalfFmts]string{"f16", "bf16"}

// String returns the PTX name of the format ("f16", "bf16").
func (f HalfFmt) String() string { return enum.Numbered(halfFmtNames[:], f, "halffmt") }

// HalfToF32Bits returns the f32 bits of the 16-bit pattern h of format
// f, exactly (a NaN keeps its sign and payload).
func HalfToF32Bits(f HalfFmt, h uint16) uint32 {
	if f == HalfBF16 {
		return uint32(h) << 16
	}
	return f16ToF32Bits(h)
}

// F32ToHalfBits returns f32 bits x rounded to nearest even in format f,
// as its pattern, as OpF32ToF16 and OpF32ToBF16 define it.
func F32ToHalfBits(f HalfFmt, x uint32) uint16 {
	if f == HalfBF16 {
		return f32ToBF16Bits(x)
	}
	return f32ToF16Bits(x)
}

// HalfArithOf returns the f32 op an OpHAdd, OpHSub or OpHMul computes
// (OpAdd, OpSub, OpMul), or OpInvalid for another op.
func HalfArithOf(op Op) Op {
	switch op {
	case OpHAdd:
		return OpAdd
	case OpHSub:
		return OpSub
	case OpHMul:
		return OpMul
	}
	return OpInvalid
}

// HalfArith returns op (OpHAdd, OpHSub, OpHMul) of the patterns x and y
// (u16) in format f, as a u16 pattern.
func (b *Builder) HalfArith(op Op, f HalfFmt, x, y *Value) *Value {
	in := b.Emit(op, Invalid, x, y)
	in.Fmt = f
	return in.Result()
}

// HalfCmp returns the comparison c of the patterns x and y (u16) in
// format f (OpHCmp), as OpCmp compares floats.
func (b *Builder) HalfCmp(c CmpPred, f HalfFmt, x, y *Value) *Value {
	in := b.Emit(OpHCmp, Invalid, x, y)
	in.Cmp, in.Fmt = c, f
	return in.Result()
}

// checkHalf checks a 16-bit float op: two u16 operands and a format.
func checkHalf(c *ck) {
	if c.arg(0) != U16 || c.arg(1) != U16 {
		c.bad("%s takes two u16 patterns, got %s and %s", c.in.Op, c.arg(0), c.arg(1))
	}
	if c.in.Fmt >= numHalfFmts {
		c.bad("%s: unknown format %s", c.in.Op, c.in.Fmt)
	}
	if c.in.Op == OpHCmp && c.in.Cmp >= numCmps {
		c.bad("%s: unknown predicate %s", c.in.Op, c.in.Cmp)
	}
}

// halfArithExec runs OpHAdd, OpHSub and OpHMul: the f32 op of the
// interpreter on the widened operands, narrowed.
func halfArithExec(in *Instr) execFn {
	f, g := in.Fmt, floatBinary(HalfArithOf(in.Op), F32)
	return loop2(func(a, b uint64) uint64 {
		r := g(uint64(HalfToF32Bits(f, uint16(a))), uint64(HalfToF32Bits(f, uint16(b))))
		return uint64(F32ToHalfBits(f, uint32(r)))
	}, in)
}

// halfCmpExec runs OpHCmp: the f32 comparison of the widened operands
// (exact: widening changes no order and keeps NaNs).
func halfCmpExec(in *Instr) execFn {
	f, g := in.Fmt, cmpFunc(in.Cmp, F32)
	return loop2(func(a, b uint64) uint64 {
		return g(uint64(HalfToF32Bits(f, uint16(a))), uint64(HalfToF32Bits(f, uint16(b))))
	}, in)
}
