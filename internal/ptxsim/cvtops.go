// This file implements cvt (PTX ISA 9.7.8.18) between every pair of
// integer and float types: integers extend by the source's signedness
// and truncate (or clamp with .sat); integers become floats rounded by
// .rn, .rz, .rm or .rp; floats become integers rounded by .rni, .rzi,
// .rmi or .rpi and clamped to the destination's range, NaN giving 0 - or
// 1 << (width-1) when the source is .f64 or the destination 64-bit (the
// rule PTX ISA 9.1, 9.7.9.21 documents); floats narrow with a rounding
// mode, widen exactly, and round to integral values in float format with
// the integer rounding modes. Results are sign- or zero-extended into a
// wider destination register (PTX ISA 9.4.1).

package ptxsim

import (
	"math"
)

var intRndName = map[string]uint8{"rni": rndRNI, "rzi": rndRZI, "rmi": rndRMI, "rpi": rndRPI}
var fltRndName = map[string]uint8{"rn": rndRN, "rz": rndRZ, "rm": rndRM, "rp": rndRP}

// decodeCvt decodes cvt.
func decodeCvt(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if ok, err := decodeCvtHalf(d, s, ms, in); ok {
		return err
	}
	var rnd uint8
	for _, name := range []string{"rni", "rzi", "rmi", "rpi", "rn", "rz", "rm", "rp"} {
		if ms.has(name) {
			if rnd != rndNone {
				return d.errf("%s has two rounding modifiers", s.opcode)
			}
			rnd = intRndName[name] | fltRndName[name]
		}
	}
	in.ftz = ms.has("ftz")
	in.sat = ms.has("sat")
	ts, err := ms.types(d)
	if err != nil {
		return err
	}
	if len(ts) != 2 {
		return d.errf("cvt needs a destination and a source type")
	}
	dt, st := ts[0], ts[1]
	if dt.kind == kPred || st.kind == kPred || dt.kind == kB || st.kind == kB {
		return d.errf("cvt converts between .u, .s and .f types, not .%s and .%s", dt, st)
	}
	if in.ftz && dt != tF32 && st != tF32 {
		return d.errf("cvt.ftz needs an .f32 source or destination")
	}
	intRnd := rnd >= rndRNI
	switch {
	case dt.isInt() && st.isInt():
		if rnd != rndNone {
			return d.errf("integer-to-integer cvt takes no rounding modifier")
		}
	case dt.isInt():
		if !intRnd {
			return d.errf("float-to-integer cvt needs an integer rounding modifier (.rni, .rzi, .rmi, .rpi)")
		}
	case st.isInt():
		if rnd == rndNone || intRnd {
			return d.errf("integer-to-float cvt needs a float rounding modifier (.rn, .rz, .rm, .rp)")
		}
	case dt.bits < st.bits:
		if rnd == rndNone || intRnd {
			return d.errf("narrowing float cvt needs a float rounding modifier")
		}
	case dt.bits > st.bits:
		if rnd != rndNone {
			return d.errf("widening float cvt takes no rounding modifier")
		}
	default:
		if rnd != rndNone && !intRnd {
			return d.errf("same-size float cvt takes only an integer rounding modifier")
		}
	}
	if err := d.nops(s, 2); err != nil {
		return err
	}
	if in.d[0], in.dbits, err = d.dst(s.ops[0], dt, true); err != nil {
		return err
	}
	if in.a[0], err = d.src(s.ops[1], st, true); err != nil {
		return err
	}
	in.t, in.t2, in.rnd, in.nd, in.na = dt, st, rnd, 1, 1
	conv := convert(dt, st, rnd, in.ftz, in.sat)
	dbits := int(in.dbits)
	in.exec = execUnary
	in.f1 = func(a uint64) uint64 { return extend(conv(a), dt, dbits) }
	return nil
}

