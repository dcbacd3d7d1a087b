// This file implements lowering: a flat program becomes machine
// instructions for AVX-512 or AVX2 over virtual registers, one vector of
// lanes per iteration. Values of the widest type fill a register; the
// narrower ones (the 32-bit exponents of a float64 function) fill half
// of one, lane for lane. Compares give mask registers (AVX-512) or lane
// masks in vector registers (AVX2, whose masks are converted between 32-
// and 64-bit lanes where a select needs it); selects are blends; float-
// to-integer conversions get the IR's saturation (NaN to 0, the ends of
// the range beyond it) unless the range analysis shows the operand in
// range.

package vecgen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/x86"
)

// ISA is a vector instruction set the generator targets.
type ISA struct {
	Name    string // "avx512", "avx2"
	VecBits int    // register width
	NVec    int    // vector registers
	Masks   bool   // AVX-512 mask registers
}

// The targets.
var (
	AVX512 = &ISA{Name: "avx512", VecBits: 512, NVec: 32, Masks: true}
	AVX2   = &ISA{Name: "avx2", VecBits: 256, NVec: 16}
)

type ctor = func(...operand.Op) (*avoInstr, error)

var _ = operand.Imm

// pick returns a for 32-bit lanes and b for 64-bit ones.
func pick2[T any](bits int, a, b T) T {
	if bits == 32 {
		return a
	}
	return b
}

// lowerer lowers one program for one ISA.
type lowerer struct {
	isa   *ISA
	p     *Program
	lanes int
	code  *[]minst // shared by the copies of an unrolled body
	copy  int      // which vector of an unrolled body
	whole bool     // an unrolled body: whole vectors, no lane mask
	val   map[*Node]*vreg
	pw    map[*Node]int       // AVX2: lane width of a predicate's mask
	conv  map[[2]int]*vreg    // AVX2: predicate masks converted, by node ID and width
	konst map[[3]uint64]*vreg // constants in registers by (bits, elem, width)
	rng   map[*Node]interval
	last  map[*Node]int // the index of the last node that reads a node
	cur   int
	nregs int
	err   error
}

func (l *lowerer) fail(format string, a ...any) {
	if l.err == nil {
		l.err = fmt.Errorf("vecgen: %s, %s: %s", l.p.Func.Name(), l.isa.Name, fmt.Sprintf(format, a...))
	}
}

func (l *lowerer) newReg(class regClass, bits int) *vreg {
	l.nregs++
	return &vreg{id: l.nregs, class: class, bits: bits}
}

// width returns the register width of a value of type t.
func (l *lowerer) width(t ir.Type) int { return l.lanes * t.Bits() }

func (l *lowerer) vec(t ir.Type) *vreg { return l.newReg(classVec, l.width(t)) }

func (l *lowerer) emit(c ctor, args ...marg) { *l.code = append(*l.code, minst{ctor: c, args: args}) }

// constArg returns a memory operand of the constant n at the width of
// its type.
func (l *lowerer) constArg(bits uint64, elem, width int) marg {
	return marg{kind: argConst, c: cdata{elem: elem, bits: bits}, bits: width}
}

// constReg returns a register holding a constant (reloaded from memory
// when needed).
func (l *lowerer) constReg(bits uint64, elem, width int) *vreg {
	k := [3]uint64{bits, uint64(elem), uint64(width)}
	if r, ok := l.konst[k]; ok {
		return r
	}
	r := l.newReg(classVec, width)
	r.konst = &cdata{elem: elem, bits: bits}
	l.konst[k] = r
	return r
}

// src returns n as an operand that may be in memory.
func (l *lowerer) src(n *Node) marg {
	if n.IsConst() {
		return l.constArg(n.Bits, n.Type.Bits(), l.width(n.Type))
	}
	return use(l.reg(n))
}

