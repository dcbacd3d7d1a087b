// This file implements the table from IR op to PTX template and the
// templates of arithmetic, logic, compare, select and control flow. The
// templates of memory, conversion, warp and math ops are in ops_*.go.

package ptx

import (
	"github.com/fuseflow/fuseflow/codegen/ir"
)

// opRule is the PTX template of one IR op: the mnemonics for integer and
// float operands (the type suffix is appended), and the emit function
// that writes the instruction(s).
type opRule struct {
	intOp   string // integer mnemonic ("" when the op takes no integers)
	floatOp string // float mnemonic, accurate
	fastOp  string // float mnemonic under FastMath or Approx ("" = floatOp)
	suffix  suffixKind
	emit    func(e *fnEmitter, in *ir.Instr, r *opRule)
}

// suffixKind says which type name an ALU op appends.
type suffixKind uint8

const (
	suffixTyped suffixKind = iota // s32, u64, f32: the operand's type
	suffixLogic                   // b32 or pred: bitwise operations
	suffixBits                    // b32, b64: bit counts
)

// opRules is the table from IR op to template, indexed by ir.Op.
var opRules [ir.NumOps]opRule

func init() {
	opRules = [ir.NumOps]opRule{
		ir.OpAdd:       {intOp: "add", floatOp: "add.rn", fastOp: "add", emit: emitALU},
		ir.OpSub:       {intOp: "sub", floatOp: "sub.rn", fastOp: "sub", emit: emitALU},
		ir.OpMul:       {intOp: "mul.lo", floatOp: "mul.rn", fastOp: "mul", emit: emitALU},
		ir.OpDiv:       {intOp: "div", floatOp: "div.rn", fastOp: "div.full", emit: emitALU},
		ir.OpRem:       {intOp: "rem", emit: emitALU},
		ir.OpNeg:       {intOp: "neg", floatOp: "neg", emit: emitALU},
		ir.OpAbs:       {intOp: "abs", floatOp: "abs", emit: emitALU},
		ir.OpMin:       {intOp: "min", floatOp: "min", emit: emitALU},
		ir.OpMax:       {intOp: "max", floatOp: "max", emit: emitALU},
		ir.OpFMA:       {floatOp: "fma.rn", emit: emitALU},
		ir.OpMulHi:     {intOp: "mul.hi", emit: emitALU},
		ir.OpMulWide:   {intOp: "mul.wide", emit: emitALU},
		ir.OpShl:       {intOp: "shl", suffix: suffixLogic, emit: emitALU},
		ir.OpShr:       {intOp: "shr", emit: emitALU},
		ir.OpAnd:       {intOp: "and", suffix: suffixLogic, emit: emitALU},
		ir.OpOr:        {intOp: "or", suffix: suffixLogic, emit: emitALU},
		ir.OpXor:       {intOp: "xor", suffix: suffixLogic, emit: emitALU},
		ir.OpNot:       {intOp: "not", suffix: suffixLogic, emit: emitALU},
		ir.OpPopc:      {intOp: "popc", suffix: suffixBits, emit: emitALU},
		ir.OpClz:       {intOp: "clz", suffix: suffixBits, emit: emitALU},
		ir.OpCmp:       {intOp: "setp", floatOp: "setp", emit: emitCmp},
		ir.OpSelect:    {intOp: "selp", floatOp: "selp", emit: emitSelect},
		ir.OpCvt:       {emit: emitCvt},
		ir.OpBitcast:   {emit: emitBitcast},
		ir.OpLoad:      {intOp: "ld", floatOp: "ld", emit: emitLoad},
		ir.OpStore:     {intOp: "st", floatOp: "st", emit: emitStore},
		ir.OpPtrAdd:    {emit: emitAddr},
		ir.OpIndex:     {emit: emitAddr},
		ir.OpPtrCast:   {emit: emitNothing},
		ir.OpSpecial:   {emit: emitSpecial},
		ir.OpBarrier:   {emit: emitBarrier},
		ir.OpFence:     {emit: emitFence},
		ir.OpAtomic:    {intOp: "atom", floatOp: "atom", emit: emitAtomic},
		ir.OpShfl:      {intOp: "shfl.sync", floatOp: "shfl.sync", emit: emitShfl},
		ir.OpVote:      {emit: emitVote},
		ir.OpMath:      {emit: emitMath},
		ir.OpTrap:      {emit: emitTrap},
		ir.OpBarRed:    {emit: emitBarRed},
		ir.OpWarpSync:  {emit: emitWarpSync},
		ir.OpF32ToF16:  {emit: emitF32ToF16},
		ir.OpF16ToF32:  {emit: emitF16ToF32},
		ir.OpF32ToBF16: {emit: emitF32ToBF16},
		ir.OpHAdd:      {emit: emitHalfArith},
		ir.OpHSub:      {emit: emitHalfArith},
		ir.OpHMul:      {emit: emitHalfArith},
		ir.OpHCmp:      {emit: emitHalfCmp},
		ir.OpBr:        {emit: emitBr},
		ir.OpCondBr:    {emit: emitCondBr},
		ir.OpRet:       {emit: emitRet},
	}
}

