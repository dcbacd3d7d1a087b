// This file implements the comparison and selection instructions (PTX
// ISA 9.7.5): setp with every comparison operator, its optional boolean
// combination with a third predicate and its second (negated) result,
// and selp. Integer comparisons are signed for .s types and unsigned for
// .u types and for lo, ls, hi, hs (PTX ISA 9.3.1.1); bit-size types
// compare only for equality. Float comparisons (PTX ISA 9.3.1.2) are
// false when either operand is NaN, the u forms true; num and nan test
// for NaN operands.

package ptxsim

// cmpOps lists the comparison operators.
var cmpOps = []string{"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
	"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}

// intCompare returns the comparison op on t-typed integers.
func intCompare(op string, t ptype) func(a, b uint64) bool {
	n, m := int(t.bits), t.mask()
	if t.kind == kS {
		s := func(v uint64) int64 { return int64(sext(v, n)) }
		switch op {
		case "lt":
			return func(a, b uint64) bool { return s(a) < s(b) }
		case "le":
			return func(a, b uint64) bool { return s(a) <= s(b) }
		case "gt":
			return func(a, b uint64) bool { return s(a) > s(b) }
		case "ge":
			return func(a, b uint64) bool { return s(a) >= s(b) }
		}
	}
	switch op {
	case "eq":
		return func(a, b uint64) bool { return a&m == b&m }
	case "ne":
		return func(a, b uint64) bool { return a&m != b&m }
	case "lt", "lo":
		return func(a, b uint64) bool { return a&m < b&m }
	case "le", "ls":
		return func(a, b uint64) bool { return a&m <= b&m }
	case "gt", "hi":
		return func(a, b uint64) bool { return a&m > b&m }
	case "ge", "hs":
		return func(a, b uint64) bool { return a&m >= b&m }
	}
	return nil
}

// floatCompare returns the comparison op on t-typed floats.
func floatCompare(op string, t ptype, ftz bool) func(a, b uint64) bool {
	val := func(v uint64) float64 { return f64(v) }
	if t == tF32 {
		val = func(v uint64) float64 { return float64(f32(v)) }
		if ftz {
			val = func(v uint64) float64 { return float64(flush32(f32(v))) }
		}
	}
	ordered := func(c func(x, y float64) bool, unordered bool) func(a, b uint64) bool {
		return func(a, b uint64) bool {
			x, y := val(a), val(b)
			if x != x || y != y {
				return unordered
			}
			return c(x, y)
		}
	}
	eq := func(x, y float64) bool { return x == y }
	ne := func(x, y float64) bool { return x != y }
	lt := func(x, y float64) bool { return x < y }
	le := func(x, y float64) bool { return x <= y }
	gt := func(x, y float64) bool { return x > y }
	ge := func(x, y float64) bool { return x >= y }
	switch op {
	case "eq":
		return ordered(eq, false)
	case "ne":
		return ordered(ne, false)
	case "lt":
		return ordered(lt, false)
	case "le":
		return ordered(le, false)
	case "gt":
		return ordered(gt, false)
	case "ge":
		return ordered(ge, false)
	case "equ":
		return ordered(eq, true)
	case "neu":
		return ordered(ne, true)
	case "ltu":
		return ordered(lt, true)
	case "leu":
		return ordered(le, true)
	case "gtu":
		return ordered(gt, true)
	case "geu":
		return ordered(ge, true)
	case "num":
		return func(a, b uint64) bool { x, y := val(a), val(b); return x == x && y == y }
	case "nan":
		return func(a, b uint64) bool { x, y := val(a), val(b); return x != x || y != y }
	}
	return nil
}

// Boolean operations of setp.
const (
	boolNone uint8 = iota
	boolAnd
	boolOr
	boolXor
)

// boolOps maps setp's boolean modifiers to their codes.
var boolOps = map[string]uint8{"and": boolAnd, "or": boolOr, "xor": boolXor}

// decodeSetp decodes setp (PTX ISA 9.7.5.2).
func decodeSetp(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := ms.oneOf(cmpOps...)
	if op == "" {
		return d.errf("%s needs a comparison operator", s.opcode)
	}
	in.op2 = ms.code(boolOps)
	in.ftz = ms.has("ftz")
	hf := halfType(ms)
	t := tB16
	var err error
	if hf == 0 {
		if t, err = ms.oneType(d, s.opcode); err != nil {
			return err
		}
	}
	var cmp func(a, b uint64) bool
	switch {
	case hf != 0:
		if in.ftz {
			return d.errf("setp.ftz applies to .f32 only")
		}
		cmp = halfCompare(op, hf)
	case t.kind == kF:
		if in.ftz && t != tF32 {
			return d.errf("setp.ftz applies to .f32 only")
		}
		cmp = floatCompare(op, t, in.ftz)
	case t.kind == kB && op != "eq" && op != "ne":
		return d.errf("bit-size types compare only with eq and ne, not %s", op)
	case t.isInt() && t.bits >= 16:
		if in.ftz {
			return d.errf("setp.ftz applies to .f32 only")
		}
		cmp = intCompare(op, t)
	default:
		return d.errf("setp does not take .%s", t)
	}
	if cmp == nil {
		return d.errf("comparison %s does not apply to .%s", op, t)
	}
	want := 3
	if in.op2 != boolNone {
		want = 4
	}
	if err := d.nops(s, want); err != nil {
		return err
	}
	in.t, in.nd, in.na = t, 1, 2
	in.d[1] = -1
	dp := s.ops[0]
	pair := dp.pair
	dp.pair = ""
	if in.d[0], _, err = d.predDef(dp); err != nil {
		return err
	}
	in.pdst = 1
	if pair != "" {
		if in.d[1], _, err = d.predDef(rawOp{kind: opReg, name: pair}); err != nil {
			return err
		}
		in.nd, in.pdst = 2, 3
	}
	for i := range 2 {
		if in.a[i], err = d.src(s.ops[1+i], t, false); err != nil {
			return err
		}
	}
	if in.op2 != boolNone {
		if in.a[2], in.negc, err = d.pred(s.ops[3]); err != nil {
			return err
		}
		in.na = 3
	}
	in.exec = func(w *warp, in *inst, m uint32) {
		a, b := w.r(in.a[0]), w.r(in.a[1])
		var t uint32
		for mm := m; mm != 0; mm &= mm - 1 {
			l := lowLane(mm)
			if cmp(a[l], b[l]) {
				t |= 1 << uint(l)
			}
		}
		p, q := t, ^t
		if in.op2 != boolNone {
			c := w.preds[in.a[2]]
			if in.negc {
				c = ^c
			}
			p, q = boolOp(in.op2, t, c), boolOp(in.op2, ^t, c)
		}
		w.preds[in.d[0]] = w.preds[in.d[0]]&^m | p&m
		if in.d[1] >= 0 {
			w.preds[in.d[1]] = w.preds[in.d[1]]&^m | q&m
		}
	}
	return nil
}

func boolOp(op uint8, a, b uint32) uint32 {
	switch op {
	case boolAnd:
		return a & b
	case boolOr:
		return a | b
	}
	return a ^ b
}

// decodeSelp decodes selp (PTX ISA 9.7.5.3): d = c ? a : b.
func decodeSelp(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t.kind == kPred || t.bits < 16 {
		return d.errf("selp does not take .%s", t)
	}
	if err := d.nops(s, 4); err != nil {
		return err
	}
	if in.d[0], in.dbits, err = d.dst(s.ops[0], t, false); err != nil {
		return err
	}
	for i := range 2 {
		if in.a[i], err = d.src(s.ops[1+i], t, false); err != nil {
			return err
		}
	}
	var neg bool
	if in.a[2], neg, err = d.pred(s.ops[3]); err != nil {
		return err
	}
	if neg {
		return d.errf("selp's predicate cannot be negated")
	}
	in.t, in.nd, in.na = t, 1, 3
	in.exec = func(w *warp, in *inst, m uint32) {
		dd, a, b := w.r(in.d[0]), w.r(in.a[0]), w.r(in.a[1])
		c := w.preds[in.a[2]]
		for ; m != 0; m &= m - 1 {
			l := lowLane(m)
			if c&(1<<uint(l)) != 0 {
				dd[l] = a[l]
			} else {
				dd[l] = b[l]
			}
		}
	}
	return nil
}
