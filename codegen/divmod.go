// Division-like ops that need more than one instruction: NumPy's float
// floor division and modulo on an exact fmod, integer floor division and
// Python modulo (by zero: 0; MinInt // -1 wraps), and integer power by
// repeated squaring.

package codegen

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// copySignZero returns ±0 with the sign bit of x (f64).
func (l *lowerer) copySignZero(x *ir.Value) *ir.Value {
	bits := l.b.And(l.b.Bitcast(x, ir.U64), l.b.U64(1<<63))
	return l.b.Bitcast(bits, ir.F64)
}

// copySign returns |m| with the sign bit of s (f64).
func (l *lowerer) copySign(m, s *ir.Value) *ir.Value {
	mag := l.b.And(l.b.Bitcast(m, ir.U64), l.b.U64(1<<63-1))
	sign := l.b.And(l.b.Bitcast(s, ir.U64), l.b.U64(1<<63))
	return l.b.Bitcast(l.b.Or(mag, sign), ir.F64)
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
func (l *lowerer) fmod(a, b *ir.Value) *ir.Value {
	bb := l.b
	inf := l.fconst(ir.F64, math.Inf(1))
	x, y := bb.Abs(a), bb.Abs(b)
	nan := bb.Or(bb.Cmp(ir.CmpNAN, a, b), bb.Or(bb.Eq(y, l.fconst(ir.F64, 0)), bb.Eq(x, inf)))
	valid := bb.Not(bb.Or(nan, bb.Eq(y, inf)))
	xs := bb.Select(valid, x, l.fconst(ir.F64, 0))
	ys := bb.Select(valid, y, l.fconst(ir.F64, 1))
	// Scale ys up while the quotient would reach 2^52.
	limit := bb.Mul(xs, l.fconst(ir.F64, 0x1p-52))
	scaled := bb.While([]*ir.Value{ys},
		func(v []*ir.Value) *ir.Value { return bb.Le(v[0], limit) },
		func(v []*ir.Value) []*ir.Value { return []*ir.Value{bb.Mul(v[0], l.fconst(ir.F64, 0x1p52))} })[0]
	// Reduce modulo each scaled ys, down to ys itself.
	out := bb.While([]*ir.Value{xs, scaled, bb.Bool(false)},
		func(v []*ir.Value) *ir.Value { return bb.Not(v[2]) },
		func(v []*ir.Value) []*ir.Value {
			r, s := v[0], v[1]
			q := bb.Math(ir.MathRoundEven, bb.Div(r, s))
			rem := bb.FMA(bb.Neg(q), s, r)
			rem = bb.Select(bb.Lt(rem, l.fconst(ir.F64, 0)), bb.Add(rem, s), rem)
			done := bb.Le(s, ys)
			next := bb.Select(done, s, bb.Mul(s, l.fconst(ir.F64, 0x1p-52)))
			return []*ir.Value{rem, next, done}
		})
	r := bb.Select(valid, out[0], x)
	r = bb.Select(nan, l.fconst(ir.F64, math.NaN()), r)
	return l.copySign(r, a)
}

// divmodFloat returns NumPy's a // b (div) or a % b for floats, computed
// in float64 (float32 operands are widened and the result rounded once,
// as the reference does): mod = fmod(a, b) moved to b's sign, div =
// (a - mod) / b rounded to the nearest integer, zeros signed as NumPy
// signs them; by zero a // 0 is a / 0 and a % 0 is NaN.
func (l *lowerer) divmodFloat(a, b *ir.Value, div bool) *ir.Value {
	if a.Type == ir.F32 {
		r := l.divmodFloat(l.b.Cvt(a, ir.F64), l.b.Cvt(b, ir.F64), div)
		return l.b.Cvt(r, ir.F32)
	}
	bb := l.b
	zero := l.fconst(ir.F64, 0)
	mod := l.fmod(a, b)
	if !div {
		nz := bb.Cmp(ir.CmpNEU, mod, zero)
		adjust := bb.And(nz, bb.Xor(bb.Lt(b, zero), bb.Lt(mod, zero)))
		mod = bb.Select(adjust, bb.Add(mod, b), mod)
		return bb.Select(nz, mod, l.copySignZero(b))
	}
	d := bb.Div(bb.Sub(a, mod), b)
	nz := bb.Cmp(ir.CmpNEU, mod, zero)
	adjust := bb.And(nz, bb.Xor(bb.Lt(b, zero), bb.Lt(mod, zero)))
	d = bb.Select(adjust, bb.Sub(d, l.fconst(ir.F64, 1)), d)
	fl := bb.Math(ir.MathFloor, d)
	fl = bb.Select(bb.Gt(bb.Sub(d, fl), l.fconst(ir.F64, 0.5)), bb.Add(fl, l.fconst(ir.F64, 1)), fl)
	q := bb.Div(a, b)
	d = bb.Select(bb.Cmp(ir.CmpNEU, d, zero), fl, l.copySignZero(q))
	return bb.Select(bb.Eq(b, zero), q, d)
}

// divmodInt returns Python's a // b and a % b for s32 or s64: the
// quotient rounded toward negative infinity, the remainder with b's
// sign; both 0 when b is 0; MinInt // -1 wraps to MinInt.
func (l *lowerer) divmodInt(a, b *ir.Value) (q, r *ir.Value) {
	bb := l.b
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

// powInt returns a ** b for s32 or s64 by repeated squaring with
// wraparound; a negative exponent gives 0, except 1 ** b = 1 and
// (-1) ** b = ±1 by the parity of b.
func (l *lowerer) powInt(a, b *ir.Value) *ir.Value {
	bb := l.b
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
