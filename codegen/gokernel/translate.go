// This file implements the translation of a function's SSA form into IR:
// frames (one per function instance: the kernel, and each inlined call),
// blocks in reverse postorder with the SSA phis as block parameters,
// branches whose edges are filled once every block exists, returns, and
// the lookup of values and constants. Each SSA value becomes a list of IR
// values: one for a scalar or pointer, three for a slice (pointer,
// length, capacity) and for a kernel.Dim3, none for the kernel.Thread.

package gokernel

import (
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"golang.org/x/tools/go/ssa"
)

// compiler holds the state of one kernel's compilation.
type compiler struct {
	l        loaded
	fset     *token.FileSet
	ds       *diagSet
	consts   *constArrays
	k        *Kernel
	f        *ir.Func
	b        *ir.Builder
	noBounds bool
	stack    []*ssa.Function // the inlining stack, the kernel first
	pos      token.Pos       // the position of the instruction being translated

	checkWord *ir.Value
	fails     []failSite
	checked   map[checkKey]*ssa.BasicBlock // index checks done, by the block that did them
	curBlock  *ssa.BasicBlock              // the SSA block being translated
	globals   map[*ssa.Global]*ir.Value
	patches   []patch
}

// frame is one function instance being translated.
type frame struct {
	fn     *ssa.Function
	vals   map[ssa.Value][]*ir.Value
	bad    map[ssa.Value]bool // values whose translation failed (already diagnosed)
	blocks []*ir.Block        // by SSA block index, once created
	phis   [][]phiParams      // by SSA block index: the parameters of its phis
	done   []bool             // SSA blocks translated
	cont   *ir.Block          // inlined frames: where returns branch (made at the first)
	top    bool               // the kernel itself
}

// phiParams locates the block parameters of one phi.
type phiParams struct {
	phi      *ssa.Phi
	start, n int
}

// patch is a branch whose edges are filled at the end.
type patch struct {
	in   *ir.Instr
	fr   *frame
	from *ssa.BasicBlock
}

func newFrame(fn *ssa.Function) *frame {
	n := len(fn.Blocks)
	return &frame{fn: fn, vals: map[ssa.Value][]*ir.Value{}, bad: map[ssa.Value]bool{},
		blocks: make([]*ir.Block, n), phis: make([][]phiParams, n), done: make([]bool, n)}
}

