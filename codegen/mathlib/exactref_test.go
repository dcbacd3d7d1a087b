// This file implements an exact reference for pow, used to arbitrate
// where the library and Go's math.Pow disagree by more than the bound:
// math.Pow is itself off by several ulps when |y*log x| is large, and
// wrong for subnormal x on amd64 (its logarithm does not normalize them).
// The reference computes exp(y*log|x|) in 200-bit arithmetic.

package mathlib

import (
	"math"
	"math/big"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

const refPrec = 200

func rnew() *big.Float { return new(big.Float).SetPrec(refPrec) }

var (
	refLn2 = rnew().Set(bigLn2)
	refEps = rnew().SetMantExp(rnew().SetInt64(1), -refPrec-8)
)

// bigLogOf returns log(x) for a positive finite x: x = m*2^e with m in
// [0.5, 1), log m = 2*atanh((m-1)/(m+1)).
func bigLogOf(x float64) *big.Float {
	m, e := math.Frexp(x)
	bm := rnew().SetFloat64(m)
	s := rnew().Quo(rnew().Sub(bm, rnew().SetInt64(1)), rnew().Add(bm, rnew().SetInt64(1)))
	s2 := rnew().Mul(s, s)
	sum, pw := rnew(), rnew().Set(s)
	for k := 0; ; k++ {
		t := rnew().Quo(pw, rnew().SetInt64(int64(2*k+1)))
		sum.Add(sum, t)
		if t.Sign() == 0 || rnew().Abs(t).Cmp(refEps) < 0 {
			break
		}
		pw.Mul(pw, s2)
	}
	sum.Mul(sum, rnew().SetInt64(2))
	return sum.Add(sum, rnew().Mul(rnew().SetInt64(int64(e)), refLn2))
}

// bigExpOf returns e^w: w = n*ln2 + r with |r| <= ln2/2, e^r by its
// series, scaled by 2^n.
func bigExpOf(w *big.Float) *big.Float {
	q, _ := rnew().Quo(w, refLn2).Float64()
	n := math.RoundToEven(q)
	r := rnew().Sub(w, rnew().Mul(rnew().SetFloat64(n), refLn2))
	sum, term := rnew().SetInt64(1), rnew().SetInt64(1)
	for k := 1; ; k++ {
		term.Mul(term, r)
		term.Quo(term, rnew().SetInt64(int64(k)))
		sum.Add(sum, term)
		if term.Sign() == 0 || rnew().Abs(term).Cmp(refEps) < 0 {
			break
		}
	}
	return sum.SetMantExp(sum, int(n))
}

// exactPow returns x^y rounded to type t for finite nonzero x and finite
// y (x negative only with integral y), and ok false otherwise.
func exactPow(t ir.Type, x, y float64) (float64, bool) {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) || y == 0 {
		return 0, false
	}
	neg := false
	if x < 0 {
		if y != math.Trunc(y) {
			return 0, false
		}
		neg = math.Abs(y) < 0x1p53 && math.Mod(y, 2) != 0
		x = -x
	}
	w := rnew().Mul(rnew().SetFloat64(y), bigLogOf(x))
	if lim, _ := w.Float64(); lim > 1000 || lim < -1200 {
		return 0, false
	}
	r := bigExpOf(w)
	if neg {
		r.Neg(r)
	}
	if t == ir.F32 {
		f, _ := r.Float32()
		return float64(f), true
	}
	f, _ := r.Float64()
	return f, true
}

