// This file implements the Builder's core: positioning, instruction
// emission with result types from the op table, names, comments and
// constants.

package ir

import "fmt"

// Builder appends instructions to a function at a current block. It never
// panics on misuse: ill-typed instructions are built as written and
// reported by Verify; structural misuse (no current block, appending after
// a terminator, nil operands) is recorded and also reported by Verify. A
// Builder is not safe for concurrent use.
type Builder struct {
	f       *Func
	cur     *Block
	comment string
	pos     Pos
}

// NewBuilder returns a builder for f positioned at the end of its entry
// block, creating the entry block ("entry") when f has none.
func NewBuilder(f *Func) *Builder {
	b := &Builder{f: f}
	if len(f.Blocks) == 0 {
		f.NewBlock("entry")
	}
	b.cur = f.Blocks[0]
	return b
}

// Func returns the function being built.
func (b *Builder) Func() *Func { return b.f }

// Block returns the current block.
func (b *Builder) Block() *Block { return b.cur }

// NewBlock creates a block with parameters of the given types. It joins
// the function's layout when the builder is first positioned in it
// (SetBlock), so blocks lay out in the order they are filled.
func (b *Builder) NewBlock(name string, params ...Type) *Block {
	return b.f.newBlock(name, params...)
}

// SetBlock positions the builder at the end of blk and places blk in the
// layout if it is not there yet.
func (b *Builder) SetBlock(blk *Block) {
	b.f.place(blk)
	b.cur = blk
}

// Terminated reports whether the current block already has a terminator
// (code appended now would be unreachable).
func (b *Builder) Terminated() bool { return b.cur == nil || b.cur.Term() != nil }

// SetComment sets the comment attached to the instructions emitted from now
// on (an empty string stops attaching one). The PTX emitter prints it.
func (b *Builder) SetComment(s string) { b.comment = s }

// Comment returns the current comment.
func (b *Builder) Comment() string { return b.comment }

// Name gives v a readable name derived from hint (unique within the
// function) and returns v.
func (b *Builder) Name(v *Value, hint string) *Value { return b.f.SetName(v, hint) }

// problem records a structural builder problem, reported by Verify.
func (b *Builder) problem(format string, args ...any) {
	p := Problem{Func: b.f.Name, Index: -1, Msg: fmt.Sprintf(format, args...)}
	if b.cur != nil {
		p.Block = b.cur.Name
		p.Index = len(b.cur.Instrs)
	}
	b.f.buildErrs = append(b.f.buildErrs, p)
}

// Emit appends an instruction with op, operands args and, when the op has a
// result, one result of the type its rule gives (explicit is used for
// ResultExplicit ops). It returns the instruction so that attributes can be
// set; the typed methods (Add, Load, ...) are the usual way to build.
func (b *Builder) Emit(op Op, explicit Type, args ...*Value) *Instr {
	in := &Instr{Op: op, Args: args, Comment: b.comment, Pos: b.pos, Width: 1}
	for i, a := range args {
		if a == nil {
			b.problem("%s: operand %d is nil", op, i)
		}
	}
	if b.cur == nil {
		b.problem("%s: no current block", op)
		b.SetBlock(b.f.newBlock("nowhere"))
	} else if b.cur.Term() != nil {
		b.problem("%s: appended after the terminator of block %s", op, b.cur.Name)
		b.SetBlock(b.f.newBlock("dead"))
	}
	in.Block = b.cur
	b.cur.Instrs = append(b.cur.Instrs, in)
	if t, ok := resultType(op, explicit, args); ok {
		b.addResult(in, t)
	}
	return in
}

func (b *Builder) addResult(in *Instr, t Type) *Value {
	v := b.f.newValue(t, ValResult)
	v.Def = in
	v.Block = in.Block
	v.Index = len(in.Results)
	in.Results = append(in.Results, v)
	return v
}

// resultType applies the op's result rule; ok is false for ops without a
// result.
func resultType(op Op, explicit Type, args []*Value) (Type, bool) {
	arg := func(i int) Type {
		if i < len(args) && args[i] != nil {
			return args[i].Type
		}
		return Invalid
	}
	switch op.Info().Result {
	case ResultSameAsA:
		return arg(0), true
	case ResultSameAsB:
		return arg(1), true
	case ResultPred:
		return Pred, true
	case ResultU32:
		return U32, true
	case ResultExplicit, ResultVote:
		return explicit, true
	case ResultElem:
		return arg(0).Elem(), true
	}
	return Invalid, false
}

// emit1 emits an instruction and returns its single result.
func (b *Builder) emit1(op Op, explicit Type, args ...*Value) *Value {
	return b.Emit(op, explicit, args...).Result()
}

// Const returns the constant of type t with the given bit pattern.
func (b *Builder) Const(t Type, bits uint64) *Value { return b.f.Const(t, bits) }

// Int returns the integer constant v of type t (or float(v) for floats).
func (b *Builder) Int(t Type, v int64) *Value { return b.f.ConstInt(t, v) }

// Float returns the float constant v of type t (or int64(v) for integers).
func (b *Builder) Float(t Type, v float64) *Value { return b.f.ConstFloat(t, v) }

// Bool returns the pred constant v.
func (b *Builder) Bool(v bool) *Value { return b.f.ConstBool(v) }

// Zero returns the zero of type t (false for pred).
func (b *Builder) Zero(t Type) *Value { return b.f.Const(t, 0) }

// One returns the one of type t (true for pred, 1.0 for floats).
func (b *Builder) One(t Type) *Value {
	if t == Pred {
		return b.Bool(true)
	}
	return b.f.ConstInt(t, 1)
}

// S32 returns an s32 constant.
func (b *Builder) S32(v int32) *Value { return b.f.ConstInt(S32, int64(v)) }

// U32 returns a u32 constant.
func (b *Builder) U32(v uint32) *Value { return b.f.Const(U32, uint64(v)) }

// S64 returns an s64 constant.
func (b *Builder) S64(v int64) *Value { return b.f.ConstInt(S64, v) }

// U64 returns a u64 constant.
func (b *Builder) U64(v uint64) *Value { return b.f.Const(U64, v) }

// F32 returns an f32 constant.
func (b *Builder) F32(v float32) *Value { return b.f.ConstFloat(F32, float64(v)) }

// F64 returns an f64 constant.
func (b *Builder) F64(v float64) *Value { return b.f.ConstFloat(F64, v) }

// FullMask returns the u32 constant 0xffffffff, the member mask of a whole
// warp for Shfl and Vote.
func (b *Builder) FullMask() *Value { return b.U32(0xffffffff) }
