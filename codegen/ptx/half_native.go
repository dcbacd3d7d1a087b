// This file implements native half-precision arithmetic: the templates
// of the IR's 16-bit float ops (hadd, hsub, hmul, hcmp) and the part of
// legalization that puts them in place of the f32 path where the target
// computes them natively, and takes them out where it does not.
//
// Code generated for float16 and bfloat16 computes in f32: each value
// is widened exactly (f16tof32, or the bfloat16 pattern shifted into the
// top half of an f32), the op runs in f32 and its result is narrowed
// (f32tof16, f32tobf16), which is the correctly rounded 16-bit result of
// + - * (f32 has more than twice the bits plus two). Where the target has
// the instruction, legalization replaces such a narrowed f32 op by the
// 16-bit op on the operands' patterns:
//
//	f16  add.rn sub.rn mul.rn   sm_53, PTX ISA 4.2
//	     setp (every predicate) sm_53, PTX ISA 4.2
//	bf16 add.rn sub.rn mul.rn   sm_90, PTX ISA 7.8
//	     fma.rn                 sm_80, PTX ISA 7.0: a+b as fma(a, 1, b),
//	                            a-b as fma(b, -1, a), a*b as fma(a, b, -0),
//	                            each the one rounding of the exact result
//	                            with IEEE's signed zeros
//	     setp                   sm_90, PTX ISA 7.8
//
// Negation and absolute value become the sign bit flipped or cleared on
// the pattern, and selects (NumPy's Maximum and Minimum, Sign, Where of
// 16-bit values) select patterns, on every target that computes the
// format natively. A value narrowed from a pattern it was widened from
// is that pattern, quieted when a NaN (the IR's rule: a narrowed NaN is
// quiet); patterns that ops narrowed are quiet already and pass as they
// are. So a chain of 16-bit ops stays in .b16 registers, and the
// conversions left at its ends (a load widened for a math function, a
// result widened for a float32 consumer) are removed when nothing else
// uses them. A rewrite is made only when its instructions number no more
// than the narrowing it replaces. The packed .f16x2 and .bf16x2 forms
// are not used (one thread handles one element of a Map), nor are PTX's
// min and max (their NaN and signed-zero rules are not NumPy's), and
// every instruction rounds to nearest even without .ftz.
//
// Below those targets, and for hand-written IR, the 16-bit ops are
// expanded back into the f32 path, which is what they are defined as.

package ptx

import (
	"github.com/fuseflow/fuseflow/codegen/ir"
)

// halfArithNative reports whether t computes + - * of format f natively
// (for bfloat16 before sm_90, through fma.rn.bf16).
func halfArithNative(t target, f ir.HalfFmt) bool {
	if f == ir.HalfBF16 {
		return t.arch.AtLeast(8, 0) && !t.isa.less(Version{7, 0})
	}
	return t.arch.AtLeast(5, 3) && !t.isa.less(Version{4, 2})
}

// bf16Direct reports whether t has add, sub, mul and setp on .bf16.
func bf16Direct(t target) bool { return t.arch.AtLeast(9, 0) && !t.isa.less(Version{7, 8}) }

// halfCmpNative reports whether t compares format f natively.
func halfCmpNative(t target, f ir.HalfFmt) bool {
	if f == ir.HalfBF16 {
		return bf16Direct(t)
	}
	return halfArithNative(t, f)
}

// halfNative reports whether t computes the 16-bit op in natively.
func halfNative(t target, in *ir.Instr) bool {
	if in.Op == ir.OpHCmp {
		return halfCmpNative(t, in.Fmt)
	}
	return halfArithNative(t, in.Fmt)
}

func isHalfOp(op ir.Op) bool {
	return op == ir.OpHAdd || op == ir.OpHSub || op == ir.OpHMul || op == ir.OpHCmp
}

