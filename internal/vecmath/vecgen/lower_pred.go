// This file implements the lowering of compares, predicate logic and
// selects, and of conversions: mask registers on AVX-512, lane masks of
// 32 or 64 bits in vector registers on AVX2.

package vecgen

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/mmcloughlin/avo/x86"
)

// predWidth returns the lane width of a predicate's AVX2 mask.
func (l *lowerer) predWidth(n *Node) int {
	if w, ok := l.pw[n]; ok {
		return w
	}
	return l.p.MaxBits()
}

// predAt returns the AVX2 mask of predicate n with lanes of w bits,
// converting (and remembering the conversion) when it has the other
// width.
func (l *lowerer) predAt(n *Node, w int) *vreg {
	r := l.reg(n)
	have := l.predWidth(n)
	if have == w {
		return r
	}
	k := [2]int{n.ID, w}
	if c, ok := l.conv[k]; ok {
		return c
	}
	d := l.newReg(classVec, l.lanes*w)
	if w == 64 { // 32 -> 64: sign-extend each lane
		l.emit(x86.VPMOVSXDQ, use(r), def(d))
	} else {
		l.narrow(r, d)
	}
	l.conv[k] = d
	return d
}

// narrow writes the low 32 bits of each 64-bit lane of r (a Y register
// on AVX2) into d (an X register).
func (l *lowerer) narrow(r, d *vreg) {
	if l.isa.Masks {
		l.emit(x86.VPMOVQD, use(r), def(d))
		return
	}
	hi := l.newReg(classVec, 128)
	l.emit(f3(x86.VEXTRACTI128), imm(1), use(r), def(hi))
	l.emit(x86.VSHUFPS, imm(0x88), use(hi), use(r).asWidth(128), def(d))
}

// predLogic lowers and, or, xor and not of predicates.
func (l *lowerer) predLogic(n *Node) *vreg {
	if l.isa.Masks {
		d := l.newReg(classMask, 16)
		switch n.Op {
		case ir.OpNot:
			l.emit(f2(x86.KNOTW), use(l.reg(n.Args[0])), def(d))
		default:
			c := map[ir.Op]ctor{ir.OpAnd: f3(x86.KANDW), ir.OpOr: f3(x86.KORW), ir.OpXor: f3(x86.KXORW)}[n.Op]
			l.emit(c, use(l.reg(n.Args[1])), use(l.reg(n.Args[0])), def(d))
		}
		return d
	}
	w := l.predWidth(n.Args[0])
	l.pw[n] = w
	d := l.newReg(classVec, l.lanes*w)
	a := use(l.predAt(n.Args[0], w))
	switch n.Op {
	case ir.OpNot:
		l.emit(f3(x86.VPXOR), l.constArg(math.MaxUint64>>(64-uint(w)), w, l.lanes*w), a, def(d))
	default:
		c := map[ir.Op]ctor{ir.OpAnd: f3(x86.VPAND), ir.OpOr: f3(x86.VPOR), ir.OpXor: f3(x86.VPXOR)}[n.Op]
		l.emit(c, use(l.predAt(n.Args[1], w)), a, def(d))
	}
	return d
}

// cmp lowers a compare.
func (l *lowerer) cmp(n *Node) *vreg {
	a, b := n.Args[0], n.Args[1]
	t := a.Type
	eb := t.Bits()
	pred := n.Cmp
	if a.IsConst() && !b.IsConst() {
		a, b, pred = b, a, swapCmp(pred)
	}
	if l.isa.Masks {
		d := l.newReg(classMask, 16)
		switch {
		case t.IsFloat():
			l.emit(pick2(eb, x86.VCMPPS, x86.VCMPPD), imm(cmpImm[pred]), l.src(b), use(l.reg(a)), def(d))
		case t.IsSigned():
			l.emit(pick2(eb, x86.VPCMPD, x86.VPCMPQ), imm(intCmpImm[pred]), l.src(b), use(l.reg(a)), def(d))
		default:
			l.emit(pick2(eb, x86.VPCMPUD, x86.VPCMPUQ), imm(intCmpImm[pred]), l.src(b), use(l.reg(a)), def(d))
		}
		return d
	}
	l.pw[n] = eb
	d := l.newReg(classVec, l.width(t))
	if t.IsFloat() {
		l.emit(pick2(eb, x86.VCMPPS, x86.VCMPPD), imm(cmpImm[pred]), l.src(b), use(l.reg(a)), def(d))
		return d
	}
	eq, gt := pick2(eb, x86.VPCMPEQD, x86.VPCMPEQQ), pick2(eb, x86.VPCMPGTD, x86.VPCMPGTQ)
	var c ctor
	neg, isGT := false, true
	switch pred {
	case ir.CmpEQ, ir.CmpNE:
		c, neg, isGT = eq, pred == ir.CmpNE, false
	case ir.CmpGT, ir.CmpLE: // a > b
		c, neg = gt, pred == ir.CmpLE
	case ir.CmpLT, ir.CmpGE: // b > a
		c, neg = gt, pred == ir.CmpGE
		a, b = b, a
	default:
		l.fail("no vector form of %s", n)
		return d
	}
	if !t.IsSigned() && isGT {
		l.fail("no vector form of %s", n)
		return d
	}
	l.emit(c, l.src(b), use(l.reg(a)), def(d))
	if neg {
		nd := l.newReg(classVec, l.width(t))
		l.emit(f3(x86.VPXOR), l.constArg(math.MaxUint64>>(64-uint(eb)), eb, l.width(t)), use(d), def(nd))
		d = nd
	}
	return d
}

