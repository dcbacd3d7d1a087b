// This file implements pow(x, y).
//
// The core is exp(y*log|x|). For f64 the logarithm is formed in double
// length: s = f/(2+f) as a double-length quotient, log(1+f) = 2s +
// (2/3)s^3 (double length) + s^5*R(s^2) (one precision), plus e*ln2 as a
// double-length product; w = y*log|x| is a double-length product and its
// low part enters the reduced argument of exp, so that the error of w
// stays far below 2^-53 relative even when |w| is near 709. For f32 the
// core computes 2^(y*log2|x|) in f64 with polynomials fitted to what an
// f32 result needs (pow32.go) and rounds once to f32.
//
// Special values are selected after the core, in the order of Go's
// math.Pow: y = ±0 or x = 1 give 1; y = 1 gives x; NaN gives NaN; x = ±0,
// x = ±Inf or y = ±Inf give 0 or +Inf by |x| > 1 == y > 0 (and 1 for
// x = -1 with y = ±Inf); a finite negative x with a finite non-integral y
// gives NaN; a negative x (sign bit) with an odd integral y negates;
// y = 0.5 is sqrt(x) and y = -0.5 is 1/sqrt(x).

package mathlib

import "github.com/fuseflow/fuseflow/codegen/ir"

// logDD returns log(x) in double length for a positive finite f64 x.
func (e em) logDD(x *ir.Value) dd {
	c, b, sh := e.k(), e.b, e.sh()
	sub := e.lt(x, e.c(0x1p-1022))
	xs := e.sel(sub, e.mul(x, e.c(0x1p54)), x)
	ib := e.bits(xs)
	ex := b.Cvt(b.Shr(ib, b.U32(uint32(sh.mant))), ir.S32)
	ex = b.Sub(ex, b.Select(sub, b.S32(int32(sh.bias+54)), b.S32(int32(sh.bias))))
	m := e.fromBits(b.Or(b.And(ib, e.uc(1<<52-1)), e.uc(uint64(sh.bias)<<52)))
	big := e.gt(m, e.c(1.4142135623730951))
	m = e.sel(big, e.mul(m, e.c(0.5)), m)
	ex = b.Add(ex, b.Select(big, b.S32(1), b.S32(0)))
	f := e.sub(m, e.c(1))
	ef := b.Cvt(ex, e.t)

	// s = f/(2+f) in double length.
	dh, dl := e.fastTwoSum(e.c(2), f)
	sh1 := e.div(f, dh)
	rr := e.fma(e.neg(sh1), dh, f)
	rr = e.fma(e.neg(sh1), dl, rr)
	s := dd{sh1, e.div(rr, dh)}
	// s^3 * 2/3 in double length, s^5*R(s^2) in one precision.
	s2 := e.ddMul(s, s)
	s3 := e.ddMul(s2, s)
	t1 := e.ddMul(s3, dd{e.c(c.twoThirds[0]), e.c(c.twoThirds[1])})
	z := s2.hi
	t2 := e.mul(e.mul(s3.hi, z), e.poly(z, c.atanhTail))
	two := e.c(2)
	l := e.ddAdd(dd{e.mul(two, s.hi), e.mul(two, s.lo)}, dd{t1.hi, e.add(t1.lo, t2)})
	eh, el := e.twoProd(ef, e.c(c.ln2[0]))
	el = e.fma(ef, e.c(c.ln2[1]), el)
	return e.ddAdd(dd{eh, el}, l)
}

// powCore returns exp(y*log(ax)) for a positive ax; other inputs give
// values the special cases replace.
func (e em) powCore(ax, y *ir.Value) *ir.Value {
	if e.is32() {
		d := e.with(ir.F64)
		w := d.min(d.max(e.pow32W(ax, y, true), d.c(-pow32Limit)), d.c(pow32Limit))
		return d.pow32Exp2(w)
	}
	l := e.logDD(ax)
	wh, wl := e.twoProd(y, l.hi)
	wl = e.fma(y, l.lo, wl)
	whc := e.clampExp(wh)
	// Near and beyond the ends of the range the low part does not matter
	// (and is NaN when y*log|x| overflows).
	wl = e.sel(e.lt(e.abs(wh), e.c(720)), wl, e.c(0))
	_, ki, q := e.expParts(whc, wl)
	return e.scale(e.add(e.c(1), q), ki)
}

func expandPow(e em, a []*ir.Value) *ir.Value {
	x, y := a[0], a[1]
	one, zero, inf := e.c(1), e.c(0), e.inf()
	ax, ay := e.abs(x), e.abs(y)
	r := e.powCore(ax, y)

	yInt := e.and(e.eq(e.trunc(y), y), e.lt(ay, inf))
	hy := e.mul(y, e.c(0.5))
	yOdd := e.and(e.and(yInt, e.lt(ay, e.c(pick(e, 0x1p24, 0x1p53)))), e.neq(e.trunc(hy), hy))
	negRes := e.and(e.signBit(x), yOdd)
	r = e.sel(negRes, e.neg(r), r)
	r = e.sel(e.eq(y, e.c(0.5)), e.sqrt(x), r)
	r = e.sel(e.eq(y, e.c(-0.5)), e.div(one, e.sqrt(x)), r)
	negFinite := e.and(e.lt(x, zero), e.gt(x, e.neg(inf)))
	r = e.sel(e.and(negFinite, e.and(e.not(yInt), e.lt(ay, inf))), e.nan(), r)
	// x = ±0, x = ±Inf or y = ±Inf: the limit, 0 or +Inf, signed for odd y.
	edge := e.or(e.or(e.eq(ax, zero), e.eq(ax, inf)), e.eq(ay, inf))
	grows := e.not(e.b.Xor(e.gt(ax, one), e.gt(y, zero)))
	lim := e.sel(grows, inf, zero)
	lim = e.sel(negRes, e.neg(lim), lim)
	r = e.sel(edge, lim, r)
	r = e.sel(e.and(e.eq(ax, one), e.eq(ay, inf)), one, r)
	r = e.sel(e.or(e.isNaN(x), e.isNaN(y)), e.add(x, y), r)
	r = e.sel(e.eq(y, one), x, r)
	return e.sel(e.or(e.eq(y, zero), e.eq(x, one)), one, r)
}
