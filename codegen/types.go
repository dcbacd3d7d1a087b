// Types: how graph dtypes live in registers and in memory (bool is a
// pred in registers and a byte in memory), with the loads, stores and
// constants that convert between the two.

package codegen

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// memTypes maps a dtype to its element type in memory: float16 and
// bfloat16 are loaded and stored as their 16-bit patterns.
var memTypes = map[graph.DType]ir.Type{
	graph.Bool: ir.U8, graph.Int32: ir.S32, graph.Int64: ir.S64,
	graph.Float32: ir.F32, graph.Float64: ir.F64,
	graph.Int8: ir.S8, graph.Int16: ir.S16, graph.Uint8: ir.U8, graph.Uint16: ir.U16,
	graph.Uint32: ir.U32, graph.Uint64: ir.U64, graph.Float16: ir.U16, graph.BFloat16: ir.U16,
}

// regType returns the register type of d (Invalid when unsupported): the
// type of its lane (opdef.RegType): int8, int16, uint8 and uint16 live in
// s32, uint32 in s64, float16 and bfloat16 in f32.
func regType(d graph.DType) ir.Type { return opdef.RegType(d) }

// memType returns the memory element type of d (Invalid when
// unsupported).
func memType(d graph.DType) ir.Type { return memTypes[d] }

// fromMem turns a loaded element of dtype d into its register form: a
// bool byte is true when nonzero, narrow integers are extended to their
// lane, 16-bit float patterns become their f32 value.
func (l *lowerer) fromMem(v *ir.Value, d graph.DType) *ir.Value {
	switch {
	case d == graph.Bool:
		return l.b.Ne(l.b.Cvt(v, ir.U32), l.b.U32(0))
	case d == graph.Float16 || d == graph.BFloat16:
		return opdef.HalfToF32(l.b, v, d)
	}
	return l.b.Cvt(v, regType(d))
}

// toMem turns a register value of dtype d into its memory form: a bool
// becomes the byte 0 or 1, a narrow integer its low bytes, a float16 or
// bfloat16 (held exactly in f32) its 16-bit pattern.
func (l *lowerer) toMem(v *ir.Value, d graph.DType) *ir.Value {
	switch {
	case d == graph.Bool:
		return l.b.Cvt(l.b.Select(v, l.b.U32(1), l.b.U32(0)), ir.U8)
	case d == graph.Float16 || d == graph.BFloat16:
		return opdef.F32ToHalf(l.b, v, d)
	}
	return l.b.Cvt(v, memType(d))
}

// load reads the element at index off of buffer buf as dtype d, in
// register form. Read-only buffers go through the non-coherent cache. An
// operand without a buffer (the planner gives none to a value with no
// elements, which no point ever reads) reads as zero.
func (l *lowerer) load(buf int, d graph.DType, off *ir.Value) *ir.Value {
	if buf < 0 {
		return l.constOf(graph.Scalar{DType: d}, d)
	}
	p := l.b.Index(l.ptr(buf, memType(d)), off)
	var v *ir.Value
	if l.fn.Param(l.bufs[buf]).ReadOnly {
		v = l.b.LoadNC(p)
	} else {
		v = l.b.Load(p)
	}
	return l.fromMem(v, d)
}

// store writes register value v of dtype d at index off of buffer buf.
func (l *lowerer) store(buf int, d graph.DType, off, v *ir.Value) {
	l.b.Store(l.b.Index(l.ptr(buf, memType(d)), off), l.toMem(v, d))
}

// constOf returns the constant s (of dtype d) in register form.
func (l *lowerer) constOf(s graph.Scalar, d graph.DType) *ir.Value {
	switch {
	case d == graph.Bool:
		return l.b.Bool(s.I != 0)
	case d.IsFloat():
		return l.b.Float(regType(d), s.F)
	}
	return l.b.Int(regType(d), s.I)
}

// fconst returns the float constant v of register type t.
func (l *lowerer) fconst(t ir.Type, v float64) *ir.Value { return l.b.Float(t, v) }

// negZero returns -0 of float type t.
func (l *lowerer) negZero(t ir.Type) *ir.Value { return l.b.Float(t, math.Copysign(0, -1)) }

// minInt and maxInt return the extreme values of integer type t.
func (l *lowerer) minInt(t ir.Type) *ir.Value {
	return l.b.Int(t, -1<<uint(t.Bits()-1))
}

func (l *lowerer) maxInt(t ir.Type) *ir.Value {
	return l.b.Int(t, 1<<uint(t.Bits()-1)-1)
}

// boolToInt returns 1 or 0 of integer type t for pred p.
func (l *lowerer) boolToInt(p *ir.Value, t ir.Type) *ir.Value {
	return l.b.Select(p, l.b.One(t), l.b.Zero(t))
}
