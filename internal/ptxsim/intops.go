// This file implements the integer arithmetic instructions (PTX ISA
// 9.7.1): add, sub, mul, mad (.lo, .hi, .wide, .sat), div, rem, abs, neg,
// min, max, popc, clz, brev. Results wrap around at the type's width
// unless .sat clamps them; division and remainder truncate toward zero,
// the remainder taking the dividend's sign (as C does); division by zero,
// whose result PTX leaves unspecified, is a fault.

package ptxsim

import (
	"fmt"
	"math"
	"math/bits"
)

// alu decodes "d, a[, b[, c]]" with every operand of type t (n sources).
func (d *decoder) alu(s *rawStmt, in *inst, t ptype, n int) error {
	if err := d.nops(s, n+1); err != nil {
		return err
	}
	var err error
	if in.d[0], in.dbits, err = d.dst(s.ops[0], t, false); err != nil {
		return err
	}
	in.nd, in.na, in.t = 1, uint8(n), t
	for i := range n {
		if in.a[i], err = d.src(s.ops[1+i], t, false); err != nil {
			return err
		}
	}
	return nil
}

// intArith is an integer add, sub or the low half of mul.
func intArith(op string, t ptype) func(a, b uint64) uint64 {
	m := t.mask()
	switch op {
	case "add":
		return func(a, b uint64) uint64 { return (a + b) & m }
	case "sub":
		return func(a, b uint64) uint64 { return (a - b) & m }
	}
	return func(a, b uint64) uint64 { return (a * b) & m }
}

// satS32 clamps v to the s32 range.
func satS32(v int64) uint64 {
	return uint64(uint32(int32(max(math.MinInt32, min(math.MaxInt32, v)))))
}

// decodeAddSub decodes add and sub (PTX ISA 9.7.1.1, 9.7.1.2, 9.7.3.3,
// 9.7.3.4).
func decodeAddSub(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := opBase(s.opcode)
	if ok, err := decodeHalfArith(d, s, ms, in, op); ok {
		return err
	}
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t.isFloat() {
		return decodeFloatArith(d, s, ms, in, t, op)
	}
	if t.kind != kU && t.kind != kS || t.bits < 16 {
		return d.errf("%s does not take .%s", op, t)
	}
	in.sat = ms.has("sat")
	if in.sat && t != tS32 {
		return d.errf("%s.sat applies only to .s32", op)
	}
	if err := d.alu(s, in, t, 2); err != nil {
		return err
	}
	in.exec = execBinary
	in.f2 = intArith(op, t)
	if in.sat {
		if op == "add" {
			in.f2 = func(a, b uint64) uint64 { return satS32(int64(int32(a)) + int64(int32(b))) }
		} else {
			in.f2 = func(a, b uint64) uint64 { return satS32(int64(int32(a)) - int64(int32(b))) }
		}
	}
	return nil
}

// mulHi returns the high half of the 2n-bit product of n-bit a and b.
func mulHi(a, b uint64, n int, signed bool) uint64 {
	if n == 64 {
		hi, _ := bits.Mul64(a, b)
		if signed {
			if int64(a) < 0 {
				hi -= b
			}
			if int64(b) < 0 {
				hi -= a
			}
		}
		return hi
	}
	if signed {
		p := int64(sext(a, n)) * int64(sext(b, n))
		return uint64(p>>uint(n)) & widthMask(n)
	}
	return (a & widthMask(n)) * (b & widthMask(n)) >> uint(n)
}

// mulWide returns the 2n-bit product of n-bit a and b.
func mulWide(a, b uint64, n int, signed bool) uint64 {
	if signed {
		return uint64(int64(sext(a, n))*int64(sext(b, n))) & widthMask(2*n)
	}
	return (a & widthMask(n)) * (b & widthMask(n))
}

