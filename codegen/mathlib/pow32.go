// This file implements the core of pow for f32: 2^(y*log2 x) computed in
// f64 with polynomials fitted to the accuracy an f32 result needs, not to
// f64's, and rounded once to f32.
//
// x is split in f32 (subnormals scaled by 2^25 first) into 2^e * m with m
// in [sqrt(2)/2, sqrt(2)] (to within an ulp) and f = m - 1 exact; in f64, s = f/(2+f) and
// log2(m) = s*P(s^2), P of degree 5 economized in the Chebyshev basis on
// s^2 in [0, 0.0295] from the series 2*log2(e)*sum s^(2k)/(2k+1) (relative
// error below 2^-45). w = y*(e + log2 m) then carries an absolute error
// below |w|*2^-45 + 2^-52*|w|. 2^w = 2^k * (1 + r*Q(r)) with k = rint(w),
// r = w - k exact in [-1/2, 1/2] and Q of degree 8 economized from the
// series of (2^r - 1)/r (error below 2^-44); the product by 2^k is exact
// for |w| < 1000 and the one rounding to f32 handles overflow and
// subnormal results. For |w| <= 150 (beyond it the f32 result is 0 or
// Inf) the f64 value is within 2^-37 relative of x^y, so the f32 result is
// the correctly rounded one but where x^y lies within 2^-13 of an ulp of a
// rounding boundary, and within one ulp always.

package mathlib

import (
	"math/big"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// pow32Limit bounds |w| in the f32 core: the full expansion clamps w to
// it, and 2^rint(w) is a normal f64 within it.
const pow32Limit = 1000

// pow32Log2 and pow32Exp2 are the fitted polynomials P (in s^2) and Q (in
// r) of the file comment, as f64 constants, lowest degree first.
var pow32Log2, pow32Exp2 = fitPow32()

func fitPow32() (lg, ex []float64) {
	const terms = 40
	log2e := bnew().Quo(bigOne, bigLn2)
	a := make([]*big.Float, terms)
	for k := range a { // 2*log2(e)/(2k+1)
		a[k] = bquo(bnew().Mul(bf(2), log2e), int64(2*k+1))
	}
	lg = fitOn(a, 0, 0.0295, 0x1p-42, ir.F64)
	b := make([]*big.Float, terms)
	p := bnew().SetInt64(1)
	for k := range b { // ln2^(k+1)/(k+1)!
		p.Mul(p, bigLn2)
		b[k] = bnew().Mul(p, invFact(k+1))
	}
	ex = fitOn(b, -0.5, 0.5, 0x1p-40, ir.F64)
	return lg, ex
}

// fitOn returns, rounded to t, the polynomial in x that economizes the
// series sum a[k] x^k on [lo, hi]: rewritten in u = (x - mid)/half,
// expanded in Chebyshev polynomials of u, its trailing terms of magnitude
// below tol dropped, and rewritten in x.
func fitOn(a []*big.Float, lo, hi, tol float64, t ir.Type) []float64 {
	n := len(a) - 1
	mid, half := bf((lo+hi)/2), bf((hi-lo)/2)
	binom := func(k, j int) *big.Float {
		c := bnew().SetInt64(1)
		for i := 0; i < j; i++ {
			c.Mul(c, bf(float64(k-i)))
			c = bquo(c, int64(i+1))
		}
		return c
	}
	ipow := func(x *big.Float, k int) *big.Float {
		r := bnew().SetInt64(1)
		for range k {
			r.Mul(r, x)
		}
		return r
	}
	// Coefficients in u.
	pu := make([]*big.Float, n+1)
	for j := range pu {
		pu[j] = bnew()
		for k := j; k <= n; k++ {
			v := bnew().Mul(a[k], binom(k, j))
			v.Mul(v, ipow(mid, k-j))
			pu[j].Add(pu[j], v)
		}
		pu[j].Mul(pu[j], ipow(half, j))
	}
	// The kept Chebyshev terms, in u.
	mu := economizeBig(pu, tol)
	deg := len(mu) - 1
	// Back to x: u^j = (x - mid)^j / half^j.
	out := make([]float64, deg+1)
	negMid := bnew().Neg(mid)
	for i := range out {
		s := bnew()
		for j := i; j <= deg; j++ {
			v := bnew().Mul(mu[j], binom(j, i))
			v.Mul(v, ipow(negMid, j-i))
			v.Quo(v, ipow(half, j))
			s.Add(s, v)
		}
		out[i] = round(s, t)
	}
	return out
}

// pow32Log2 returns log2(x) in f64 for an f32 x > 0 finite (e is the f32
// emitter); other inputs give finite values or NaN the callers replace.
// Without subnormals it is for x >= 2^-126 alone (the scaling it leaves
// out is the identity there). The split subtracts the bits of
// sqrt(2)/2 so that the exponent field of the difference is e and m's
// bits are x's less e<<23.
func (e em) pow32Log2(x *ir.Value, subnormals bool) *ir.Value {
	b, d := e.b, e.with(ir.F64)
	xs, sub := x, (*ir.Value)(nil)
	if subnormals {
		sub = e.lt(x, e.c(0x1p-126))
		xs = e.sel(sub, e.mul(x, e.c(0x1p25)), x)
	}
	ib := e.bits(xs)
	t := b.Sub(ib, e.uc(0x3f3504f3))
	ex := b.Shr(b.Bitcast(t, ir.S32), b.U32(23))
	if subnormals {
		ex = b.Sub(ex, b.Select(sub, b.S32(25), b.S32(0)))
	}
	m := e.fromBits(b.Sub(ib, b.And(t, e.uc(0xff800000))))
	f := b.Cvt(e.sub(m, e.c(1)), ir.F64)
	s := d.div(f, d.add(d.c(2), f))
	l := d.mul(s, d.poly(d.mul(s, s), pow32Log2))
	return d.add(b.Cvt(ex, ir.F64), l)
}

// pow32Exp2 returns 2^w rounded to f32 for an f64 w with |w| < pow32Limit
// (d is the f64 emitter). Adding 1.5*2^52 rounds w to the integer k in
// the low bits of the sum, so that 2^k is those bits plus the bias
// shifted into the exponent field.
func (d em) pow32Exp2(w *ir.Value) *ir.Value {
	b := d.b
	shifter := d.c(0x1.8p52)
	t := d.add(w, shifter)
	r := d.sub(w, d.sub(t, shifter))
	p := d.fma(r, d.poly(r, pow32Exp2), d.c(1))
	scale := d.fromBits(b.Shl(b.Add(d.bits(t), d.uc(1023)), b.U32(52)))
	return b.Cvt(d.mul(p, scale), ir.F32)
}

// pow32W returns w = y*log2(ax) in f64 for f32 operands (e is the f32
// emitter), for subnormal ax as well or not.
func (e em) pow32W(ax, y *ir.Value, subnormals bool) *ir.Value {
	d := e.with(ir.F64)
	return d.mul(e.b.Cvt(y, ir.F64), e.pow32Log2(ax, subnormals))
}
