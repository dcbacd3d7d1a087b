// This file implements the assembly output: for each function and ISA,
// a Go assembly function (through avo) that runs the allocated body over
// the elements a vector at a time, the last vector partial under a lane
// mask, and returns early, before storing anything of it, at the first
// vector with a lane the portable code must compute. A function with a
// fast path (pow's, and the ordinary-range paths of Specialize) computes
// a vector with a lane outside it by its full program instead (the main
// loop's vectors as many at a time, by an unrolled body of the full
// program), and returns early only at a lane the full program leaves to
// the portable code. Each body tests its bail-out predicate as soon as
// it has it, before the rest (see bailFirst). The constants the bodies
// read most are loaded into registers before the loop (see pin.go).
//
// The functions have the Go signature func(d, a[, b] *T, n int) int:
// they compute n elements (n > 0) and return n, or the index (a multiple
// of the lane count) of the vector they stopped at.
//
// Registers: DI, SI and DX hold d, a and b; CX n; AX the index of the
// vector; BX the elements left; R9 the bits of the active lanes (K1 on
// AVX-512); R8 is scratch.

package vecgen

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

// asmFile accumulates one ISA's assembly file.
type asmFile struct {
	isa    *ISA
	ctx    *build.Context
	consts map[cdata]operand.Mem
	order  []cdata
	nlabel int
	bailTo string // the label a body's bail-out jumps to ("": bail, or loop1 from whole vectors)
}

func newAsmFile(isa *ISA) *asmFile {
	ctx := build.NewContext()
	ctx.ConstraintExpr("amd64,!purego")
	return &asmFile{isa: isa, ctx: ctx, consts: map[cdata]operand.Mem{}}
}

// konst returns the memory operand of a constant vector (always the full
// register width in memory; narrower reads take its start).
func (f *asmFile) konst(c cdata, _ int) operand.Mem {
	if m, ok := f.consts[c]; ok {
		return m
	}
	name := fmt.Sprintf("%s_k%d_%x", f.isa.Name, c.elem, c.bits)
	if c.iota {
		name = fmt.Sprintf("%s_iota%d", f.isa.Name, c.elem)
	}
	m := operand.NewDataAddr(operand.Symbol{Name: name, Static: true}, 0)
	f.consts[c] = m
	f.order = append(f.order, c)
	return m
}

// data writes the constants' DATA and GLOBL directives.
func (f *asmFile) data() {
	for _, c := range f.order {
		m := f.consts[c]
		f.ctx.StaticGlobal(m.Symbol.Name)
		f.ctx.DataAttributes(attr.RODATA | attr.NOPTR)
		n := f.isa.VecBits / c.elem
		for i := 0; i < n; i++ {
			v := c.bits
			if c.iota {
				v = uint64(i)
			}
			if c.elem == 32 {
				f.ctx.AppendDatum(operand.U32(v))
			} else {
				f.ctx.AppendDatum(operand.U64(v))
			}
		}
	}
}

func (f *asmFile) label(base string) string {
	f.nlabel++
	return fmt.Sprintf("%s%d", base, f.nlabel)
}

func (f *asmFile) inst(c ctor, ops ...operand.Op) error {
	in, err := c(ops...)
	if err != nil {
		var names []string
		for _, o := range ops {
			names = append(names, o.Asm())
		}
		return fmt.Errorf("%w: %s (%s)", err, strings.Join(names, ", "), runtimeFuncName(c))
	}
	f.ctx.Instruction(in)
	return nil
}

// AsmName returns the name of f's assembly function for an ISA.
func AsmName(fn Func, isa *ISA) string { return lowerFirst(fn.Name()) + "_" + isa.Name }

// Lanes returns the elements of one vector of the program on isa.
func Lanes(isa *ISA, p *Program) int { return isa.VecBits / p.MaxBits() }

// Unroll is the number of whole vectors the main loop computes an
// iteration, interleaved, unless unrollBy says otherwise.
const Unroll = 2