// reg returns n in a register.
func (l *lowerer) reg(n *Node) *vreg {
	if n.IsConst() {
		if n.Type == ir.Pred {
			l.fail("a constant predicate")
			return l.newReg(classMask, 16)
		}
		return l.constReg(n.Bits, n.Type.Bits(), l.width(n.Type))
	}
	r, ok := l.val[n]
	if !ok {
		l.fail("v%d is used before it is computed", n.ID)
		return l.vec(n.Type)
	}
	return r
}

// dies reports whether the node being lowered is the last to read n.
func (l *lowerer) dies(n *Node) bool {
	return !n.IsConst() && l.last[n] == l.cur && n != l.p.Out && n != l.p.Bail
}

// isSafeConst reports whether n is a constant that is not NaN (operands
// may be swapped around it without changing which NaN comes out).
func isSafeConst(n *Node) bool {
	c, ok := constFloat(n)
	if n.IsConst() && !n.Type.IsFloat() {
		return true
	}
	return ok && c == c
}

var commutes = map[ir.Op]bool{ir.OpAdd: true, ir.OpMul: true, ir.OpAnd: true, ir.OpOr: true, ir.OpXor: true}

// binary emits dst = a op b with b allowed in memory.
func (l *lowerer) binary(c ctor, n *Node) *vreg {
	a, b := n.Args[0], n.Args[1]
	if a.IsConst() && !b.IsConst() && commutes[n.Op] && isSafeConst(a) {
		a, b = b, a
	}
	d := l.vec(n.Type)
	l.emit(c, l.src(b), use(l.reg(a)), def(d))
	return d
}

// Float compare predicates: the x86 immediate of each and the predicate
// with the operands swapped.
var cmpImm = map[ir.CmpPred]uint64{
	ir.CmpEQ: 0x00, ir.CmpNE: 0x0C, ir.CmpLT: 0x11, ir.CmpLE: 0x12, ir.CmpGT: 0x1E, ir.CmpGE: 0x1D,
	ir.CmpEQU: 0x08, ir.CmpNEU: 0x04, ir.CmpLTU: 0x19, ir.CmpLEU: 0x1A, ir.CmpGTU: 0x16, ir.CmpGEU: 0x15,
	ir.CmpNUM: 0x07, ir.CmpNAN: 0x03,
}

var cmpSwap = map[ir.CmpPred]ir.CmpPred{
	ir.CmpLT: ir.CmpGT, ir.CmpGT: ir.CmpLT, ir.CmpLE: ir.CmpGE, ir.CmpGE: ir.CmpLE,
	ir.CmpLTU: ir.CmpGTU, ir.CmpGTU: ir.CmpLTU, ir.CmpLEU: ir.CmpGEU, ir.CmpGEU: ir.CmpLEU,
}

func swapCmp(c ir.CmpPred) ir.CmpPred {
	if s, ok := cmpSwap[c]; ok {
		return s
	}
	return c
}

// AVX-512 integer compare immediates (VPCMP[U]D/Q).
var intCmpImm = map[ir.CmpPred]uint64{ir.CmpEQ: 0, ir.CmpLT: 1, ir.CmpLE: 2, ir.CmpNE: 4, ir.CmpGE: 5, ir.CmpGT: 6}

// lowerProgram lowers p for isa: one vector under the lane mask, or
// (copies > 1) that many whole vectors, their instructions interleaved
// node by node so that their dependency chains overlap.
//
// after, when not nil, is called once the copies have lowered node i,
// and may emit instructions of its own through the lowerers.
func lowerProgram(isa *ISA, p *Program, copies int, after func(i int, ls []*lowerer)) ([]*lowerer, []minst, error) {
	var code []minst
	konst := map[[3]uint64]*vreg{}
	last := map[*Node]int{}
	for i, n := range p.Nodes {
		for _, a := range n.Args {
			last[a] = i
		}
	}
	rng := ranges(p)
	nregs := 0
	ls := make([]*lowerer, copies)
	for c := range ls {
		ls[c] = &lowerer{isa: isa, p: p, code: &code, copy: c, whole: copies > 1, val: map[*Node]*vreg{},
			pw: map[*Node]int{}, conv: map[[2]int]*vreg{}, konst: konst, last: last, rng: rng,
			lanes: isa.VecBits / p.MaxBits()}
	}
	for i, n := range p.Nodes {
		for _, l := range ls {
			l.cur = i
			l.nregs = nregs
			l.node(n)
			nregs = l.nregs
			if l.err != nil {
				return nil, nil, l.err
			}
		}
		if after != nil {
			ls[0].nregs = nregs
			after(i, ls)
			nregs = ls[0].nregs
		}
	}
	return ls, code, nil
}

