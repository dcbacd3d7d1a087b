// This file implements the templates of memory and address ops: ld and st
// in every state space with .v2/.v4 and the read-only .nc path, atom.*, and
// pointer arithmetic (byte offsets and element indices).

package ptx

import (
	"math/bits"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// memName is the ld/st type of an element: b8 is read as u8, so that the
// 16-bit register holding it is zero-extended.
func memName(t ir.Type) string {
	if t == ir.B8 {
		return "u8"
	}
	return typeName(t)
}

// paramRoot returns the kernel parameter pointer p derives from through
// address arithmetic and casts, or nil when it derives from anything else
// (a block parameter, a select, a shared or local array).
func paramRoot(p *ir.Value) *ir.Value {
	for {
		switch p.Kind {
		case ir.ValParam:
			return p
		case ir.ValResult:
			switch p.Def.Op {
			case ir.OpPtrAdd, ir.OpIndex, ir.OpPtrCast:
				p = p.Def.Args[0]
				continue
			}
		}
		return nil
	}
}

// readOnly reports whether pointer p derives, through address arithmetic
// and casts, from a kernel parameter marked ReadOnly.
func (e *fnEmitter) readOnly(p *ir.Value) bool {
	r := paramRoot(p)
	if r == nil {
		return false
	}
	prm := e.fn.Param(r)
	return prm != nil && prm.ReadOnly
}

// globalWrites is what a kernel writes in global memory: the parameters
// it stores or applies atomics through, and whether it writes through a
// global pointer of unknown origin.
type globalWrites struct {
	params  map[*ir.Value]bool
	unknown bool
}

// scanWrites collects the global writes of fn.
func scanWrites(fn *ir.Func) globalWrites {
	w := globalWrites{params: map[*ir.Value]bool{}}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if in.Op != ir.OpStore && in.Op != ir.OpAtomic {
				continue
			}
			p := in.Args[0]
			if p.Type.Space() != ir.SpaceGlobal {
				continue
			}
			if r := paramRoot(p); r != nil {
				w.params[r] = true
			} else {
				w.unknown = true
			}
		}
	}
	return w
}

// ncSafe reports whether a global load through p may use the
// non-coherent path: nothing the kernel writes can alias it. That holds
// when p derives from a parameter the kernel never writes through and
// the kernel writes through no pointer of unknown origin. (Distinct
// parameters are distinct buffers: the executor never binds one buffer to
// two parameters of a kernel that writes one of them.) ld.global.nc of
// memory the same kernel writes returns stale data on the GPU, whatever
// a ReadOnly mark or a CacheNC hint claims, so both yield to this rule.
func (e *fnEmitter) ncSafe(p *ir.Value) bool {
	r := paramRoot(p)
	return r != nil && !e.writes.params[r] && !e.writes.unknown
}

// addr returns the address operand [p].
func (e *fnEmitter) addr(p *ir.Value) string { return "[" + e.inReg(p) + "]" }

// vec returns one operand for a width-1 access, or {a, b, ...}.
func vec(ops []string) string {
	if len(ops) == 1 {
		return ops[0]
	}
	return "{" + strings.Join(ops, ", ") + "}"
}

// emitLoad writes ld.space[.nc][.vN].type. Global loads through a
// read-only parameter, or marked CacheNC, use the non-coherent path when
// ncSafe allows it.
func emitLoad(e *fnEmitter, in *ir.Instr, _ *opRule) {
	p := in.Args[0]
	sp := p.Type.Space()
	mn := "ld." + sp.String()
	if sp == ir.SpaceGlobal && (in.Cache == ir.CacheNC || e.readOnly(p)) && e.ncSafe(p) {
		mn += ".nc"
	}
	if in.Width > 1 {
		mn += ".v" + itoa(in.Width)
	}
	mn += "." + memName(p.Type.Elem())
	dst := make([]string, len(in.Results))
	for i, r := range in.Results {
		dst[i] = e.op(r)
	}
	e.ins(mn, vec(dst), e.addr(p))
}