// unrollBy gives the functions whose main loop computes more vectors an
// iteration on AVX-512: those with long dependency chains (two
// polynomials on a double-float reduction) where its 32 registers allow
// it. Measured on Zen 4 in L1: sin, cos and tan 6-9% faster by 4 than by
// 2, pow on float64 18%, exp on float32 8%; log and log2 slower (their
// constants no longer fit beside the values), and on AVX2's 16 registers
// sin, cos and tan 6-13% slower (spills).
var unrollBy = map[Func]int{
	{ir.MathSin, ir.F32}: 4, {ir.MathSin, ir.F64}: 4,
	{ir.MathCos, ir.F32}: 4, {ir.MathCos, ir.F64}: 4,
	{ir.MathTan, ir.F32}: 4, {ir.MathTan, ir.F64}: 4,
	{ir.MathPow, ir.F64}: 4, {ir.MathExp, ir.F32}: 4,
}

// unroll returns the vectors of fn's main loop an iteration on isa.
func unroll(fn Func, isa *ISA) int {
	if u, ok := unrollBy[fn]; ok && isa.NVec >= 32 {
		return u
	}
	return Unroll
}

// lowered is a loop body lowered and not yet allocated.
type lowered struct {
	code  []minst
	lanes int
}

// body lowers the loop body of p: one vector under the lane mask (copies
// 1) or copies whole vectors.
//
// The bail-out test comes as soon as the copies have computed the
// predicate (see bailFirst), so that a vector that leaves the body does
// little of it first.
func (f *asmFile) body(p *Program, copies int) (*lowered, error) {
	whole := copies > 1
	bail := func(i int, ls []*lowerer) {
		if p.Bail == nil || p.Nodes[i] != p.Bail {
			return
		}
		l := ls[0]
		b := l.reg(p.Bail)
		for _, lc := range ls[1:] {
			c := lc.reg(p.Bail)
			d := l.newReg(b.class, b.bits)
			if f.isa.Masks {
				l.emit(f3(x86.KORW), use(c), use(b), def(d))
			} else {
				l.emit(f3(x86.VPOR), use(c), use(b), def(d))
			}
			b = d
		}
		*l.code = append(*l.code, minst{args: []marg{use(b)}, special: specBail, index: l.predWidth(p.Bail), whole: whole})
	}
	ls, _, err := lowerProgram(f.isa, p, copies, bail)
	if err != nil {
		return nil, err
	}
	l := ls[0]
	emitted := func() []minst { return *l.code }
	for _, lc := range ls {
		store := []marg{use(lc.reg(p.Out))}
		if !f.isa.Masks && !whole {
			store = append(store, def(lc.vec(p.Func.Type)))
		}
		*l.code = append(emitted(), minst{args: store, special: specStore, copy: lc.copy, whole: whole})
	}
	return &lowered{code: emitted(), lanes: l.lanes}, nil
}

