// This file implements memory: element addresses of slices and arrays
// with their bounds checks, slicing, local variables and arrays (local
// memory, zeroed as Go zeroes them), loads and stores (bool is a byte in
// memory), copies of array values, and the check sites: a failed check
// records its site in the check word and traps.

package gokernel

import (
	"go/token"
	"go/types"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"golang.org/x/tools/go/ssa"
)

// failSite is a failed check's block, laid out at the end of the kernel.
type failSite struct {
	blk, cont *ir.Block
	code      uint32
	pos       ir.Pos
}

// diag records a diagnostic at pos, or at the instruction being
// translated when pos is not valid.
func (c *compiler) diag(pos token.Pos, format string, args ...any) {
	if !pos.IsValid() {
		pos = c.pos
	}
	c.ds.add(pos, format, args...)
}

// check makes the kernel trap unless ok holds; what names the failure
// ("index out of range"). //fuseflow:nobounds turns checks off.
func (c *compiler) check(ok *ir.Value, what string) {
	if c.noBounds {
		return
	}
	if ok.IsConst() && ok.Bits != 0 {
		return
	}
	if c.checkWord == nil {
		c.checkWord = c.f.AddParam("fuseflow_check", ir.PtrTo(ir.SpaceGlobal, ir.U32))
	}
	c.k.Checks = append(c.k.Checks, c.posString()+": "+what)
	fail := c.b.NewBlock("check_fail")
	cont := c.b.NewBlock("check_ok")
	c.b.CondBr(ok, cont, fail)
	c.fails = append(c.fails, failSite{blk: fail, cont: cont, code: uint32(len(c.k.Checks)), pos: c.b.Pos()})
	c.b.SetBlock(cont)
}

// emitFails fills the failed checks' blocks at the end of the layout:
// the first failure stores its site in the check word, makes it visible
// to the host, and traps.
func (c *compiler) emitFails() {
	for _, s := range c.fails {
		c.b.SetBlock(s.blk)
		c.b.SetPos(s.pos)
		c.b.AtomicCAS(c.checkWord, c.b.U32(0), c.b.U32(s.code))
		c.b.Fence(ir.ScopeSys)
		c.b.Trap()
		c.b.Br(s.cont)
	}
}

// lessU returns the pred i < n compared as unsigned 64-bit integers (a
// negative i is out of range).
func (c *compiler) lessU(i, n *ir.Value) *ir.Value {
	return c.b.Lt(c.b.Cvt(i, ir.U64), c.b.Cvt(n, ir.U64))
}

// indexType returns i in a type the IR indexes with.
func (c *compiler) indexType(i *ir.Value) *ir.Value {
	switch i.Type {
	case ir.S32, ir.U32, ir.S64, ir.U64:
		return i
	}
	return c.b.Cvt(i, ir.S64)
}

// base returns the pointer and length of a slice or of a pointer to an
// array (whose length is its type's).
func (c *compiler) base(fr *frame, x ssa.Value) (ptr, n *ir.Value, ok bool) {
	rep, ok := c.value(fr, x)
	if !ok {
		return nil, nil, false
	}
	switch u := x.Type().Underlying().(type) {
	case *types.Slice:
		return rep[0], rep[1], true
	case *types.Pointer:
		a, isArr := u.Elem().Underlying().(*types.Array)
		if isArr && len(rep) == 1 {
			return rep[0], c.f.ConstInt(ir.S64, a.Len()), true
		}
	case *types.Array:
		if len(rep) == 1 { // an array value: its local copy
			return rep[0], c.f.ConstInt(ir.S64, u.Len()), true
		}
	}
	return nil, nil, false
}

// checkKey identifies an index check: the same index of the same slice
// or array in one function instance.
type checkKey struct {
	fr   *frame
	x, i ssa.Value
}

// elemAddr returns the checked address of element i of x. A check that a
// dominating block of the same function instance already made is not
// repeated (x[i] read then written checks once).
func (c *compiler) elemAddr(fr *frame, x, idx ssa.Value) (*ir.Value, bool) {
	if why := unsupportedType(x.Type()); why != "" {
		c.diag(c.pos, "%s", why)
		return nil, false
	}
	ptr, n, ok := c.base(fr, x)
	if !ok {
		return nil, false
	}
	i, ok := c.value1(fr, idx)
	if !ok {
		return nil, false
	}
	key := checkKey{fr, x, idx}
	static := i.IsConst() && n.IsConst() && uint64(i.ConstInt()) < uint64(n.ConstInt())
	if at, ok := c.checked[key]; !static && (!ok || !at.Dominates(c.curBlock)) {
		c.check(c.lessU(i, n), "index out of range")
		if c.checked == nil {
			c.checked = map[checkKey]*ssa.BasicBlock{}
		}
		if !ok {
			c.checked[key] = c.curBlock
		}
	}
	return c.b.Index(ptr, c.indexType(i)), true
}

// indexAddr translates &x[i].
func (c *compiler) indexAddr(fr *frame, in *ssa.IndexAddr) {
	p, ok := c.elemAddr(fr, in.X, in.Index)
	if !ok {
		fr.fail(in)
		return
	}
	fr.set(in, p)
}