// Supports reports whether the ISA compiles the instruction (Flatten's
// filter): the operations of the slow paths (64-bit high products,
// leading-zero counts, variable shift amounts, unsigned 64-bit
// conversions) are left to the portable code.
func (isa *ISA) Supports(in *ir.Instr) bool {
	at := ir.Invalid
	if len(in.Args) > 0 {
		at = in.Args[0].Type
	}
	rt := ir.Invalid
	if r := in.Result(); r != nil {
		rt = r.Type
	}
	switch in.Op {
	case ir.OpMulHi, ir.OpMulWide, ir.OpClz, ir.OpPopc, ir.OpDiv, ir.OpRem:
		return in.Op == ir.OpDiv && at.IsFloat()
	case ir.OpMul:
		return at.IsFloat() || at.Bits() == 32 || isa.Masks
	case ir.OpShl, ir.OpShr:
		return in.Args[1].IsConst() && (isa.Masks || !(in.Op == ir.OpShr && at.IsSigned() && at.Bits() == 64))
	case ir.OpMin, ir.OpMax:
		if at.IsFloat() {
			return (in.Args[0].IsConst() || in.Args[1].IsConst()) && safeMinMaxConst(in)
		}
		return at.Bits() == 32 || isa.Masks
	case ir.OpCmp:
		if at.IsFloat() || isa.Masks {
			return true
		}
		return at.IsSigned() || in.Cmp == ir.CmpEQ || in.Cmp == ir.CmpNE
	case ir.OpCvt:
		switch {
		case at.IsFloat() && rt.IsFloat():
			return in.Rnd <= ir.RndRN
		case at.IsFloat() && rt.IsInt():
			return rt.IsSigned() && (in.Rnd == ir.RndDefault || in.Rnd == ir.RndRZ) &&
				(isa.Masks || !(at == ir.F32 && rt.Bits() == 64))
		case at.IsInt() && rt.IsFloat():
			return at == ir.S32 && in.Rnd <= ir.RndRN
		case at.IsInt() && rt.IsInt():
			return at.Bits() >= 32 && rt.Bits() >= 32
		}
		return false
	case ir.OpMath:
		switch in.Fn {
		case ir.MathSqrt, ir.MathFloor, ir.MathCeil, ir.MathRoundEven, ir.MathTrunc:
			return true
		}
		return false
	case ir.OpAbs, ir.OpNeg:
		return at.IsFloat()
	}
	return true
}

// safeMinMaxConst reports whether the constant operand of a float min or
// max is neither NaN nor zero, so that one x86 min or max with the
// constant second gives PTX's result (a NaN operand yields the constant;
// equal operands have equal bits).
func safeMinMaxConst(in *ir.Instr) bool {
	for _, a := range in.Args {
		if a.IsConst() {
			c := a.ConstFloat()
			return c == c && c != 0
		}
	}
	return false
}