// function compiles one program. With a full program, p is a fast path
// whose bail-out predicate marks the lanes it does not cover: a vector
// with such a lane is computed by full, in the same loop, instead of
// being left to the portable code.
func (f *asmFile) function(p, full *Program) error {
	fn := p.Func
	es := fn.Type.Size()
	if f.isa.Masks {
		p.mergeSelects()
		if full != nil {
			full.mergeSelects()
		}
	}
	p.bailFirst()
	if full != nil {
		full.bailFirst()
	}
	lone, err := f.body(p, 1)
	if err != nil {
		return fmt.Errorf("vecgen: %s, %s: %w", fn.Name(), f.isa.Name, err)
	}
	lanes := lone.lanes
	u := unroll(fn, f.isa)
	lmany, err := f.body(p, u)
	if err != nil {
		return fmt.Errorf("vecgen: %s, %s: %w", fn.Name(), f.isa.Name, err)
	}
	bodies := []*lowered{lmany, lone}
	if full != nil {
		if p.Bail == nil || Lanes(f.isa, p) != Lanes(f.isa, full) {
			return fmt.Errorf("vecgen: %s, %s: a fast path needs a bail-out predicate, and a full path of as many lanes", fn.Name(), f.isa.Name)
		}
		lslow, err := f.body(full, 1)
		if err != nil {
			return fmt.Errorf("vecgen: %s, %s (full path): %w", fn.Name(), f.isa.Name, err)
		}
		lslowMany, err := f.body(full, u)
		if err != nil {
			return fmt.Errorf("vecgen: %s, %s (full path): %w", fn.Name(), f.isa.Name, err)
		}
		bodies = append(bodies, lslow, lslowMany)
	}
	pins, pinOrder, placedBodies, nslots, err := f.pin(bodies)
	if err != nil {
		return fmt.Errorf("vecgen: %s, %s: %w", fn.Name(), f.isa.Name, err)
	}
	many, one := placedBodies[0], placedBodies[1]
	var slow, slowMany []placed
	if full != nil {
		slow, slowMany = placedBodies[2], placedBodies[3]
	}

	ctx := f.ctx
	ctx.Function(AsmName(fn, f.isa))
	gt := goTypes[fn.Type]
	if fn.Arity() == 1 {
		ctx.SignatureExpr(fmt.Sprintf("func(d, a *%s, n int) int", gt))
	} else {
		ctx.SignatureExpr(fmt.Sprintf("func(d, a, b *%s, n int) int", gt))
	}
	if nslots == 0 {
		ctx.Attributes(attr.NOSPLIT)
	} else {
		ctx.AllocLocal(nslots * f.isa.VecBits / 8)
	}
	ctx.Pragma("noescape")
	ctx.Doc(fmt.Sprintf("%s computes %s of %s over n > 0 elements, %d a vector (see asm.go of vecgen).", AsmName(fn, f.isa), fn.Fn, gt, lanes))
	ctx.Load(ctx.Param("d"), reg.RDI)
	ctx.Load(ctx.Param("a"), reg.RSI)
	if fn.Arity() == 2 {
		ctx.Load(ctx.Param("b"), reg.RDX)
	}
	ctx.Load(ctx.Param("n"), reg.RCX)
	var errs []error
	do := func(c ctor, ops ...operand.Op) {
		if err := f.inst(c, ops...); err != nil {
			errs = append(errs, err)
		}
	}
	emitBody := func(body []placed) {
		for _, pl := range body {
			if pl.m.special == specNone {
				do(pl.m.ctor, pl.ops...)
				continue
			}
			if err := f.special(pl, fn, lanes, es); err != nil {
				errs = append(errs, err)
			}
		}
	}
	// The pinned constants, held in registers through the loops.
	for _, c := range pinOrder {
		do(x86.VMOVUPS, f.konst(c, f.isa.VecBits), vecReg(pins[c], f.isa.VecBits))
	}
	do(f2(x86.XORQ), reg.RAX, reg.RAX)
	// The main loop: u whole vectors an iteration; a set of vectors
	// with a lane for the portable code goes to the single-vector loop.
	ctx.Label("loopu")
	do(f2(x86.MOVQ), reg.RCX, reg.RBX)
	do(f2(x86.SUBQ), reg.RAX, reg.RBX)
	do(f2(x86.CMPQ), reg.RBX, operand.U8(u*lanes))
	do(f1(x86.JL), operand.LabelRef("loop1"))
	if f.isa.Masks && p.Bail != nil {
		// Every lane active: the bail-out test reads K1, since a
		// predicate's mask register may have bits set beyond the lanes
		// (KNOTW flips all 16).
		do(f2(x86.MOVQ), operand.U32(uint32(1)<<uint(lanes)-1), reg.R9)
		do(f2(x86.KMOVW), reg.R9L, reg.K1)
	}
	if full != nil {
		f.bailTo = "fullu"
	}
	emitBody(many)
	f.bailTo = ""
	do(f2(x86.ADDQ), operand.U8(u*lanes), reg.RAX)
	do(f1(x86.JMP), operand.LabelRef("loopu"))
	if full != nil {
		// The whole vectors the fast path left, by the full path, as
		// many at a time; a lane for the portable code sends them to
		// the single-vector loop.
		ctx.Label("fullu")
		emitBody(slowMany)
		do(f2(x86.ADDQ), operand.U8(u*lanes), reg.RAX)
		do(f1(x86.JMP), operand.LabelRef("loopu"))
	}
	// The single-vector loop: the last partial vector under a lane mask,
	// and the vectors the main loop leaves.
	ctx.Label("loop1")
	do(f2(x86.MOVQ), reg.RCX, reg.RBX)
	do(f2(x86.SUBQ), reg.RAX, reg.RBX)
	do(f1(x86.JLE), operand.LabelRef("done"))
	do(f2(x86.CMPQ), reg.RBX, operand.U8(lanes))
	do(f1(x86.JAE), operand.LabelRef("whole"))
	do(f2(x86.MOVQ), operand.U32(1), reg.R9)
	do(f3(x86.SHLXQ), reg.RBX, reg.R9, reg.R9)
	do(f1(x86.DECQ), reg.R9)
	do(f1(x86.JMP), operand.LabelRef("active"))
	ctx.Label("whole")
	do(f2(x86.MOVQ), operand.U32(uint32(1)<<uint(lanes)-1), reg.R9)
	ctx.Label("active")
	if f.isa.Masks {
		do(f2(x86.KMOVW), reg.R9L, reg.K1)
	}
	emitBody(one)
	ctx.Label("next")
	do(f2(x86.ADDQ), operand.U8(lanes), reg.RAX)
	do(f1(x86.JMP), operand.LabelRef("loopu"))
	if full != nil {
		// The vector the fast path left, under the same lane mask; the
		// full path's own bail-out returns it to the portable code.
		ctx.Label("bail")
		f.bailTo = "port"
		emitBody(slow)
		f.bailTo = ""
		do(f1(x86.JMP), operand.LabelRef("next"))
	}
	if (full == nil && p.Bail != nil) || (full != nil && full.Bail != nil) {
		ctx.Label(map[bool]string{true: "port", false: "bail"}[full != nil])
		ctx.Store(reg.RAX, ctx.ReturnIndex(0))
		do(f0(x86.VZEROUPPER))
		do(f0(x86.RET))
	}
	ctx.Label("done")
	ctx.Store(reg.RCX, ctx.ReturnIndex(0))
	do(f0(x86.VZEROUPPER))
	do(f0(x86.RET))
	if len(errs) > 0 {
		return fmt.Errorf("vecgen: %s, %s: %v", fn.Name(), f.isa.Name, errs[0])
	}
	return nil
}