// index translates x[i] of an array value.
func (c *compiler) index(fr *frame, in *ssa.Index) {
	p, ok := c.elemAddr(fr, in.X, in.Index)
	if !ok {
		fr.fail(in)
		return
	}
	fr.set(in, c.loadScalar(p, in.Type()))
}

// slice translates x[lo:hi:max] of a slice or a pointer to an array.
func (c *compiler) slice(fr *frame, in *ssa.Slice) {
	if why := unsupportedType(in.X.Type()); why != "" {
		c.diag(in.Pos(), "%s", why)
		fr.fail(in)
		return
	}
	ptr, n, ok := c.base(fr, in.X)
	if !ok {
		fr.fail(in)
		return
	}
	capv := n
	if _, isSlice := in.X.Type().Underlying().(*types.Slice); isSlice {
		rep, _ := c.value(fr, in.X)
		capv = rep[2]
	}
	get := func(v ssa.Value, def *ir.Value) (*ir.Value, bool) {
		if v == nil {
			return def, true
		}
		x, ok := c.value1(fr, v)
		if !ok {
			return nil, false
		}
		return c.b.Cvt(x, ir.S64), true
	}
	lo, ok1 := get(in.Low, c.f.ConstInt(ir.S64, 0))
	hi, ok2 := get(in.High, n)
	mx, ok3 := get(in.Max, capv)
	if !ok1 || !ok2 || !ok3 {
		fr.fail(in)
		return
	}
	b := c.b
	okb := b.And(b.And(b.Ge(lo, b.S64(0)), b.Le(lo, hi)), b.And(b.Le(hi, mx), c.lessEqU(mx, capv)))
	c.check(okb, "slice bounds out of range")
	fr.set(in, b.Index(ptr, lo), b.Sub(hi, lo), b.Sub(mx, lo))
}

// lessEqU returns a <= b as unsigned 64-bit integers.
func (c *compiler) lessEqU(a, b *ir.Value) *ir.Value {
	return c.b.Le(c.b.Cvt(a, ir.U64), c.b.Cvt(b, ir.U64))
}

// allocRejects are the allocations of constructs outside the subset,
// by the comment go/ssa gives them.
var allocRejects = map[string]string{
	"makeslice": "make is not supported in kernels; use kernel.Shared for memory shared by a block, a local array (var a [8]float32) for memory of one thread, or a slice parameter",
	"new":       "new is not supported in kernels; declare a local variable",
	"slicelit":  "slice literals are not supported in kernels; declare an array (a := [3]int32{1, 2, 3}) and slice it",
	"varargs":   "variadic calls are not supported in kernels; pass the values as separate arguments",
}

// alloc translates a local variable whose address is taken: an array,
// scalar or kernel.Dim3 (three ints) of local memory, zeroed as Go
// zeroes it. A kernel has no heap: a variable go/ssa allocates on the
// heap because its address is taken lives in local memory too, which is
// the same as long as no address of one iteration's variable survives
// into the next iteration of the loop declaring it (rejected).
func (c *compiler) alloc(fr *frame, in *ssa.Alloc) {
	name := in.Comment
	if why, ok := allocRejects[name]; ok && in.Heap {
		if name == "varargs" && feedsAppend(in) {
			fr.fail(in)
			return // append is reported
		}
		c.diag(in.Pos(), "%s", why)
		fr.fail(in)
		return
	}
	if in.Heap && carriedAcrossIterations(in) {
		c.diag(in.Pos(), "the address of %s is kept from one iteration of a loop to the next, where a new variable is made; kernels have no heap: declare it before the loop", varName(name))
		fr.fail(in)
		return
	}
	elem := in.Type().(*types.Pointer).Elem()
	n := int64(1)
	et := elem
	var mt ir.Type
	switch {
	case isDim3(elem):
		n, mt = 3, ir.S64
	default:
		if a, ok := elem.Underlying().(*types.Array); ok {
			n, et = a.Len(), a.Elem()
		}
		var ok bool
		if mt, ok = memIR(et); !ok {
			c.diagType(in.Pos(), elem, varName(name))
			fr.fail(in)
			return
		}
	}
	if n == 0 {
		c.diag(in.Pos(), "%s is an empty array; give it at least one element", varName(name))
		fr.fail(in)
		return
	}
	if name == "" || name == "complit" {
		name = "local"
	}
	p := c.f.AddLocal(name, mt, int(n))
	c.fill(p, n, c.f.Const(mt, 0))
	fr.set(in, p)
}

// feedsAppend reports whether the variadic arguments a are those of an
// append.
func feedsAppend(a *ssa.Alloc) bool {
	for _, r := range *a.Referrers() {
		sl, ok := r.(*ssa.Slice)
		if !ok || sl.Referrers() == nil {
			continue
		}
		for _, u := range *sl.Referrers() {
			if call, ok := u.(*ssa.Call); ok {
				if b, ok := call.Common().Value.(*ssa.Builtin); ok && b.Name() == "append" {
					return true
				}
			}
		}
	}
	return false
}

