// Key: the structural plan-cache key of a graph and its canonical input
// slots.

package fuse

import (
	"encoding/binary"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// Key returns the structural cache key of planning outputs with the bound
// layouts, and the bound nodes in slot order: slots[i] binds
// Plan.Inputs[i]. Two calls give the same key exactly when the graphs are
// the same computation up to the identity of their bound nodes (the same
// ops, attributes, shapes, dtypes and sharing, and bound values of the
// same layouts), so a plan built for one serves the other with its own
// slots. Input labels are not part of the key. It errors as Build does
// for an invalid graph or an unbound input. Safe for concurrent use.
func Key(outputs []*graph.Node, bound map[*graph.Node]graph.Layout) (string, []*graph.Node, error) {
	w, err := walkGraph(outputs, bound)
	if err != nil {
		return "", nil, err
	}
	return w.key(bound), w.slots, nil
}

func (w *walk) key(bound map[*graph.Node]graph.Layout) string {
	b := make([]byte, 0, 64+32*len(w.nodes))
	num := func(v int64) { b = binary.AppendVarint(b, v) } // self-delimiting
	ints := func(v []int) {
		num(int64(len(v)))
		for _, x := range v {
			num(int64(x))
		}
	}
	fl := func(f float64) { num(int64(math.Float64bits(f))) }
	for _, n := range w.nodes {
		b = append(b, ';')
		if s, ok := w.slotOf[n]; ok {
			l := bound[n]
			b = append(b, 'S')
			num(int64(s))
			num(int64(l.DType))
			ints(l.Shape)
			ints(l.Strides)
			num(int64(l.Offset))
			continue
		}
		num(int64(n.Op()))
		num(int64(n.DType()))
		ints(n.Shape())
		num(int64(len(n.Inputs())))
		for _, in := range n.Inputs() {
			num(int64(w.index[in]))
		}
		a := n.Attr()
		switch n.Op().Class() {
		case graph.ClassLeaf:
			num(int64(a.Value.DType))
			num(a.Value.I)
			fl(a.Value.F)
			fl(a.Start)
			fl(a.Step)
			fl(a.Stop)
			num(int64(a.K))
			num(int64(a.Seed))
			if a.HasStop {
				b = append(b, 'h')
			}
		case graph.ClassReduce:
			ints(a.Axes)
			if a.KeepDims {
				b = append(b, 'k')
			}
			if a.Flat {
				b = append(b, 'f')
			}
		case graph.ClassView:
			ints(a.Perm)
			num(int64(len(a.Slices)))
			for _, s := range a.Slices {
				num(int64(s.Start))
				num(int64(s.Step))
				num(int64(s.Len))
			}
		case graph.ClassConcat, graph.ClassScan, graph.ClassIndex:
			num(int64(a.Axis))
		case graph.ClassSort:
			num(int64(a.Axis))
			num(int64(a.K))
			if a.Desc {
				b = append(b, 'd')
			}
		case graph.ClassCall:
			num(int64(a.Output))
			b = a.Call.AppendKey(b)
		}
	}
	b = append(b, '>')
	for _, o := range w.outputs {
		num(int64(w.index[o]))
	}
	return string(b)
}
