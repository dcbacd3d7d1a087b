// This file implements copying an IR function through a rewrite hook: the
// mechanism of the legalization pass. The copy has the same parameters,
// allocations, block names and value names; each instruction is either
// copied or replaced by what the hook builds in its place. Unreachable
// blocks are dropped.

package ptx

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// rebuilder copies one function. Blocks are filled in a depth-first
// preorder from the entry, so every operand (defined in a dominating
// block) is mapped before its use; branch arguments, which may come from
// later blocks along back edges, are mapped when all blocks are done.
type rebuilder struct {
	src, dst *ir.Func
	b        *ir.Builder
	vals     []*ir.Value // source value ID -> copy
	blocks   map[*ir.Block]*ir.Block
	terms    []termPair
	// rewrite, when it returns true, has built the replacement of in
	// (mapping its results with setResult); otherwise in is copied.
	rewrite func(r *rebuilder, in *ir.Instr) (bool, error)
}

// termPair is a copied terminator whose edges are mapped at the end.
type termPair struct{ src, dst *ir.Instr }

// rebuild returns a copy of src made through rewrite (nil copies only).
func rebuild(src *ir.Func, rewrite func(*rebuilder, *ir.Instr) (bool, error)) (*ir.Func, error) {
	r := &rebuilder{
		src:     src,
		dst:     ir.NewFunc(src.Name),
		vals:    make([]*ir.Value, src.NumValues()),
		blocks:  make(map[*ir.Block]*ir.Block, len(src.Blocks)),
		rewrite: rewrite,
	}
	r.dst.MaxThreads = src.MaxThreads
	for _, p := range src.Params {
		v := r.dst.AddParam(p.Name, p.Type)
		r.dst.Params[len(r.dst.Params)-1].ReadOnly = p.ReadOnly
		r.vals[p.Value.ID] = v
	}
	for _, a := range src.Shared {
		r.vals[a.Value.ID] = r.dst.AddShared(a.Name, a.Elem, a.Count)
	}
	for _, a := range src.Local {
		r.vals[a.Value.ID] = r.dst.AddLocal(a.Name, a.Elem, a.Count)
	}
	for _, a := range src.DynShared {
		r.vals[a.Value.ID] = r.dst.AddDynShared(a.Name, a.Elem)
	}
	for _, a := range src.ConstArrays {
		r.vals[a.Value.ID] = r.dst.AddConstArray(a.Name, a.Elem, a.Init)
	}
	order := preorder(src)
	reach := make(map[*ir.Block]bool, len(order))
	for _, b := range order {
		reach[b] = true
	}
	for _, b := range src.Blocks {
		if !reach[b] {
			continue
		}
		types := make([]ir.Type, len(b.Params))
		for i, p := range b.Params {
			types[i] = p.Type
		}
		nb := r.dst.NewBlock(b.Name, types...)
		for i, p := range b.Params {
			r.dst.SetName(nb.Params[i], p.Name)
			r.vals[p.ID] = nb.Params[i]
		}
		r.blocks[b] = nb
	}
	r.b = ir.NewBuilder(r.dst)
	for _, b := range order {
		r.b.SetBlock(r.blocks[b])
		for _, in := range b.Instrs {
			r.b.SetComment(in.Comment)
			r.b.SetPos(in.Pos)
			done := false
			if r.rewrite != nil {
				var err error
				if done, err = r.rewrite(r, in); err != nil {
					return nil, err
				}
			}
			if !done {
				r.copyInstr(in)
			}
		}
	}
	if err := r.mapEdges(); err != nil {
		return nil, err
	}
	return r.dst, nil
}

// preorder returns the blocks reachable from the entry in depth-first
// preorder (successors in edge order).
func preorder(f *ir.Func) []*ir.Block {
	if f.Entry() == nil {
		return nil
	}
	seen := map[*ir.Block]bool{}
	var out []*ir.Block
	stack := []*ir.Block{f.Entry()}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		out = append(out, b)
		succs := b.Succs()
		for i := len(succs) - 1; i >= 0; i-- {
			if s := succs[i]; s != nil && !seen[s] {
				stack = append(stack, s)
			}
		}
	}
	return out
}