// test lowers x & c != 0 for a constant c of one bit: a test into a mask
// register on AVX-512, an and and a compare with c on AVX2.
func (l *lowerer) test(n *Node) *vreg {
	x, c := n.Args[0], n.Args[1]
	t := x.Type
	eb := t.Bits()
	if l.isa.Masks {
		d := l.newReg(classMask, 16)
		l.emit(pick2(eb, x86.VPTESTMD, x86.VPTESTMQ), l.src(c), use(l.reg(x)), def(d))
		return d
	}
	l.pw[n] = eb
	a := l.vec(t)
	l.emit(f3(x86.VPAND), l.src(c), use(l.reg(x)), def(a))
	d := l.vec(t)
	l.emit(pick2(eb, x86.VPCMPEQD, x86.VPCMPEQQ), l.src(c), use(a), def(d))
	return d
}

// sel lowers select(c, a, b).
func (l *lowerer) sel(n *Node) *vreg {
	c, a, b := n.Args[0], n.Args[1], n.Args[2]
	t := n.Type
	eb := t.Bits()
	if t == ir.Pred {
		l.fail("a select of predicates")
		return nil
	}
	d := l.vec(t)
	if l.isa.Masks {
		l.emit(pick2(eb, x86.VPBLENDMD, x86.VPBLENDMQ), l.src(a), use(l.reg(b)), use(l.reg(c)), def(d))
		return d
	}
	m := l.predAt(c, eb)
	l.emit(pick2(eb, f4(x86.VBLENDVPS), f4(x86.VBLENDVPD)), use(m), l.src(a), use(l.reg(b)), def(d))
	return d
}

// cvt lowers a conversion.
func (l *lowerer) cvt(n *Node) *vreg {
	a := n.Args[0]
	from, to := a.Type, n.Type
	x512 := l.isa.Masks
	if a.IsConst() {
		l.fail("a conversion of a constant: %s", n)
		return nil
	}
	r := l.reg(a)
	d := l.vec(to)
	switch {
	case from.IsInt() && to.IsInt():
		switch {
		case from.Bits() == to.Bits():
			return l.alias(n)
		case from.Bits() == 32 && from.IsSigned():
			l.emit(x86.VPMOVSXDQ, use(r), def(d))
		case from.Bits() == 32:
			l.emit(x86.VPMOVZXDQ, use(r), def(d))
		default:
			l.narrow(r, d)
		}
	case from == ir.S32 && to.IsFloat():
		l.emit(pick2(to.Bits(), x86.VCVTDQ2PS, x86.VCVTDQ2PD), use(r), def(d))
	case from == ir.F32 && to == ir.F64:
		l.emit(x86.VCVTPS2PD, use(r), def(d))
	case from == ir.F64 && to == ir.F32:
		c := x86.VCVTPD2PS
		if !x512 {
			c = x86.VCVTPD2PSY
		}
		l.emit(c, use(r), def(d))
	case from.IsFloat() && to.IsSigned():
		return l.cvtFloatInt(n, r)
	default:
		l.fail("no vector form of %s", n)
	}
	return d
}