func (l *lowerer) node(n *Node) {
	switch n.Op {
	case opConst:
		return
	case opInput:
		d := l.vec(n.Type)
		args := []marg{def(d)}
		if !l.isa.Masks && !l.whole {
			args = append(args, def(l.vec(n.Type)))
		}
		*l.code = append(*l.code, minst{args: args, special: specLoad, index: n.Index, copy: l.copy, whole: l.whole})
		l.val[n] = d
		return
	}
	var at ir.Type
	if len(n.Args) > 0 {
		at = n.Args[0].Type
	}
	t := n.Type
	eb := t.Bits()
	if t == ir.Pred {
		eb = at.Bits()
	}
	x512 := l.isa.Masks
	var d *vreg
	if n.Merge {
		l.val[n] = l.merged(n)
		return
	}
	switch n.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv:
		if t.IsFloat() {
			ops := map[ir.Op][2]ctor{
				ir.OpAdd: {x86.VADDPS, x86.VADDPD}, ir.OpSub: {x86.VSUBPS, x86.VSUBPD},
				ir.OpMul: {x86.VMULPS, x86.VMULPD}, ir.OpDiv: {x86.VDIVPS, x86.VDIVPD},
			}[n.Op]
			d = l.binary(pick2(eb, ops[0], ops[1]), n)
			break
		}
		ops := map[ir.Op][2]ctor{
			ir.OpAdd: {x86.VPADDD, x86.VPADDQ}, ir.OpSub: {x86.VPSUBD, x86.VPSUBQ}, ir.OpMul: {x86.VPMULLD, x86.VPMULLQ},
		}[n.Op]
		if ops[0] == nil {
			l.fail("no vector form of %s", n)
			return
		}
		d = l.binary(pick2(eb, ops[0], ops[1]), n)
	case ir.OpAnd, ir.OpOr, ir.OpXor:
		if t == ir.Pred {
			d = l.predLogic(n)
			break
		}
		var ops [2]ctor
		if x512 {
			ops = map[ir.Op][2]ctor{ir.OpAnd: {x86.VPANDD, x86.VPANDQ}, ir.OpOr: {x86.VPORD, x86.VPORQ}, ir.OpXor: {x86.VPXORD, x86.VPXORQ}}[n.Op]
		} else {
			c := map[ir.Op]ctor{ir.OpAnd: f3(x86.VPAND), ir.OpOr: f3(x86.VPOR), ir.OpXor: f3(x86.VPXOR)}[n.Op]
			ops = [2]ctor{c, c}
		}
		d = l.binary(pick2(eb, ops[0], ops[1]), n)
	case ir.OpNot:
		if t == ir.Pred {
			d = l.predLogic(n)
			break
		}
		d = l.vec(t)
		x := l.constArg(math.MaxUint64>>(64-uint(eb)), eb, l.width(t))
		l.emit(l.xor(eb), x, use(l.reg(n.Args[0])), def(d))
	case ir.OpNeg, ir.OpAbs:
		d = l.vec(t)
		sign := uint64(1) << uint(eb-1)
		if n.Op == ir.OpNeg {
			l.emit(l.xor(eb), l.constArg(sign, eb, l.width(t)), use(l.reg(n.Args[0])), def(d))
		} else {
			l.emit(l.and(eb), l.constArg(sign-1, eb, l.width(t)), use(l.reg(n.Args[0])), def(d))
		}
	case ir.OpFMA:
		d = l.fma(n)
	case ir.OpMin, ir.OpMax:
		a, b := n.Args[0], n.Args[1]
		if t.IsFloat() {
			if a.IsConst() {
				a, b = b, a
			}
			c := map[ir.Op][2]ctor{ir.OpMin: {x86.VMINPS, x86.VMINPD}, ir.OpMax: {x86.VMAXPS, x86.VMAXPD}}[n.Op]
			d = l.vec(t)
			l.emit(pick2(eb, c[0], c[1]), l.src(b), use(l.reg(a)), def(d))
			break
		}
		var c [2]ctor
		if t.IsSigned() {
			c = map[ir.Op][2]ctor{ir.OpMin: {x86.VPMINSD, x86.VPMINSQ}, ir.OpMax: {x86.VPMAXSD, x86.VPMAXSQ}}[n.Op]
		} else {
			c = map[ir.Op][2]ctor{ir.OpMin: {x86.VPMINUD, x86.VPMINUQ}, ir.OpMax: {x86.VPMAXUD, x86.VPMAXUQ}}[n.Op]
		}
		if a.IsConst() {
			a, b = b, a
		}
		d = l.vec(t)
		l.emit(pick2(eb, c[0], c[1]), l.src(b), use(l.reg(a)), def(d))
	case ir.OpShl, ir.OpShr:
		amt := n.Args[1].Bits
		if amt > 255 {
			amt = 255
		}
		var c [2]ctor
		switch {
		case n.Op == ir.OpShl:
			c = [2]ctor{x86.VPSLLD, x86.VPSLLQ}
		case t.IsSigned():
			c = [2]ctor{x86.VPSRAD, x86.VPSRAQ}
		default:
			c = [2]ctor{x86.VPSRLD, x86.VPSRLQ}
		}
		d = l.vec(t)
		l.emit(pick2(eb, c[0], c[1]), imm(amt), use(l.reg(n.Args[0])), def(d))
	case ir.OpCmp:
		d = l.cmp(n)
	case opTest:
		d = l.test(n)
	case ir.OpSelect:
		d = l.sel(n)
	case ir.OpBitcast:
		d = l.alias(n)
	case ir.OpCvt:
		d = l.cvt(n)
	case ir.OpMath:
		a := use(l.reg(n.Args[0]))
		d = l.vec(t)
		if n.Fn == ir.MathSqrt {
			l.emit(pick2(eb, x86.VSQRTPS, x86.VSQRTPD), a, def(d))
			break
		}
		mode := map[ir.MathFn]uint64{ir.MathRoundEven: 0, ir.MathFloor: 1, ir.MathCeil: 2, ir.MathTrunc: 3}[n.Fn] | 8
		if x512 {
			l.emit(pick2(eb, x86.VRNDSCALEPS, x86.VRNDSCALEPD), imm(mode), a, def(d))
		} else {
			l.emit(pick2(eb, f3(x86.VROUNDPS), f3(x86.VROUNDPD)), imm(mode), a, def(d))
		}
	default:
		l.fail("no vector form of %s", n)
		return
	}
	l.val[n] = d
}