// val returns the copy of source value v (constants are re-made in the
// copy). It panics on a value not mapped yet: operands are defined in
// dominating blocks, which the preorder visits first.
func (r *rebuilder) val(v *ir.Value) *ir.Value {
	if v.IsConst() {
		return r.dst.Const(v.Type, v.Bits)
	}
	if v.ID >= len(r.vals) || r.vals[v.ID] == nil {
		panic(fmt.Sprintf("ptx: rebuilding %s: operand %s used before its definition was copied", r.src.Name, v))
	}
	return r.vals[v.ID]
}

// args maps a list of source values.
func (r *rebuilder) args(vs []*ir.Value) []*ir.Value {
	out := make([]*ir.Value, len(vs))
	for i, v := range vs {
		out[i] = r.val(v)
	}
	return out
}

// setResult records nv as the copy of source value v, carrying its name.
func (r *rebuilder) setResult(v, nv *ir.Value) {
	if v.Name != "" && nv.Name == "" && !nv.IsConst() {
		r.dst.SetName(nv, v.Name)
	}
	r.vals[v.ID] = nv
}

// copyInstr appends a copy of in with its attributes and returns it.
func (r *rebuilder) copyInstr(in *ir.Instr) *ir.Instr {
	var ni *ir.Instr
	args := r.args(in.Args)
	if in.Op == ir.OpLoad {
		r.b.LoadVec(args[0], in.Width)
		blk := r.b.Block()
		ni = blk.Instrs[len(blk.Instrs)-1]
	} else {
		explicit := ir.Invalid
		if res := in.Result(); res != nil {
			explicit = res.Type
		}
		ni = r.b.Emit(in.Op, explicit, args...)
	}
	copyAttrs(ni, in)
	for i, v := range in.Results {
		if i < len(ni.Results) {
			r.setResult(v, ni.Results[i])
		}
	}
	if in.Op.IsTerminator() {
		r.terms = append(r.terms, termPair{in, ni})
	}
	return ni
}

// copyAttrs copies the attribute fields of in to ni.
func copyAttrs(ni, in *ir.Instr) {
	ni.Cmp, ni.Rnd, ni.Atom, ni.Shfl, ni.Vote = in.Cmp, in.Rnd, in.Atom, in.Shfl, in.Vote
	ni.Fn, ni.Reg, ni.Scope, ni.Cache = in.Fn, in.Reg, in.Scope, in.Cache
	ni.Width, ni.Approx, ni.Comment = in.Width, in.Approx, in.Comment
	ni.Red, ni.Pos, ni.Fmt = in.Red, in.Pos, in.Fmt
}

// mapEdges fills the edges of the copied terminators. A conditional
// branch edge that carries arguments is split: it goes to a new block
// that branches on with the arguments, so that the copies into the
// target's parameters run on that edge only.
func (r *rebuilder) mapEdges() error {
	for _, t := range r.terms {
		t.dst.Succs = make([]ir.Edge, len(t.src.Succs))
		for i, e := range t.src.Succs {
			nb, ok := r.blocks[e.Block]
			if !ok {
				return fmt.Errorf("ptx: kernel %s: branch to block %s, which is not in the function", r.src.Name, e.Block)
			}
			ne := ir.Edge{Block: nb, Args: r.args(e.Args)}
			if t.src.Op == ir.OpCondBr && len(e.Args) > 0 {
				split := r.dst.NewBlock(t.src.Block.Name + "_to_" + e.Block.Name)
				r.b.SetBlock(split)
				r.b.SetComment(t.src.Comment)
				r.b.SetPos(t.src.Pos)
				r.b.Br(nb, ne.Args...)
				ne = ir.Edge{Block: split}
			}
			t.dst.Succs[i] = ne
		}
	}
	return nil
}
