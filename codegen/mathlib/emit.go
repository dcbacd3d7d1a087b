// This file implements the emitter the expansions are written with: typed
// helpers over ir.Builder for one float type (constants, arithmetic,
// compares, bit access, error-free transformations and Horner polynomials),
// so that one algorithm serves f32 and f64.

package mathlib

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// em emits code for one float type t (F32 or F64) at the builder's
// current position.
type em struct {
	b *ir.Builder
	t ir.Type
}

// The shape of each float type: the unsigned and signed integers of its
// width, the number of mantissa bits and the exponent bias.
type shape struct {
	ui, si     ir.Type
	mant, bias int
	bits       int
}

var shapes = map[ir.Type]shape{
	ir.F32: {ui: ir.U32, si: ir.S32, mant: 23, bias: 127, bits: 32},
	ir.F64: {ui: ir.U64, si: ir.S64, mant: 52, bias: 1023, bits: 64},
}

func (e em) sh() shape         { return shapes[e.t] }
func (e em) is32() bool        { return e.t == ir.F32 }
func (e em) with(t ir.Type) em { return em{b: e.b, t: t} }

// pick returns a for f32 and b for f64.
func pick[T any](e em, a, b T) T {
	if e.is32() {
		return a
	}
	return b
}

// c returns the constant v rounded to the type.
func (e em) c(v float64) *ir.Value { return e.b.Float(e.t, v) }

// inf returns +Inf; nan a quiet NaN.
func (e em) inf() *ir.Value { return e.c(math.Inf(1)) }
func (e em) nan() *ir.Value { return e.c(math.NaN()) }

func (e em) add(x, y *ir.Value) *ir.Value    { return e.b.Add(x, y) }
func (e em) sub(x, y *ir.Value) *ir.Value    { return e.b.Sub(x, y) }
func (e em) mul(x, y *ir.Value) *ir.Value    { return e.b.Mul(x, y) }
func (e em) div(x, y *ir.Value) *ir.Value    { return e.b.Div(x, y) }
func (e em) fma(x, y, z *ir.Value) *ir.Value { return e.b.FMA(x, y, z) }
func (e em) neg(x *ir.Value) *ir.Value       { return e.b.Neg(x) }
func (e em) abs(x *ir.Value) *ir.Value       { return e.b.Abs(x) }

// min and max follow PTX: a NaN operand yields the other one.
func (e em) min(x, y *ir.Value) *ir.Value { return e.b.Min(x, y) }
func (e em) max(x, y *ir.Value) *ir.Value { return e.b.Max(x, y) }

// sel returns x if c else y.
func (e em) sel(c, x, y *ir.Value) *ir.Value { return e.b.Select(c, x, y) }

func (e em) lt(x, y *ir.Value) *ir.Value { return e.b.Lt(x, y) }
func (e em) gt(x, y *ir.Value) *ir.Value { return e.b.Gt(x, y) }
func (e em) eq(x, y *ir.Value) *ir.Value { return e.b.Eq(x, y) }

// isNaN reports x != x; neq is Go's != (true when either is NaN).
func (e em) isNaN(x *ir.Value) *ir.Value  { return e.b.Cmp(ir.CmpNAN, x, x) }
func (e em) neq(x, y *ir.Value) *ir.Value { return e.b.Cmp(ir.CmpNEU, x, y) }

func (e em) and(p, q *ir.Value) *ir.Value { return e.b.And(p, q) }
func (e em) or(p, q *ir.Value) *ir.Value  { return e.b.Or(p, q) }
func (e em) not(p *ir.Value) *ir.Value    { return e.b.Not(p) }

// rint rounds to an integral value, ties to even; trunc toward zero. Both
// stay native math calls (cvt.rni and cvt.rzi in PTX).
func (e em) rint(x *ir.Value) *ir.Value  { return e.b.Math(ir.MathRoundEven, x) }
func (e em) trunc(x *ir.Value) *ir.Value { return e.b.Math(ir.MathTrunc, x) }
func (e em) sqrt(x *ir.Value) *ir.Value  { return e.b.Math(ir.MathSqrt, x) }