// bigSinCos returns sin x and cos x for finite x: x = k*pi/2 + r with pi
// to 1600 bits (k has up to 1024 bits, so r keeps more than 500), then the
// series of sin r and cos r.
func bigSinCos(x float64) (s, c *big.Float) {
	hnew := func() *big.Float { return new(big.Float).SetPrec(hiPrec) }
	pio2 := hnew().Quo(hiPi(), hnew().SetInt64(2))
	bx := hnew().SetFloat64(x)
	q := hnew().Quo(bx, pio2)
	k, _ := hnew().Add(q, big.NewFloat(0.5)).Int(nil) // truncates toward zero
	if q.Sign() < 0 {
		k, _ = hnew().Sub(q, big.NewFloat(0.5)).Int(nil)
	}
	r := rnew().Set(hnew().Sub(bx, hnew().Mul(hnew().SetInt(k), pio2)))
	r2 := rnew().Mul(r, r)
	sin, cos := rnew(), rnew()
	ts, tc := rnew().Set(r), rnew().SetInt64(1)
	for n := 0; n < 60; n++ {
		if n%2 == 0 {
			sin.Add(sin, ts)
			cos.Add(cos, tc)
		} else {
			sin.Sub(sin, ts)
			cos.Sub(cos, tc)
		}
		ts.Mul(ts, r2)
		ts.Quo(ts, rnew().SetInt64(int64((2*n+2)*(2*n+3))))
		tc.Mul(tc, r2)
		tc.Quo(tc, rnew().SetInt64(int64((2*n+1)*(2*n+2))))
	}
	switch new(big.Int).And(k, big.NewInt(3)).Int64() {
	case 1:
		sin, cos = cos, rnew().Neg(sin)
	case 2:
		sin, cos = rnew().Neg(sin), rnew().Neg(cos)
	case 3:
		sin, cos = rnew().Neg(cos), sin
	}
	return sin, cos
}

// exactRefs are the exact references of the functions whose Go
// implementation is off where the tests look: pow (above), exp and log
// (the amd64 assembly of math.Exp and math.Log is within about one ulp,
// so theirs and ours can be two apart), log2 (Go's Log2 cancels near 1), and sin, cos and tan above 2^29, where Go's
// reduction leaves an absolute error that is large next to a small result.
var exactRefs = map[ir.MathFn]func(t ir.Type, x, y float64) (float64, bool){
	ir.MathPow: exactPow,
	ir.MathExp: func(t ir.Type, x, _ float64) (float64, bool) {
		if math.IsNaN(x) || math.Abs(x) > 800 {
			return 0, false
		}
		return round(bigExpOf(rnew().SetFloat64(x)), t), true
	},
	ir.MathLog: func(t ir.Type, x, _ float64) (float64, bool) {
		if !(x > 0) || math.IsInf(x, 0) {
			return 0, false
		}
		return round(bigLogOf(x), t), true
	},
	ir.MathLog2: func(t ir.Type, x, _ float64) (float64, bool) {
		if !(x > 0) || math.IsInf(x, 0) {
			return 0, false
		}
		return round(rnew().Quo(bigLogOf(x), refLn2), t), true
	},
	ir.MathSin: trigRef(func(s, _ *big.Float) *big.Float { return s }),
	ir.MathCos: trigRef(func(_, c *big.Float) *big.Float { return c }),
	ir.MathTan: trigRef(func(s, c *big.Float) *big.Float { return rnew().Quo(s, c) }),
}

func trigRef(f func(s, c *big.Float) *big.Float) func(t ir.Type, x, _ float64) (float64, bool) {
	return func(t ir.Type, x, _ float64) (float64, bool) {
		if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false
		}
		s, c := bigSinCos(x)
		return round(f(s, c), t), true
	}
}

// expected returns the value the tests compare with: Go's reference.
func expected(fn ir.MathFn, t ir.Type, x, y float64) float64 {
	return reference(fn, t, x, y)
}

// arbitrate returns the distance of got from the exact value when it is
// more than bound from Go's and an exact reference exists.
func arbitrate(fn ir.MathFn, t ir.Type, x, y, got, d, bound float64) (float64, bool) {
	ref, ok := exactRefs[fn]
	if !ok || d <= bound {
		return d, false
	}
	ex, ok := ref(t, x, y)
	if !ok {
		return d, false
	}
	return ulpDist(t, got, ex), true
}