// rpo returns the reachable blocks of fn in reverse postorder.
func rpo(fn *ssa.Function) []*ssa.BasicBlock {
	if len(fn.Blocks) == 0 {
		return nil
	}
	seen := make([]bool, len(fn.Blocks))
	var post []*ssa.BasicBlock
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		seen[b.Index] = true
		for _, s := range b.Succs {
			if !seen[s.Index] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	visit(fn.Blocks[0])
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// translateFrame translates every block of fr's function; its entry block
// must be set (fr.blocks[0]).
func (c *compiler) translateFrame(fr *frame) {
	for _, sb := range rpo(fr.fn) {
		blk := c.blockFor(fr, sb)
		c.b.SetBlock(blk)
		for _, in := range sb.Instrs {
			c.curBlock = sb
			c.setPos(in.Pos())
			c.instr(fr, in)
		}
		fr.done[sb.Index] = true
	}
}

// blockFor returns the IR block of SSA block sb, creating it with a
// parameter per component of each phi. The types come from an incoming
// value of a predecessor already translated (every block but the entry
// has one in reverse postorder).
func (c *compiler) blockFor(fr *frame, sb *ssa.BasicBlock) *ir.Block {
	if b := fr.blocks[sb.Index]; b != nil {
		return b
	}
	var types []ir.Type
	var pps []phiParams
	for _, in := range sb.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		var rep []*ir.Value
		found := false
		for i, e := range phi.Edges {
			if i < len(sb.Preds) && fr.done[sb.Preds[i].Index] {
				if r, ok := c.value(fr, e); ok {
					rep, found = r, true
					break
				}
			}
		}
		if !found {
			fr.bad[phi] = true
			continue
		}
		pp := phiParams{phi: phi, start: len(types), n: len(rep)}
		for _, v := range rep {
			types = append(types, v.Type)
		}
		pps = append(pps, pp)
	}
	name := sb.Comment
	if name == "" {
		name = "b"
	}
	b := c.b.NewBlock(name, types...)
	for _, pp := range pps {
		fr.vals[pp.phi] = b.Params[pp.start : pp.start+pp.n]
		for _, p := range b.Params[pp.start : pp.start+pp.n] {
			c.b.Name(p, pp.phi.Comment)
		}
	}
	fr.blocks[sb.Index] = b
	fr.phis[sb.Index] = pps
	return b
}

// patchEdges fills the edges of every branch: the IR block of each SSA
// successor and the values of its phis along the edge.
func (c *compiler) patchEdges() {
	for _, p := range c.patches {
		succs := p.from.Succs
		p.in.Succs = make([]ir.Edge, len(succs))
		for j, s := range succs {
			target := p.fr.blocks[s.Index]
			if target == nil {
				continue // an unreachable target: never translated
			}
			// The edge's index among s's predecessors: a block may branch
			// twice to the same successor, along its edges in order.
			occ := 0
			for _, x := range succs[:j] {
				if x == s {
					occ++
				}
			}
			k, seen := -1, 0
			for i, pr := range s.Preds {
				if pr == p.from {
					if seen == occ {
						k = i
						break
					}
					seen++
				}
			}
			var args []*ir.Value
			ok := true
			for _, pp := range p.fr.phis[s.Index] {
				rep, good := c.value(p.fr, pp.phi.Edges[k])
				if !good {
					ok = false
					break
				}
				if len(rep) != pp.n || !sameTypes(rep, target.Params[pp.start:pp.start+pp.n]) {
					c.diag(pp.phi.Pos(), "%s holds values of different memory kinds on different paths (a slice of shared memory on one and of a parameter on another, say); keep one kind per variable", phiName(pp.phi))
					ok = false
					break
				}
				args = append(args, rep...)
			}
			if !ok {
				args = nil
				for _, t := range target.Params {
					args = append(args, c.zero(t.Type))
				}
			}
			p.in.Succs[j] = ir.Edge{Block: target, Args: args}
		}
	}
}

// phiName names a phi's variable for messages.
func phiName(phi *ssa.Phi) string {
	if phi.Comment != "" {
		return "variable " + phi.Comment
	}
	return "a variable"
}

func sameTypes(a, b []*ir.Value) bool {
	for i := range a {
		if a[i].Type != b[i].Type {
			return false
		}
	}
	return true
}

// zero returns a zero of IR type t (for edges of code already diagnosed).
func (c *compiler) zero(t ir.Type) *ir.Value {
	if t.IsPtr() {
		return nil
	}
	return c.f.Const(t, 0)
}

// setPos makes pos the position of the instructions built from now on.
func (c *compiler) setPos(pos token.Pos) {
	if !pos.IsValid() {
		return
	}
	c.pos = pos
	p := c.fset.Position(pos)
	c.b.SetPos(ir.Pos{File: filepath.Base(p.Filename), Line: p.Line, Col: p.Column})
}

// posString returns "file.go:line:col" of the instruction being
// translated.
func (c *compiler) posString() string { return c.b.Pos().String() }

// value returns the IR values of v; ok is false for a value whose
// translation failed (and was diagnosed).
func (c *compiler) value(fr *frame, v ssa.Value) ([]*ir.Value, bool) {
	switch x := v.(type) {
	case *ssa.Const:
		return c.constant(x)
	case *ssa.Global:
		return c.global(x)
	case *ssa.Function:
		c.diag(c.pos, "function values are not supported in kernels; call %s directly", x.Name())
		return nil, false
	case *ssa.FreeVar:
		return nil, false
	}
	if fr.bad[v] {
		return nil, false
	}
	r, ok := fr.vals[v]
	return r, ok
}

// value1 returns the single IR value of a scalar or pointer v.
func (c *compiler) value1(fr *frame, v ssa.Value) (*ir.Value, bool) {
	r, ok := c.value(fr, v)
	if !ok || len(r) != 1 {
		return nil, false
	}
	return r[0], true
}

// constant returns the IR values of a constant.
func (c *compiler) constant(k *ssa.Const) ([]*ir.Value, bool) {
	t := k.Type()
	if isDim3(t) && k.Value == nil {
		z := c.f.ConstInt(ir.S64, 0)
		return []*ir.Value{z, z, z}, true
	}
	it, ok := scalarIR(t)
	if !ok {
		if why := unsupportedType(t); why != "" {
			c.diag(c.pos, "%s", why)
		} else {
			c.diag(c.pos, "nil and zero values of %s are not supported in kernels; pass an empty slice or declare a local array", t)
		}
		return nil, false
	}
	if k.Value == nil {
		return []*ir.Value{c.f.Const(it, 0)}, true
	}
	switch {
	case it == ir.Pred:
		return []*ir.Value{c.f.ConstBool(constant.BoolVal(k.Value))}, true
	case it.IsFloat():
		return []*ir.Value{c.f.Const(it, constBits(k.Value, t))}, true
	}
	return []*ir.Value{c.f.Const(it, constBits(k.Value, t))}, true
}

// global returns the const pointer of a package-level constant array.
func (c *compiler) global(g *ssa.Global) ([]*ir.Value, bool) {
	if v, ok := c.globals[g]; ok {
		return []*ir.Value{v}, v != nil
	}
	a := c.consts.get(g)
	if a.why != "" {
		c.diag(c.pos, "%s", a.why)
		c.globals[g] = nil
		return nil, false
	}
	v := c.f.AddConstArray(g.Name(), a.elem, a.bits)
	c.globals[g] = v
	return []*ir.Value{v}, true
}

// width returns the number of IR values of a value of Go type t.
func width(t types.Type) int {
	if isThread(t) {
		return 0
	}
	if isDim3(t) {
		return 3
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return 3
	case *types.Tuple:
		n := 0
		for i := range u.Len() {
			n += width(u.At(i).Type())
		}
		return n
	}
	return 1
}

// set records the IR values of an SSA value.
func (fr *frame) set(v ssa.Value, rep ...*ir.Value) { fr.vals[v] = rep }

// fail marks v's translation as failed.
func (fr *frame) fail(v ssa.Value) {
	if v != nil {
		fr.bad[v] = true
	}
}

// branch emits a branch whose edges are filled by patchEdges.
func (c *compiler) branch(fr *frame, from *ssa.BasicBlock, in *ir.Instr) {
	c.patches = append(c.patches, patch{in: in, fr: fr, from: from})
}

// ret translates a return: the kernel returns; an inlined function
// branches to its frame's continuation with its results.
func (c *compiler) ret(fr *frame, r *ssa.Return) {
	if fr.top {
		c.b.Ret()
		return
	}
	var args []*ir.Value
	for _, v := range r.Results {
		rep, ok := c.value(fr, v)
		if !ok {
			c.b.Ret() // diagnosed already; end the path
			return
		}
		args = append(args, rep...)
	}
	if fr.cont == nil {
		ts := make([]ir.Type, len(args))
		for i, a := range args {
			ts[i] = a.Type
		}
		fr.cont = c.b.NewBlock(fr.fn.Name()+"_ret", ts...)
	} else if len(args) != len(fr.cont.Params) || !sameTypes(args, fr.cont.Params) {
		c.diag(r.Pos(), "%s returns values of different memory kinds on different paths (a slice of shared memory and one of a parameter, say); return one kind", fr.fn.Name())
		c.b.Ret()
		return
	}
	c.b.Br(fr.cont, args...)
}
