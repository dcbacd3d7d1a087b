// This file implements the verifier's driver and its structural checks:
// declarations, block membership and terminators, branch arguments, value
// ownership and dominance of every use.

package ir

import "fmt"

// verifier collects the problems of one function.
type verifier struct {
	f        *Func
	problems []Problem
	g        *cfg
	idom     []int
	pos      map[*Instr]int // index of each instruction in its block
}

// Verify checks the function and returns nil or a *VerifyError listing
// every problem with its position: operand and result types of every
// instruction, address spaces, vector widths, dominance of every use,
// terminated blocks with matching branch arguments, barriers only in
// control flow that does not depend on the thread index, and problems the
// builder recorded. Verify does not modify f and is safe to call
// concurrently with other readers.
func (f *Func) Verify() error {
	v := &verifier{f: f, pos: map[*Instr]int{}}
	v.problems = append(v.problems, f.buildErrs...)
	v.checkDecls()
	structOK := v.checkStructure()
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			v.checkInstr(b, i, in)
		}
	}
	if structOK {
		v.g = newCFG(f)
		v.idom = v.g.dominators()
		v.checkDominance()
		v.checkBarriers()
	}
	if len(v.problems) == 0 {
		return nil
	}
	return &VerifyError{Problems: v.problems}
}

// funcProblem records a function-level problem.
func (v *verifier) funcProblem(format string, args ...any) {
	v.problems = append(v.problems, Problem{Func: v.f.Name, Index: -1, Msg: fmt.Sprintf(format, args...)})
}

// blockProblem records a problem about a block as a whole.
func (v *verifier) blockProblem(b *Block, format string, args ...any) {
	v.problems = append(v.problems, Problem{Func: v.f.Name, Block: b.Name, Index: -1, Msg: fmt.Sprintf(format, args...)})
}

// instrProblem records a problem about instruction i of block b.
func (v *verifier) instrProblem(b *Block, i int, in *Instr, format string, args ...any) {
	v.problems = append(v.problems, Problem{Func: v.f.Name, Block: b.Name, Index: i, Instr: in.String(), Pos: in.Pos, Msg: fmt.Sprintf(format, args...)})
}

// checkDecls checks parameters and allocations.
func (v *verifier) checkDecls() {
	if len(v.f.Blocks) == 0 {
		v.funcProblem("function has no blocks")
	}
	for _, p := range v.f.Params {
		switch {
		case !v.typeOK(p.Type):
			v.funcProblem("parameter %s has invalid type %s", p.Name, p.Type)
		case p.Type.IsPtr() && p.Type.Space() != SpaceGlobal && p.Type.Space() != SpaceConst:
			v.funcProblem("parameter %s: pointer parameters must be in the global or const space, not %s", p.Name, p.Type.Space())
		case p.Type == Pred:
			v.funcProblem("parameter %s: pred parameters are not allowed (pass an integer)", p.Name)
		}
	}
	for _, a := range append(append([]*Alloc(nil), v.f.Shared...), v.f.Local...) {
		if !v.typeOK(a.Elem) || a.Elem.IsPtr() || a.Elem == Pred {
			v.funcProblem("%s array %s has invalid element type %s", a.Space, a.Name, a.Elem)
		}
		if a.Count <= 0 {
			v.funcProblem("%s array %s has %d elements, want at least 1", a.Space, a.Name, a.Count)
		}
	}
	for _, a := range v.f.DynShared {
		if !v.typeOK(a.Elem) || a.Elem.IsPtr() || a.Elem == Pred {
			v.funcProblem("dynamic shared array %s has invalid element type %s", a.Name, a.Elem)
		}
		if !a.Dynamic || a.Count != 0 || a.Space != SpaceShared {
			v.funcProblem("dynamic shared array %s must be declared with AddDynShared", a.Name)
		}
	}
	for _, a := range v.f.ConstArrays {
		if !v.typeOK(a.Elem) || a.Elem.IsPtr() || a.Elem == Pred {
			v.funcProblem("const array %s has invalid element type %s", a.Name, a.Elem)
		}
		if a.Count <= 0 || a.Count != len(a.Init) || a.Space != SpaceConst {
			v.funcProblem("const array %s has %d elements and %d initial values, want the same count, at least 1", a.Name, a.Count, len(a.Init))
		}
	}
}

// typeOK reports whether t is a type the IR supports today.
func (v *verifier) typeOK(t Type) bool {
	return t.IsValid() && t != F16 && t.Elem() != F16
}

