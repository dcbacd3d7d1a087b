// This file implements the constants of the expansions: pi, ln 2 and
// 2/sqrt(pi) to 100 digits, their splits into sums of two or three
// numbers of a float type (Cody-Waite and double-length constants), and
// the Taylor coefficients of exp, sin, cos, atanh, atan and erf, all
// computed exactly in big.Float and rounded once to the target type.

package mathlib

import (
	"math/big"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

const prec = 400

const (
	piDigits  = "3.1415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"
	ln2Digits = "0.6931471805599453094172321214581765680755001343602552541206800094933936219696947156058633269964186875"
)

func bigOf(s string) *big.Float {
	f, _, err := big.ParseFloat(s, 10, prec, big.ToNearestEven)
	if err != nil {
		panic("mathlib: bad constant " + s) // cannot happen: the digits above parse
	}
	return f
}

func bnew() *big.Float { return new(big.Float).SetPrec(prec) }

func bquo(x *big.Float, d int64) *big.Float {
	return bnew().Quo(x, bnew().SetInt64(d))
}

var (
	bigPi  = bigOf(piDigits)
	bigLn2 = bigOf(ln2Digits)
	bigOne = bnew().SetInt64(1)
)

// round returns x rounded once to the type t, as a float64.
func round(x *big.Float, t ir.Type) float64 {
	if t == ir.F32 {
		f, _ := x.Float32()
		return float64(f)
	}
	f, _ := x.Float64()
	return f
}

// split returns n numbers of type t whose sum approximates x: each is the
// rounding of what the previous ones left.
func split(x *big.Float, t ir.Type, n int) []float64 {
	rest := bnew().Set(x)
	out := make([]float64, n)
	for i := range out {
		out[i] = round(rest, t)
		rest.Sub(rest, bnew().SetFloat64(out[i]))
	}
	return out
}

// series returns the coefficients c[k] = term(k) of a series, rounded to
// t, for k = from..to.
func series(t ir.Type, from, to int, term func(k int) *big.Float) []float64 {
	out := make([]float64, 0, to-from+1)
	for k := from; k <= to; k++ {
		out = append(out, round(term(k), t))
	}
	return out
}

// invFact returns 1/n!.
func invFact(n int) *big.Float {
	f := bnew().SetInt64(1)
	for i := 2; i <= n; i++ {
		f.Mul(f, bnew().SetInt64(int64(i)))
	}
	return bnew().Quo(bigOne, f)
}

// sign returns (-1)^k as a factor.
func sign(k int, x *big.Float) *big.Float {
	if k%2 == 1 {
		return bnew().Neg(x)
	}
	return x
}

// bigSqrtPi is sqrt(pi).
var bigSqrtPi = bnew().Sqrt(bigPi)

// typed holds the constants of one float type.
type typed struct {
	ln2       []float64 // ln 2 as hi, lo
	log2e     []float64 // log2(e) as hi, lo
	pio2      []float64 // pi/2 as three parts (Cody-Waite)
	pio4      []float64 // pi/4 as hi, lo
	twoOverPi float64
	twoThirds []float64 // 2/3 as hi, lo

	expm1     []float64 // 1/2!, 1/3!, ...: e^r = 1 + r + r^2*poly(r)
	exp2      []float64 // ln2^k/k! for k >= 1: 2^r = 1 + r*poly(r)
	sin       []float64 // (-1)^k/(2k+1)! for k >= 1: sin r = r + r^3*poly(r^2)
	cos       []float64 // (-1)^k/(2k)! for k >= 2: cos r = 1 - r^2/2 + r^4*poly(r^2)
	atanh     []float64 // 2/(2k+1) for k >= 1: log(1+f) = 2s + s*z*poly(z)
	atanhTail []float64 // 2/(2k+1) for k >= 2 (double-length log)
	atan      []float64 // (-1)^k/(2k+1) for k >= 1: atan t = t + t*z*poly(z)
	erf0      []float64 // 2/sqrt(pi) - 1, then 2/sqrt(pi)*(-1)^k/(k!(2k+1)) for k >= 1
}

// Degrees: the number of series terms each type needs on the reduced
// ranges (see the file comments of the functions for the bounds).
func newTyped(t ir.Type) *typed {
	is32 := t == ir.F32
	n := func(a, b int) int {
		if is32 {
			return a
		}
		return b
	}
	log2e := bnew().Quo(bigOne, bigLn2)
	twoOverSqrtPi := bnew().Quo(bnew().SetInt64(2), bigSqrtPi)
	c := &typed{
		ln2:       split(bigLn2, t, 2),
		log2e:     split(log2e, t, 2),
		pio2:      split(bquo(bigPi, 2), t, 3),
		pio4:      split(bquo(bigPi, 4), t, 2),
		twoOverPi: round(bnew().Quo(bnew().SetInt64(2), bigPi), t),
		twoThirds: split(bquo(bnew().SetInt64(2), 3), t, 2),
		expm1:     series(t, 2, n(7, 13), invFact),
		exp2: series(t, 1, n(7, 13), func(k int) *big.Float {
			p := bnew().SetInt64(1)
			for i := 0; i < k; i++ {
				p.Mul(p, bigLn2)
			}
			return p.Mul(p, invFact(k))
		}),
		sin: series(t, 1, n(5, 9), func(k int) *big.Float { return sign(k, invFact(2*k+1)) }),
		cos: series(t, 2, n(6, 9), func(k int) *big.Float { return sign(k, invFact(2*k)) }),
		atanh: series(t, 1, n(5, 11), func(k int) *big.Float {
			return bquo(bnew().SetInt64(2), int64(2*k+1))
		}),
		atanhTail: series(t, 2, n(5, 11), func(k int) *big.Float {
			return bquo(bnew().SetInt64(2), int64(2*k+1))
		}),
		atan: series(t, 1, n(9, 20), func(k int) *big.Float { return sign(k, bquo(bigOne, int64(2*k+1))) }),
	}
	c.erf0 = append([]float64{round(bnew().Sub(twoOverSqrtPi, bigOne), t)},
		series(t, 1, n(10, 18), func(k int) *big.Float {
			f := bnew().Mul(twoOverSqrtPi, invFact(k))
			return sign(k, bquo(f, int64(2*k+1)))
		})...)
	return c
}

var consts = map[ir.Type]*typed{ir.F32: newTyped(ir.F32), ir.F64: newTyped(ir.F64)}

// k returns the constants of the emitter's type.
func (e em) k() *typed { return consts[e.t] }