// emitHalfArith writes hadd, hsub and hmul: add.rn, sub.rn, mul.rn on
// .f16 (and .bf16 from sm_90), fma.rn.bf16 with a constant operand
// before. Legalization leaves them only where the target has them.
func emitHalfArith(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if !halfNative(e.t, in) {
		e.fail(in, "%s.%s is not native on %s and must be legalized first", in.Op, in.Fmt, e.t.arch)
		return
	}
	d, a, b := e.op(in.Result()), e.inReg(in.Args[0]), e.inReg(in.Args[1])
	if in.Fmt == ir.HalfF16 || bf16Direct(e.t) {
		e.ins(map[ir.Op]string{ir.OpHAdd: "add", ir.OpHSub: "sub", ir.OpHMul: "mul"}[in.Op]+".rn."+in.Fmt.String(), d, a, b)
		return
	}
	k := e.newReg(class16)
	switch in.Op {
	case ir.OpHAdd: // a*1 + b
		e.ins("mov.b16", k, "0x3F80")
		e.ins("fma.rn.bf16", d, b, k, a)
	case ir.OpHSub: // b*-1 + a: -0 - -0 is +0 as it must be
		e.ins("mov.b16", k, "0xBF80")
		e.ins("fma.rn.bf16", d, b, k, a)
	default: // a*b + -0 keeps the product's zero sign
		e.ins("mov.b16", k, "0x8000")
		e.ins("fma.rn.bf16", d, a, b, k)
	}
}

// emitHalfCmp writes hcmp as setp on .f16 (.bf16 from sm_90).
func emitHalfCmp(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if !halfNative(e.t, in) {
		e.fail(in, "%s.%s is not native on %s and must be legalized first", in.Op, in.Fmt, e.t.arch)
		return
	}
	e.ins("setp."+in.Cmp.String()+"."+in.Fmt.String(), e.op(in.Result()), e.inReg(in.Args[0]), e.inReg(in.Args[1]))
}

// widenHalf returns the IR that widens pattern h of format f to f32.
func widenHalf(b *ir.Builder, f ir.HalfFmt, h *ir.Value) *ir.Value {
	if f == ir.HalfBF16 {
		return b.Bitcast(b.Shl(b.Cvt(h, ir.U32), b.U32(16)), ir.F32)
	}
	return b.F16ToF32(h)
}

// narrowHalf returns the IR that rounds f32 x to format f.
func narrowHalf(b *ir.Builder, f ir.HalfFmt, x *ir.Value) *ir.Value {
	if f == ir.HalfBF16 {
		return b.F32ToBF16(x)
	}
	return b.F32ToF16(x)
}

// expandHalf rebuilds a 16-bit op the target lacks as the f32 path.
func expandHalf(r *rebuilder, in *ir.Instr) {
	a := r.args(in.Args)
	x, y := widenHalf(r.b, in.Fmt, a[0]), widenHalf(r.b, in.Fmt, a[1])
	var v *ir.Value
	if in.Op == ir.OpHCmp {
		v = r.b.Cmp(in.Cmp, x, y)
	} else {
		v = narrowHalf(r.b, in.Fmt, r.b.Emit(ir.HalfArithOf(in.Op), ir.Invalid, x, y).Result())
	}
	r.setResult(in.Result(), v)
}

// halfKey memoizes a 16-bit form of a source value within one block of
// the copy (a value built in one block serves later uses in that block).
type halfKey struct {
	v     *ir.Value
	f     ir.HalfFmt
	blk   *ir.Block
	value bool // the narrowed value (quiet), not an operand
}

// halfRewriter puts native 16-bit ops in place of the f32 path.
type halfRewriter struct {
	t    target
	memo map[halfKey]*ir.Value
	// changed is set by the first rewrite: the copy then has conversions
	// that nothing may use any more (see dropDeadHalf).
	changed bool
}

// narrowCost is the instructions of the narrowing a rewrite replaces:
// cvt and the NaN fix-up (ops_half.go).
func narrowCost(f ir.HalfFmt) int {
	if f == ir.HalfBF16 {
		return 7
	}
	return 10
}

// quietCost is the instructions that quiet a pattern that may be a
// signaling NaN: and, setp, or, selp.
const quietCost = 4

// maxHalfDepth bounds the expressions a rewrite looks through.
const maxHalfDepth = 8

// widened returns the pattern (u16) and format that the source f32 value
// v is the exact widening of, or nil.
func widened(v *ir.Value) (*ir.Value, ir.HalfFmt) {
	d := v.Def
	if d == nil || v.Type != ir.F32 {
		return nil, 0
	}
	switch d.Op {
	case ir.OpF16ToF32:
		return d.Args[0], ir.HalfF16
	case ir.OpBitcast: // bfloat16: bitcast(shl(cvt.u32.u16 h, 16))
		s := d.Args[0].Def
		if s == nil || s.Op != ir.OpShl || s.Args[0].Type != ir.U32 || !s.Args[1].IsConst() || s.Args[1].Bits != 16 {
			return nil, 0
		}
		c := s.Args[0].Def
		if c == nil || c.Op != ir.OpCvt || c.Args[0].Type != ir.U16 {
			return nil, 0
		}
		return c.Args[0], ir.HalfBF16
	}
	return nil, 0
}

