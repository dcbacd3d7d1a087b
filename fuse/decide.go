// Materialization decisions: which values get a buffer, and the
// recompute-versus-materialize rule for values with several consumers.

package fuse

import (
	"slices"
	"strconv"

	"github.com/fuseflow/fuseflow/graph"
)

// CheapOps is the largest cost (see opCost) of an elementwise subgraph
// that is recomputed in each kernel that reads it rather than
// materialized.
const CheapOps = 8

// opCost is the cost of computing one element of an op: 0 for views,
// copies and constants, 4 for transcendental functions, 2 for divisions
// and roots, 8 and 16 for the uniform and normal generators (a Philox
// block), 1 otherwise.
var opCost = map[graph.Op]int{
	graph.OpConst: 0, graph.OpReshape: 0, graph.OpPermute: 0, graph.OpBroadcast: 0, graph.OpSlice: 0,
	graph.OpCopy: 0,
	graph.OpExp:  4, graph.OpExp2: 4, graph.OpLog: 4, graph.OpLog2: 4, graph.OpLog1p: 4, graph.OpExpm1: 4,
	graph.OpSin: 4, graph.OpCos: 4, graph.OpTan: 4, graph.OpTanh: 4, graph.OpSigmoid: 4, graph.OpErf: 4,
	graph.OpPow: 4, graph.OpAtan2: 4,
	graph.OpDiv: 2, graph.OpFloorDiv: 2, graph.OpMod: 2, graph.OpSqrt: 2, graph.OpRsqrt: 2, graph.OpRecip: 2,
	graph.OpRandU: 8, graph.OpRandN: 16,
}

func costOf(o graph.Op) int {
	if c, ok := opCost[o]; ok {
		return c
	}
	return 1
}

// fusible reports whether n is computed inside the kernel that reads it
// (elementwise ops, views, copies and index-generated leaves) rather than
// needing a kernel of its own.
func fusible(n *graph.Node) bool {
	switch n.Op().Class() {
	case graph.ClassUnary, graph.ClassBinary, graph.ClassWhere, graph.ClassView, graph.ClassCopy:
		return true
	case graph.ClassLeaf:
		return n.Op() != graph.OpInput
	}
	return false
}

// outKind says how a requested output is produced.
type outKind uint8

const (
	outOwn   outKind = iota + 1 // its own materialized value
	outView                     // a view of the value (or slot) base
	outInput                    // a bound value, returned as is
)

type outDecision struct {
	kind outKind
	base int // walk index of the value or bound node viewed
	node *graph.Node
}

// decide fills p.mat: bound nodes are leaves; reductions, matmuls,
// concatenations and requested outputs are materialized (an output that
// is a view of a materialized value or of a bound value is returned as a
// view of it); the operands of a MatMul that reads them are
// materialized below their views; every value forced by an earlier
// attempt (below a Reshape the strides cannot express) is materialized. Then, from the consumers down, a fusible value read by
// more than one kernel is recomputed in each when cheap:
//
//	cost <= CheapOps  and  c*in <= in + (1+c)*out
//
// where cost sums opCost over the value's fused subgraph, c is the number
// of kernels reading it, in the bytes of the materialized values and
// inputs the subgraph reads, and out the bytes of the value: recomputing
// must move no more bytes than writing the value once and reading it c
// times. Otherwise it is materialized (a view at least as large as its
// input is passed by: the rule then applies to the input). With
// p.noRecompute every such
// value with a non-zero cost is materialized. "Read by c kernels" counts
// read sites: a kernel reading the value through two different views
// (x and x reversed in one Concat) computes it twice, so it counts twice.
func (p *planner) decide() {
	w := p.w
	n := len(w.nodes)
	p.mat = make([]bool, n)
	for i, nd := range w.nodes {
		if w.isBound(nd) {
			continue
		}
		switch nd.Op().Class() {
		case graph.ClassReduce, graph.ClassMatMul, graph.ClassConcat:
			p.mat[i] = true
		}
		if p.forced[i] {
			p.mat[i] = true
		}
	}
	for _, nd := range w.nodes {
		if nd.Op() != graph.OpMatMul || w.isBound(nd) || gemmReadsNothing(nd) {
			continue
		}
		for _, x := range nd.Inputs() {
			b := x
			for b.Op().Class() == graph.ClassView && !w.isBound(b) && !p.mat[w.index[b]] {
				b = b.Input(0)
			}
			if !w.isBound(b) {
				p.mat[w.index[b]] = true
			}
		}
	}
	// Outputs lower in the graph first: an output that is a view of
	// another output is then a view of that output's buffer.
	p.outs = make([]outDecision, len(w.outputs))
	order := make([]int, len(w.outputs))
	for oi := range order {
		order[oi] = oi
	}
	slices.SortStableFunc(order, func(a, b int) int { return w.index[w.outputs[a]] - w.index[w.outputs[b]] })
	for _, oi := range order {
		o := w.outputs[oi]
		i := w.index[o]
		switch {
		case w.isBound(o):
			p.outs[oi] = outDecision{kind: outInput, base: i, node: o}
		case o.Op().Class() == graph.ClassView && !p.forced[i]:
			b := o
			for b.Op().Class() == graph.ClassView && !w.isBound(b) && !p.mat[w.index[b]] {
				b = b.Input(0)
			}
			if _, _, err := p.viewChain(o, b); err == nil {
				p.outs[oi] = outDecision{kind: outView, base: w.index[b], node: o}
				if !w.isBound(b) {
					p.mat[w.index[b]] = true
				}
				continue
			}
			p.mat[i] = true
			p.outs[oi] = outDecision{kind: outOwn, base: i, node: o}
		default:
			p.mat[i] = true
			p.outs[oi] = outDecision{kind: outOwn, base: i, node: o}
		}
	}
	// Recompute or materialize, consumers first. sites[i] names the
	// places value i is computed at when it is fused: a kernel and the
	// view transform it is read through there (the kernel memoizes a
	// value per transform, so a value read through two views of it in one
	// kernel, e.g. x and its reverse in a Concat, is computed twice).
	sites := make([][]string, n)
	for i := n - 1; i >= 0; i-- {
		nd := w.nodes[i]
		if w.isBound(nd) || p.mat[i] {
			continue
		}
		var set []string
		for ci, c := range w.consumers[i] {
			if slices.Contains(w.consumers[i][:ci], c) {
				continue // an edge of a consumer already seen
			}
			cn := w.nodes[c]
			for j, x := range cn.Inputs() {
				if x != nd {
					continue
				}
				if p.mat[c] {
					set = addRoot(set, p.readSite(c, j))
					continue
				}
				via := ""
				if st, ok := inputStep(cn, j); ok {
					via = "/" + st.key()
				}
				for _, r := range sites[c] {
					set = addRoot(set, r+via)
				}
			}
		}
		sites[i] = set
		if len(set) > 1 && !transparent(nd) && !p.cheap(nd, len(set)) {
			p.mat[i] = true
		}
	}
}

