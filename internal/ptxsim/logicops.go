// This file implements the logic and shift instructions (PTX ISA 9.7.7):
// and, or, xor, not and cnot on predicates and bit-size types, shl and
// shr. A shift amount is an unsigned 32-bit value; amounts of the type's
// width or more shift everything out (shl, shr.u, shr.b give 0, shr.s
// gives the sign in every bit).

package ptxsim

// decodeLogic decodes and, or, xor, not and cnot (PTX ISA 9.7.7.1 -
// 9.7.7.5).
func decodeLogic(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := opBase(s.opcode)
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	n := 2
	if op == "not" || op == "cnot" {
		n = 1
	}
	if t.kind == kPred {
		if op == "cnot" {
			return d.errf("cnot does not take .pred")
		}
		return d.predLogic(s, in, op, n)
	}
	if t.kind != kB || t.bits < 16 {
		return d.errf("%s takes .pred or .b16, .b32, .b64, not .%s", op, t)
	}
	if err := d.alu(s, in, t, n); err != nil {
		return err
	}
	m := t.mask()
	switch op {
	case "and":
		in.exec, in.f2 = execBinary, func(a, b uint64) uint64 { return a & b }
	case "or":
		in.exec, in.f2 = execBinary, func(a, b uint64) uint64 { return a | b }
	case "xor":
		in.exec, in.f2 = execBinary, func(a, b uint64) uint64 { return a ^ b }
	case "not":
		in.exec, in.f1 = execUnary, func(a uint64) uint64 { return ^a & m }
	default:
		in.exec, in.f1 = execUnary, func(a uint64) uint64 {
			if a&m == 0 {
				return 1
			}
			return 0
		}
	}
	return nil
}

// predLogic decodes and, or, xor, not on predicates: bitwise on the
// lanes' predicate masks.
func (d *decoder) predLogic(s *rawStmt, in *inst, op string, n int) error {
	if err := d.nops(s, n+1); err != nil {
		return err
	}
	var err error
	if in.d[0], _, err = d.predDef(s.ops[0]); err != nil {
		return err
	}
	in.pdst = 1
	for i := range n {
		var neg bool
		if in.a[i], neg, err = d.pred(s.ops[1+i]); err != nil {
			return err
		}
		if neg {
			return d.errf("%s: a source predicate cannot be negated", s.opcode)
		}
	}
	in.t, in.nd, in.na = tPred, 1, uint8(n)
	var f func(a, b uint32) uint32
	switch op {
	case "and":
		f = func(a, b uint32) uint32 { return a & b }
	case "or":
		f = func(a, b uint32) uint32 { return a | b }
	case "xor":
		f = func(a, b uint32) uint32 { return a ^ b }
	default:
		f = func(a, _ uint32) uint32 { return ^a }
	}
	in.exec = func(w *warp, in *inst, m uint32) {
		b := uint32(0)
		if in.na > 1 {
			b = w.preds[in.a[1]]
		}
		r := f(w.preds[in.a[0]], b)
		w.preds[in.d[0]] = w.preds[in.d[0]]&^m | r&m
	}
	return nil
}

// decodeShift decodes shl and shr (PTX ISA 9.7.7.8, 9.7.7.9).
func decodeShift(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := opBase(s.opcode)
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if !t.isInt() || t.bits < 16 || op == "shl" && t.kind != kB {
		return d.errf("%s does not take .%s", op, t)
	}
	if err := d.nops(s, 3); err != nil {
		return err
	}
	if in.d[0], in.dbits, err = d.dst(s.ops[0], t, false); err != nil {
		return err
	}
	if in.a[0], err = d.src(s.ops[1], t, false); err != nil {
		return err
	}
	if in.a[1], err = d.src(s.ops[2], tU32, false); err != nil {
		return err
	}
	in.t, in.nd, in.na, in.exec = t, 1, 2, execBinary
	n, m := uint64(t.bits), t.mask()
	switch {
	case op == "shl":
		in.f2 = func(a, b uint64) uint64 {
			if b&0xffffffff >= n {
				return 0
			}
			return a << b & m
		}
	case t.kind == kS:
		in.f2 = func(a, b uint64) uint64 {
			sh := min(b&0xffffffff, n-1)
			return uint64(int64(sext(a, int(n)))>>sh) & m
		}
	default:
		in.f2 = func(a, b uint64) uint64 {
			if b&0xffffffff >= n {
				return 0
			}
			return (a & m) >> b
		}
	}
	return nil
}
