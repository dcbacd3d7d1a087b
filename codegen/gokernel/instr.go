// This file implements the translation of SSA instructions other than
// memory and calls: arithmetic, logic, shifts and comparisons with Go's
// semantics, conversions, tuple and Dim3 field extraction, branches, and
// the diagnostics of every instruction outside the subset.

package gokernel

import (
	"go/token"
	"go/types"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"golang.org/x/tools/go/ssa"
)

// instr translates one SSA instruction.
func (c *compiler) instr(fr *frame, in ssa.Instruction) {
	switch x := in.(type) {
	case *ssa.Phi, *ssa.DebugRef:
		// Phis are block parameters (blockFor).
	case *ssa.BinOp:
		c.binOp(fr, x)
	case *ssa.UnOp:
		c.unOp(fr, x)
	case *ssa.Convert:
		c.convert(fr, x)
	case *ssa.ChangeType:
		if rep, ok := c.value(fr, x.X); ok {
			fr.set(x, rep...)
		} else {
			fr.fail(x)
		}
	case *ssa.Extract:
		c.extract(fr, x)
	case *ssa.Field:
		c.field(fr, x)
	case *ssa.Call:
		c.call(fr, x)
	case *ssa.IndexAddr:
		c.indexAddr(fr, x)
	case *ssa.Index:
		c.index(fr, x)
	case *ssa.Slice:
		c.slice(fr, x)
	case *ssa.Alloc:
		c.alloc(fr, x)
	case *ssa.FieldAddr:
		c.fieldAddr(fr, x)
	case *ssa.Store:
		c.store(fr, x)
	case *ssa.If:
		cond, ok := c.value1(fr, x.Cond)
		if !ok {
			cond = c.f.ConstBool(false)
		}
		c.b.CondBrArgs(cond, ir.Edge{}, ir.Edge{})
		c.branch(fr, x.Block(), c.lastInstr())
	case *ssa.Jump:
		c.b.Br(nil)
		c.branch(fr, x.Block(), c.lastInstr())
	case *ssa.Return:
		c.ret(fr, x)
	default:
		c.unsupported(fr, in)
	}
}

// lastInstr returns the instruction just built.
func (c *compiler) lastInstr() *ir.Instr {
	blk := c.b.Block()
	return blk.Instrs[len(blk.Instrs)-1]
}

// arith maps Go's arithmetic and bitwise operators to the IR builder's
// instructions.
var arith = map[token.Token]func(b *ir.Builder, x, y *ir.Value) *ir.Value{
	token.ADD: (*ir.Builder).Add, token.SUB: (*ir.Builder).Sub, token.MUL: (*ir.Builder).Mul,
	token.QUO: (*ir.Builder).Div, token.REM: (*ir.Builder).Rem,
	token.AND: (*ir.Builder).And, token.OR: (*ir.Builder).Or, token.XOR: (*ir.Builder).Xor,
}

// binOp translates x op y.
func (c *compiler) binOp(fr *frame, in *ssa.BinOp) {
	if why := unsupportedType(in.X.Type()); why != "" {
		c.diag(in.Pos(), "%s", why)
		fr.fail(in)
		return
	}
	xr, ok1 := c.value(fr, in.X)
	yr, ok2 := c.value(fr, in.Y)
	if !ok1 || !ok2 {
		fr.fail(in)
		return
	}
	if len(xr) != 1 || len(yr) != 1 || xr[0].Type.IsPtr() {
		c.diag(in.Pos(), "comparing or combining %s values is not supported in kernels; compare their elements", in.X.Type())
		fr.fail(in)
		return
	}
	x, y := xr[0], yr[0]
	b := c.b
	t := x.Type
	var r *ir.Value
	switch in.Op {
	case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR:
		r = arith[in.Op](b, x, y)
	case token.QUO, token.REM:
		if !t.IsFloat() && !(y.IsConst() && y.Bits != 0) {
			c.check(b.Ne(y, c.f.Const(t, 0)), "integer divide by zero")
		}
		r = arith[in.Op](b, x, y)
	case token.AND_NOT:
		r = b.And(x, b.Not(y))
	case token.SHL, token.SHR:
		r = c.shift(in.Op, x, y)
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		r = c.compare(in.Op, x, y)
	default:
		c.diag(in.Pos(), "operator %s is not supported in kernels", in.Op)
		fr.fail(in)
		return
	}
	fr.set(in, r)
}