// decodeMul decodes mul (PTX ISA 9.7.1.3, 9.7.3.5).
func decodeMul(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if ok, err := decodeHalfArith(d, s, ms, in, "mul"); ok {
		return err
	}
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t.isFloat() {
		return decodeFloatArith(d, s, ms, in, t, "mul")
	}
	if t.kind != kU && t.kind != kS || t.bits < 16 {
		return d.errf("mul does not take .%s", t)
	}
	mode := ms.oneOf("lo", "hi", "wide")
	n, sg := int(t.bits), t.signed()
	in.exec = execBinary
	switch mode {
	case "lo":
		err = d.alu(s, in, t, 2)
		in.f2 = intArith("mul", t)
	case "hi":
		err = d.alu(s, in, t, 2)
		in.f2 = func(a, b uint64) uint64 { return mulHi(a, b, n, sg) }
	case "wide":
		if n > 32 {
			return d.errf("mul.wide takes 16- and 32-bit operands")
		}
		err = d.wide(s, in, t, 2)
		in.f2 = func(a, b uint64) uint64 { return mulWide(a, b, n, sg) }
	default:
		return d.errf("integer mul needs .lo, .hi or .wide")
	}
	return err
}

// wide decodes "d, a, b[, c]" where d (and c) are twice as wide as t.
func (d *decoder) wide(s *rawStmt, in *inst, t ptype, n int) error {
	if err := d.nops(s, n+1); err != nil {
		return err
	}
	w := ptype{t.kind, t.bits * 2}
	var err error
	if in.d[0], in.dbits, err = d.dst(s.ops[0], w, false); err != nil {
		return err
	}
	in.nd, in.na, in.t = 1, uint8(n), t
	for i := range n {
		st := t
		if i == 2 {
			st = w
		}
		if in.a[i], err = d.src(s.ops[1+i], st, false); err != nil {
			return err
		}
	}
	return nil
}

// decodeMad decodes mad (PTX ISA 9.7.1.4, 9.7.3.7).
func decodeMad(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t.isFloat() {
		return decodeFMA(d, s, ms, in, t)
	}
	if t.kind != kU && t.kind != kS || t.bits < 16 {
		return d.errf("mad does not take .%s", t)
	}
	mode := ms.oneOf("lo", "hi", "wide")
	in.sat = ms.has("sat")
	if in.sat && (mode != "hi" || t != tS32) {
		return d.errf("mad.sat applies only to mad.hi.s32")
	}
	n, sg, m := int(t.bits), t.signed(), t.mask()
	in.exec = execTernary
	switch mode {
	case "lo":
		err = d.alu(s, in, t, 3)
		in.f3 = func(a, b, c uint64) uint64 { return (a*b + c) & m }
	case "hi":
		err = d.alu(s, in, t, 3)
		in.f3 = func(a, b, c uint64) uint64 { return (mulHi(a, b, n, sg) + c) & m }
		if in.sat {
			in.f3 = func(a, b, c uint64) uint64 {
				return satS32(int64(int32(mulHi(a, b, 32, true))) + int64(int32(c)))
			}
		}
	case "wide":
		if n > 32 {
			return d.errf("mad.wide takes 16- and 32-bit operands")
		}
		err = d.wide(s, in, t, 3)
		wm := widthMask(2 * n)
		in.f3 = func(a, b, c uint64) uint64 { return (mulWide(a, b, n, sg) + c) & wm }
	default:
		return d.errf("integer mad needs .lo, .hi or .wide")
	}
	return err
}

// decodeDivRem decodes div and rem (PTX ISA 9.7.1.8, 9.7.1.9, 9.7.3.8).
func decodeDivRem(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := opBase(s.opcode)
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t.isFloat() {
		if op == "rem" {
			return d.errf("rem takes integer types only")
		}
		return decodeFloatDiv(d, s, ms, in, t)
	}
	if t.kind != kU && t.kind != kS || t.bits < 16 {
		return d.errf("%s does not take .%s", op, t)
	}
	if err := d.alu(s, in, t, 2); err != nil {
		return err
	}
	in.op = 0
	if op == "rem" {
		in.op = 1
	}
	in.exec = execIntDiv
	return nil
}