// transparent reports whether nd is a view or copy at least as large as
// its input: materializing it is never better than materializing what is
// under it (a broadcast of an expensive value), so the recompute rule
// passes it by and decides for its input, which sees its read sites.
func transparent(nd *graph.Node) bool {
	c := nd.Op().Class()
	return (c == graph.ClassView || c == graph.ClassCopy) && nd.Size() >= nd.Input(0).Size()
}

// readSite names where the materialized value c reads its input j: the
// kernel c is likely computed in and the view transform of the input
// there.
func (p *planner) readSite(c, j int) string {
	cn := p.w.nodes[c]
	switch cn.Op() {
	case graph.OpConcat, graph.OpReshape:
		// A Concat piece, and the value under a materialized Reshape
		// (see buildMapRoot), are computed in a Map over their own shape.
		return "m" + cn.Input(j).Shape().String()
	}
	r := p.rootID(c)
	if st, ok := inputStep(cn, j); ok {
		r += "/" + st.key()
	}
	return r
}

func addRoot(set []string, r string) []string {
	for _, s := range set {
		if s == r {
			return set
		}
	}
	return append(set, r)
}

// rootID names the kernel a materialized value will likely be computed
// in: values of the same shape share a Map kernel, reductions of the
// same input shape and axes a Reduce kernel.
func (p *planner) rootID(i int) string {
	nd := p.w.nodes[i]
	switch nd.Op().Class() {
	case graph.ClassReduce:
		return "r" + nd.Input(0).Shape().String() + axesString(nd.Attr().Axes)
	case graph.ClassMatMul, graph.ClassConcat:
		return "k" + strconv.Itoa(i)
	}
	return "m" + nd.Shape().String()
}

func axesString(a []int) string {
	b := make([]byte, 0, 8)
	for _, x := range a {
		b = strconv.AppendInt(b, int64(x), 10)
		b = append(b, ',')
	}
	return string(b)
}

// cheap applies the recompute rule to x read by c kernels.
func (p *planner) cheap(x *graph.Node, c int) bool {
	cost, in := 0, int64(0)
	seen := map[*graph.Node]bool{}
	stack := []*graph.Node{x}
	for len(stack) > 0 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[nd] {
			continue
		}
		seen[nd] = true
		if nd != x && (p.w.isBound(nd) || p.mat[p.w.index[nd]]) {
			in += int64(min(nd.Size(), x.Size()) * nd.DType().Size())
			continue
		}
		if !fusible(nd) {
			return false
		}
		cost += costOf(nd.Op())
		stack = append(stack, nd.Inputs()...)
	}
	if p.noRecompute {
		return cost == 0
	}
	out := int64(x.Size() * x.DType().Size())
	return cost <= CheapOps && int64(c)*in <= in+int64(1+c)*out
}