// carriedAcrossIterations reports whether an address derived from a
// reaches the phi of a loop header: kept from one iteration to the next.
func carriedAcrossIterations(a *ssa.Alloc) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if seen[v] || v.Referrers() == nil {
			return false
		}
		seen[v] = true
		for _, r := range *v.Referrers() {
			switch x := r.(type) {
			case *ssa.Phi:
				for _, p := range x.Block().Preds {
					if x.Block().Dominates(p) {
						return true
					}
				}
				if walk(x) {
					return true
				}
			case *ssa.IndexAddr, *ssa.Slice, *ssa.FieldAddr, *ssa.ChangeType:
				if walk(x.(ssa.Value)) {
					return true
				}
			}
		}
		return false
	}
	return walk(a)
}

func varName(s string) string {
	if s == "" {
		return "a variable"
	}
	return "variable " + s
}

// fill stores v into the n elements at p (unrolled up to 8, a loop
// beyond).
func (c *compiler) fill(p *ir.Value, n int64, v *ir.Value) {
	b := c.b
	if n <= 8 {
		for i := range n {
			b.Store(b.Index(p, b.S32(int32(i))), v)
		}
		return
	}
	b.For(b.S32(0), b.S32(int32(n)), b.S32(1), func(i *ir.Value) { b.Store(b.Index(p, i), v) })
}

// copyArray copies n elements from src to dst (loads then stores, in a
// loop beyond 8).
func (c *compiler) copyArray(dst, src *ir.Value, n int64) {
	b := c.b
	if n <= 8 {
		for i := range n {
			b.Store(b.Index(dst, b.S32(int32(i))), b.Load(b.Index(src, b.S32(int32(i)))))
		}
		return
	}
	b.For(b.S32(0), b.S32(int32(n)), b.S32(1), func(i *ir.Value) {
		b.Store(b.Index(dst, i), b.Load(b.Index(src, i)))
	})
}

// loadScalar loads a value of Go type t at p (a bool from its byte).
func (c *compiler) loadScalar(p *ir.Value, t types.Type) *ir.Value {
	v := c.b.Load(p)
	if it, _ := scalarIR(t); it == ir.Pred {
		return c.b.Ne(c.b.Cvt(v, ir.U32), c.b.U32(0))
	}
	return v
}

// storeScalar stores v at p (a bool as a byte 0 or 1).
func (c *compiler) storeScalar(p, v *ir.Value) {
	if v.Type == ir.Pred {
		v = c.b.Cvt(c.b.Select(v, c.b.U32(1), c.b.U32(0)), ir.U8)
	}
	c.b.Store(p, v)
}

// load translates *p: a scalar, or a whole array (copied to local
// memory, except a constant array, which never changes).
func (c *compiler) load(fr *frame, in *ssa.UnOp) {
	p, ok := c.value1(fr, in.X)
	if !ok {
		fr.fail(in)
		return
	}
	elem := in.X.Type().Underlying().(*types.Pointer).Elem()
	if isDim3(elem) {
		b := c.b
		fr.set(in, b.Load(p), b.Load(b.Index(p, b.S32(1))), b.Load(b.Index(p, b.S32(2))))
		return
	}
	if a, isArr := elem.Underlying().(*types.Array); isArr {
		if p.Type.Space() == ir.SpaceConst {
			fr.set(in, p)
			return
		}
		cp := c.f.AddLocal("copy", p.Type.Elem(), int(a.Len()))
		c.copyArray(cp, p, a.Len())
		fr.set(in, cp)
		return
	}
	fr.set(in, c.loadScalar(p, elem))
}

// store translates *addr = val.
func (c *compiler) store(fr *frame, in *ssa.Store) {
	p, ok := c.value1(fr, in.Addr)
	if !ok {
		return
	}
	switch p.Type.Space() {
	case ir.SpaceConst:
		c.diag(in.Pos(), "package-level arrays are constant in kernels; this store writes one (copy it to a local array to change it)")
		return
	}
	if isDim3(in.Val.Type()) {
		rep, ok := c.value(fr, in.Val)
		if !ok {
			return
		}
		for k, v := range rep {
			c.b.Store(c.b.Index(p, c.b.S32(int32(k))), v)
		}
		return
	}
	if a, isArr := in.Val.Type().Underlying().(*types.Array); isArr {
		src, ok := c.value1(fr, in.Val)
		if !ok {
			return
		}
		c.copyArray(p, src, a.Len())
		return
	}
	v, ok := c.value1(fr, in.Val)
	if !ok {
		return
	}
	c.storeScalar(p, v)
}

// fieldAddr translates &d.X of a kernel.Dim3 variable (three ints in
// local memory).
func (c *compiler) fieldAddr(fr *frame, in *ssa.FieldAddr) {
	if !isDim3(in.X.Type().Underlying().(*types.Pointer).Elem()) {
		c.unsupported(fr, in)
		return
	}
	p, ok := c.value1(fr, in.X)
	if !ok {
		fr.fail(in)
		return
	}
	fr.set(in, c.b.Index(p, c.b.S32(int32(in.Field))))
}