// execIntDiv divides (op 0) or takes the remainder (op 1), truncating
// toward zero. MinInt / -1 wraps to MinInt with remainder 0.
func execIntDiv(w *warp, in *inst, m uint32) {
	dd, a, b := w.r(in.d[0]), w.r(in.a[0]), w.r(in.a[1])
	n, mask := int(in.t.bits), in.t.mask()
	for ; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		x, y := a[l]&mask, b[l]&mask
		if y == 0 {
			w.fail(in, l, FaultUndefined, fmt.Sprintf("integer division of %d by zero: PTX leaves the result unspecified (PTX ISA 9.7.1.8)", x))
			return
		}
		var r uint64
		if in.t.signed() {
			sx, sy := int64(sext(x, n)), int64(sext(y, n))
			if in.op == 0 {
				r = uint64(sx / sy)
			} else {
				r = uint64(sx % sy)
			}
		} else if in.op == 0 {
			r = x / y
		} else {
			r = x % y
		}
		dd[l] = r & mask
	}
}

// decodeAbsNeg decodes abs and neg (PTX ISA 9.7.1.10, 9.7.1.11, 9.7.3.9,
// 9.7.3.10).
func decodeAbsNeg(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := opBase(s.opcode)
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t.isFloat() {
		return decodeFloatUnary(d, s, ms, in, t, op)
	}
	if t.kind != kS || t.bits < 16 {
		return d.errf("%s takes signed integer or float types, not .%s", op, t)
	}
	if err := d.alu(s, in, t, 1); err != nil {
		return err
	}
	n, m := int(t.bits), t.mask()
	in.exec = execUnary
	if op == "neg" {
		in.f1 = func(a uint64) uint64 { return -a & m }
	} else {
		in.f1 = func(a uint64) uint64 {
			if int64(sext(a, n)) < 0 {
				return -a & m
			}
			return a & m
		}
	}
	return nil
}

// decodeMinMax decodes min and max (PTX ISA 9.7.1.12, 9.7.1.13, 9.7.3.11,
// 9.7.3.12).
func decodeMinMax(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := opBase(s.opcode)
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t.isFloat() {
		return decodeFloatMinMax(d, s, ms, in, t, op == "min")
	}
	if t.kind != kU && t.kind != kS || t.bits < 16 {
		return d.errf("%s does not take .%s", op, t)
	}
	if err := d.alu(s, in, t, 2); err != nil {
		return err
	}
	n, isMin := int(t.bits), op == "min"
	in.exec = execBinary
	if t.signed() {
		in.f2 = func(a, b uint64) uint64 {
			if (int64(sext(a, n)) < int64(sext(b, n))) == isMin {
				return a
			}
			return b
		}
	} else {
		in.f2 = func(a, b uint64) uint64 {
			if (a < b) == isMin {
				return a
			}
			return b
		}
	}
	return nil
}

// decodeBitCount decodes popc, clz and brev (PTX ISA 9.7.1.14, 9.7.1.15,
// 9.7.1.18): popc and clz write a .u32 count.
func decodeBitCount(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t != tB32 && t != tB64 {
		return d.errf("%s takes .b32 or .b64, not .%s", s.opcode, t)
	}
	if err := d.nops(s, 2); err != nil {
		return err
	}
	dt := tU32
	if opBase(s.opcode) == "brev" {
		dt = t
	}
	if in.d[0], in.dbits, err = d.dst(s.ops[0], dt, false); err != nil {
		return err
	}
	if in.a[0], err = d.src(s.ops[1], t, false); err != nil {
		return err
	}
	in.nd, in.na, in.t, in.exec = 1, 1, t, execUnary
	n := int(t.bits)
	switch opBase(s.opcode) {
	case "popc":
		in.f1 = func(a uint64) uint64 { return uint64(bits.OnesCount64(a & widthMask(n))) }
	case "brev":
		in.f1 = func(a uint64) uint64 { return bits.Reverse64(a) >> uint(64-n) }
	default:
		in.f1 = func(a uint64) uint64 {
			if n == 32 {
				return uint64(bits.LeadingZeros32(uint32(a)))
			}
			return uint64(bits.LeadingZeros64(a))
		}
	}
	return nil
}
