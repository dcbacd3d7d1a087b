// This file implements the templates of the 16-bit float conversions
// (f32tof16, f16tof32, f32tobf16): the native cvt.rn.f16.f32,
// cvt.f32.f16 and, from sm_80 and PTX ISA 7.0, cvt.rn.bf16.f32, with the
// 16-bit patterns in .b16 registers. The IR defines the NaN a conversion
// gives (sign and high payload kept, quieted); PTX does not promise a
// NaN's payload or sign through cvt, so each native conversion is
// followed by a selp that puts the IR's NaN in place, computed with
// integer operations. Before sm_80, f32tobf16 rounds with integer
// operations only.

package ptx

import "github.com/fuseflow/fuseflow/codegen/ir"

// nativeBF16 reports whether t has cvt.rn.bf16.f32 (sm_80, PTX ISA 7.0).
func nativeBF16(t target) bool {
	return t.arch.AtLeast(8, 0) && !t.isa.less(Version{7, 0})
}

// emitF32ToF16 writes cvt.rn.f16.f32 and the NaN fix-up:
// sign | 0x7e00 | the top 9 payload bits.
func emitF32ToF16(e *fnEmitter, in *ir.Instr, _ *opRule) {
	d, a := e.op(in.Result()), e.op(in.Args[0])
	e.ins("cvt.rn.f16.f32", d, a)
	x, s, m := e.newReg(class32), e.newReg(class32), e.newReg(class32)
	e.ins("mov.b32", x, a)
	e.ins("shr.u32", s, x, "16")
	e.ins("and.b32", s, s, "32768") // 0x8000: the sign
	e.ins("shr.u32", m, x, "13")
	e.ins("and.b32", m, m, "1023") // 0x3ff: the top payload bits
	e.ins("or.b32", m, m, s)
	e.ins("or.b32", m, m, "32256") // 0x7e00: Inf exponent, quiet bit
	e.nanSelect16(d, a, m)
}

// emitF32ToBF16 writes cvt.rn.bf16.f32 and the NaN fix-up (the top half
// of the f32 with the quiet bit set) where the target has it, and the
// rounding with integer operations before sm_80: the bits plus 0x7fff
// plus the lowest kept bit, shifted right by 16 (a carry runs into the
// exponent and on to Inf as it should).
func emitF32ToBF16(e *fnEmitter, in *ir.Instr, _ *opRule) {
	d, a := e.op(in.Result()), e.op(in.Args[0])
	x, q := e.newReg(class32), e.newReg(class32)
	e.ins("mov.b32", x, a)
	if nativeBF16(e.t) {
		e.ins("cvt.rn.bf16.f32", d, a)
	} else {
		r, odd := e.newReg(class32), e.newReg(class32)
		e.ins("shr.u32", odd, x, "16")
		e.ins("and.b32", odd, odd, "1")
		e.ins("add.u32", r, x, "32767") // 0x7fff
		e.ins("add.u32", r, r, odd)
		e.ins("shr.u32", r, r, "16")
		e.ins("cvt.u16.u32", d, r)
	}
	e.ins("shr.u32", q, x, "16")
	e.ins("or.b32", q, q, "64") // 0x40: the quiet bit
	e.nanSelect16(d, a, q)
}

// nanSelect16 replaces the 16-bit result d by the low half of the b32
// register nan when the f32 source a is a NaN.
func (e *fnEmitter) nanSelect16(d, a, nan string) {
	p, n := e.newReg(classPred), e.newReg(class16)
	e.ins("setp.nan.f32", p, a, a)
	e.ins("cvt.u16.u32", n, nan)
	e.ins("selp.b16", d, n, d, p)
}

// emitF16ToF32 writes cvt.f32.f16 and the NaN fix-up: sign | 0x7f800000
// | payload << 13, from the pattern sign-extended and shifted left by 13
// (the sign's copies above bit 28 masked off, the exponent set).
func emitF16ToF32(e *fnEmitter, in *ir.Instr, _ *opRule) {
	d, a := e.op(in.Result()), e.op(in.Args[0])
	e.ins("cvt.f32.f16", d, a)
	w, f, p := e.newReg(class32), e.newReg(classF32), e.newReg(classPred)
	e.ins("cvt.s32.s16", w, a)
	e.ins("shl.b32", w, w, "13")
	e.ins("and.b32", w, w, "0x807FFFFF")
	e.ins("or.b32", w, w, "0x7F800000")
	e.ins("mov.b32", f, w)
	e.ins("setp.nan.f32", p, d, d)
	e.ins("selp.f32", d, f, d, p)
}
