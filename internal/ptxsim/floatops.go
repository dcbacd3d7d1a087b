// This file implements the floating-point instructions (PTX ISA 9.7.3):
// add, sub, mul, fma/mad, div (.rnd, .full, .approx), abs, neg, min, max
// (.NaN), rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, testp and copysign,
// in f32 and f64, with the rounding modes, .ftz (subnormal inputs and
// results flushed to a zero of the same sign) and .sat (results clamped
// to [0, 1], NaN to +0). The .approx instructions are computed to nearly
// full precision, well inside the error bounds the ISA documents; the
// tests check the bounds, not the exact values.

package ptxsim

import (
	"math"
)

// floatRnds maps the floating-point rounding modifiers to their codes.
var floatRnds = map[string]uint8{"rn": rndRN, "rz": rndRZ, "rm": rndRM, "rp": rndRP}

// rndOf consumes a rounding modifier; def is the default when absent.
func rndOf(ms *modset, def uint8) uint8 {
	if r := ms.code(floatRnds); r != 0 {
		return r
	}
	return def
}

// floatMods consumes .ftz and .sat, which only f32 takes.
func (d *decoder) floatMods(ms *modset, in *inst, t ptype, ftzOK, satOK bool) error {
	in.ftz = ms.has("ftz")
	in.sat = ms.has("sat")
	if t == tF64 && (in.ftz || in.sat) {
		return d.errf("%s: .ftz and .sat apply only to .f32", d.cur.opcode)
	}
	if in.ftz && !ftzOK || in.sat && !satOK {
		return d.errf("%s: modifier not allowed here", d.cur.opcode)
	}
	return nil
}

// floatALU checks the .ftz and .sat of a float instruction of type t
// (floatMods, .ftz allowed) and decodes its destination and n sources
// (alu).
func (d *decoder) floatALU(s *rawStmt, ms *modset, in *inst, t ptype, n int, satOK bool) error {
	if err := d.floatMods(ms, in, t, true, satOK); err != nil {
		return err
	}
	return d.alu(s, in, t, n)
}

// wrap32 applies .ftz to the inputs and result and .sat to the result of
// an f32 operation.
func wrap32(f func(x, y, z float32) float32, ftz, sat bool) func(x, y, z float32) float32 {
	switch {
	case ftz && sat:
		return func(x, y, z float32) float32 {
			return float32(sat01(float64(flush32(f(flush32(x), flush32(y), flush32(z))))))
		}
	case ftz:
		return func(x, y, z float32) float32 { return flush32(f(flush32(x), flush32(y), flush32(z))) }
	case sat:
		return func(x, y, z float32) float32 { return float32(sat01(float64(f(x, y, z)))) }
	}
	return f
}

// decodeFloatArith decodes add, sub and mul on floats (PTX ISA 9.7.3.3 -
// 9.7.3.5): round to nearest even by default.
func decodeFloatArith(d *decoder, s *rawStmt, ms *modset, in *inst, t ptype, op string) error {
	in.rnd = rndOf(ms, rndRN)
	if err := d.floatALU(s, ms, in, t, 2, true); err != nil {
		return err
	}
	in.exec = execBinary
	rnd := in.rnd
	if t == tF64 {
		switch op {
		case "add":
			in.f2 = func(a, b uint64) uint64 {
				x, y := f64(a), f64(b)
				r := x + y
				return b64(exactZero(round64(r, rnd, errAdd(x, y, r)), x, y, rnd))
			}
		case "sub":
			in.f2 = func(a, b uint64) uint64 {
				x, y := f64(a), f64(b)
				r := x - y
				return b64(exactZero(round64(r, rnd, errAdd(x, -y, r)), x, -y, rnd))
			}
		default:
			in.f2 = func(a, b uint64) uint64 {
				x, y := f64(a), f64(b)
				r := x * y
				return b64(round64(r, rnd, errMul(x, y, r)))
			}
		}
		return nil
	}
	var f func(x, y, _ float32) float32
	switch {
	case op == "add" && rnd == rndRN:
		f = func(x, y, _ float32) float32 { return x + y }
	case op == "sub" && rnd == rndRN:
		f = func(x, y, _ float32) float32 { return x - y }
	case op == "mul" && rnd == rndRN:
		f = func(x, y, _ float32) float32 { return x * y }
	case op == "add":
		f = func(x, y, _ float32) float32 {
			h, e := add32(x, y)
			return float32(exactZero(float64(round32(h, e, rnd)), float64(x), float64(y), rnd))
		}
	case op == "sub":
		f = func(x, y, _ float32) float32 {
			h, e := add32(x, -y)
			return float32(exactZero(float64(round32(h, e, rnd)), float64(x), -float64(y), rnd))
		}
	default:
		f = func(x, y, _ float32) float32 { h, e := mul32(x, y); return round32(h, e, rnd) }
	}
	if !in.ftz && !in.sat {
		switch {
		case op == "add" && rnd == rndRN:
			in.f2 = func(a, b uint64) uint64 { return b32(f32(a) + f32(b)) }
		case op == "mul" && rnd == rndRN:
			in.f2 = func(a, b uint64) uint64 { return b32(f32(a) * f32(b)) }
		default:
			in.f2 = func(a, b uint64) uint64 { return b32(f(f32(a), f32(b), 0)) }
		}
		return nil
	}
	g := wrap32(f, in.ftz, in.sat)
	in.f2 = func(a, b uint64) uint64 { return b32(g(f32(a), f32(b), 0)) }
	return nil
}

