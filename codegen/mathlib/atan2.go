// This file implements atan2(y, x).
//
// With n = min(|x|,|y|) and d = max(|x|,|y|) (both scaled by 2^-8 near
// overflow; both Inf count as 1 and 1), a = n/d is in [0, 1]. Above
// tan(pi/8) the argument is reduced to t = (n-d)/(n+d), atan a = pi/4 +
// atan t, so |t| <= tan(pi/8) always, and atan t = t + t^3*A(t^2) with the
// Taylor series A to t^19 (f32) or t^41 (f64). The octant then gives the
// result as K*pi/4 + S*atan(t) with K in 0..4 and S = ±1 (swapping x and y
// reflects about pi/4, a negative x (sign bit, so -0 counts) about pi/2),
// summed in double length with pi/4 split in two, and the sign of y is
// copied last. Special values follow Go's math.Atan2. Everything computes
// in the arguments' own type.

package mathlib

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

func expandAtan2(e em, a []*ir.Value) *ir.Value {
	y, x := a[0], a[1]
	c := e.k()
	one, zero := e.c(1), e.c(0)
	ax, ay := e.abs(x), e.abs(y)
	swap := e.gt(ay, ax)
	n, d := e.sel(swap, ax, ay), e.sel(swap, ay, ax)
	bothInf := e.and(e.eq(ax, e.inf()), e.eq(ay, e.inf()))
	n, d = e.sel(bothInf, one, n), e.sel(bothInf, one, d)
	hugeD := e.gt(d, e.c(pick(e, 0x1p120, 0x1p1000)))
	sc := e.sel(hugeD, e.c(0x1p-8), one)
	n, d = e.mul(n, sc), e.mul(d, sc)
	d = e.sel(e.eq(d, zero), one, d) // both zero: a = 0

	ar := e.div(n, d)
	red := e.gt(ar, e.c(math.Sqrt2-1))
	t := e.sel(red, e.div(e.sub(n, d), e.add(n, d)), ar)
	k0 := e.sel(red, one, zero)
	// Octant: angle = K*pi/4 + S*atan(t).
	k1 := e.sel(swap, e.sub(e.c(2), k0), k0)
	s1 := e.sel(swap, e.c(-1), one)
	xneg := e.signBit(x)
	kk := e.sel(xneg, e.sub(e.c(4), k1), k1)
	ss := e.sel(xneg, e.neg(s1), s1)

	z := e.mul(t, t)
	atHi := e.mul(ss, t)
	atLo := e.mul(e.mul(atHi, z), e.poly(z, c.atan))
	ch, cerr := e.twoProd(kk, e.c(c.pio4[0]))
	cl := e.fma(kk, e.c(c.pio4[1]), cerr)
	h, herr := e.twoSum(ch, atHi)
	r := e.add(h, e.add(herr, e.add(cl, atLo)))
	r = e.copySign(r, y)
	return e.sel(e.or(e.isNaN(x), e.isNaN(y)), e.add(x, y), r)
}
