// This file implements sin, cos and tan.
//
// Reduction: up to trigFastLimit (2^21 for f32, 2^50 for f64), k =
// rint(x*2/pi) and r = x - k*pi/2 with pi/2 split into three numbers of
// the argument's type (Cody-Waite). The first fused multiply-add is exact;
// the other two terms are subtracted in double length (TwoProd and
// TwoSum), so r comes out as rh + rl with a relative error far below one
// ulp. Beyond the limit the reduction would no longer bring r into
// [-pi/4, pi/4]: a branch takes the Payne-Hanek reduction of trigreduce.go
// there, which yields the same rh + rl and quadrant.
//
// On |r| <= pi/4: sin r = rh + (rl*(1 - rh^2/2) + rh^3*S(rh^2)) and
// cos r = 1 - rh^2/2 + rh^4*C(rh^2) - rh*rl, with the Taylor series S to
// r^11 (f32) or r^19 (f64) and C to r^12 or r^18, and 1 - rh^2/2 formed
// with its rounding error recovered. The quadrant k mod 4 selects and
// negates; tan is sin/cos or -cos/sin. Everything computes in the
// argument's own type, except the large-argument reduction of f32, which
// computes in f64.

package mathlib

import "github.com/fuseflow/fuseflow/codegen/ir"

// trigParts returns the sine and cosine of the reduced argument and the
// quadrant k mod 4 as u32.
func (e em) trigParts(x *ir.Value) (sn, cs, quad *ir.Value) {
	far := e.gt(e.abs(x), e.c(trigFastLimit(e.t)))
	red := e.b.IfElseValues(far,
		func() []*ir.Value {
			rh, rl, k := e.reduceLarge(x)
			return []*ir.Value{rh, rl, k}
		},
		func() []*ir.Value {
			rh, rl, k := e.reduceFast(x)
			return []*ir.Value{rh, rl, k}
		})
	sn, cs = e.sinCos(red[0], red[1])
	return sn, cs, e.b.And(red[2], e.b.U32(3))
}

// reduceFast is the Cody-Waite reduction: r = rh + rl and k (u32, not yet
// taken mod 4) with x = k*pi/2 + r, for |x| up to trigFastLimit.
func (e em) reduceFast(x *ir.Value) (rh, rl, k *ir.Value) {
	c, b := e.k(), e.b
	kf := e.rint(e.mul(x, e.c(c.twoOverPi)))
	nk := e.neg(kf)
	r1 := e.fma(nk, e.c(c.pio2[0]), x)
	p, perr := e.twoProd(kf, e.c(c.pio2[1]))
	s, serr := e.twoSum(r1, e.neg(p))
	lo := e.fma(nk, e.c(c.pio2[2]), e.sub(serr, perr))
	rh, rl = e.fastTwoSum(s, lo)
	if e.is32() {
		k = b.Bitcast(b.Cvt(kf, ir.S32), ir.U32)
	} else {
		k = b.Cvt(b.Cvt(kf, ir.S64), ir.U32)
	}
	return rh, rl, k
}

// sinCos returns sin r and cos r for r = rh + rl, |r| <= pi/4.
func (e em) sinCos(rh, rl *ir.Value) (sn, cs *ir.Value) {
	c := e.k()
	z := e.mul(rh, rh)
	hz := e.mul(z, e.c(0.5))
	// sin
	tail := e.fma(e.neg(hz), rl, rl)
	tail = e.fma(e.mul(rh, z), e.poly(z, c.sin), tail)
	sn = e.add(rh, tail)
	// cos: w = 1 - hz rounded, werr its error, hzl the low part of rh^2/2.
	one := e.c(1)
	w := e.sub(one, hz)
	werr := e.sub(e.sub(one, w), hz)
	hzl := e.mul(e.fma(rh, rh, e.neg(z)), e.c(0.5))
	ctail := e.fma(e.mul(z, z), e.poly(z, c.cos), e.sub(werr, hzl))
	ctail = e.fma(e.neg(rh), rl, ctail)
	cs = e.add(w, ctail)
	return sn, cs
}

// trigFastLimit is the largest |x| of the Cody-Waite reduction: 2^21 for
// f32 and 2^50 for f64.
func trigFastLimit(t ir.Type) float64 {
	if t == ir.F32 {
		return 0x1p21
	}
	return 0x1p50
}

// quadrant returns ±s or ±c for sin (shift 0) or cos (shift 1) in quadrant
// q: sin takes s, c, -s, -c for q = 0..3, cos the same sequence from q+1.
func (e em) quadrant(sn, cs, q *ir.Value, shift uint32) *ir.Value {
	b := e.b
	q = b.Add(q, b.U32(shift))
	odd := b.Eq(b.And(q, b.U32(1)), b.U32(1))
	negate := b.Eq(b.And(q, b.U32(2)), b.U32(2))
	v := e.sel(odd, cs, sn)
	return e.sel(negate, e.neg(v), v)
}

func expandSin(e em, a []*ir.Value) *ir.Value {
	sn, cs, q := e.trigParts(a[0])
	return e.zeroIn(a[0], e.quadrant(sn, cs, q, 0))
}

func expandCos(e em, a []*ir.Value) *ir.Value {
	sn, cs, q := e.trigParts(a[0])
	return e.quadrant(sn, cs, q, 1)
}

func expandTan(e em, a []*ir.Value) *ir.Value {
	b := e.b
	sn, cs, q := e.trigParts(a[0])
	odd := b.Eq(b.And(q, b.U32(1)), b.U32(1))
	num := e.sel(odd, cs, sn)
	den := e.sel(odd, e.neg(sn), cs)
	return e.zeroIn(a[0], e.div(num, den))
}