// decodeFMA decodes fma and float mad (PTX ISA 9.7.3.6, 9.7.3.7): one
// rounding of the exact a*b+c; the rounding modifier is required.
func decodeFMA(d *decoder, s *rawStmt, ms *modset, in *inst, t ptype) error {
	if !t.isFloat() {
		return d.errf("fma takes .f32 or .f64, not .%s", t)
	}
	in.rnd = rndOf(ms, rndNone)
	if in.rnd == rndNone {
		return d.errf("%s needs a rounding modifier (.rn, .rz, .rm, .rp)", s.opcode)
	}
	if err := d.floatALU(s, ms, in, t, 3, true); err != nil {
		return err
	}
	in.exec = execTernary
	rnd := in.rnd
	if t == tF64 {
		in.f3 = func(a, b, c uint64) uint64 {
			x, y, z := f64(a), f64(b), f64(c)
			r := math.FMA(x, y, z)
			return b64(exactZero(round64(r, rnd, errFMA(x, y, z, r)), x*y, z, rnd))
		}
		return nil
	}
	g := wrap32(func(x, y, z float32) float32 {
		h, e := fma32(x, y, z)
		return float32(exactZero(float64(round32(h, e, rnd)), float64(x)*float64(y), float64(z), rnd))
	}, in.ftz, in.sat)
	in.f3 = func(a, b, c uint64) uint64 { return b32(g(f32(a), f32(b), f32(c))) }
	return nil
}

// decodeFloatDiv decodes float div (PTX ISA 9.7.3.8): .rnd correctly
// rounded; .full within 2 ulp over the full range and .approx (a * 1/b)
// within 2 ulp for |b| in [2^-126, 2^126], both flushing subnormal inputs
// and results, division by zero giving an infinity of a's sign.
func decodeFloatDiv(d *decoder, s *rawStmt, ms *modset, in *inst, t ptype) error {
	kind := ms.oneOf("approx", "full")
	in.rnd = rndOf(ms, rndNone)
	if (kind == "") == (in.rnd == rndNone) {
		return d.errf("float div needs exactly one of .approx, .full or a rounding modifier")
	}
	if kind != "" && t != tF32 {
		return d.errf("div.%s takes .f32 only", kind)
	}
	if err := d.floatALU(s, ms, in, t, 2, false); err != nil {
		return err
	}
	in.exec = execBinary
	rnd := in.rnd
	switch {
	case t == tF64:
		in.f2 = func(a, b uint64) uint64 {
			x, y := f64(a), f64(b)
			q := x / y
			return b64(round64(q, rnd, errDiv(x, y, q)))
		}
	case kind == "full":
		in.f2 = func(a, b uint64) uint64 { return b32(fastDiv(f32(a), f32(b), false)) }
	case kind == "approx":
		in.f2 = func(a, b uint64) uint64 { return b32(fastDiv(f32(a), f32(b), true)) }
	default:
		g := wrap32(func(x, y, _ float32) float32 {
			if rnd == rndRN {
				return x / y
			}
			h, e := div32(x, y)
			return round32(h, e, rnd)
		}, in.ftz, false)
		in.f2 = func(a, b uint64) uint64 { return b32(g(f32(a), f32(b), 0)) }
	}
	return nil
}

// fastDiv is div.full.f32 and div.approx.f32: subnormals flushed, a
// nonzero a over zero an infinity of a's sign, and for approx a * (1/b)
// with 1/b flushed to zero when |b| > 2^126.
func fastDiv(x, y float32, approx bool) float32 {
	x, y = flush32(x), flush32(y)
	if y == 0 && x != 0 && x == x {
		return float32(math.Copysign(math.Inf(1), float64(x)))
	}
	if !approx {
		return flush32(x / y)
	}
	r := 1 / y
	if math.Abs(float64(y)) > 0x1p126 {
		r = float32(math.Copysign(0, float64(r)))
	}
	return flush32(x * r)
}

