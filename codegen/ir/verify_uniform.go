// This file implements the verifier's barrier check: a divergence analysis
// that marks values depending on the thread index (tid, laneid,
// activemask, atomic results, and everything computed from them, including
// join values after a divergent branch; bar.red results are the same in
// every thread), then flags bar.sync and bar.red in any block that is
// reached only through a branch on such a value before its paths rejoin.

package ir

// checkBarriers reports barriers in thread-dependent control flow.
func (v *verifier) checkBarriers() {
	var barriers []*Instr
	for _, b := range v.f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == OpBarrier || in.Op == OpBarRed {
				barriers = append(barriers, in)
			}
		}
	}
	if len(barriers) == 0 {
		return
	}
	n := len(v.f.Blocks)
	pdom := v.g.postDominators()
	div := v.divergentValues(pdom)

	// ctl[b] is the layout index of a divergent branch whose region holds
	// block b, or -1.
	ctl := make([]int, n)
	for i := range ctl {
		ctl[i] = -1
	}
	for bi := range v.f.Blocks {
		if !v.divergentBranch(bi, div) {
			continue
		}
		for _, x := range v.region(bi, pdom) {
			if ctl[x] < 0 {
				ctl[x] = bi
			}
		}
	}
	for _, in := range barriers {
		bi := v.g.index[in.Block]
		if c := ctl[bi]; c >= 0 {
			br := v.f.Blocks[c]
			v.instrProblem(in.Block, v.pos[in], in,
				"%s in thread-dependent control flow: block %s is reached through the branch at the end of block %s on %s, which depends on the thread index; move the barrier to where all threads of the block arrive",
				in.Op, in.Block, br, br.Term().Args[0])
		}
	}
}

// divergentValues returns, indexed by value ID, whether each value may
// differ between the threads of one block.
func (v *verifier) divergentValues(pdom []int) []bool {
	div := make([]bool, v.f.NumValues())
	set := func(x *Value) bool {
		if x == nil || x.ID >= len(div) || div[x.ID] {
			return false
		}
		div[x.ID] = true
		return true
	}
	n := len(v.f.Blocks)
	for changed := true; changed; {
		changed = false
		for bi, b := range v.f.Blocks {
			if v.idom[bi] < 0 {
				continue
			}
			for _, in := range b.Instrs {
				d := (in.Op == OpSpecial && in.Reg.IsThreadVarying()) || in.Op == OpAtomic
				for _, a := range in.Args {
					if a != nil && a.ID < len(div) && div[a.ID] {
						d = true
					}
				}
				if in.Op == OpBarRed {
					d = false // a block-wide reduction: the same in every thread
				}
				if d {
					for _, r := range in.Results {
						changed = set(r) || changed
					}
				}
				for _, e := range in.Succs {
					for k, a := range e.Args {
						if a != nil && a.ID < len(div) && div[a.ID] && k < len(e.Block.Params) {
							changed = set(e.Block.Params[k]) || changed
						}
					}
				}
			}
			if !v.divergentBranch(bi, div) {
				continue
			}
			// Values joined after a divergent branch differ per thread.
			if j := pdom[bi]; j >= 0 && j < n {
				for _, p := range v.f.Blocks[j].Params {
					changed = set(p) || changed
				}
			}
			// A loop with a thread-dependent exit runs a different number
			// of iterations per thread: its loop-carried values differ.
			reg := v.region(bi, pdom)
			for _, x := range reg {
				if x == bi {
					for _, y := range reg {
						for _, p := range v.f.Blocks[y].Params {
							changed = set(p) || changed
						}
					}
					break
				}
			}
		}
	}
	return div
}

// divergentBranch reports whether block bi is reachable and ends in a
// conditional branch on a divergent value.
func (v *verifier) divergentBranch(bi int, div []bool) bool {
	t := v.f.Blocks[bi].Term()
	return v.idom[bi] >= 0 && t != nil && t.Op == OpCondBr && len(t.Args) == 1 && t.Args[0] != nil &&
		t.Args[0].ID < len(div) && div[t.Args[0].ID]
}

// region returns the blocks reachable from the successors of block bi
// before its immediate post-dominator: those whose execution depends on
// bi's branch.
func (v *verifier) region(bi int, pdom []int) []int {
	n := len(v.f.Blocks)
	stop := pdom[bi]
	var out []int
	stack := append([]int(nil), v.g.succs[bi]...)
	seen := map[int]bool{}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == stop || x >= n || seen[x] {
			continue
		}
		seen[x] = true
		out = append(out, x)
		stack = append(stack, v.g.succs[x]...)
	}
	return out
}
