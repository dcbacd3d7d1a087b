// This file implements exp, exp2, expm1, sigmoid and tanh.
//
// exp(x): k = rint(x*log2(e)) and r = x - k*ln2 with ln 2 split in two
// (the first fused multiply-add is exact, so |r| <= ln2/2 carries one
// rounding); e^r - 1 = r + r^2*P(r) with P the Taylor series to r^7 (f32)
// or r^13 (f64), whose truncation error is below 2^-27 and 2^-56
// relative; the result (1 + q)*2^k is scaled by two powers of two so that
// a subnormal result rounds once and overflow gives +Inf. The argument is
// clamped first (f32 [-104, 89], f64 [-746, 710]), beyond which the result
// is 0 or +Inf.
//
// exp2 is the same with k = rint(x), r = x - k exact and the series of
// 2^r - 1 (coefficients ln2^k/k!). expm1 keeps q when k = 0, computes
// 2^k*q + (2^k - 1) with one fused multiply-add for small k (2^k - 1 is
// exact) and 2^k*(1+q) - 1 beyond. sigmoid is 1/(1 + exp(-x)) with this
// exp, as t/(1+t) with t = exp(-|x|) for x < 0 so that nothing overflows. tanh is t/(t+2) with t = expm1(2|x|), |x| clamped at 9.1 (f32) or
// 22 (f64) where tanh rounds to 1, with the sign of x copied back.
//
// All of them compute in their own type.

package mathlib

import "github.com/fuseflow/fuseflow/codegen/ir"

// expParts reduces a finite x (already clamped) for exp and expm1: the
// integral k (as a float and as s32) and q = e^r - 1 where x = k*ln2 + r.
// lo, when not nil, is a small addend of x carried in extra precision.
func (e em) expParts(x, lo *ir.Value) (kf, ki, q *ir.Value) {
	c := e.k()
	kf = e.rint(e.mul(x, e.c(c.log2e[0])))
	nk := e.neg(kf)
	r := e.fma(nk, e.c(c.ln2[0]), x)
	r = e.fma(nk, e.c(c.ln2[1]), r)
	if lo != nil {
		r = e.add(r, lo)
	}
	z := e.mul(r, r)
	q = e.fma(z, e.poly(r, c.expm1), r)
	return kf, e.toS32(kf), q
}

// clampExp clamps x to the range where exp is neither 0 nor Inf (plus a
// margin); a NaN x becomes the lower bound (callers select NaN back).
func (e em) clampExp(x *ir.Value) *ir.Value {
	return e.min(e.max(x, e.c(pick(e, -104.0, -746))), e.c(pick(e, 89.0, 710)))
}

// expFinite is exp of a non-NaN x.
func (e em) expFinite(x *ir.Value) *ir.Value {
	_, ki, q := e.expParts(e.clampExp(x), nil)
	return e.scale(e.add(e.c(1), q), ki)
}

// nanIn returns x when it is NaN, else r.
func (e em) nanIn(x, r *ir.Value) *ir.Value { return e.sel(e.isNaN(x), x, r) }

// zeroIn returns x when it is ±0 (keeping its sign), else r.
func (e em) zeroIn(x, r *ir.Value) *ir.Value { return e.sel(e.eq(x, e.c(0)), x, r) }

func expandExp(e em, a []*ir.Value) *ir.Value {
	return e.nanIn(a[0], e.expFinite(a[0]))
}

// exp2Finite is exp2 of a non-NaN x.
func (e em) exp2Finite(x *ir.Value) *ir.Value {
	xc := e.min(e.max(x, e.c(pick(e, -152.0, -1080))), e.c(pick(e, 129.0, 1025)))
	kf := e.rint(xc)
	r := e.sub(xc, kf)
	q := e.mul(r, e.poly(r, e.k().exp2))
	return e.scale(e.add(e.c(1), q), e.toS32(kf))
}

func expandExp2(e em, a []*ir.Value) *ir.Value {
	return e.nanIn(a[0], e.exp2Finite(a[0]))
}

// expm1Finite is expm1 of a non-NaN x.
func (e em) expm1Finite(x *ir.Value) *ir.Value {
	xc := e.min(e.max(x, e.c(pick(e, -18.0, -45))), e.c(pick(e, 89.0, 710)))
	kf, ki, q := e.expParts(xc, nil)
	one := e.c(1)
	// Small k: 2^k*q + (2^k - 1), one rounding; 2^k - 1 is exact.
	kmax := pick(e, int32(26), 56)
	t := e.pow2(e.b.Min(ki, e.b.S32(kmax)))
	small := e.fma(t, q, e.sub(t, one))
	big := e.sub(e.scale(e.add(one, q), ki), one)
	r := e.sel(e.gt(kf, e.c(float64(kmax))), big, small)
	return e.sel(e.eq(kf, e.c(0)), q, r)
}

func expandExpm1(e em, a []*ir.Value) *ir.Value {
	x := a[0]
	return e.zeroIn(x, e.nanIn(x, e.expm1Finite(x)))
}

func expandSigmoid(e em, a []*ir.Value) *ir.Value {
	x := a[0]
	one := e.c(1)
	// With t = exp(-|x|) <= 1: 1/(1+t) for x >= 0 and t/(1+t) below, so
	// that nothing overflows and tiny results keep their precision.
	t := e.expFinite(e.neg(e.abs(x)))
	num := e.sel(e.lt(x, e.c(0)), t, one)
	return e.nanIn(x, e.div(num, e.add(one, t)))
}

func expandTanh(e em, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := e.min(e.abs(x), e.c(pick(e, 9.1, 22)))
	t := e.expm1Finite(e.add(ax, ax))
	r := e.div(t, e.add(t, e.c(2)))
	return e.nanIn(x, e.copySign(r, x))
}
