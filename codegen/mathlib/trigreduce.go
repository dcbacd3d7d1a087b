// This file implements the large-argument reduction of sin, cos and tan
// (Payne-Hanek), taken past the Cody-Waite range (trigFastLimit).
//
// |x| = m*2^E with the integer significand m. The bits of 2/pi of weight
// above 2^(1-E) make m*2^E*(2/pi) grow by multiples of 4 only, so the
// quadrant and the reduced argument come from the bits that follow: a
// window of win 64-bit words of 2/pi (2 for f32, 3 for f64), starting at
// the bit of weight 2^(1-E), is cut from the table of twooverpi.go. Its
// words are picked by selects on the word index (16 candidates for f64, 2
// for f32) and aligned with funnel shifts. The product m*window, in 64-bit
// limbs with mul.lo and mul.hi, is x*2/pi mod 4 as a fixed-point number
// with 2 integer bits and 64*win - 2 fraction bits. Above a half the
// fraction is replaced by one minus it (a bitwise complement, off by one
// unit of the last limb) and the quadrant rounds up, so |f| <= 1/2. The
// fraction is normalized with clz, converted to a double-length f64 (53
// bits exactly, the next 64 rounded) and multiplied by pi/2 in double
// length.
//
// The error of the window is below m*2^(2-64*win) quarter turns: 2^-102
// for f32, 2^-137 for f64, while the reduced argument of a finite input is
// never below about 2^-62 quarter turns for f64 (and larger for f32), so
// r = rh + rl keeps a relative error near 2^-100. f32 reduces in f64 and
// rounds r to a pair of f32. Negative x reduce as |x| with r and the
// quadrant negated; Inf gives NaN.

package mathlib

import "github.com/fuseflow/fuseflow/codegen/ir"

