// This file implements the ordinary-input path of pow for vector code:
// the core of pow.go without its clamps and special-value selects, and
// the predicate of the lanes where that core alone gives pow's result bit
// for bit. A vector loop computes a whole vector this way when every lane
// is ordinary (one mask test) and the full expansion otherwise.

package mathlib

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// powOrdinaryLimit bounds |w| on the ordinary path, w being y*log(x)
// (f64) or y*log2(x) in f64 (f32): within it the clamps of the full core
// change nothing, 2^k is one normal power of two (so that scaling by it
// in one multiplication equals pow.go's two), and, for f64, the result is
// a normal finite number (|ln x^y| < 708 < ln 2^1022).
var powOrdinaryLimit = map[ir.Type]float64{ir.F32: pow32Limit, ir.F64: 708}

// PowOrdinary emits at b's position, for x and y of the float type t
// (ir.F32 or ir.F64), r and ok: ok holds where x is positive and finite,
// y finite and none of 0, 1, 1/2 and -1/2, x is not 1, and |y*log x| is
// within the range above (for f32: x normal, positive and finite, y
// neither 1/2 nor -1/2, and |y*log2 x| within the range); there r equals
// what the expansion of ir.MathPow gives, bit for bit. Elsewhere r means nothing. It returns an
// error for another type. It is not safe for concurrent use on one
// builder.
func PowOrdinary(b *ir.Builder, t ir.Type, x, y *ir.Value) (r, ok *ir.Value, err error) {
	if t != ir.F32 && t != ir.F64 {
		return nil, nil, fmt.Errorf("mathlib: PowOrdinary of %s, want f32 or f64", t)
	}
	e := em{b: b, t: t}
	inf := e.inf()
	if e.is32() {
		// The core of pow.go without its clamp of w, for normal x. The
		// core gives pow's special values at y = 0 and x = 1 (w = 0, 2^0
		// = 1 exactly) and at y = 1 (x within 2^-37, which rounds to x),
		// and y = ±Inf or NaN make w infinite or NaN: none needs a test.
		d := e.with(ir.F64)
		w := e.pow32W(x, y, false)
		r = d.pow32Exp2(w)
		ok = d.lt(d.abs(w), d.c(powOrdinaryLimit[t]))
		ok = e.and(ok, e.and(e.b.Ge(x, e.c(0x1p-126)), e.lt(x, inf)))
		ok = e.and(ok, e.and(e.neq(y, e.c(0.5)), e.neq(y, e.c(-0.5))))
		return r, ok, nil
	}
	l := e.logDD(x)
	wh, wl := e.twoProd(y, l.hi)
	wl = e.fma(y, l.lo, wl)
	_, ki, q := e.expParts(wh, wl)
	r = e.mul(e.add(e.c(1), q), e.pow2(ki))
	ok = e.lt(e.abs(wh), e.c(powOrdinaryLimit[t]))
	ok = e.and(ok, e.and(e.gt(x, e.c(0)), e.lt(x, inf)))
	ok = e.and(ok, e.lt(e.abs(y), inf))
	for _, v := range []float64{0, 1, 0.5, -0.5} {
		ok = e.and(ok, e.neq(y, e.c(v)))
	}
	ok = e.and(ok, e.neq(x, e.c(1)))
	return r, ok, nil
}
