// This file implements the polynomial fits of the erf expansion, computed
// exactly in big.Float when the package loads: the Taylor series of
// erfc at the middle of an interval (erfc at the middle from the series of
// erf at 0, the derivatives from Hermite polynomials) to degree 48 in
// u = (x - mid)/half, economized in the Chebyshev basis (the terms whose
// Chebyshev coefficient is below a tolerance are dropped) and converted
// back to a polynomial in u, whose coefficients are rounded once to the
// target type.

package mathlib

import (
	"math/big"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// taylorDeg is the degree of the Taylor series an economized fit starts
// from; on the intervals used its remainder is below 2^-100.
const taylorDeg = 48

func bf(v float64) *big.Float { return bnew().SetFloat64(v) }

// bigErf returns erf(x) from its series at 0 (alternating; the working
// precision covers the cancellation for |x| <= 8).
func bigErf(x *big.Float) *big.Float {
	x2 := bnew().Mul(x, x)
	term := bnew().Set(x) // x^(2n+1)/n!
	sum := bnew()
	eps := bnew().SetMantExp(bf(1), -300)
	for n := 0; ; n++ {
		t := bquo(term, int64(2*n+1))
		if n%2 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if n > 0 && t.Cmp(eps) < 0 {
			break
		}
		term.Mul(term, x2)
		term = bquo(term, int64(n+1))
	}
	return sum.Mul(sum, bnew().Quo(bf(2), bigSqrtPi))
}

// bigExp returns e^x from its series (x >= 0) or 1/e^-x.
func bigExp(x *big.Float) *big.Float {
	if x.Sign() < 0 {
		return bnew().Quo(bigOne, bigExp(bnew().Neg(x)))
	}
	sum, term := bnew().SetInt64(1), bnew().SetInt64(1)
	eps := bnew().SetMantExp(bf(1), -300)
	for n := 1; term.Cmp(eps) > 0 || n < 4; n++ {
		term.Mul(term, x)
		term = bquo(term, int64(n))
		sum.Add(sum, term)
	}
	return sum
}

// erfcTaylor returns the coefficients of erfc(mid + half*u) in u to
// degree taylorDeg.
func erfcTaylor(mid, half float64) []*big.Float {
	c, h := bf(mid), bf(half)
	out := make([]*big.Float, taylorDeg+1)
	out[0] = bnew().Sub(bigOne, bigErf(c))
	// erfc^(n)(c) = -(2/sqrt(pi)) (-1)^(n-1) H_{n-1}(c) e^(-c^2), n >= 1.
	g := bnew().Quo(bf(2), bigSqrtPi)
	g.Mul(g, bigExp(bnew().Neg(bnew().Mul(c, c))))
	hPrev, hCur := bnew().SetInt64(1), bnew().Mul(bf(2), c) // H_0, H_1
	hn := bnew().SetInt64(1)                                // half^n/n!
	for n := 1; n <= taylorDeg; n++ {
		hn.Mul(hn, h)
		hn = bquo(hn, int64(n))
		var hermite *big.Float // H_{n-1}
		if n == 1 {
			hermite = hPrev
		} else {
			hermite = hCur
			if n > 2 { // advance: H_{n-1} = 2c H_{n-2} - 2(n-2) H_{n-3}
				next := bnew().Mul(bnew().Mul(bf(2), c), hCur)
				next.Sub(next, bnew().Mul(bf(float64(2*(n-2))), hPrev))
				hPrev, hCur = hCur, next
				hermite = hCur
			}
		}
		v := bnew().Mul(g, hermite)
		v.Mul(v, hn)
		if n%2 == 1 { // -(−1)^(n-1) = -1 for odd n
			v.Neg(v)
		}
		out[n] = v
	}
	return out
}

// chebT returns the monomial coefficients of the Chebyshev polynomials T_0
// to T_n.
func chebT(n int) [][]*big.Float {
	t := [][]*big.Float{{bnew().SetInt64(1)}, {bnew(), bnew().SetInt64(1)}}
	for k := 2; k <= n; k++ {
		next := make([]*big.Float, k+1)
		for i := range next {
			next[i] = bnew()
		}
		for i, v := range t[k-1] {
			next[i+1].Add(next[i+1], bnew().Mul(bf(2), v))
		}
		for i, v := range t[k-2] {
			next[i].Sub(next[i], v)
		}
		t = append(t, next)
	}
	return t
}

// economize converts a polynomial in u on [-1, 1] to the Chebyshev basis,
// drops the trailing terms whose coefficients are below tol in magnitude,
// and returns the remaining polynomial in u rounded to t.
func economize(p []*big.Float, tol float64, t ir.Type) []float64 {
	mono := economizeBig(p, tol)
	out := make([]float64, len(mono))
	for i, v := range mono {
		out[i] = round(v, t)
	}
	return out
}

// economizeBig is economize without the rounding: the coefficients in u
// of the kept Chebyshev terms of p (which it leaves unchanged).
func economizeBig(p []*big.Float, tol float64) []*big.Float {
	n := len(p) - 1
	T := chebT(n)
	// Solve top-down: the u^k coefficient belongs to T_k's leading 2^(k-1).
	rest := make([]*big.Float, n+1)
	for i, v := range p {
		rest[i] = bnew().Set(v)
	}
	cheb := make([]*big.Float, n+1)
	for k := n; k >= 0; k-- {
		cheb[k] = bnew().Quo(rest[k], T[k][k])
		for i, v := range T[k] {
			rest[i].Sub(rest[i], bnew().Mul(cheb[k], v))
		}
	}
	deg := 0
	btol := bf(tol)
	for k, c := range cheb {
		if bnew().Abs(c).Cmp(btol) > 0 {
			deg = k
		}
	}
	mono := make([]*big.Float, deg+1)
	for i := range mono {
		mono[i] = bnew()
	}
	for k := 0; k <= deg; k++ {
		for i, v := range T[k] {
			mono[i].Add(mono[i], bnew().Mul(cheb[k], v))
		}
	}
	return mono
}