// convert returns the conversion of a st value to a dt value (the result
// in dt's low bits).
func convert(dt, st ptype, rnd uint8, ftz, sat bool) func(a uint64) uint64 {
	switch {
	case dt.isInt() && st.isInt():
		n := int(st.bits)
		lo, hi := intRange(dt)
		return func(a uint64) uint64 {
			if st.signed() {
				v := int64(sext(a, n))
				if sat {
					v = clampInt(v, lo, hi)
				}
				return uint64(v) & dt.mask()
			}
			v := a & st.mask()
			if sat && (hi >= 0 && v > uint64(hi) || dt.signed() && v > uint64(hi)) {
				v = uint64(hi)
			}
			return v & dt.mask()
		}
	case dt.isInt():
		return func(a uint64) uint64 { return floatToInt(fval(a, st, ftz), dt, st, rnd) }
	case st.isInt():
		return func(a uint64) uint64 {
			var neg bool
			var mag uint64
			if st.signed() {
				v := int64(sext(a, int(st.bits)))
				neg, mag = v < 0, uint64(v)
				if neg {
					mag = -mag
				}
			} else {
				mag = a & st.mask()
			}
			return intToFloat(neg, mag, dt, rnd, sat)
		}
	case dt.bits == st.bits && rnd != rndNone:
		return func(a uint64) uint64 {
			x := roundInt(fval(a, st, ftz), rnd)
			return fbits(x, dt, ftz, sat)
		}
	case dt == tF64 && st == tF32:
		return func(a uint64) uint64 { return fbits(fval(a, st, ftz), dt, false, sat) }
	case dt == tF32 && st == tF64:
		return func(a uint64) uint64 {
			x := f64(a)
			r := round32(x, 0, rnd)
			return fbits(float64(r), dt, ftz, sat)
		}
	}
	// Same-size float copy, with .ftz or .sat.
	return func(a uint64) uint64 { return fbits(fval(a, st, ftz), dt, ftz, sat) }
}

// fval reads float bits of type t as float64, flushing f32 subnormals
// when ftz.
func fval(a uint64, t ptype, ftz bool) float64 {
	if t == tF32 {
		x := f32(a)
		if ftz {
			x = flush32(x)
		}
		return float64(x)
	}
	return f64(a)
}

// fbits returns x (exactly representable in t) as t's bits, with .ftz
// and .sat applied.
func fbits(x float64, t ptype, ftz, sat bool) uint64 {
	if sat {
		x = sat01(x)
	}
	if t == tF32 {
		r := float32(x)
		if ftz {
			r = flush32(r)
		}
		return b32(r)
	}
	return b64(x)
}

// roundInt rounds x to an integral value with an integer rounding mode.
func roundInt(x float64, rnd uint8) float64 {
	switch rnd {
	case rndRNI:
		return math.RoundToEven(x)
	case rndRZI:
		return math.Trunc(x)
	case rndRMI:
		return math.Floor(x)
	}
	return math.Ceil(x)
}

// intRange returns the range of integer type t (hi as int64 saturates at
// MaxInt64 for u64).
func intRange(t ptype) (int64, int64) {
	if t.signed() {
		return -1 << (t.bits - 1), 1<<(t.bits-1) - 1
	}
	if t.bits == 64 {
		return 0, math.MaxInt64
	}
	return 0, 1<<t.bits - 1
}

func clampInt(v, lo, hi int64) int64 { return max(lo, min(hi, v)) }

// floatToInt rounds x and clamps it to dt's range; NaN gives 0, or
// 1 << (width-1) for an .f64 source or a 64-bit destination.
func floatToInt(x float64, dt, st ptype, rnd uint8) uint64 {
	if x != x {
		if st == tF64 || dt.bits == 64 {
			return uint64(1) << (dt.bits - 1)
		}
		return 0
	}
	r := roundInt(x, rnd)
	if dt.signed() {
		lo, hi := intRange(dt)
		lim := math.Ldexp(1, int(dt.bits)-1)
		switch {
		case r >= lim:
			return uint64(hi) & dt.mask()
		case r < -lim:
			return uint64(lo) & dt.mask()
		}
		return uint64(int64(r)) & dt.mask()
	}
	lim := math.Ldexp(1, int(dt.bits))
	switch {
	case r <= 0:
		return 0
	case r >= lim:
		return dt.mask()
	}
	return uint64(r) & dt.mask()
}

// intToFloat converts the integer (-1)^neg * mag to dt with rounding mode
// rnd.
func intToFloat(neg bool, mag uint64, dt ptype, rnd uint8, sat bool) uint64 {
	hi := float64(mag) // round to nearest float64
	// errSign of the magnitude: compare the integer with hi exactly.
	e := 0
	if hi >= 0x1p64 {
		e = -1
	} else if h := uint64(hi); h > mag {
		e = -1
	} else if h < mag {
		e = 1
	}
	if neg {
		hi, e = -hi, -e
	}
	var x float64
	if dt == tF32 {
		x = float64(round32(hi, e, rnd))
	} else {
		x = round64(hi, rnd, func() int { return e })
	}
	return fbits(x, dt, false, sat)
}