func (l *lowerer) xor(eb int) ctor {
	if l.isa.Masks {
		return pick2(eb, x86.VPXORD, x86.VPXORQ)
	}
	return f3(x86.VPXOR)
}

func (l *lowerer) and(eb int) ctor {
	if l.isa.Masks {
		return pick2(eb, x86.VPANDD, x86.VPANDQ)
	}
	return f3(x86.VPAND)
}

func (l *lowerer) or(eb int) ctor {
	if l.isa.Masks {
		return pick2(eb, x86.VPORD, x86.VPORQ)
	}
	return f3(x86.VPOR)
}

// alias gives n the register of its operand (bitcasts, conversions
// between integers of one width); a constant operand stays a constant.
func (l *lowerer) alias(n *Node) *vreg {
	a := n.Args[0]
	if a.IsConst() {
		return l.constReg(a.Bits, n.Type.Bits(), l.width(n.Type))
	}
	r := l.reg(a)
	if a.Type.Bits() != n.Type.Bits() {
		l.fail("alias of different widths: %s", n)
	}
	return r
}

// fma emits a*b+c in the form whose tied operand dies here, with a
// constant operand in the memory slot where one is.
func (l *lowerer) fma(n *Node) *vreg {
	a, b, c := n.Args[0], n.Args[1], n.Args[2]
	eb := n.Type.Bits()
	fam := fmaFamilies[[2]bool{n.NegMul, n.NegAdd}]
	f213, f231, f132 := pick2(eb, fam[0], fam[1]), pick2(eb, fam[2], fam[3]), pick2(eb, fam[4], fam[5])
	type form struct {
		c         ctor
		mem, y, x *Node // Go order: mem (may be memory), y, x (tied)
	}
	// x = y*x + mem (213), x = y*mem + x (231), x = x*mem + y (132).
	forms := []form{
		{f213, c, b, a}, {f213, c, a, b},
		{f231, b, a, c}, {f231, a, b, c},
		{f132, b, c, a}, {f132, a, c, b},
	}
	best, score := -1, -1
	for i, f := range forms {
		if f.x.IsConst() || f.y.IsConst() {
			continue
		}
		s := 0
		if l.dies(f.x) {
			s += 2
		}
		if f.mem.IsConst() {
			s++
		}
		if s > score {
			best, score = i, s
		}
	}
	d := l.vec(n.Type)
	if best < 0 { // two constant operands: put one in a register
		l.emit(f213, l.src(c), use(l.reg(b)), tied(d, l.reg(a)))
		return d
	}
	f := forms[best]
	l.emit(f.c, l.src(f.mem), use(l.reg(f.y)), tied(d, l.reg(f.x)))
	return d
}

