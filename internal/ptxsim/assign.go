// This file implements the definite-assignment check of a decoded
// kernel: a forward data-flow analysis over its control-flow graph that
// finds a register an instruction may read before any path from the
// entry has written it. PTX registers start undefined, so Parse rejects
// such a kernel, naming the line and the register. A write under a guard
// counts as a write ("@p mov r, 1; @!p mov r, 2" is correct PTX).

package ptxsim

// regSet is a set of registers (value registers, then predicates).
type regSet []uint64

func newRegSet(n int) regSet    { return make(regSet, (n+63)/64) }
func (s regSet) add(i int)      { s[i/64] |= 1 << uint(i%64) }
func (s regSet) has(i int) bool { return s[i/64]&(1<<uint(i%64)) != 0 }

// checkAssigned returns the first instruction of k that may read a
// register no path has written, and the register's name; -1 when none.
// Registers are numbered as inst.uses and inst.defs number them: nregs
// value registers, then the predicates.
func checkAssigned(k *Kernel, nregs int, name func(int) string) (int, string) {
	code := k.code
	n := nregs + k.npreds
	// Basic blocks start at the entry, at branch targets and after
	// branches, exits and traps.
	leader := make([]bool, len(code)+1)
	leader[0] = true
	for pc := range code {
		switch in := &code[pc]; in.ctl {
		case ctlBra:
			leader[in.target] = true
			leader[pc+1] = true
		case ctlExit, ctlTrap:
			leader[pc+1] = true
		}
	}
	var starts []int
	blockOf := make([]int, len(code))
	for pc := range code {
		if leader[pc] {
			starts = append(starts, pc)
		}
		blockOf[pc] = len(starts) - 1
	}
	nb := len(starts)
	end := func(b int) int {
		if b+1 < nb {
			return starts[b+1]
		}
		return len(code)
	}
	succs := make([][]int, nb)
	for b := range nb {
		last := &code[end(b)-1]
		fall := end(b) < len(code)
		switch {
		case last.ctl == ctlBra:
			succs[b] = append(succs[b], blockOf[last.target])
			fall = fall && last.guard >= 0
		case last.ctl == ctlExit || last.ctl == ctlTrap:
			fall = fall && last.guard >= 0
		}
		if fall {
			succs[b] = append(succs[b], blockOf[end(b)])
		}
	}
	// in[b]: registers written on every path to b (all, until a path is
	// seen); the entry starts with none.
	in := make([]regSet, nb)
	seen := make([]bool, nb)
	for b := range nb {
		in[b] = newRegSet(n)
	}
	seen[0] = true
	cur := newRegSet(n)
	for changed := true; changed; {
		changed = false
		for b := range nb {
			if !seen[b] {
				continue
			}
			copy(cur, in[b])
			for pc := starts[b]; pc < end(b); pc++ {
				for _, r := range code[pc].defs {
					cur.add(int(r))
				}
			}
			for _, s := range succs[b] {
				if !seen[s] {
					seen[s] = true
					copy(in[s], cur)
					changed = true
					continue
				}
				for i := range in[s] {
					if v := in[s][i] & cur[i]; v != in[s][i] {
						in[s][i] = v
						changed = true
					}
				}
			}
		}
	}
	for b := range nb {
		if !seen[b] {
			continue // unreachable code
		}
		copy(cur, in[b])
		for pc := starts[b]; pc < end(b); pc++ {
			for _, r := range code[pc].uses {
				if !cur.has(int(r)) {
					return pc, name(int(r))
				}
			}
			for _, r := range code[pc].defs {
				cur.add(int(r))
			}
		}
	}
	return -1, ""
}
