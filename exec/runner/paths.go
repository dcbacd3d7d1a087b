// Slot paths: where each bound node of a remembered request lies under
// its outputs, as the output's index followed by operand indices, so that
// a warm lookup finds the bound nodes again from the very same outputs
// (which keep everything under them alive) without holding any node.

package runner

import "github.com/fuseflow/fuseflow/graph"

// slotPaths returns the path of each of slots under outs, flattened:
// path i is paths[off[i]:off[i+1]]. ok is false when a slot is not under
// the outputs.
func slotPaths(outs, slots []*graph.Node) (paths []int32, off []int32, ok bool) {
	type step struct {
		from *graph.Node // nil for an output
		arg  int32       // the output's index, or the operand's
	}
	how := make(map[*graph.Node]step, 2*len(slots)+len(outs))
	queue := make([]*graph.Node, 0, len(outs))
	for i, n := range outs {
		if _, seen := how[n]; !seen {
			how[n] = step{arg: int32(i)}
			queue = append(queue, n)
		}
	}
	want := make(map[*graph.Node]bool, len(slots))
	for _, n := range slots {
		want[n] = true
	}
	found := 0
	for len(queue) > 0 && found < len(want) {
		n := queue[0]
		queue = queue[1:]
		if want[n] {
			found++
			continue // a bound node's operands are not read
		}
		for j, in := range n.Inputs() {
			if _, seen := how[in]; !seen {
				how[in] = step{from: n, arg: int32(j)}
				queue = append(queue, in)
			}
		}
	}
	if found < len(want) {
		return nil, nil, false
	}
	off = make([]int32, 1, len(slots)+1)
	var rev []int32
	for _, n := range slots {
		rev = rev[:0]
		for s := how[n]; ; s = how[s.from] {
			rev = append(rev, s.arg)
			if s.from == nil {
				break
			}
		}
		for k := len(rev) - 1; k >= 0; k-- {
			paths = append(paths, rev[k])
		}
		off = append(off, int32(len(paths)))
	}
	return paths, off, true
}

// follow returns the node path p leads to from outs (p as slotPaths
// made it, for these very outputs).
func follow(outs []*graph.Node, p []int32) *graph.Node {
	n := outs[p[0]]
	for _, j := range p[1:] {
		n = n.Input(int(j))
	}
	return n
}