// checkStructure checks that every block belongs to the function once and
// ends in exactly one terminator, and that branch targets are blocks of the
// function with matching arguments. It reports whether the CFG is sound
// enough for dominance analysis.
func (v *verifier) checkStructure() bool {
	ok := true
	seen := map[*Block]bool{}
	for _, b := range v.f.Blocks {
		if seen[b] {
			v.blockProblem(b, "block appears twice in the layout")
			ok = false
		}
		seen[b] = true
		if b.fn != v.f {
			v.blockProblem(b, "block belongs to another function")
			ok = false
		}
	}
	for _, b := range v.f.Blocks {
		for i, p := range b.Params {
			if p.Kind != ValBlockParam || p.Block != b || p.Index != i {
				v.blockProblem(b, "parameter %d (%s) is not a parameter of this block", i, p)
			}
			if !v.typeOK(p.Type) {
				v.blockProblem(b, "parameter %s has invalid type %s", p, p.Type)
			}
		}
		if len(b.Instrs) == 0 || !b.Instrs[len(b.Instrs)-1].Op.IsTerminator() {
			v.blockProblem(b, "block does not end with a terminator (br, condbr or ret)")
		}
		for i, in := range b.Instrs {
			v.pos[in] = i
			if in.Block != b {
				v.instrProblem(b, i, in, "instruction records block %s", in.Block)
			}
			if in.Op.IsTerminator() && i != len(b.Instrs)-1 {
				v.instrProblem(b, i, in, "terminator in the middle of the block")
			}
			for _, e := range in.Succs {
				if e.Block == nil {
					v.instrProblem(b, i, in, "branch to a nil block")
					ok = false
					continue
				}
				if !seen[e.Block] {
					v.instrProblem(b, i, in, "branch to block %s, which is not in the function's layout (position the builder in it with SetBlock)", e.Block)
					ok = false
				}
				v.checkEdge(b, i, in, e)
			}
		}
	}
	if e := v.f.Entry(); e != nil && len(e.Params) > 0 {
		v.blockProblem(e, "the entry block cannot have parameters")
	}
	return ok
}

// checkEdge checks the arguments of an edge against its block's params.
func (v *verifier) checkEdge(b *Block, i int, in *Instr, e Edge) {
	if len(e.Args) != len(e.Block.Params) {
		v.instrProblem(b, i, in, "branch to %s passes %d arguments, the block has %d parameters", e.Block, len(e.Args), len(e.Block.Params))
		return
	}
	for k, a := range e.Args {
		if a == nil {
			v.instrProblem(b, i, in, "branch to %s: argument %d is nil", e.Block, k)
			continue
		}
		if a.Type != e.Block.Params[k].Type {
			v.instrProblem(b, i, in, "branch to %s: argument %d (%s) is %s, parameter %s is %s", e.Block, k, a, a.Type, e.Block.Params[k], e.Block.Params[k].Type)
		}
	}
}

// checkDominance checks that every use in a reachable block is dominated by
// its definition.
func (v *verifier) checkDominance() {
	for bi, b := range v.f.Blocks {
		if v.idom[bi] < 0 {
			continue
		}
		for i, in := range b.Instrs {
			for k, a := range in.Args {
				if k > 0 && a == in.Args[k-1] {
					continue
				}
				v.checkUse(b, bi, i, in, a)
			}
			for _, e := range in.Succs {
				for _, a := range e.Args {
					v.checkUse(b, bi, i, in, a)
				}
			}
		}
	}
}

// checkUse checks that value a, used by instruction i of block b, belongs
// to the function and dominates the use.
func (v *verifier) checkUse(b *Block, bi, i int, in *Instr, a *Value) {
	if a == nil {
		return
	}
	if a.fn != v.f {
		v.instrProblem(b, i, in, "operand %s belongs to another function", a)
		return
	}
	switch a.Kind {
	case ValConst, ValParam, ValAlloc:
		return
	case ValBlockParam:
		di, ok := v.g.index[a.Block]
		if !ok || !dominates(v.idom, di, bi) {
			v.instrProblem(b, i, in, "operand %s (a parameter of block %s) does not dominate this use", a, a.Block)
		}
	case ValResult:
		if a.Def == nil {
			v.instrProblem(b, i, in, "operand %s has no defining instruction", a)
			return
		}
		db := a.Def.Block
		di, ok := v.g.index[db]
		dpos, placed := v.pos[a.Def]
		switch {
		case !ok || !placed:
			v.instrProblem(b, i, in, "operand %s is defined outside the function's blocks", a)
		case di == bi && dpos >= i:
			v.instrProblem(b, i, in, "operand %s is used before its definition (instr %d)", a, dpos)
		case di != bi && !dominates(v.idom, di, bi):
			v.instrProblem(b, i, in, "operand %s (defined in block %s) does not dominate this use", a, db)
		}
	}
}