// reduceLarge returns r = rh + rl and the quadrant k (u32, not yet taken
// mod 4) with x = k*pi/2 + r, |r| <= pi/4, for |x| above trigFastLimit.
func (e em) reduceLarge(x *ir.Value) (rh, rl, k *ir.Value) {
	b := e.b
	red := reductions[e.t]
	d := e.with(ir.F64)
	ax := e.abs(x)
	// m and E of |x| (normal: |x| is above the fast limit).
	sh := e.sh()
	u := e.bits(ax)
	mant := b.Or(b.And(u, e.uc(1<<sh.mant-1)), e.uc(1<<sh.mant))
	bexp := b.Shr(u, b.U32(uint32(sh.mant)))
	if e.is32() {
		mant = b.Cvt(mant, ir.U64)
	}
	bexp32 := b.Cvt(bexp, ir.S32)
	// start: the table bit of weight 2^(1-E) in x*2/pi.
	start := b.Add(bexp32, b.S32(int32(red.pad-2-sh.bias-sh.mant)))
	start = b.Max(start, b.S32(0)) // Inf lands past the table; its result is replaced
	startU := b.Bitcast(start, ir.U32)
	word := b.Shr(startU, b.U32(6))
	bit := b.And(startU, b.U32(63))

	raw := e.tableWindow(red, word)
	win := make([]*ir.Value, red.win)
	for i := range win {
		hi := b.Shl(raw[i], bit)
		lo := b.Shr(raw[i+1], b.Sub(b.U32(64), bit)) // a shift by 64 gives 0
		win[i] = b.Or(hi, lo)
	}

	limbs := e.mulWindow(mant, win)
	top := limbs[len(limbs)-1]
	quad := b.Shr(top, b.U32(62))
	// g: the fraction bits, shifted to the top.
	g := make([]*ir.Value, len(limbs))
	for i := range limbs {
		g[i] = b.Shl(limbs[i], b.U32(2))
		if i > 0 {
			g[i] = b.Or(g[i], b.Shr(limbs[i-1], b.U32(62)))
		}
	}
	n := len(g) - 1
	half := b.Ne(b.Shr(g[n], b.U32(63)), b.U64(0))
	quad = b.Add(quad, b.Select(half, b.U64(1), b.U64(0)))
	for i := range g {
		g[i] = e.sel(half, b.Not(g[i]), g[i])
	}
	// Normalize: H, L are the 128 bits from the leading one.
	lz := b.Clz(g[n])
	inv := b.Sub(b.U32(64), lz)
	hw := b.Or(b.Shl(g[n], lz), b.Shr(g[n-1], inv))
	lw := b.Shl(g[n-1], lz)
	if n >= 2 {
		lw = b.Or(lw, b.Shr(g[n-2], inv))
	}
	// f = (H*2^-64 + L*2^-128) * 2^-lz = h1*2^(-53-lz) + h2*2^(-117-lz).
	h1 := b.Shr(hw, b.U32(11))
	h2 := b.Or(b.Shl(hw, b.U32(53)), b.Shr(lw, b.U32(11)))
	nlz := b.Neg(b.Bitcast(lz, ir.S32))
	fh := d.mul(b.Cvt(h1, ir.F64), d.pow2(b.Add(nlz, b.S32(-53))))
	fl := d.mul(b.Cvt(h2, ir.F64), d.pow2(b.Add(nlz, b.S32(-117))))
	pio2 := consts[ir.F64].pio2
	r := d.ddMul(dd{fh, fl}, dd{d.c(pio2[0]), d.c(pio2[1])})
	neg := b.Xor(half, e.signBit(x))
	r = dd{d.sel(neg, d.neg(r.hi), r.hi), d.sel(neg, d.neg(r.lo), r.lo)}
	r.hi = d.sel(e.eq(ax, e.inf()), d.nan(), r.hi)

	k = b.Cvt(quad, ir.U32)
	k = e.sel(e.signBit(x), b.Sub(b.U32(0), k), k)
	if !e.is32() {
		return r.hi, r.lo, k
	}
	rh = b.Cvt(r.hi, ir.F32)
	rl = b.Cvt(d.add(d.sub(r.hi, b.Cvt(rh, ir.F64)), r.lo), ir.F32)
	return rh, rl, k
}

// tableWindow returns the table words word .. word+win (u64) for a u32
// word index, by a chain of selects over the indices a finite input can
// give.
func (e em) tableWindow(red *reduction, word *ir.Value) []*ir.Value {
	b := e.b
	last := red.maxWord()
	is := make([]*ir.Value, last+1)
	for i := 1; i <= last; i++ {
		is[i] = b.Eq(word, b.U32(uint32(i)))
	}
	out := make([]*ir.Value, red.win+1)
	for k := range out {
		v := b.U64(red.words[k])
		for i := 1; i <= last; i++ {
			v = b.Select(is[i], b.U64(red.words[i+k]), v)
		}
		out[k] = v
	}
	return out
}

// mulWindow returns the low len(win) 64-bit limbs of m*window, least
// significant first; win[0] is the most significant word. The limb above
// only adds multiples of 4 to the quadrant and is dropped.
func (e em) mulWindow(m *ir.Value, win []*ir.Value) []*ir.Value {
	b := e.b
	n := len(win)
	lo := make([]*ir.Value, n)
	hi := make([]*ir.Value, n)
	for i, w := range win {
		lo[i] = b.Mul(m, w)
		hi[i] = b.MulHi(m, w)
	}
	limbs := make([]*ir.Value, n)
	limbs[0] = lo[n-1]
	carry := b.U64(0)
	for i := 1; i < n; i++ {
		s := b.Add(lo[n-1-i], hi[n-i])
		c1 := b.Lt(s, hi[n-i])
		s2 := b.Add(s, carry)
		c2 := b.Lt(s2, s)
		limbs[i] = s2
		carry = b.Select(b.Or(c1, c2), b.U64(1), b.U64(0))
	}
	return limbs
}
