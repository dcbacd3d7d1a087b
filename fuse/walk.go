// The planner's view of a graph: nodes under the outputs in topological
// order, stopping at bound nodes, which become the input slots.

package fuse

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// walk is the graph under a plan's outputs.
type walk struct {
	nodes     []*graph.Node       // topological order, inputs first
	index     map[*graph.Node]int // position in nodes
	slots     []*graph.Node       // bound nodes reached, in nodes order
	slotOf    map[*graph.Node]int
	consumers [][]int // consumers[i]: indices of nodes that read nodes[i] (once per edge)
	outputs   []*graph.Node
	bound     map[*graph.Node]graph.Layout
}

// slotOfLayout returns the bound layout of n, if n is bound.
func (w *walk) slotOfLayout(n *graph.Node) (graph.Layout, bool) {
	l, ok := w.bound[n]
	return l, ok
}

// walkGraph collects the nodes under outputs. Bound nodes are leaves:
// nothing under them is visited. Every OpInput reached must be bound.
func walkGraph(outputs []*graph.Node, bound map[*graph.Node]graph.Layout) (*walk, error) {
	if len(outputs) == 0 {
		return nil, fmt.Errorf("fuse: no outputs to plan")
	}
	w := &walk{index: map[*graph.Node]int{}, slotOf: map[*graph.Node]int{}, outputs: outputs, bound: bound}
	type frame struct {
		n    *graph.Node
		next int
	}
	var stack []frame
	for oi, r := range outputs {
		if r == nil {
			return nil, fmt.Errorf("fuse: output %d is nil", oi)
		}
		if r.Err() != nil {
			return nil, r.Err()
		}
		if _, ok := w.index[r]; ok {
			continue
		}
		w.index[r] = -1
		stack = append(stack, frame{n: r})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			_, isBound := bound[top.n]
			if !isBound && top.next < len(top.n.Inputs()) {
				in := top.n.Input(top.next)
				top.next++
				if _, seen := w.index[in]; !seen {
					if in.Err() != nil {
						return nil, in.Err()
					}
					w.index[in] = -1
					stack = append(stack, frame{n: in})
				}
				continue
			}
			n := top.n
			stack = stack[:len(stack)-1]
			if isBound {
				w.slotOf[n] = len(w.slots)
				w.slots = append(w.slots, n)
			} else if n.Op() == graph.OpInput {
				return nil, fmt.Errorf("fuse: input %q %v %v has no bound value", n.Attr().Label, n.Shape(), n.DType())
			}
			w.index[n] = len(w.nodes)
			w.nodes = append(w.nodes, n)
		}
	}
	w.consumers = make([][]int, len(w.nodes))
	for i, n := range w.nodes {
		if w.isBound(n) {
			continue
		}
		for _, in := range n.Inputs() {
			j := w.index[in]
			w.consumers[j] = append(w.consumers[j], i)
		}
	}
	for _, n := range w.slots {
		l := bound[n]
		if l.DType != n.DType() || !l.Shape.Equal(n.Shape()) || len(l.Strides) != len(l.Shape) {
			return nil, fmt.Errorf("fuse: bound value for %v %v %v has layout %v %v strides %v",
				n.Op(), n.Shape(), n.DType(), l.Shape, l.DType, l.Strides)
		}
	}
	return w, nil
}

func (w *walk) isBound(n *graph.Node) bool {
	_, ok := w.slotOf[n]
	return ok
}