// intCmp and floatCmp map Go's comparison operators to IR predicates;
// floats compare ordered except != (true when either is NaN, as in Go).
var (
	intCmp   = map[token.Token]ir.CmpPred{token.EQL: ir.CmpEQ, token.NEQ: ir.CmpNE, token.LSS: ir.CmpLT, token.LEQ: ir.CmpLE, token.GTR: ir.CmpGT, token.GEQ: ir.CmpGE}
	floatCmp = map[token.Token]ir.CmpPred{token.EQL: ir.CmpEQ, token.NEQ: ir.CmpNEU, token.LSS: ir.CmpLT, token.LEQ: ir.CmpLE, token.GTR: ir.CmpGT, token.GEQ: ir.CmpGE}
)

// compare returns x op y.
func (c *compiler) compare(op token.Token, x, y *ir.Value) *ir.Value {
	b := c.b
	switch {
	case x.Type == ir.Pred:
		ne := b.Xor(x, y)
		if op == token.EQL {
			return b.Not(ne)
		}
		return ne
	case x.Type.IsFloat():
		return b.Cmp(floatCmp[op], x, y)
	}
	return b.Cmp(intCmp[op], x, y)
}

// shift returns x << y or x >> y with Go's semantics: a negative y
// panics (a check), y at least the width gives 0 (or the sign for >> of
// a signed x), which the IR's shifts give for amounts up to 255.
func (c *compiler) shift(op token.Token, x, y *ir.Value) *ir.Value {
	b := c.b
	if y.Type.IsSigned() && !(y.IsConst() && y.ConstInt() >= 0) {
		c.check(b.Ge(y, c.f.Const(y.Type, 0)), "negative shift amount")
	}
	amt := y
	if y.Type.Bits() == 64 {
		u := b.Cvt(y, ir.U64)
		amt = b.Min(u, b.U64(255))
	}
	amt = b.Cvt(amt, ir.U32)
	if op == token.SHL {
		return b.Shl(x, amt)
	}
	return b.Shr(x, amt)
}

// unOp translates !x, -x, ^x and *p (a load).
func (c *compiler) unOp(fr *frame, in *ssa.UnOp) {
	if in.Op == token.ARROW {
		c.diag(in.Pos(), "channels are not supported in kernels; threads communicate through shared memory, barriers and atomics")
		fr.fail(in)
		return
	}
	if in.Op == token.MUL {
		c.load(fr, in)
		return
	}
	x, ok := c.value1(fr, in.X)
	if !ok {
		fr.fail(in)
		return
	}
	b := c.b
	switch in.Op {
	case token.NOT, token.XOR:
		fr.set(in, b.Not(x))
	case token.SUB:
		if x.Type.IsUnsigned() {
			fr.set(in, b.Sub(c.f.Const(x.Type, 0), x))
		} else {
			fr.set(in, b.Neg(x))
		}
	default:
		c.diag(in.Pos(), "operator %s is not supported in kernels", in.Op)
		fr.fail(in)
	}
}

// convert translates a conversion between numeric types.
func (c *compiler) convert(fr *frame, in *ssa.Convert) {
	to, ok := scalarIR(in.Type())
	if !ok || to == ir.Pred {
		c.diagType(in.Pos(), in.Type(), "conversion")
		fr.fail(in)
		return
	}
	if _, ok := scalarIR(in.X.Type()); !ok {
		c.diagType(in.Pos(), in.X.Type(), "conversion")
		fr.fail(in)
		return
	}
	x, ok := c.value1(fr, in.X)
	if !ok {
		fr.fail(in)
		return
	}
	fr.set(in, c.b.Cvt(x, to))
}

// extract picks one result of a call with several.
func (c *compiler) extract(fr *frame, in *ssa.Extract) {
	rep, ok := c.value(fr, in.Tuple)
	tup, isTup := in.Tuple.Type().(*types.Tuple)
	if !ok || !isTup {
		fr.fail(in)
		return
	}
	off := 0
	for i := range in.Index {
		off += width(tup.At(i).Type())
	}
	n := width(tup.At(in.Index).Type())
	if off+n > len(rep) {
		fr.fail(in)
		return
	}
	fr.set(in, rep[off:off+n]...)
}