// fmaFamilies are the fused multiply-add instructions by the negation of
// the product and of the addend (Node.NegMul, Node.NegAdd): the 213, 231
// and 132 forms, each on float32 and float64 lanes.
var fmaFamilies = map[[2]bool][6]ctor{
	{false, false}: {x86.VFMADD213PS, x86.VFMADD213PD, x86.VFMADD231PS, x86.VFMADD231PD, x86.VFMADD132PS, x86.VFMADD132PD},
	{false, true}:  {x86.VFMSUB213PS, x86.VFMSUB213PD, x86.VFMSUB231PS, x86.VFMSUB231PD, x86.VFMSUB132PS, x86.VFMSUB132PD},
	{true, false}:  {x86.VFNMADD213PS, x86.VFNMADD213PD, x86.VFNMADD231PS, x86.VFNMADD231PD, x86.VFNMADD132PS, x86.VFNMADD132PD},
	{true, true}:   {x86.VFNMSUB213PS, x86.VFNMSUB213PD, x86.VFNMSUB231PS, x86.VFNMSUB231PD, x86.VFNMSUB132PS, x86.VFNMSUB132PD},
}

// merged lowers an operation under a mask (Node.Merge, AVX-512 only):
// the result takes the register of the first operand, whose lanes
// outside the mask it keeps.
func (l *lowerer) merged(n *Node) *vreg {
	t := n.Type
	eb := t.Bits()
	x := n.Args[0]
	k := use(l.reg(n.Args[len(n.Args)-1]))
	d := l.vec(t)
	xr := l.reg(x)
	var c ctor
	var b marg
	switch n.Op {
	case ir.OpNeg:
		c, b = l.xor(eb), l.constArg(uint64(1)<<uint(eb-1), eb, l.width(t))
	case ir.OpAbs:
		c, b = l.and(eb), l.constArg(uint64(1)<<uint(eb-1)-1, eb, l.width(t))
	default:
		if t.IsFloat() {
			c = map[ir.Op][2]ctor{
				ir.OpAdd: {x86.VADDPS, x86.VADDPD}, ir.OpSub: {x86.VSUBPS, x86.VSUBPD}, ir.OpMul: {x86.VMULPS, x86.VMULPD},
				ir.OpAnd: {x86.VANDPS, x86.VANDPD}, ir.OpOr: {x86.VORPS, x86.VORPD}, ir.OpXor: {x86.VXORPS, x86.VXORPD},
			}[n.Op][map[int]int{32: 0, 64: 1}[eb]]
		} else {
			c = map[ir.Op][2]ctor{
				ir.OpAdd: {x86.VPADDD, x86.VPADDQ}, ir.OpSub: {x86.VPSUBD, x86.VPSUBQ}, ir.OpMul: {x86.VPMULLD, x86.VPMULLQ},
				ir.OpAnd: {x86.VPANDD, x86.VPANDQ}, ir.OpOr: {x86.VPORD, x86.VPORQ}, ir.OpXor: {x86.VPXORD, x86.VPXORQ},
			}[n.Op][map[int]int{32: 0, 64: 1}[eb]]
		}
		b = l.src(n.Args[1])
	}
	if c == nil || !l.isa.Masks {
		l.fail("no masked form of %s", n)
		return d
	}
	l.emit(c, b, use(xr), k, tied(d, xr))
	return d
}
