// This file implements dominator and post-dominator trees over a
// function's blocks (the iterative algorithm of Cooper, Harvey and
// Kennedy over a reverse postorder), used by the verifier.

package ir

// cfg is the block graph of a function in layout indices, with a virtual
// exit node (index n) that every block ending in ret (or without
// successors) reaches.
type cfg struct {
	blocks []*Block
	index  map[*Block]int
	succs  [][]int
	preds  [][]int
}

func newCFG(f *Func) *cfg {
	n := len(f.Blocks)
	g := &cfg{blocks: f.Blocks, index: make(map[*Block]int, n), succs: make([][]int, n+1), preds: make([][]int, n+1)}
	for i, b := range f.Blocks {
		g.index[b] = i
	}
	for i, b := range f.Blocks {
		t := b.Term()
		out := false
		if t != nil {
			for _, e := range t.Succs {
				if j, ok := g.index[e.Block]; ok {
					g.succs[i] = append(g.succs[i], j)
					g.preds[j] = append(g.preds[j], i)
					out = true
				}
			}
		}
		if !out {
			g.succs[i] = append(g.succs[i], n)
			g.preds[n] = append(g.preds[n], i)
		}
	}
	return g
}

// domTree computes immediate dominators of the graph given by succs and
// preds from entry. idom[entry] == entry; idom of unreachable nodes is -1.
func domTree(nodes, entry int, succs, preds [][]int) []int {
	order := make([]int, 0, nodes) // postorder
	seen := make([]bool, nodes)
	type frame struct{ n, i int }
	stack := []frame{{entry, 0}}
	seen[entry] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(succs[top.n]) {
			s := succs[top.n][top.i]
			top.i++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		order = append(order, top.n)
		stack = stack[:len(stack)-1]
	}
	po := make([]int, nodes)
	for i := range po {
		po[i] = -1
	}
	for i, n := range order {
		po[n] = i
	}
	idom := make([]int, nodes)
	for i := range idom {
		idom[i] = -1
	}
	idom[entry] = entry
	intersect := func(a, b int) int {
		for a != b {
			for po[a] < po[b] {
				a = idom[a]
			}
			for po[b] < po[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 1; k >= 0; k-- {
			n := order[k]
			if n == entry {
				continue
			}
			nd := -1
			for _, p := range preds[n] {
				if idom[p] == -1 {
					continue
				}
				if nd == -1 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != idom[n] {
				idom[n] = nd
				changed = true
			}
		}
	}
	return idom
}

// dominators returns the immediate dominator of each block (layout index),
// -1 for unreachable blocks; the entry is its own.
func (g *cfg) dominators() []int {
	n := len(g.blocks)
	if n == 0 {
		return nil
	}
	return domTree(n+1, 0, g.succs, g.preds)[:n]
}

// postDominators returns the immediate post-dominator of each block, with
// len(blocks) standing for the virtual exit and -1 for blocks that cannot
// reach it.
func (g *cfg) postDominators() []int {
	n := len(g.blocks)
	return domTree(n+1, n, g.preds, g.succs)[:n]
}

// dominates reports whether block a dominates block b given idom.
func dominates(idom []int, a, b int) bool {
	for {
		if a == b {
			return true
		}
		if b < 0 || idom[b] == b || idom[b] < 0 {
			return false
		}
		b = idom[b]
	}
}
