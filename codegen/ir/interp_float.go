// This file implements the interpreter's exactly rounded float helpers:
// f32 fused multiply-add and conversions with the four rounding modes.

package ir

import "math"

// fma32 returns a*b+c rounded once to float32. The product of two float32
// values is exact in float64; the sum p+c is computed as s+e exactly
// (TwoSum), then s is rounded to odd (made odd when inexact) so that the
// final rounding to float32 cannot double-round (53 >= 2*24+2 bits).
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	if math.IsInf(s, 0) || math.IsNaN(s) || s == 0 {
		return float32(math.FMA(float64(a), float64(b), float64(c)))
	}
	bb := s - p
	e := (p - (s - bb)) + (float64(c) - bb)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		if e > 0 {
			s = math.Nextafter(s, math.Inf(1))
		} else {
			s = math.Nextafter(s, math.Inf(-1))
		}
	}
	return float32(s)
}

// directed adjusts a round-to-nearest result r (as float64, exact for the
// destination type) of the exact value x to rounding mode rnd: cmp(r) says
// whether r is below (-1), equal to (0) or above (+1) x; step(r, dir)
// returns the neighbour of r in the destination type toward dir.
func directed(r float64, cmp int, rnd Rounding, step func(r float64, dir float64) float64) float64 {
	switch {
	case cmp == 0 || r != r:
		return r
	case rnd == RndRZ && ((r > 0 && cmp > 0) || (r < 0 && cmp < 0)):
		return step(r, 0)
	case rnd == RndRZ && r == 0:
		return r
	case rnd == RndRM && cmp > 0:
		return step(r, math.Inf(-1))
	case rnd == RndRP && cmp < 0:
		return step(r, math.Inf(1))
	}
	return r
}

func step32(r, dir float64) float64 { return float64(math.Nextafter32(float32(r), float32(dir))) }
func step64(r, dir float64) float64 { return math.Nextafter(r, dir) }

// cmpFloatInt compares the float r, an integral value or infinity, with
// the integer (neg, mag): -1 below, 0 equal, +1 above.
func cmpFloatInt(r float64, x int64, unsigned bool, ux uint64) int {
	if unsigned {
		switch {
		case r >= 0x1p64:
			return 1
		case r < 0:
			return -1
		}
		u := uint64(r)
		return cmp3(u > ux, u < ux)
	}
	switch {
	case r >= 0x1p63:
		return 1
	case r < -0x1p63:
		return -1
	}
	i := int64(r)
	return cmp3(i > x, i < x)
}

func cmp3(gt, lt bool) int {
	switch {
	case gt:
		return 1
	case lt:
		return -1
	}
	return 0
}

// cvtFunc returns the conversion from type from to type to with rnd.
func cvtFunc(from, to Type, rnd Rounding) fn1 {
	fw, tw := from.Bits(), to.Bits()
	tm := maskOf(tw)
	switch {
	case from.IsInt() && to.IsInt():
		if from.IsSigned() {
			return func(a uint64) uint64 { return uint64(sext(a, fw)) & tm }
		}
		return func(a uint64) uint64 { return a & tm }
	case from.IsInt() && to.IsFloat():
		return intToFloat(from, to, rnd)
	case from.IsFloat() && to.IsInt():
		return floatToInt(from, to, rnd)
	}
	// float to float
	if from == F32 {
		return func(a uint64) uint64 { return bf64(float64(f32(a))) }
	}
	return func(a uint64) uint64 {
		x := f64(a)
		r := float64(float32(x))
		if rnd > RndRN {
			r = directed(r, cmp3(r > x, r < x), rnd, step32)
		}
		return bf32(float32(r))
	}
}

func intToFloat(from, to Type, rnd Rounding) fn1 {
	fw := from.Bits()
	signed := from.IsSigned()
	return func(a uint64) uint64 {
		var r float64
		x := sext(a, fw)
		switch {
		case signed && to == F32:
			r = float64(float32(x))
		case signed:
			r = float64(x)
		case to == F32:
			r = float64(float32(a))
		default:
			r = float64(a)
		}
		if rnd > RndRN {
			st := step64
			if to == F32 {
				st = step32
			}
			r = directed(r, cmpFloatInt(r, x, !signed, a), rnd, st)
		}
		if to == F32 {
			return bf32(float32(r))
		}
		return bf64(r)
	}
}

// roundInt rounds x to an integral value with rnd (default: toward zero).
var roundInt = [numRnds]func(float64) float64{
	RndDefault: math.Trunc,
	RndRN:      math.RoundToEven,
	RndRZ:      math.Trunc,
	RndRM:      math.Floor,
	RndRP:      math.Ceil,
}

// floatToInt converts with PTX semantics: round to integral with rnd, then
// saturate to the destination range; NaN converts to 0.
func floatToInt(from, to Type, rnd Rounding) fn1 {
	tw := to.Bits()
	round := roundInt[rnd]
	if to.IsSigned() {
		lo, hi := -math.Ldexp(1, tw-1), math.Ldexp(1, tw-1) // hi is exclusive
		m := maskOf(tw)
		return func(a uint64) uint64 {
			x := round(regFloat(a, from))
			switch {
			case x != x:
				return 0
			case x <= lo:
				return uint64(int64(-1)<<uint(tw-1)) & m
			case x >= hi:
				return m >> 1
			}
			return uint64(int64(round(x))) & m
		}
	}
	hi := math.Ldexp(1, tw)
	return func(a uint64) uint64 {
		x := round(regFloat(a, from))
		switch {
		case x != x || x <= 0:
			return 0
		case x >= hi:
			return maskOf(tw)
		}
		return uint64(x)
	}
}

// regFloat reads a float register of type t as float64.
func regFloat(a uint64, t Type) float64 {
	if t == F32 {
		return float64(f32(a))
	}
	return f64(a)
}
