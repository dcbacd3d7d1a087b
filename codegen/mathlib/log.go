// This file implements log, log2 and log1p.
//
// A positive finite x (subnormals scaled by 2^25 or 2^54 first) is split
// into 2^e * m with m in [sqrt(2)/2, sqrt(2)); with f = m - 1 (exact) and
// s = f/(2+f), log(1+f) = 2*atanh(s) = f - (f^2/2 - s*(f^2/2 + R)) where
// R = 2s^2/3 + 2s^4/5 + ... is the atanh series to s^10 (f32) or s^22
// (f64), |s| <= 0.1716; the large term f is exact and only the small
// correction carries rounding. log adds e*ln2 with ln 2 split in two and a
// fused multiply-add; log2 multiplies by log2(e) in double length and adds
// e exactly. log1p computes u = 1 + x, the rounding error c = x - (u - 1),
// and log(u) + c/u. Everything computes in the argument's own type.

package mathlib

import "github.com/fuseflow/fuseflow/codegen/ir"

// logParts are the pieces of log(x) = e*ln2 + f - corr for a positive
// finite x (other inputs give finite garbage the callers replace).
type logParts struct {
	ef, f, corr *ir.Value
}

// logSplit decomposes x and evaluates the series; extra (may be nil) is
// added to log(1+f) in the correction term.
func (e em) logSplit(x, extra *ir.Value) logParts {
	sh, c := e.sh(), e.k()
	b := e.b
	subExp := pick(e, 25, 54)
	sub := e.lt(x, e.c(pick(e, 0x1p-126, 0x1p-1022)))
	xs := e.sel(sub, e.mul(x, e.c(float64(uint64(1)<<uint(subExp)))), x)
	ib := e.bits(xs)
	ex := b.Cvt(b.Shr(ib, b.U32(uint32(sh.mant))), ir.S32)
	ex = b.Sub(ex, b.Select(sub, b.S32(int32(sh.bias+subExp)), b.S32(int32(sh.bias))))
	mantMask := uint64(1)<<uint(sh.mant) - 1
	m := e.fromBits(b.Or(b.And(ib, e.uc(mantMask)), e.uc(uint64(sh.bias)<<uint(sh.mant))))
	big := e.gt(m, e.c(1.4142135623730951))
	m = e.sel(big, e.mul(m, e.c(0.5)), m)
	ex = b.Add(ex, b.Select(big, b.S32(1), b.S32(0)))
	f := e.sub(m, e.c(1))
	s := e.div(f, e.add(e.c(2), f))
	z := e.mul(s, s)
	r := e.mul(z, e.poly(z, c.atanh))
	hfsq := e.mul(e.mul(f, f), e.c(0.5))
	ef := b.Cvt(ex, e.t)
	lo := e.mul(s, e.add(hfsq, r))
	if extra != nil {
		lo = e.add(lo, extra)
	}
	// corr = hfsq - s*(hfsq+R) - extra, so that log(1+f) = f - corr.
	return logParts{ef: ef, f: f, corr: e.sub(hfsq, lo)}
}

// logSpecial returns log's value at the inputs the series does not cover:
// -Inf at ±0, +Inf at +Inf, NaN below 0 or at NaN; r elsewhere.
func (e em) logSpecial(x, r *ir.Value) *ir.Value {
	r = e.sel(e.eq(x, e.inf()), x, r)
	r = e.sel(e.eq(x, e.c(0)), e.neg(e.inf()), r)
	return e.sel(e.b.Cmp(ir.CmpLTU, x, e.c(0)), e.nan(), r)
}

// lnFrom combines the parts into log(x) = e*ln2 + f - corr.
func (e em) lnFrom(p logParts) *ir.Value {
	c := e.k()
	corr := e.fma(e.neg(p.ef), e.c(c.ln2[1]), p.corr)
	return e.fma(p.ef, e.c(c.ln2[0]), e.sub(p.f, corr))
}

func expandLog(e em, a []*ir.Value) *ir.Value {
	x := a[0]
	return e.logSpecial(x, e.lnFrom(e.logSplit(x, nil)))
}

// log2Of is log2 of a positive finite x.
func (e em) log2Of(x *ir.Value) *ir.Value {
	c := e.k()
	p := e.logSplit(x, nil)
	// log2(1+f) = (f - corr)*log2(e): the product f*log2(e) in double
	// length, the rest in one precision.
	l2e := e.c(c.log2e[0])
	hi, err := e.twoProd(p.f, l2e)
	lo := e.fma(p.f, e.c(c.log2e[1]), err)
	lo = e.fma(e.neg(p.corr), l2e, lo)
	s, serr := e.fastTwoSum(p.ef, hi) // |e| >= |hi| whenever e != 0
	return e.add(s, e.add(serr, lo))
}

func expandLog2(e em, a []*ir.Value) *ir.Value {
	return e.logSpecial(a[0], e.log2Of(a[0]))
}

func expandLog1p(e em, a []*ir.Value) *ir.Value {
	x := a[0]
	one := e.c(1)
	u := e.add(one, x)
	cerr := e.sub(x, e.sub(u, one))
	r := e.lnFrom(e.logSplit(u, e.div(cerr, u)))
	r = e.sel(e.eq(x, e.inf()), x, r)
	r = e.sel(e.eq(x, e.c(-1)), e.neg(e.inf()), r)
	r = e.sel(e.b.Cmp(ir.CmpLTU, x, e.c(-1)), e.nan(), r)
	return e.zeroIn(x, r)
}