// special writes the loads, the store and the bail-out test.
func (f *asmFile) special(pl placed, fn Func, lanes, es int) error {
	m := pl.m
	var errs []error
	do := func(c ctor, ops ...operand.Op) {
		if err := f.inst(c, ops...); err != nil {
			errs = append(errs, err)
		}
	}
	elem := es * 8
	mov := pick2(elem, x86.VMOVUPS, x86.VMOVUPD)
	movZ := pick2(elem, f3(x86.VMOVUPS_Z), f3(x86.VMOVUPD_Z))
	maskmov := pick2(elem, f3(x86.VMASKMOVPS), f3(x86.VMASKMOVPD))
	// tailMask writes the AVX2 mask of the active lanes into t.
	tailMask := func(t operand.Op) {
		tx := t.(reg.VecPhysical).AsX()
		do(f2(x86.VMOVQ), reg.RBX, tx)
		do(pick2(elem, x86.VPBROADCASTD, x86.VPBROADCASTQ), tx, t)
		do(pick2(elem, x86.VPCMPGTD, x86.VPCMPGTQ), f.konst(cdata{elem: elem, iota: true}, 0), t, t)
	}
	switch m.special {
	case specLoad:
		base := []reg.Register{reg.RSI, reg.RDX}[m.index]
		mem := operand.Mem{Base: base, Index: reg.RAX, Scale: uint8(es), Disp: m.copy * lanes * es}
		if m.whole {
			do(mov, mem, pl.ops[0])
			break
		}
		if f.isa.Masks {
			do(movZ, mem, reg.K1, pl.ops[0])
			break
		}
		tail, end := f.label("ltail"), f.label("lend")
		do(f2(x86.CMPQ), reg.RBX, operand.U8(lanes))
		do(f1(x86.JB), operand.LabelRef(tail))
		do(mov, mem, pl.ops[0])
		do(f1(x86.JMP), operand.LabelRef(end))
		f.ctx.Label(tail)
		tailMask(pl.ops[1])
		do(maskmov, mem, pl.ops[1], pl.ops[0])
		f.ctx.Label(end)
	case specStore:
		mem := operand.Mem{Base: reg.RDI, Index: reg.RAX, Scale: uint8(es), Disp: m.copy * lanes * es}
		if m.whole {
			do(mov, pl.ops[0], mem)
			break
		}
		if f.isa.Masks {
			do(mov, pl.ops[0], reg.K1, mem)
			break
		}
		tail, end := f.label("stail"), f.label("send")
		do(f2(x86.CMPQ), reg.RBX, operand.U8(lanes))
		do(f1(x86.JB), operand.LabelRef(tail))
		do(mov, pl.ops[0], mem)
		do(f1(x86.JMP), operand.LabelRef(end))
		f.ctx.Label(tail)
		tailMask(pl.ops[1])
		do(maskmov, pl.ops[0], pl.ops[1], mem)
		f.ctx.Label(end)
	case specBail:
		if m.whole {
			if f.isa.Masks {
				do(f2(x86.KTESTW), pl.ops[0], reg.K1)
			} else {
				do(f2(x86.VPTEST), pl.ops[0], pl.ops[0])
			}
			do(f1(x86.JNE), operand.LabelRef(cmp.Or(f.bailTo, "loop1")))
			break
		}
		if f.isa.Masks {
			do(f2(x86.KTESTW), pl.ops[0], reg.K1)
		} else {
			do(pick2(m.index, f2(x86.VMOVMSKPS), f2(x86.VMOVMSKPD)), pl.ops[0], reg.R8L)
			do(f2(x86.TESTL), reg.R9L, reg.R8L)
		}
		do(f1(x86.JNE), operand.LabelRef(cmp.Or(f.bailTo, "bail")))
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// print compiles the file with avo's passes and prints the assembly and
// the Go declarations.
func (f *asmFile) print() (asm, stubs []byte, err error) {
	file, err := f.ctx.Result()
	if err != nil {
		return nil, nil, fmt.Errorf("vecgen: %s: %w", f.isa.Name, err)
	}
	if err := pass.Compile.Execute(file); err != nil {
		return nil, nil, fmt.Errorf("vecgen: %s: %w", f.isa.Name, err)
	}
	cfg := printer.Config{Name: "internal/vecmath/gen.go", Pkg: "vecmath"}
	if asm, err = printer.NewGoAsm(cfg).Print(file); err != nil {
		return nil, nil, err
	}
	if stubs, err = printer.NewStubs(cfg).Print(file); err != nil {
		return nil, nil, err
	}
	return asm, stubs, nil
}

// f0 and f1 adapt avo's constructors of no or one operand.
func f0(f func() (*avoInstr, error)) ctor {
	return func(o ...operand.Op) (*avoInstr, error) { return f() }
}

func f1(f func(a operand.Op) (*avoInstr, error)) ctor {
	return func(o ...operand.Op) (*avoInstr, error) {
		if len(o) != 1 {
			return nil, fmt.Errorf("%d operands, want 1", len(o))
		}
		return f(o[0])
	}
}

var _ = math.MaxInt64
var _ = ir.F32

// runtimeFuncName names a constructor for error messages.
func runtimeFuncName(c ctor) string {
	return runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name()
}
