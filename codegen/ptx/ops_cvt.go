// This file implements the templates of conversions and bit casts: cvt
// with its rounding modes between every pair of integer and float types,
// and register sharing for conversions that change no bits.

package ptx

import "github.com/fuseflow/fuseflow/codegen/ir"

// floatRnd names the rounding of a conversion to a float: the default is
// round to nearest even.
var floatRnd = [...]string{ir.RndDefault: "rn", ir.RndRN: "rn", ir.RndRZ: "rz", ir.RndRM: "rm", ir.RndRP: "rp"}

// intRnd names the rounding of a float-to-integer conversion: the default
// truncates toward zero. PTX saturates to the destination's range, as the
// IR does; NaN becomes 0 only when the source is f32 and the destination
// narrower than 64 bits (see nanToZero).
var intRnd = [...]string{ir.RndDefault: "rzi", ir.RndRN: "rni", ir.RndRZ: "rzi", ir.RndRM: "rmi", ir.RndRP: "rpi"}

// aliasOf returns the operand whose register a result can share: pointer
// casts, address arithmetic with a zero offset, and bit casts and integer conversions that neither change the
// register class nor the canonical form of an 8-bit value. Nil otherwise.
func aliasOf(in *ir.Instr) *ir.Value {
	switch in.Op {
	case ir.OpPtrCast:
		return in.Args[0]
	case ir.OpPtrAdd, ir.OpIndex:
		if off := in.Args[1]; off.IsConst() && off.Bits == 0 {
			return in.Args[0]
		}
	case ir.OpBitcast, ir.OpCvt:
		from, to := in.Args[0].Type, in.Result().Type
		if in.Op == ir.OpCvt && (!from.IsInt() || !to.IsInt() || from.Bits() != to.Bits()) {
			return nil
		}
		if classOf(from) != classOf(to) {
			return nil
		}
		if from.Bits() == 8 && from.IsSigned() != to.IsSigned() {
			return nil
		}
		return in.Args[0]
	}
	return nil
}

// emitCvt writes the conversion of in.
func emitCvt(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if aliasOf(in) != nil {
		return
	}
	from, to := in.Args[0].Type, in.Result().Type
	d, a := e.op(in.Result()), e.op(in.Args[0])
	if int(in.Rnd) >= len(floatRnd) {
		e.fail(in, "unknown rounding mode %d", in.Rnd)
		return
	}
	fw, tw := from.Bits(), to.Bits()
	switch {
	case from.IsInt() && to.IsInt():
		switch {
		case fw == tw: // 8-bit, changing the canonical extension
			e.ins("cvt."+intOf(16, to.IsSigned())+"."+intOf(8, to.IsSigned()), d, a)
		case fw < tw: // extend by the source's signedness
			e.ins("cvt."+intOf(tw, from.IsSigned())+"."+intName(from), d, a)
		default: // truncate; 8-bit results are re-extended canonically
			e.ins("cvt."+intName(to)+"."+intOf(fw, to.IsSigned()), d, a)
		}
	case from.IsInt() && to.IsFloat():
		e.ins("cvt."+floatRnd[in.Rnd]+"."+typeName(to)+"."+intName(from), d, a)
	case from.IsFloat() && to.IsInt():
		e.ins("cvt."+intRnd[in.Rnd]+"."+intName(to)+"."+typeName(from), d, a)
		if nanToZero(from, to) {
			p := e.newReg(classPred)
			e.ins("setp.nan."+typeName(from), p, a, a)
			e.ins("selp."+bitsName(to), d, "0", d, p)
		}
	case from == ir.F32 && to == ir.F64:
		e.ins("cvt.f64.f32", d, a)
	case from == ir.F64 && to == ir.F32:
		e.ins("cvt."+floatRnd[in.Rnd]+".f32.f64", d, a)
	default:
		e.fail(in, "no PTX conversion from %s to %s", from, to)
	}
}

// nanToZero reports whether a float-to-integer cvt needs a fix-up so that
// NaN converts to 0, as the IR defines: PTX gives 0 only when the source
// is not .f64 and the destination is not 64-bit; otherwise NaN becomes
// 1 << (width-1), MININT for signed types (PTX ISA 9.1, 9.7.9.21, cvt
// Integer Notes).
func nanToZero(from, to ir.Type) bool { return from == ir.F64 || to.Bits() == 64 }

// emitBitcast writes mov.bN between register classes, or re-extends an
// 8-bit value whose signedness changes.
func emitBitcast(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if aliasOf(in) != nil {
		return
	}
	from, to := in.Args[0].Type, in.Result().Type
	d, a := e.op(in.Result()), e.op(in.Args[0])
	if from.Bits() == 8 {
		e.ins("cvt."+intOf(16, to.IsSigned())+"."+intOf(8, to.IsSigned()), d, a)
		return
	}
	e.ins("mov.b"+itoa(from.Bits()), d, a)
}