// quietSource reports whether the source pattern h is never a
// signaling NaN: the result of a narrowing or of a 16-bit op.
func quietSource(h *ir.Value) bool {
	if h.Def == nil {
		return false
	}
	switch h.Def.Op {
	case ir.OpF32ToF16, ir.OpF32ToBF16, ir.OpHAdd, ir.OpHSub, ir.OpHMul:
		return true
	}
	return false
}

// halfConst returns the pattern of f32 constant v in format f and
// whether v is exactly that value (a NaN never is).
func halfConst(v *ir.Value, f ir.HalfFmt) (uint16, bool) {
	h := ir.F32ToHalfBits(f, uint32(v.Bits))
	return h, ir.HalfToF32Bits(f, h) == uint32(v.Bits) && uint32(v.Bits)&0x7fffffff <= 0x7f800000
}

// operandCost returns the instructions that give source f32 value v as
// a pattern of format f for an arithmetic or compare operand (any NaN
// stands for its value there), or -1 when it has no such form.
func (h *halfRewriter) operandCost(v *ir.Value, f ir.HalfFmt, depth int) int {
	if p, g := widened(v); p != nil {
		if g != f {
			return -1
		}
		return 0
	}
	if v.IsConst() && v.Type == ir.F32 {
		if _, ok := halfConst(v, f); ok {
			return 1 // a mov into a .b16 register
		}
		return -1
	}
	if d := v.Def; d != nil && depth < maxHalfDepth && (d.Op == ir.OpNeg || d.Op == ir.OpAbs) && v.Type == ir.F32 {
		if c := h.operandCost(d.Args[0], f, depth+1); c >= 0 {
			return c + 1
		}
	}
	return -1
}

// valueCost returns the instructions that give the narrowing of source
// f32 value v to format f as a quiet pattern, or -1 when it has no such
// form.
func (h *halfRewriter) valueCost(v *ir.Value, f ir.HalfFmt, depth int) int {
	if p, g := widened(v); p != nil {
		switch {
		case g != f:
			return -1
		case quietSource(p):
			return 0
		}
		return quietCost
	}
	if v.IsConst() && v.Type == ir.F32 {
		return 0
	}
	d := v.Def
	if d == nil || v.Type != ir.F32 || depth >= maxHalfDepth {
		return -1
	}
	switch d.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		if !halfArithNative(h.t, f) {
			return -1
		}
		a, b := h.operandCost(d.Args[0], f, depth+1), h.operandCost(d.Args[1], f, depth+1)
		if a < 0 || b < 0 {
			return -1
		}
		n := 1
		if f == ir.HalfBF16 && !bf16Direct(h.t) {
			n = 2 // the fma's constant
		}
		return a + b + n
	case ir.OpNeg, ir.OpAbs:
		if c := h.valueCost(d.Args[0], f, depth+1); c >= 0 {
			return c + 1
		}
	case ir.OpSelect:
		a, b := h.valueCost(d.Args[1], f, depth+1), h.valueCost(d.Args[2], f, depth+1)
		if a >= 0 && b >= 0 {
			return a + b + 1
		}
	}
	return -1
}

// memoized returns the value of key k built by make, once per block.
func (h *halfRewriter) memoized(r *rebuilder, k halfKey, make func() *ir.Value) *ir.Value {
	k.blk = r.b.Block()
	if v, ok := h.memo[k]; ok {
		return v
	}
	v := make()
	h.memo[k] = v
	return v
}

// operand builds what operandCost priced.
func (h *halfRewriter) operand(r *rebuilder, v *ir.Value, f ir.HalfFmt) *ir.Value {
	return h.memoized(r, halfKey{v: v, f: f}, func() *ir.Value {
		if p, _ := widened(v); p != nil {
			return r.val(p)
		}
		if v.IsConst() {
			p, _ := halfConst(v, f)
			return r.dst.Const(ir.U16, uint64(p))
		}
		x := h.operand(r, v.Def.Args[0], f)
		if v.Def.Op == ir.OpNeg {
			return r.b.Xor(x, r.dst.Const(ir.U16, 0x8000))
		}
		return r.b.And(x, r.dst.Const(ir.U16, 0x7fff))
	})
}