// emitALU writes "op.type d, a[, b[, c]]" with the mnemonic and suffix of
// the rule. Float add, sub and mul round explicitly (.rn) so that ptxas
// does not contract them into fma unless FastMath allows it; approximate
// f32 division is div.full.f32.
func emitALU(e *fnEmitter, in *ir.Instr, r *opRule) {
	t := in.Args[0].Type
	mn := r.intOp
	if t.IsFloat() {
		mn = r.floatOp
		if r.fastOp != "" && (e.t.opts.FastMath || in.Approx) && t == ir.F32 {
			mn = r.fastOp
		}
	}
	if mn == "" {
		e.fail(in, "%s has no PTX form for %s", in.Op, t)
		return
	}
	switch r.suffix {
	case suffixLogic:
		mn += "." + logicName(t)
	case suffixBits:
		mn += ".b" + itoa(t.Bits())
	default:
		mn += "." + typeName(t)
	}
	ops := make([]string, 0, 4)
	ops = append(ops, e.op(in.Result()))
	for _, a := range in.Args {
		ops = append(ops, e.op(a))
	}
	e.ins(mn, ops...)
}

// emitCmp writes setp with the predicate and the operands' type. The
// ordered float predicates are false on NaN, the u forms true; num and
// nan test for NaN operands.
func emitCmp(e *fnEmitter, in *ir.Instr, _ *opRule) {
	e.ins("setp."+in.Cmp.String()+"."+typeName(in.Args[0].Type), e.op(in.Result()), e.op(in.Args[0]), e.op(in.Args[1]))
}

// emitSelect writes selp (pred selects were rewritten by legalization).
func emitSelect(e *fnEmitter, in *ir.Instr, _ *opRule) {
	t := in.Result().Type
	if t == ir.Pred {
		e.fail(in, "select of pred values must be legalized first")
		return
	}
	e.ins("selp."+bitsName(t), e.op(in.Result()), e.op(in.Args[1]), e.op(in.Args[2]), e.op(in.Args[0]))
}

// emitNothing is the template of ops whose result shares its operand's
// register (see aliasOf).
func emitNothing(*fnEmitter, *ir.Instr, *opRule) {}

// emitBr writes the parallel copy into the target's parameters and the
// branch, left out when the target is the next block.
func emitBr(e *fnEmitter, in *ir.Instr, _ *opRule) {
	edge := in.Succs[0]
	moves := make([]move, 0, len(edge.Args))
	for i, a := range edge.Args {
		p := edge.Block.Params[i]
		moves = append(moves, move{dst: e.op(p), src: e.op(a), class: classOf(p.Type)})
	}
	for _, m := range sequence(moves, e.newReg) {
		e.ins("mov."+classInfo[m.class].decl, m.dst, m.src)
	}
	if edge.Block != e.next {
		e.ins("bra", "$"+edge.Block.Name)
	}
}

// emitCondBr writes a predicated branch (legalization split the edges
// that carry arguments).
func emitCondBr(e *fnEmitter, in *ir.Instr, _ *opRule) {
	for _, s := range in.Succs {
		if len(s.Args) > 0 {
			e.fail(in, "conditional branch edges with arguments must be split first")
			return
		}
	}
	c := e.op(in.Args[0])
	tb, fb := in.Succs[0].Block, in.Succs[1].Block
	switch {
	case tb == fb:
		if tb != e.next {
			e.ins("bra", "$"+tb.Name)
		}
	case tb == e.next:
		e.body.WriteString("\t@!" + c + " bra \t$" + fb.Name + ";\n")
	default:
		e.body.WriteString("\t@" + c + " bra \t$" + tb.Name + ";\n")
		if fb != e.next {
			e.ins("bra", "$"+fb.Name)
		}
	}
}

// emitRet writes ret.
func emitRet(e *fnEmitter, _ *ir.Instr, _ *opRule) { e.ins("ret") }
