// Summaries of fused subgraphs for the recompute rule: what a value's
// fused subgraph costs and which materialized values it reads, computed
// once per node, bottom-up, instead of a walk per decision.

package fuse

import (
	"slices"

	"github.com/fuseflow/fuseflow/graph"
)

// fusedSum summarizes the subgraph fused under a node (the node, and what
// is under it down to bound and materialized values): the distinct
// nodes of non-zero cost in it (see opCost), the distinct values it reads,
// whether it holds a node that cannot be fused, and whether its cost
// exceeds CheapOps (the sets are then dropped: such a value is never
// recomputed). Kept small that way, a summary costs O(CheapOps) to build
// from its inputs' summaries.
type fusedSum struct {
	costly    []*graph.Node
	leaves    []*graph.Node
	unfusible bool
	expensive bool
}

var expensiveSum = &fusedSum{expensive: true}

// summary returns the summary of node i, treating i itself as fused and
// what p.mat marks (and the bound nodes) below it as values, as the
// recompute rule sees them before it decides anything below i. It
// computes the summaries under i it lacks, without recursion, and keeps
// them: decide goes from the consumers down, so what is below a node
// stays undecided until the node itself is.
func (p *planner) summary(i int) *fusedSum {
	w := p.w
	if p.sums == nil {
		p.sums = make([]*fusedSum, len(w.nodes))
	}
	stack := []int{i}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		if p.sums[j] != nil {
			stack = stack[:len(stack)-1]
			continue
		}
		nd := w.nodes[j]
		pending := false
		if fusible(nd) {
			for _, x := range nd.Inputs() {
				if k := w.index[x]; !p.isValue(x) && p.sums[k] == nil {
					stack = append(stack, k)
					pending = true
				}
			}
		}
		if pending {
			continue
		}
		p.sums[j] = p.summarizeOne(nd)
		stack = stack[:len(stack)-1]
	}
	return p.sums[i]
}

// summarizeOne builds the summary of nd from those of its inputs.
func (p *planner) summarizeOne(nd *graph.Node) *fusedSum {
	w := p.w
	in := nd.Inputs()
	of := func(x *graph.Node) *fusedSum {
		if p.isValue(x) {
			return &fusedSum{leaves: []*graph.Node{x}}
		}
		return p.sums[w.index[x]]
	}
	switch {
	case !fusible(nd):
		return &fusedSum{unfusible: true}
	case len(in) == 1 && costOf(nd.Op()) == 0:
		return of(in[0])
	}
	s := &fusedSum{}
	if costOf(nd.Op()) > 0 {
		s.costly = []*graph.Node{nd}
	}
	for _, x := range in {
		t := of(x)
		p.work += 1 + len(t.costly) + len(t.leaves)
		s = s.union(t)
		if s.expensive || s.unfusible {
			break
		}
	}
	return s
}

// union merges t into s (owned by the caller) and returns the result.
func (s *fusedSum) union(t *fusedSum) *fusedSum {
	if t.unfusible {
		return &fusedSum{unfusible: true}
	}
	if t.expensive {
		return expensiveSum
	}
	for _, n := range t.costly {
		if !slices.Contains(s.costly, n) {
			s.costly = append(s.costly, n)
		}
	}
	cost := 0
	for _, n := range s.costly {
		cost += costOf(n.Op())
	}
	if cost > CheapOps {
		return expensiveSum
	}
	for _, n := range t.leaves {
		if !slices.Contains(s.leaves, n) {
			s.leaves = append(s.leaves, n)
		}
	}
	return s
}
