// WriteDOT: Graphviz output of an expression graph.

package graph

import (
	"fmt"
	"io"
	"strings"
)

// WriteDOT writes the graph under roots in Graphviz DOT syntax, one box
// per node labelled with its op, shape and dtype; roots are drawn bold.
func WriteDOT(w io.Writer, roots ...*Node) error {
	var b strings.Builder
	b.WriteString("digraph fuseflow {\n  node [shape=box, fontname=\"monospace\"];\n")
	isRoot := map[*Node]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	for _, n := range Topo(roots...) {
		fmt.Fprintf(&b, "  n%d [label=%q", n.id, Label(n))
		if isRoot[n] {
			b.WriteString(", style=bold")
		}
		if n.err != nil {
			b.WriteString(", color=red")
		}
		b.WriteString("];\n")
		for i, in := range n.inputs {
			fmt.Fprintf(&b, "  n%d -> n%d [label=\"%d\"];\n", in.id, n.id, i)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Label describes n in one line: op, attributes, shape and dtype.
func Label(n *Node) string {
	if n.err != nil {
		return fmt.Sprintf("%v: error: %v", n.op, n.err)
	}
	var extra string
	a := &n.attr
	switch n.op {
	case OpInput:
		extra = " " + a.Label
	case OpConst:
		extra = " " + a.Value.String()
	case OpIota:
		extra = fmt.Sprintf(" start=%g step=%g", a.Start, a.Step)
	case OpEye:
		extra = fmt.Sprintf(" k=%d", a.K)
	case OpRandU, OpRandN:
		extra = fmt.Sprintf(" seed=%d", a.Seed)
	case OpPermute:
		extra = fmt.Sprintf(" %v", a.Perm)
	case OpSlice:
		extra = fmt.Sprintf(" %v", a.Slices)
	case OpConcat, OpTake, OpTakeAlong, OpScatter, OpScatterAdd, OpScatterMax:
		extra = fmt.Sprintf(" axis=%d", a.Axis)
	case OpCall:
		extra = fmt.Sprintf(" %s out=%d", a.Call.Name(), a.Output)
	case OpSort, OpArgSort:
		extra = fmt.Sprintf(" axis=%d k=%d", a.Axis, a.K)
		if a.Desc {
			extra += " desc"
		}
	}
	if n.op.Class() == ClassReduce {
		extra = fmt.Sprintf(" axes=%v", a.Axes)
		if a.KeepDims {
			extra += " keepdims"
		}
	}
	return fmt.Sprintf("%v%s %v %v", n.op, extra, n.shape, n.dtype)
}