// decodeFloatUnary decodes abs and neg on floats (PTX ISA 9.7.3.9,
// 9.7.3.10): only the sign bit changes (a NaN stays a NaN).
func decodeFloatUnary(d *decoder, s *rawStmt, ms *modset, in *inst, t ptype, op string) error {
	if err := d.floatALU(s, ms, in, t, 1, false); err != nil {
		return err
	}
	in.exec = execUnary
	signBit := uint64(1) << (t.bits - 1)
	ftz := in.ftz
	switch {
	case op == "neg" && ftz:
		in.f1 = func(a uint64) uint64 { return b32(-flush32(f32(a))) }
	case op == "abs" && ftz:
		in.f1 = func(a uint64) uint64 { return b32(flush32(f32(a))) &^ signBit }
	case op == "neg":
		in.f1 = func(a uint64) uint64 { return a ^ signBit }
	default:
		in.f1 = func(a uint64) uint64 { return a &^ signBit }
	}
	return nil
}

// decodeFloatMinMax decodes min and max on floats (PTX ISA 9.7.3.11,
// 9.7.3.12): a NaN operand yields the other operand, two NaNs a NaN, and
// .NaN makes any NaN operand give the canonical NaN; of two zeros +0.0 is
// the greater.
func decodeFloatMinMax(d *decoder, s *rawStmt, ms *modset, in *inst, t ptype, isMin bool) error {
	nan := ms.has("NaN")
	if ms.has("xorsign") || ms.has("abs") {
		return d.errf("%s: .xorsign.abs is not supported", s.opcode)
	}
	if nan && t != tF32 {
		return d.errf("%s: .NaN applies to .f32 only", s.opcode)
	}
	if err := d.floatALU(s, ms, in, t, 2, false); err != nil {
		return err
	}
	in.exec = execBinary
	ftz := in.ftz
	pick := func(x, y float64, xb, yb uint64) uint64 {
		xn, yn := x != x, y != y
		switch {
		case xn && yn || nan && (xn || yn):
			if t == tF32 {
				return 0x7fffffff
			}
			return 0x7fffffffffffffff
		case xn:
			return yb
		case yn:
			return xb
		case x == 0 && y == 0:
			// Of two zeros +0.0 is the greater: min(+0, -0) = -0.
			if math.Signbit(x) == isMin {
				return xb
			}
			return yb
		case (x < y) == isMin:
			return xb
		}
		return yb
	}
	if t == tF64 {
		in.f2 = func(a, b uint64) uint64 { return pick(f64(a), f64(b), a, b) }
		return nil
	}
	in.f2 = func(a, b uint64) uint64 {
		x, y := f32(a), f32(b)
		if ftz {
			x, y = flush32(x), flush32(y)
			a, b = b32(x), b32(y)
		}
		return pick(float64(x), float64(y), a, b)
	}
	return nil
}

// approx32 are the f32 approximations (PTX ISA 9.7.3.13 - 9.7.3.22) as
// functions of float64, with the special values of the ISA's tables where
// plain math differs.
var approx32 = map[string]func(x float64) float64{
	"rcp":   func(x float64) float64 { return 1 / x },
	"sqrt":  math.Sqrt,
	"rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
	"sin":   math.Sin,
	"cos":   math.Cos,
	"lg2":   math.Log2,
	"ex2":   math.Exp2,
	"tanh":  math.Tanh,
}

