// This file implements erf.
//
// On |x| < 1: erf x = x + x*P(x^2) with P the Taylor series of
// erf(x)/x - 1 (its constant term 2/sqrt(pi) - 1, so that the large term x
// is exact) to x^21 (f32) or x^37 (f64). On 1 <= |x| < 4 (f32) or 6 (f64):
// erf x = 1 - erfc x with erfc from polynomial fits on sub-intervals
// (chebfit.go; f32 [1,2) and [2,4) of degrees near 10, f64 [1,2), [2,3),
// [3,4) and [4,6) of degrees 14 to 17, each within 2^-27 or 2^-57 of
// erfc), chosen by branches. Beyond, erf x rounds to ±1. The sign of x is
// copied onto the result. Everything computes in the argument's own type.

package mathlib

import (
	"sync"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// erfPiece is one fitted interval: erfc(x) = poly((x - mid)*scale).
type erfPiece struct {
	lo, hi, mid, scale float64
	coef               []float64
}

var (
	erfOnce   sync.Once
	erfPieces map[ir.Type][]erfPiece
)

// erfcPieces returns the fitted intervals of type t, fitting them on first
// use (about 10 ms).
func erfcPieces(t ir.Type) []erfPiece {
	erfOnce.Do(func() {
		erfPieces = map[ir.Type][]erfPiece{}
		for _, s := range []struct {
			t    ir.Type
			tol  float64
			ends []float64
		}{
			{ir.F32, 0x1p-27, []float64{1, 2, 4}},
			{ir.F64, 0x1p-57, []float64{1, 2, 3, 4, 6}},
		} {
			for i := 0; i+1 < len(s.ends); i++ {
				lo, hi := s.ends[i], s.ends[i+1]
				mid, half := (lo+hi)/2, (hi-lo)/2
				erfPieces[s.t] = append(erfPieces[s.t], erfPiece{lo: lo, hi: hi, mid: mid, scale: 1 / half,
					coef: economize(erfcTaylor(mid, half), s.tol, s.t)})
			}
		}
	})
	return erfPieces[t]
}

func expandErf(e em, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := e.abs(x)
	pieces := erfcPieces(e.t)
	var chain func(i int) []*ir.Value
	chain = func(i int) []*ir.Value {
		if i == len(pieces) {
			return []*ir.Value{e.c(1)}
		}
		p := pieces[i]
		return e.b.IfElseValues(e.lt(ax, e.c(p.hi)),
			func() []*ir.Value {
				u := e.mul(e.sub(ax, e.c(p.mid)), e.c(p.scale))
				return []*ir.Value{e.sub(e.c(1), e.poly(u, p.coef))}
			},
			func() []*ir.Value { return chain(i + 1) })
	}
	r := e.b.IfElseValues(e.lt(ax, e.c(1)),
		func() []*ir.Value {
			z := e.mul(ax, ax)
			return []*ir.Value{e.fma(ax, e.poly(z, e.k().erf0), ax)}
		},
		func() []*ir.Value { return chain(0) })[0]
	return e.nanIn(x, e.copySign(r, x))
}