// field reads X, Y or Z of a kernel.Dim3 value.
func (c *compiler) field(fr *frame, in *ssa.Field) {
	if !isDim3(in.X.Type()) {
		c.diagType(in.Pos(), in.X.Type(), "field "+fieldName(in))
		fr.fail(in)
		return
	}
	rep, ok := c.value(fr, in.X)
	if !ok || len(rep) != 3 {
		fr.fail(in)
		return
	}
	fr.set(in, rep[in.Field])
}

func fieldName(in *ssa.Field) string {
	if s, ok := in.X.Type().Underlying().(*types.Struct); ok && in.Field < s.NumFields() {
		return s.Field(in.Field).Name()
	}
	return "?"
}

// unsupported diagnoses an instruction outside the subset.
func (c *compiler) unsupported(fr *frame, in ssa.Instruction) {
	msg := ""
	switch in.(type) {
	case *ssa.MakeClosure:
		msg = "closures that capture variables are not supported in kernels; pass the values as arguments to a package-level function"
	case *ssa.Go:
		msg = "go statements are not supported in kernels; the threads of the launch are the parallelism"
	case *ssa.RunDefers:
		return // the defer statement is reported
	case *ssa.Defer:
		msg = "defer is not supported in kernels; do the work before each return"
	case *ssa.Panic:
		msg = "panic is not supported in kernels; return early (indexing and division are checked for you)"
	case *ssa.MakeSlice:
		msg = "make is not supported in kernels; use kernel.Shared for memory shared by a block, a local array (var a [8]float32) for memory of one thread, or a slice parameter"
	case *ssa.MakeMap, *ssa.MapUpdate, *ssa.Lookup:
		msg = "maps are not supported in kernels; use a slice indexed by an integer key"
	case *ssa.MakeChan, *ssa.Send, *ssa.Select:
		msg = "channels are not supported in kernels; threads communicate through shared memory, barriers and atomics"
	case *ssa.MakeInterface:
		if onlyPanics(in.(ssa.Value)) {
			fr.fail(in.(ssa.Value))
			return // the panic is reported
		}
		msg = "interfaces are not supported in kernels; call functions of concrete types"
	case *ssa.ChangeInterface, *ssa.TypeAssert:
		msg = "interfaces are not supported in kernels; call functions of concrete types"
	case *ssa.Range, *ssa.Next:
		msg = "range over strings, maps and channels is not supported in kernels; range over a slice, an array or an integer"
	case *ssa.FieldAddr:
		msg = "struct types are not supported in kernels; pass or keep their fields as separate values"
	case *ssa.SliceToArrayPointer, *ssa.MultiConvert:
		msg = "this conversion is not supported in kernels; index the slice"
	default:
		msg = "this construct is not supported in kernels"
	}
	pos := c.posOf(in)
	if mc, ok := in.(*ssa.MakeClosure); ok && !pos.IsValid() {
		pos = mc.Fn.Pos()
	}
	c.diag(pos, "%s", msg)
	if v, ok := in.(ssa.Value); ok {
		fr.fail(v)
	}
}

// onlyPanics reports whether v is used by panics only.
func onlyPanics(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.Panic); !ok {
			if _, dbg := r.(*ssa.DebugRef); !dbg {
				return false
			}
		}
	}
	return true
}

// posOf returns the source position of an instruction: its own, or for
// a value without one the position of the expression a DebugRef (debug
// information) records for it, or of its first user with a position.
func (c *compiler) posOf(in ssa.Instruction) token.Pos {
	if p := in.Pos(); p.IsValid() {
		return p
	}
	if v, ok := in.(ssa.Value); ok && v.Referrers() != nil {
		for _, r := range *v.Referrers() {
			if d, ok := r.(*ssa.DebugRef); ok && d.Pos().IsValid() {
				return d.Pos()
			}
		}
		for _, r := range *v.Referrers() {
			if p := r.Pos(); p.IsValid() {
				return p
			}
		}
	}
	return token.NoPos
}
