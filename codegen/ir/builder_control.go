// This file implements the Builder's structured control flow: If, IfElse,
// IfElseValues, For, ForCarry, While, and the grid-stride loop helpers.
// Each builds single-entry single-exit regions whose blocks lay out in
// source order, and each leaves the builder in the region's exit block.

package ir

// If runs then when c is true. then builds into a fresh block; if it does
// not end with a terminator, control falls through to the merge block,
// where the builder continues.
func (b *Builder) If(c *Value, then func()) {
	tb := b.NewBlock("if_then")
	merge := b.NewBlock("if_end")
	b.CondBr(c, tb, merge)
	b.SetBlock(tb)
	then()
	b.brIfOpen(merge)
	b.SetBlock(merge)
}

// IfElse runs then when c is true and els otherwise; both fall through to
// a merge block where the builder continues.
func (b *Builder) IfElse(c *Value, then, els func()) {
	b.IfElseValues(c,
		func() []*Value { then(); return nil },
		func() []*Value { els(); return nil })
}

// IfElseValues runs then when c is true and els otherwise and returns the
// values each produced, joined as parameters of the merge block. Both must
// return values of the same types (one of them may end with a terminator
// instead, returning nothing).
func (b *Builder) IfElseValues(c *Value, then, els func() []*Value) []*Value {
	tb := b.NewBlock("if_then")
	eb := b.NewBlock("if_else")
	b.CondBr(c, tb, eb)
	b.SetBlock(tb)
	tv := then()
	tEnd, tOpen := b.cur, !b.Terminated()
	b.SetBlock(eb)
	ev := els()
	eEnd, eOpen := b.cur, !b.Terminated()

	var types []Type
	switch {
	case tOpen && eOpen && len(tv) != len(ev):
		b.problem("IfElseValues: then yields %d values, else %d", len(tv), len(ev))
	case tOpen:
		types = valueTypes(tv)
	case eOpen:
		types = valueTypes(ev)
	}
	merge := b.NewBlock("if_end", types...)
	if tOpen {
		b.cur = tEnd
		b.Br(merge, tv...)
	}
	if eOpen {
		b.cur = eEnd
		b.Br(merge, ev...)
	}
	b.SetBlock(merge)
	return merge.Params
}

// For runs body for i = lo, lo+step, ... while i < hi (signed or unsigned
// compare by the type of lo; step must be positive and i+step must not
// overflow). lo, hi and step share one integer type.
func (b *Builder) For(lo, hi, step *Value, body func(i *Value)) {
	b.ForCarry(lo, hi, step, nil, func(i *Value, _ []*Value) []*Value {
		body(i)
		return nil
	})
}

// ForCarry is For with loop-carried values: init are their values on entry,
// body receives the current values and returns the next ones (same count
// and types), and ForCarry returns their values after the loop.
//
// Layout: the current block branches to a header block with parameters
// (i, carried...) that tests i < hi; the body follows, then the exit block,
// which is where the builder continues.
func (b *Builder) ForCarry(lo, hi, step *Value, init []*Value, body func(i *Value, carry []*Value) []*Value) []*Value {
	it := Invalid
	if lo != nil {
		it = lo.Type
	}
	head := b.NewBlock("for_head", append([]Type{it}, valueTypes(init)...)...)
	b.Name(head.Params[0], "i")
	loop := b.NewBlock("for_body")
	exit := b.NewBlock("for_end")
	b.Br(head, append([]*Value{lo}, init...)...)
	b.SetBlock(head)
	i := head.Params[0]
	b.CondBr(b.Lt(i, hi), loop, exit)
	b.SetBlock(loop)
	next := body(i, head.Params[1:])
	if !b.Terminated() {
		if len(next) != len(init) {
			b.problem("ForCarry: body yields %d values, want %d", len(next), len(init))
		}
		b.Br(head, append([]*Value{b.Add(i, step)}, next...)...)
	}
	b.SetBlock(exit)
	return head.Params[1:]
}

// While runs body while cond holds: vals start as init; cond receives the
// current values and returns a pred; body receives them and returns the
// next ones. While returns the values when cond first fails.
func (b *Builder) While(init []*Value, cond func(vals []*Value) *Value, body func(vals []*Value) []*Value) []*Value {
	head := b.NewBlock("while_head", valueTypes(init)...)
	loop := b.NewBlock("while_body")
	exit := b.NewBlock("while_end")
	b.Br(head, init...)
	b.SetBlock(head)
	b.CondBr(cond(head.Params), loop, exit)
	b.SetBlock(loop)
	next := body(head.Params)
	if !b.Terminated() {
		if len(next) != len(init) {
			b.problem("While: body yields %d values, want %d", len(next), len(init))
		}
		b.Br(head, next...)
	}
	b.SetBlock(exit)
	return head.Params
}

// GlobalIndex returns ctaid.x*ntid.x + tid.x as an integer of type t
// (s32, u32, s64 or u64; 64-bit types use a widening multiply).
func (b *Builder) GlobalIndex(t Type) *Value {
	ctaid, ntid, tid := b.CtaidX(), b.NtidX(), b.TidX()
	var u *Value
	if t.Bits() == 64 {
		u = b.Add(b.MulWide(ctaid, ntid), b.Cvt(tid, U64))
	} else {
		u = b.Add(b.Mul(ctaid, ntid), tid)
	}
	return b.Name(b.Cvt(u, t), "gid")
}

// GridSize returns ntid.x*nctaid.x, the number of threads in the grid
// along x, as an integer of type t (s32, u32, s64 or u64).
func (b *Builder) GridSize(t Type) *Value {
	ntid, nctaid := b.NtidX(), b.NctaidX()
	var u *Value
	if t.Bits() == 64 {
		u = b.MulWide(ntid, nctaid)
	} else {
		u = b.Mul(ntid, nctaid)
	}
	return b.Name(b.Cvt(u, t), "gsize")
}

// GridStride runs body for every index i in [0, n) assigned to this thread
// by a grid-stride loop along x: i starts at GlobalIndex and advances by
// GridSize. The index type is n's type (s32, u32, s64 or u64): choose 32
// bits when n + GridSize fits, 64 otherwise.
func (b *Builder) GridStride(n *Value, body func(i *Value)) {
	b.GridStrideCarry(n, nil, func(i *Value, _ []*Value) []*Value {
		body(i)
		return nil
	})
}

// GridStrideCarry is GridStride with loop-carried values (see ForCarry),
// for per-thread partial reductions.
func (b *Builder) GridStrideCarry(n *Value, init []*Value, body func(i *Value, carry []*Value) []*Value) []*Value {
	t := Invalid
	if n != nil {
		t = n.Type
	}
	start := b.GlobalIndex(t)
	step := b.GridSize(t)
	return b.ForCarry(start, n, step, init, body)
}

// brIfOpen branches to target unless the current block is terminated.
func (b *Builder) brIfOpen(target *Block, args ...*Value) {
	if !b.Terminated() {
		b.Br(target, args...)
	}
}

func valueTypes(vs []*Value) []Type {
	ts := make([]Type, len(vs))
	for i, v := range vs {
		if v != nil {
			ts[i] = v.Type
		}
	}
	return ts
}
