// Fused gathers (fuse.InstrGather) in Map bodies and Reduce prologues:
// each point converts its index to 64 bits, normalizes a negative one
// and checks it against the axis. A bad index is not loaded through:
// the point loads the axis' first element instead and raises the
// gather's error word (a zeroed scratch word per gather) with atom.max
// of Positions - position, so the word ends holding the smallest bad
// position of the index array, which the executor reads after the
// launches and turns into the error with the value read back from the
// index array (Signature.Checks, in body order).

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
)

// gatherWords declares the error word of each InstrGather of body that
// need marks (nil: all), in body order, and records its check.
func (l *lowerer) gatherWords(body []fuse.Instr, need []bool) {
	for i := range body {
		in := &body[i]
		if in.Kind != fuse.InstrGather || in.Gather == nil || need != nil && !need[i] {
			continue
		}
		if l.gwords == nil {
			l.gwords = map[*fuse.GatherAttr]*ir.Value{}
		}
		g := in.Gather
		l.gwords[g] = l.idxScratch(fmt.Sprintf("gerr%d", len(l.sig.Checks)), 8, ir.U64)
		l.sig.Checks = append(l.sig.Checks, IndexCheck{Scratch: len(l.sig.Scratch) - 1, Positions: g.Positions,
			Buffer: g.Index.Buffer, Offset: g.Index.Offset, DType: g.Index.DType, Op: in.Op, Axis: g.Axis, Len: g.Len,
			Shape: g.Shape, Strides: g.Strides})
	}
}

// hasGather reports whether body holds an InstrGather that need marks.
func hasGather(body []fuse.Instr, need []bool) bool {
	for i, in := range body {
		if in.Kind == fuse.InstrGather && (need == nil || need[i]) {
			return true
		}
	}
	return false
}

// gather lowers the InstrGather in at a point: idx is its index value
// (register form), xoff the element offset of its operand there and pos
// the position of the index in the index array.
func (l *lowerer) gather(in *fuse.Instr, idx, xoff, pos *ir.Value) (*ir.Value, error) {
	g := in.Gather
	w := l.gwords[g]
	if g == nil || w == nil || xoff == nil || pos == nil {
		return nil, fmt.Errorf("gather without its error word, offset or position")
	}
	if memType(g.Index.DType) == ir.Invalid || !g.Index.DType.IsInt() {
		return nil, fmt.Errorf("gather indices of dtype %v", g.Index.DType)
	}
	bb := l.b
	i := bb.Cvt(idx, ir.S64)
	i = bb.Select(bb.Lt(i, bb.S64(0)), bb.Add(i, bb.S64(int64(g.Len))), i)
	ok := bb.Lt(bb.Cvt(i, ir.U64), bb.U64(uint64(g.Len)))
	bb.If(bb.Not(ok), func() {
		bb.Atomic(ir.AtomMax, w, bb.Sub(bb.U64(uint64(g.Positions)), bb.Cvt(pos, ir.U64)))
	})
	i = bb.Select(ok, i, bb.S64(0))
	off := bb.Add(bb.Cvt(xoff, ir.S64), bb.Mul(i, bb.S64(int64(g.Stride))))
	o := l.k.Operands[in.Operand]
	return l.load(o.Buffer, o.DType, bb.Cvt(off, ir.U64)), nil
}

// Value returns the index whose DType.Size() little-endian bytes are
// the low bytes of raw, as every backend reads it (signed dtypes sign
// extended, unsigned ones zero extended, a uint64 wrapped to int64).
func (c *IndexCheck) Value(raw uint64) int64 {
	bits := uint(8 * c.DType.Size())
	if bits < 64 {
		raw &= 1<<bits - 1
		if !c.DType.Unsigned() && raw>>(bits-1) != 0 {
			raw |= ^uint64(0) << bits
		}
	}
	return int64(raw)
}