// cvtFloatInt lowers a float-to-signed-integer conversion (toward zero),
// with the IR's saturation where the operand may be out of range.
func (l *lowerer) cvtFloatInt(n *Node, r *vreg) *vreg {
	a := n.Args[0]
	from, to := a.Type, n.Type
	fb, tb := from.Bits(), to.Bits()
	x512 := l.isa.Masks
	limit := math.Ldexp(1, tb-1)
	iv := l.rng[a]
	safe := iv.known && iv.lo > -limit && iv.hi < limit
	d := l.vec(to)
	switch {
	case from == ir.F32 && to == ir.S32:
		l.emit(x86.VCVTTPS2DQ, use(r), def(d))
	case from == ir.F64 && to == ir.S32 && x512:
		l.emit(x86.VCVTTPD2DQ, use(r), def(d))
	case from == ir.F64 && to == ir.S32:
		l.emit(x86.VCVTTPD2DQY, use(r), def(d))
	case from == ir.F64 && to == ir.S64 && x512:
		l.emit(x86.VCVTTPD2QQ, use(r), def(d))
	case from == ir.F32 && to == ir.S64 && x512:
		l.emit(x86.VCVTTPS2QQ, use(r), def(d))
	case from == ir.F64 && to == ir.S64:
		d = l.cvtF64S64(r)
		safe = false
	default:
		l.fail("no vector form of %s", n)
		return d
	}
	if safe {
		return d
	}
	// x86 gives the most negative integer for NaN and out-of-range values:
	// right below the range; NaN becomes 0 and values above the range the
	// largest integer. f64 to s64 on AVX2 also fixes values below.
	fcmp := pick2(fb, x86.VCMPPS, x86.VCMPPD)
	lim := func(v float64) uint64 {
		if fb == 32 {
			return uint64(math.Float32bits(float32(v)))
		}
		return math.Float64bits(v)
	}
	maxInt := uint64(1)<<uint(tb-1) - 1
	fixes := []struct {
		pred ir.CmpPred
		b    marg
		to   uint64
	}{
		{ir.CmpGE, l.constArg(lim(limit), fb, l.width(from)), maxInt},
		{ir.CmpNAN, use(r), 0},
	}
	if to == ir.S64 && !x512 {
		fixes = append(fixes, struct {
			pred ir.CmpPred
			b    marg
			to   uint64
		}{ir.CmpLE, l.constArg(lim(-limit), fb, l.width(from)), 1 << 63})
	}
	for _, f := range fixes {
		nd := l.vec(to)
		if x512 {
			k := l.newReg(classMask, 16)
			l.emit(fcmp, imm(cmpImm[f.pred]), f.b, use(r), def(k))
			l.emit(pick2(tb, x86.VPBLENDMD, x86.VPBLENDMQ), l.constArg(f.to, tb, l.width(to)), use(d), use(k), def(nd))
		} else {
			m := l.newReg(classVec, l.width(from))
			l.emit(fcmp, imm(cmpImm[f.pred]), f.b, use(r), def(m))
			if fb != tb {
				m2 := l.newReg(classVec, l.lanes*tb)
				l.narrow(m, m2)
				m = m2
			}
			l.emit(pick2(tb, f4(x86.VBLENDVPS), f4(x86.VBLENDVPD)), use(m), l.constArg(f.to, tb, l.width(to)), use(d), def(nd))
		}
		d = nd
	}
	return d
}

// cvtF64S64 converts float64 lanes to int64 toward zero on AVX2, which
// has no instruction for it: the integral part's significand shifted by
// its exponent, negated for negative values (out-of-range lanes are
// fixed by the caller).
func (l *lowerer) cvtF64S64(r *vreg) *vreg {
	w := l.lanes * 64
	v := func() *vreg { return l.newReg(classVec, w) }
	c := func(x uint64) marg { return l.constArg(x, 64, w) }
	t, ab, e, m, m2, sh, nsh, left, right, mag, sgn, x, res := v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v()
	l.emit(f3(x86.VROUNDPD), imm(11), use(r), def(t))
	l.emit(f3(x86.VPAND), c(1<<63-1), use(t), def(ab))
	l.emit(x86.VPSRLQ, imm(52), use(ab), def(e))
	l.emit(f3(x86.VPAND), c(1<<52-1), use(ab), def(m))
	l.emit(f3(x86.VPOR), c(1<<52), use(m), def(m2))
	l.emit(x86.VPSUBQ, c(1075), use(e), def(sh))
	l.emit(x86.VPSUBQ, use(e), use(l.constReg(1075, 64, w)), def(nsh))
	l.emit(x86.VPSLLVQ, use(sh), use(m2), def(left))
	l.emit(x86.VPSRLVQ, use(nsh), use(m2), def(right))
	l.emit(f3(x86.VPOR), use(right), use(left), def(mag))
	l.emit(x86.VPCMPGTQ, use(t), use(l.constReg(0, 64, w)), def(sgn))
	l.emit(f3(x86.VPXOR), use(sgn), use(mag), def(x))
	l.emit(x86.VPSUBQ, use(sgn), use(x), def(res))
	return res
}
