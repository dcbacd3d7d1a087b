// IR lowerings of the division-like ops that need more than one
// instruction: NumPy's float floor division and modulo on an exact fmod,
// integer floor division and Python modulo (by zero: 0; MinInt // -1
// wraps), and integer power by repeated squaring. They compute what
// fmath.DivModFloat, fmath.FloorDiv, fmath.Mod and fmath.Pow compute.

package opdef

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// copySignZero returns ±0 with the sign bit of x (f64).
func copySignZero(b *ir.Builder, x *ir.Value) *ir.Value {
	bits := b.And(b.Bitcast(x, ir.U64), b.U64(1<<63))
	return b.Bitcast(bits, ir.F64)
}

// copySign returns |m| with the sign bit of s (f64).
func copySign(b *ir.Builder, m, s *ir.Value) *ir.Value {
	mag := b.And(b.Bitcast(m, ir.U64), b.U64(1<<63-1))
	sign := b.And(b.Bitcast(s, ir.U64), b.U64(1<<63))
	return b.Bitcast(b.Or(mag, sign), ir.F64)
}

// fmod returns the exact remainder of a / b truncated (C's fmod) for f64
// operands: NaN when b is 0, a is infinite or either is NaN; a when b is
// infinite; otherwise |a| reduced modulo |b| with the sign of a.
//
// The reduction is exact: each step subtracts q*ys with q the quotient
// rounded to an integer (|q| < 2^53, so the fma result is the exact
// remainder in (-ys, ys)), then adds ys back when it went negative. When
// the quotient is 2^52 or more, ys is first scaled up by powers of 2^52
// (exactly) and the remainder is reduced modulo each scaled ys in turn.
func fmod(bb *ir.Builder, a, b *ir.Value) *ir.Value {
	f := func(v float64) *ir.Value { return bb.Float(ir.F64, v) }
	inf := f(math.Inf(1))
	x, y := bb.Abs(a), bb.Abs(b)
	nan := bb.Or(bb.Cmp(ir.CmpNAN, a, b), bb.Or(bb.Eq(y, f(0)), bb.Eq(x, inf)))
	valid := bb.Not(bb.Or(nan, bb.Eq(y, inf)))
	xs := bb.Select(valid, x, f(0))
	ys := bb.Select(valid, y, f(1))
	// Scale ys up while the quotient would reach 2^52.
	limit := bb.Mul(xs, f(0x1p-52))
	scaled := bb.While([]*ir.Value{ys},
		func(v []*ir.Value) *ir.Value { return bb.Le(v[0], limit) },
		func(v []*ir.Value) []*ir.Value { return []*ir.Value{bb.Mul(v[0], f(0x1p52))} })[0]
	// Reduce modulo each scaled ys, down to ys itself.
	out := bb.While([]*ir.Value{xs, scaled, bb.Bool(false)},
		func(v []*ir.Value) *ir.Value { return bb.Not(v[2]) },
		func(v []*ir.Value) []*ir.Value {
			r, s := v[0], v[1]
			q := bb.Math(ir.MathRoundEven, bb.Div(r, s))
			rem := bb.FMA(bb.Neg(q), s, r)
			rem = bb.Select(bb.Lt(rem, f(0)), bb.Add(rem, s), rem)
			done := bb.Le(s, ys)
			next := bb.Select(done, s, bb.Mul(s, f(0x1p-52)))
			return []*ir.Value{rem, next, done}
		})
	r := bb.Select(valid, out[0], x)
	r = bb.Select(nan, f(math.NaN()), r)
	return copySign(bb, r, a)
}