// quiet returns pattern p of format f with the quiet bit set when it is
// a NaN.
func quiet(r *rebuilder, f ir.HalfFmt, p *ir.Value) *ir.Value {
	inf, q := uint64(0x7c00), uint64(0x0200)
	if f == ir.HalfBF16 {
		inf, q = 0x7f80, 0x0040
	}
	nan := r.b.Cmp(ir.CmpGT, r.b.And(p, r.dst.Const(ir.U16, 0x7fff)), r.dst.Const(ir.U16, inf))
	return r.b.Select(nan, r.b.Or(p, r.dst.Const(ir.U16, q)), p)
}

// value builds what valueCost priced.
func (h *halfRewriter) value(r *rebuilder, v *ir.Value, f ir.HalfFmt) *ir.Value {
	return h.memoized(r, halfKey{v: v, f: f, value: true}, func() *ir.Value {
		if p, _ := widened(v); p != nil {
			if quietSource(p) {
				return r.val(p)
			}
			return quiet(r, f, r.val(p))
		}
		if v.IsConst() {
			return r.dst.Const(ir.U16, uint64(ir.F32ToHalfBits(f, uint32(v.Bits))))
		}
		d := v.Def
		switch d.Op {
		case ir.OpAdd, ir.OpSub, ir.OpMul:
			op := map[ir.Op]ir.Op{ir.OpAdd: ir.OpHAdd, ir.OpSub: ir.OpHSub, ir.OpMul: ir.OpHMul}[d.Op]
			return r.b.HalfArith(op, f, h.operand(r, d.Args[0], f), h.operand(r, d.Args[1], f))
		case ir.OpNeg:
			return r.b.Xor(h.value(r, d.Args[0], f), r.dst.Const(ir.U16, 0x8000))
		case ir.OpAbs:
			return r.b.And(h.value(r, d.Args[0], f), r.dst.Const(ir.U16, 0x7fff))
		}
		return r.b.Select(r.val(d.Args[0]), h.value(r, d.Args[1], f), h.value(r, d.Args[2], f))
	})
}

// rewrite is the legalizer's hook for the 16-bit ops and the f32 path:
// it expands 16-bit ops the target lacks and replaces narrowings and
// comparisons of widened values by native ones where that is no more
// instructions.
func (h *halfRewriter) rewrite(r *rebuilder, in *ir.Instr) bool {
	switch {
	case isHalfOp(in.Op):
		if halfNative(h.t, in) {
			return false
		}
		expandHalf(r, in)
		return true
	case in.Op == ir.OpF32ToF16 || in.Op == ir.OpF32ToBF16:
		f := ir.HalfF16
		if in.Op == ir.OpF32ToBF16 {
			f = ir.HalfBF16
		}
		x := in.Args[0]
		if !halfArithNative(h.t, f) || x.IsConst() {
			return false
		}
		if c := h.valueCost(x, f, 0); c < 0 || c > narrowCost(f) {
			return false
		}
		r.setResult(in.Result(), h.value(r, x, f))
		h.changed = true
		return true
	case in.Op == ir.OpCmp && in.Args[0].Type == ir.F32:
		x, y := in.Args[0], in.Args[1]
		p, f := widened(x)
		if p == nil {
			if p, f = widened(y); p == nil {
				return false
			}
		}
		if !halfCmpNative(h.t, f) {
			return false
		}
		a, b := h.operandCost(x, f, 0), h.operandCost(y, f, 0)
		if a < 0 || b < 0 || a+b > 1 {
			return false
		}
		r.setResult(in.Result(), r.b.HalfCmp(in.Cmp, f, h.operand(r, x, f), h.operand(r, y, f)))
		h.changed = true
		return true
	}
	return false
}

// dropDeadHalf removes from fn, after a rewrite, the instructions
// without side effects or memory reads whose results nothing uses (the
// conversions and f32 ops the 16-bit ops replaced), until none is left.
func dropDeadHalf(fn *ir.Func) {
	for {
		used := make([]bool, fn.NumValues())
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					used[a.ID] = true
				}
				for _, e := range in.Succs {
					for _, a := range e.Args {
						used[a.ID] = true
					}
				}
			}
		}
		removed := false
		for _, b := range fn.Blocks {
			kept := b.Instrs[:0]
			for _, in := range b.Instrs {
				info := in.Op.Info()
				dead := !info.SideEffect && !info.ReadsMem && !info.Terminator && len(in.Results) > 0
				for _, v := range in.Results {
					dead = dead && !used[v.ID]
				}
				if dead {
					removed = true
					continue
				}
				kept = append(kept, in)
			}
			b.Instrs = kept
		}
		if !removed {
			return
		}
	}
}