// decodeMathFn decodes rcp, sqrt, rsqrt, sin, cos, lg2, ex2 and tanh.
func decodeMathFn(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := opBase(s.opcode)
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if !t.isFloat() {
		return d.errf("%s takes float types, not .%s", op, t)
	}
	approx := ms.has("approx")
	in.rnd = rndOf(ms, rndNone)
	switch {
	case approx && in.rnd != rndNone:
		return d.errf("%s: .approx and a rounding modifier exclude each other", s.opcode)
	case (op == "rcp" || op == "sqrt") && !approx && in.rnd == rndNone:
		return d.errf("%s needs .approx or a rounding modifier", s.opcode)
	case op != "rcp" && op != "sqrt" && !approx:
		return d.errf("%s needs .approx", s.opcode)
	case t == tF64 && approx && op != "rsqrt" && op != "rcp":
		return d.errf("%s.approx takes .f32 only", op)
	}
	if t == tF64 && approx {
		in.ftz = ms.has("ftz") // rcp.approx.ftz.f64, rsqrt.approx.ftz.f64
	} else if err := d.floatMods(ms, in, t, op != "tanh", false); err != nil {
		return err
	}
	if err := d.alu(s, in, t, 1); err != nil {
		return err
	}
	in.exec = execUnary
	rnd, ftz := in.rnd, in.ftz
	switch {
	case t == tF64 && approx && op == "rcp":
		if !ftz {
			return d.errf("rcp.approx.f64 needs .ftz")
		}
		in.f1 = func(a uint64) uint64 { return grossF64(a, func(x float64) float64 { return 1 / x }) }
	case t == tF64 && approx:
		if ftz {
			in.f1 = func(a uint64) uint64 { return grossF64(a, func(x float64) float64 { return 1 / math.Sqrt(x) }) }
		} else {
			in.f1 = func(a uint64) uint64 { return b64(1 / math.Sqrt(f64(a))) }
		}
	case t == tF64 && op == "rcp":
		in.f1 = func(a uint64) uint64 {
			x := f64(a)
			q := 1 / x
			return b64(round64(q, rnd, errDiv(1, x, q)))
		}
	case t == tF64:
		in.f1 = func(a uint64) uint64 {
			x := f64(a)
			r := math.Sqrt(x)
			return b64(round64(r, rnd, errSqrt(x, r)))
		}
	case !approx && op == "rcp":
		g := wrap32(func(x, _, _ float32) float32 { h, e := div32(1, x); return round32(h, e, rnd) }, ftz, false)
		in.f1 = func(a uint64) uint64 { return b32(g(f32(a), 0, 0)) }
	case !approx:
		g := wrap32(func(x, _, _ float32) float32 { h, e := sqrt32(x); return round32(h, e, rnd) }, ftz, false)
		in.f1 = func(a uint64) uint64 { return b32(g(f32(a), 0, 0)) }
	default:
		fn := approx32[op]
		in.f1 = func(a uint64) uint64 {
			x := f32(a)
			sub := x != 0 && math.Abs(float64(x)) < 0x1p-126
			if sub && op == "tanh" {
				return a // subnormals pass through (PTX ISA 9.7.3.22)
			}
			if sub && (ftz || op != "ex2") {
				// The ISA's tables give the results of subnormal inputs
				// as those of a zero of the same sign.
				x = flush32(x)
			}
			r := float32(fn(float64(x)))
			if ftz {
				r = flush32(r)
			}
			return b32(r)
		}
	}
	return nil
}

// grossF64 computes the .f64 approximations that work on the upper 32
// bits of the operand and clear the lower 32 bits of the result
// (rcp.approx.ftz.f64, rsqrt.approx.ftz.f64: PTX ISA 9.7.3.14, 9.7.3.17).
func grossF64(a uint64, f func(float64) float64) uint64 {
	x := math.Float64frombits(a &^ 0xffffffff)
	if x != 0 && math.Abs(x) < 0x1p-1022 {
		x = math.Copysign(0, x)
	}
	r := f(x)
	if r != r {
		return 0x7fffffff00000000
	}
	if r != 0 && math.Abs(r) < 0x1p-1022 {
		r = math.Copysign(0, r)
	}
	return b64(r) &^ 0xffffffff
}

// decodeTestp decodes testp (PTX ISA 9.7.3.1).
func decodeTestp(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	op := ms.oneOf("finite", "infinite", "number", "notanumber", "normal", "subnormal")
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if op == "" || !t.isFloat() {
		return d.errf("testp needs a test and .f32 or .f64")
	}
	if err := d.nops(s, 2); err != nil {
		return err
	}
	if in.d[0], _, err = d.predDef(s.ops[0]); err != nil {
		return err
	}
	in.pdst = 1
	if in.a[0], err = d.src(s.ops[1], t, false); err != nil {
		return err
	}
	in.nd, in.na, in.t = 1, 1, t
	min := 0x1p-1022
	if t == tF32 {
		min = 0x1p-126
	}
	test := map[string]func(x float64) bool{
		"finite":     func(x float64) bool { return !math.IsInf(x, 0) && x == x },
		"infinite":   func(x float64) bool { return math.IsInf(x, 0) },
		"number":     func(x float64) bool { return x == x },
		"notanumber": func(x float64) bool { return x != x },
		"normal":     func(x float64) bool { return x == 0 || math.Abs(x) >= min && !math.IsInf(x, 0) && x == x },
		"subnormal":  func(x float64) bool { return x != 0 && math.Abs(x) < min },
	}[op]
	is32 := t == tF32
	in.exec = func(w *warp, in *inst, m uint32) {
		a := w.r(in.a[0])
		var r uint32
		for mm := m; mm != 0; mm &= mm - 1 {
			l := lowLane(mm)
			x := f64(a[l])
			if is32 {
				x = float64(f32(a[l]))
			}
			if test(x) {
				r |= 1 << uint(l)
			}
		}
		w.preds[in.d[0]] = w.preds[in.d[0]]&^m | r
	}
	return nil
}

// decodeCopysign decodes copysign (PTX ISA 9.7.3.2): |b| with a's sign.
func decodeCopysign(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if !t.isFloat() {
		return d.errf("copysign takes .f32 or .f64")
	}
	if err := d.alu(s, in, t, 2); err != nil {
		return err
	}
	sb := uint64(1) << (t.bits - 1)
	in.exec = execBinary
	in.f2 = func(a, b uint64) uint64 { return b&^sb | a&sb }
	return nil
}