// emitStore writes st.space[.vN].type.
func emitStore(e *fnEmitter, in *ir.Instr, _ *opRule) {
	p := in.Args[0]
	mn := "st." + p.Type.Space().String()
	if in.Width > 1 {
		mn += ".v" + itoa(in.Width)
	}
	mn += "." + memName(p.Type.Elem())
	src := make([]string, len(in.Args)-1)
	for i, v := range in.Args[1:] {
		src[i] = e.op(v)
	}
	e.ins(mn, e.addr(p), vec(src))
}

// atomType gives the PTX type of each atomic operation on element type t:
// add takes u32, s32, u64, f32, f64 (s64 adds as u64, the same bits); min
// and max the signed or unsigned type; the others the bit type.
var atomType = [...]func(t ir.Type) string{
	ir.AtomAdd: func(t ir.Type) string {
		if t == ir.S64 {
			return "u64"
		}
		return typeName(t)
	},
	ir.AtomMin:  typeName,
	ir.AtomMax:  typeName,
	ir.AtomExch: atomBits,
	ir.AtomCAS:  atomBits,
	ir.AtomAnd:  atomBits,
	ir.AtomOr:   atomBits,
	ir.AtomXor:  atomBits,
	ir.AtomInc:  typeName,
	ir.AtomDec:  typeName,
}

func atomBits(t ir.Type) string { return "b" + itoa(t.Bits()) }

// emitAtomic writes atom.space.op.type d, [p], b[, c].
func emitAtomic(e *fnEmitter, in *ir.Instr, _ *opRule) {
	p := in.Args[0]
	if int(in.Atom) >= len(atomType) {
		e.fail(in, "unknown atomic operation %s", in.Atom)
		return
	}
	mn := "atom." + p.Type.Space().String() + "." + in.Atom.String() + "." + atomType[in.Atom](p.Type.Elem())
	ops := []string{e.op(in.Result()), e.addr(p)}
	for _, a := range in.Args[1:] {
		ops = append(ops, e.op(a))
	}
	e.ins(mn, ops...)
}

// emitAddr writes p + off (PtrAdd) or p + i*sizeof(elem) (Index). 64-bit
// pointers widen a 32-bit index with mul.wide (sign- or zero-extending by
// its type); 32-bit shared and local pointers use mad.lo.s32, truncating a
// 64-bit index first. Constant offsets fold into one add.
func emitAddr(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if aliasOf(in) != nil {
		return
	}
	p, off := in.Args[0], in.Args[1]
	size := 1
	if in.Op == ir.OpIndex {
		size = p.Type.Elem().Size()
	}
	d, base := e.op(in.Result()), e.inReg(p)
	if ptrBits(p.Type) == 64 {
		if off.IsConst() {
			k := constOffset(off) * int64(size)
			e.ins("add.s64", d, base, itoa64(k))
			return
		}
		wide := e.op(off)
		switch {
		case off.Type.Bits() == 32 && size > 1:
			wide = e.newReg(class64)
			e.ins("mul.wide."+typeName(off.Type), wide, e.op(off), itoa(size))
		case off.Type.Bits() == 32:
			wide = e.newReg(class64)
			e.ins("cvt."+intOf(64, off.Type.IsSigned())+"."+typeName(off.Type), wide, e.op(off))
		case size > 1:
			wide = e.newReg(class64)
			e.ins("shl.b64", wide, e.op(off), itoa(bits.TrailingZeros(uint(size))))
		}
		e.ins("add.s64", d, base, wide)
		return
	}
	if off.IsConst() {
		k := int32(constOffset(off) * int64(size))
		e.ins("add.s32", d, base, itoa64(int64(k)))
		return
	}
	o := e.op(off)
	if off.Type.Bits() == 64 {
		o = e.newReg(class32)
		e.ins("cvt.u32.u64", o, e.op(off))
	}
	if size > 1 {
		e.ins("mad.lo.s32", d, o, itoa(size), base)
		return
	}
	e.ins("add.s32", d, base, o)
}

// constOffset returns an offset constant as a 64-bit signed value
// (sign-extended for s types, zero-extended for u types).
func constOffset(v *ir.Value) int64 {
	if v.Type.IsSigned() {
		return v.ConstInt()
	}
	return int64(v.Bits)
}

// intOf returns the name of the integer type of the given width and
// signedness ("s64").
func intOf(bits int, signed bool) string {
	if signed {
		return "s" + itoa(bits)
	}
	return "u" + itoa(bits)
}