// divmodFloat returns NumPy's a // b (div) or a % b for floats, computed
// in float64 (float32 operands are widened and the result rounded once):
// mod = fmod(a, b) moved to b's sign, div = (a - mod) / b rounded to the
// nearest integer, zeros signed as NumPy signs them; by zero a // 0 is
// a / 0 and a % 0 is NaN.
func divmodFloat(bb *ir.Builder, a, b *ir.Value, div bool) *ir.Value {
	if a.Type == ir.F32 {
		r := divmodFloat(bb, bb.Cvt(a, ir.F64), bb.Cvt(b, ir.F64), div)
		return bb.Cvt(r, ir.F32)
	}
	f := func(v float64) *ir.Value { return bb.Float(ir.F64, v) }
	zero := f(0)
	mod := fmod(bb, a, b)
	if !div {
		nz := bb.Cmp(ir.CmpNEU, mod, zero)
		adjust := bb.And(nz, bb.Xor(bb.Lt(b, zero), bb.Lt(mod, zero)))
		mod = bb.Select(adjust, bb.Add(mod, b), mod)
		return bb.Select(nz, mod, copySignZero(bb, b))
	}
	d := bb.Div(bb.Sub(a, mod), b)
	nz := bb.Cmp(ir.CmpNEU, mod, zero)
	adjust := bb.And(nz, bb.Xor(bb.Lt(b, zero), bb.Lt(mod, zero)))
	d = bb.Select(adjust, bb.Sub(d, f(1)), d)
	fl := bb.Math(ir.MathFloor, d)
	fl = bb.Select(bb.Gt(bb.Sub(d, fl), f(0.5)), bb.Add(fl, f(1)), fl)
	q := bb.Div(a, b)
	d = bb.Select(bb.Cmp(ir.CmpNEU, d, zero), fl, copySignZero(bb, q))
	return bb.Select(bb.Eq(b, zero), q, d)
}

func floorDivFloat(bb *ir.Builder, a, b *ir.Value) *ir.Value { return divmodFloat(bb, a, b, true) }
func modFloat(bb *ir.Builder, a, b *ir.Value) *ir.Value      { return divmodFloat(bb, a, b, false) }

// divmodInt returns Python's a // b and a % b for s32 or s64: the
// quotient rounded toward negative infinity, the remainder with b's
// sign; both 0 when b is 0; MinInt // -1 wraps to MinInt.
func divmodInt(bb *ir.Builder, a, b *ir.Value) (q, r *ir.Value) {
	t := a.Type
	z := bb.Zero(t)
	isZero := bb.Eq(b, z)
	isM1 := bb.Eq(b, bb.Int(t, -1))
	safe := bb.Select(bb.Or(isZero, isM1), bb.One(t), b)
	q = bb.Div(a, safe)
	r = bb.Rem(a, safe)
	q = bb.Select(isM1, bb.Neg(a), q)
	r = bb.Select(isM1, z, r)
	adjust := bb.And(bb.Ne(r, z), bb.Xor(bb.Lt(r, z), bb.Lt(b, z)))
	q = bb.Select(adjust, bb.Sub(q, bb.One(t)), q)
	r = bb.Select(adjust, bb.Add(r, b), r)
	return bb.Select(isZero, z, q), bb.Select(isZero, z, r)
}

func floorDivInt(bb *ir.Builder, a, b *ir.Value) *ir.Value { q, _ := divmodInt(bb, a, b); return q }
func modInt(bb *ir.Builder, a, b *ir.Value) *ir.Value      { _, r := divmodInt(bb, a, b); return r }

// powInt returns a ** b for s32 or s64 by repeated squaring with
// wraparound; a negative exponent gives 0, except 1 ** b = 1 and
// (-1) ** b = ±1 by the parity of b.
func powInt(bb *ir.Builder, a, b *ir.Value) *ir.Value {
	t := a.Type
	z, one := bb.Zero(t), bb.One(t)
	neg := bb.Lt(b, z)
	e0 := bb.Select(neg, z, b)
	out := bb.While([]*ir.Value{one, a, e0},
		func(v []*ir.Value) *ir.Value { return bb.Gt(v[2], z) },
		func(v []*ir.Value) []*ir.Value {
			r, base, e := v[0], v[1], v[2]
			odd := bb.Ne(bb.And(e, one), z)
			r = bb.Select(odd, bb.Mul(r, base), r)
			return []*ir.Value{r, bb.Mul(base, base), bb.Shr(e, bb.U32(1))}
		})
	odd := bb.Ne(bb.And(b, one), z)
	negRes := bb.Select(bb.Eq(a, one), one, z)
	negRes = bb.Select(bb.Eq(a, bb.Int(t, -1)), bb.Select(odd, bb.Int(t, -1), one), negRes)
	return bb.Select(neg, negRes, out[0])
}