// bits returns x's bit pattern as the unsigned integer of its width;
// fromBits the reverse.
func (e em) bits(x *ir.Value) *ir.Value     { return e.b.Bitcast(x, e.sh().ui) }
func (e em) fromBits(u *ir.Value) *ir.Value { return e.b.Bitcast(u, e.t) }

// uc returns an unsigned constant of the type's width.
func (e em) uc(v uint64) *ir.Value { return e.b.Const(e.sh().ui, v) }

// signBit reports whether x's sign bit is set (true for -0 and -NaN).
func (e em) signBit(x *ir.Value) *ir.Value {
	return e.b.Lt(e.b.Bitcast(x, e.sh().si), e.b.Zero(e.sh().si))
}

// copySign returns |mag| with the sign of s.
func (e em) copySign(mag, s *ir.Value) *ir.Value {
	sign := uint64(1) << uint(e.sh().bits-1)
	m := e.b.And(e.bits(mag), e.uc(^sign))
	return e.fromBits(e.b.Or(m, e.b.And(e.bits(s), e.uc(sign))))
}

// toS32 converts an integral float to s32 (saturating).
func (e em) toS32(x *ir.Value) *ir.Value { return e.b.Cvt(x, ir.S32) }

// pow2 returns 2^k for an s32 k in the normal exponent range.
func (e em) pow2(k *ir.Value) *ir.Value {
	sh := e.sh()
	biased := e.b.Add(k, e.b.S32(int32(sh.bias)))
	u := e.b.Cvt(biased, sh.ui)
	if e.is32() {
		u = e.b.Bitcast(biased, ir.U32)
	}
	return e.fromBits(e.b.Shl(u, e.b.U32(uint32(sh.mant))))
}

// scale returns y*2^k for an s32 k with |k| at most twice the largest
// exponent, as two multiplications by powers of two in the normal range, so
// that a subnormal result is rounded once and an overflow gives Inf.
func (e em) scale(y, k *ir.Value) *ir.Value {
	k1 := e.b.Shr(k, e.b.U32(1))
	k2 := e.b.Sub(k, k1)
	return e.mul(e.mul(y, e.pow2(k1)), e.pow2(k2))
}

// poly evaluates c[0] + x*(c[1] + x*(c[2] + ...)) by Horner's rule with
// fused multiply-adds.
func (e em) poly(x *ir.Value, c []float64) *ir.Value {
	r := e.c(c[len(c)-1])
	for i := len(c) - 2; i >= 0; i-- {
		r = e.fma(r, x, e.c(c[i]))
	}
	return r
}

// twoSum returns s = fl(x+y) and the exact error x+y-s.
func (e em) twoSum(x, y *ir.Value) (s, err *ir.Value) {
	s = e.add(x, y)
	bb := e.sub(s, x)
	err = e.add(e.sub(x, e.sub(s, bb)), e.sub(y, bb))
	return s, err
}

// fastTwoSum is twoSum for |x| >= |y| (or x == 0).
func (e em) fastTwoSum(x, y *ir.Value) (s, err *ir.Value) {
	s = e.add(x, y)
	return s, e.sub(y, e.sub(s, x))
}

// twoProd returns p = fl(x*y) and the exact error x*y-p.
func (e em) twoProd(x, y *ir.Value) (p, err *ir.Value) {
	p = e.mul(x, y)
	return p, e.fma(x, y, e.neg(p))
}

// dd is an unevaluated sum hi+lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo *ir.Value }

// ddMul returns the double-length product of x and y.
func (e em) ddMul(x, y dd) dd {
	p, err := e.twoProd(x.hi, y.hi)
	err = e.fma(x.hi, y.lo, err)
	err = e.fma(x.lo, y.hi, err)
	h, l := e.fastTwoSum(p, err)
	return dd{h, l}
}

// ddAdd returns the double-length sum of x and y.
func (e em) ddAdd(x, y dd) dd {
	s, err := e.twoSum(x.hi, y.hi)
	err = e.add(err, e.add(x.lo, y.lo))
	h, l := e.fastTwoSum(s, err)
	return dd{h, l}
}
