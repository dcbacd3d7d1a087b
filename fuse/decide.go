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

// OpCost returns the cost of computing one element of op, in the units
// of Options.BytesPerCost: 0 for views, copies and constants, 4 for
// transcendental functions, 2 for divisions and roots, 8 and 16 for the
// random generators, 1 otherwise.
func OpCost(op graph.Op) int { return costOf(op) }

// fusible reports whether n is computed inside the kernel that reads it
// (elementwise ops, views, copies and index-generated leaves) rather than
// needing a kernel of its own.
func fusible(n *graph.Node) bool {
	switch n.Op().Class() {
	case graph.ClassUnary, graph.ClassBinary, graph.ClassWhere, graph.ClassView, graph.ClassCopy:
		return true
	case graph.ClassLeaf:
		return n.Op() != graph.OpInput
	case graph.ClassIndex:
		return gatherFusible(n)
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
	// off and strides are the layout of an outView output over its base.
	off     int
	strides []int
}

// decide fills p.mat: bound nodes are leaves; reductions, matmuls,
// concatenations and requested outputs are materialized (an output that
// is a view of a materialized value or of a bound value is returned as a
// view of it); the operands of a MatMul that reads them are
// materialized below their views; every value forced by an earlier
// attempt (below a Reshape the strides cannot express) is materialized. Then, from the consumers down, a fusible value read by
// more than one kernel is recomputed in each when cheap:
//
//	cost <= CheapOps  and  c*in + (c-1)*cost*b*out/4 <= in + (1+c)*out
//
// where cost sums opCost over the value's fused subgraph, c is the number
// of kernels reading it, in the bytes of the materialized values and
// inputs the subgraph reads, out the bytes of the value, and b the
// target's Options.BytesPerCost (0 unless given): recomputing must cost
// no more, in bytes moved plus the extra computation at the target's
// exchange rate, than writing the value once and reading it c times. Otherwise it is materialized (a view at least as large as its
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
		case graph.ClassReduce, graph.ClassMatMul, graph.ClassConcat, graph.ClassCall, graph.ClassScan, graph.ClassIndex, graph.ClassSort:
			p.mat[i] = true
		}
		if gatherFusible(nd) {
			p.mat[i] = false
		}
		if p.forced[i] {
			p.mat[i] = true
		}
	}
	p.views = nil
	for _, nd := range w.nodes {
		if nd.Op() != graph.OpMatMul || w.isBound(nd) || gemmReadsNothing(nd) {
			continue
		}
		for _, x := range nd.Inputs() {
			if b := p.viewOf(x).base; !w.isBound(w.nodes[b]) {
				p.mat[b] = true
			}
		}
	}
	p.markCallInputs()
	p.markIndexInputs()
	p.markGatherInputs()
	p.markSortInputs()
	// Outputs lower in the graph first: an output that is a view of
	// another output is then a view of that output's buffer. (The memo of
	// viewOf starts again: materialized outputs change the bases.)
	p.views = nil
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
			if v := p.viewOf(o); v.ok {
				p.outs[oi] = outDecision{kind: outView, base: v.base, node: o, off: v.off, strides: v.strides}
				if !w.isBound(w.nodes[v.base]) {
					p.mat[v.base] = true
				}
				continue
			}
			p.mat[i] = true
			delete(p.views, i) // now a base itself
			p.outs[oi] = outDecision{kind: outOwn, base: i, node: o}
		default:
			p.mat[i] = true
			p.outs[oi] = outDecision{kind: outOwn, base: i, node: o}
		}
	}
	p.hoistBroadcast()
	// Recompute or materialize, consumers first. sites[i] names the
	// places value i is computed at when it is fused: a kernel and the
	// view transform it is read through there (the kernel memoizes a
	// value per transform, so a value read through two views of it in one
	// kernel, e.g. x and its reverse in a Concat, is computed twice).
	// Sites are interned ids (see siteTable); cheap reads the fused
	// subgraphs' summaries, each computed once (see summary).
	// Only the sites of values the rule decides, and of those their sites
	// come from, are needed: not those of a chain of transparent views
	// over a value (a weight read through views by many products).
	need := make([]bool, n)
	for i, nd := range w.nodes {
		if w.isBound(nd) || p.mat[i] {
			continue
		}
		need[i] = !transparent(nd)
		for _, x := range nd.Inputs() {
			need[i] = need[i] || need[w.index[x]]
		}
	}
	var sites siteTable
	sets := make([][]int, n)
	for i := n - 1; i >= 0; i-- {
		nd := w.nodes[i]
		if w.isBound(nd) || p.mat[i] || !need[i] {
			continue
		}
		sites.begin()
		for ci, c := range w.consumers[i] {
			if ci > 0 && w.consumers[i][ci-1] == c {
				continue // an edge of a consumer already seen
			}
			cn := w.nodes[c]
			for j, x := range cn.Inputs() {
				if x != nd {
					continue
				}
				if p.mat[c] {
					sites.add(p.readSite(&sites, c, j))
					continue
				}
				st, ok := inputStep(cn, j)
				if !ok {
					for _, r := range sets[c] {
						sites.add(r)
					}
					continue
				}
				key := st.key()
				for _, r := range sets[c] {
					sites.add(sites.child(r, key))
				}
			}
		}
		p.work += len(w.consumers[i])
		sets[i] = sites.set()
		if len(sets[i]) > 1 && !transparent(nd) && !p.cheap(nd, len(sets[i]), p.summary(i)) {
			p.mat[i] = true
		}
	}
	p.work += sites.adds
	p.coverGathers()
}

// HoistFactor and HoistMin decide when a value read through a broadcast
// is computed at its own shape: when the kernel reading it would compute
// it at least HoistFactor times per element and at HoistMin points or
// more. The mean and the deviation of a row (4096 values) broadcast over
// a 4096 x 4096 matrix are then computed 4096 times, not 16.8 million;
// small plans keep their one kernel.
const (
	HoistFactor = 8
	HoistMin    = 1 << 16
)

// hoistBroadcast materializes each computed value (a fusible op of
// non-zero cost, not a view) that the kernels reading it would compute
// at HoistFactor times as many points as it has elements, or more, and
// at HoistMin points at least: a value read through a broadcast by a
// larger elementwise kernel. Storing it costs writing and reading its
// own few elements; recomputing costs its whole subgraph at every point
// of the larger kernel. It goes from the consumers down, so the inputs
// of a materialized value are counted at its own shape.
func (p *planner) hoistBroadcast() {
	w := p.w
	n := len(w.nodes)
	at := make([]int, n) // the points value i is computed at, per kernel reading it
	for i := n - 1; i >= 0; i-- {
		nd := w.nodes[i]
		if w.isBound(nd) {
			continue
		}
		if !p.mat[i] && fusible(nd) && nd.Op().Class() != graph.ClassView && costOf(nd.Op()) > 0 &&
			at[i] >= HoistMin && at[i] >= HoistFactor*nd.Size() {
			p.mat[i] = true
		}
		pts := at[i]
		if p.mat[i] {
			pts = nd.Size()
		}
		for _, x := range nd.Inputs() {
			j := w.index[x]
			q := pts
			if p.mat[i] {
				switch nd.Op().Class() {
				case graph.ClassUnary, graph.ClassBinary, graph.ClassWhere, graph.ClassView, graph.ClassCopy:
				default: // a reduction, product, gather...: its input at its own shape
					q = x.Size()
				}
			}
			at[j] = max(at[j], q)
		}
	}
}

// siteTable interns sites: a kernel (by the name rootID gives it) and the
// chain of view steps a value is read through there.
type siteTable struct {
	roots map[string]int
	kids  map[siteKey]int
	n     int
	// mark[id] is the generation that last added id to the set being
	// built, so building a set costs its number of additions.
	mark []int
	gen  int
	cur  []int
	adds int // calls of add (the work of building the sets)
}

type siteKey struct {
	parent int
	step   string
}

func (t *siteTable) root(name string) int {
	if t.roots == nil {
		t.roots, t.kids = map[string]int{}, map[siteKey]int{}
	}
	if id, ok := t.roots[name]; ok {
		return id
	}
	t.roots[name] = t.n
	t.n++
	return t.n - 1
}

// child returns the site of r read through the step with key step.
func (t *siteTable) child(r int, step string) int {
	k := siteKey{r, step}
	if id, ok := t.kids[k]; ok {
		return id
	}
	t.kids[k] = t.n
	t.n++
	return t.n - 1
}

func (t *siteTable) begin() {
	t.gen++
	t.cur = nil
}

func (t *siteTable) add(id int) {
	t.adds++
	for len(t.mark) <= id {
		t.mark = append(t.mark, 0)
	}
	if t.mark[id] != t.gen {
		t.mark[id] = t.gen
		t.cur = append(t.cur, id)
	}
}

func (t *siteTable) set() []int { return t.cur }

// viewLayout is the layout of a view over its base: the first node below
// it that is not a view, or is bound or materialized. ok is false when a
// Reshape on the way cannot be expressed as strides.
type viewLayout struct {
	base    int
	off     int
	strides []int
	ok      bool
}

// viewOf returns the layout of n over its base (n itself when it is not
// a view, or is bound or materialized), memoized in p.views for the views
// on the way, so that outputs and products reading views of views of one
// base cost one step each. Materializing a view invalidates the entries
// above it: decide clears the memo after the products' bases, then
// materializes views only in order of walk index (above them, nothing
// was memoized yet) and drops the view's own entry.
func (p *planner) viewOf(n *graph.Node) viewLayout {
	w := p.w
	var chain []int
	var cur viewLayout
	for {
		p.work++
		i := w.index[n]
		if v, ok := p.views[i]; ok {
			cur = v
			break
		}
		if n.Op().Class() != graph.ClassView || w.isBound(n) || p.mat[i] {
			cur = viewLayout{base: i, strides: n.Shape().ContiguousStrides(), ok: true}
			if l, ok := p.bound[n]; ok {
				cur.off, cur.strides = l.Offset, l.Strides
			}
			break
		}
		chain = append(chain, i)
		n = n.Input(0)
	}
	if len(chain) > 0 && p.views == nil {
		p.views = map[int]viewLayout{}
	}
	for k := len(chain) - 1; k >= 0; k-- {
		i := chain[k]
		if st, ok := inputStep(w.nodes[i], 0); ok && cur.ok {
			off, s, ok := st.apply(cur.off, cur.strides)
			cur = viewLayout{base: cur.base, off: off, strides: s, ok: ok}
		}
		p.views[i] = cur
	}
	return cur
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
func (p *planner) readSite(t *siteTable, c, j int) int {
	cn := p.w.nodes[c]
	switch cn.Op() {
	case graph.OpConcat, graph.OpReshape, graph.OpCall, graph.OpScatter, graph.OpScatterAdd, graph.OpScatterMax:
		// A Concat piece, the value under a materialized Reshape (see
		// buildMapRoot) and a call's written argument are computed in a
		// Map over their own shape.
		return t.root("m" + cn.Input(j).Shape().String())
	}
	r := t.root(p.rootID(c))
	if st, ok := inputStep(cn, j); ok {
		r = t.child(r, st.key())
	}
	return r
}

// rootID names the kernel a materialized value will likely be computed
// in: values of the same shape share a Map kernel, reductions of the
// same input shape and axes a Reduce kernel.
func (p *planner) rootID(i int) string {
	nd := p.w.nodes[i]
	switch nd.Op().Class() {
	case graph.ClassReduce:
		return "r" + nd.Input(0).Shape().String() + axesString(nd.Attr().Axes)
	case graph.ClassMatMul, graph.ClassConcat, graph.ClassCall, graph.ClassScan, graph.ClassIndex, graph.ClassSort:
		if !gatherFusible(nd) {
			return "k" + strconv.Itoa(i)
		}
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

// cheap applies the recompute rule to x read by c kernels, with the
// summary s of x's fused subgraph.
func (p *planner) cheap(x *graph.Node, c int, s *fusedSum) bool {
	if s.unfusible || s.expensive {
		return false
	}
	cost := 0
	for _, nd := range s.costly {
		cost += costOf(nd.Op())
	}
	if p.noRecompute {
		return cost == 0
	}
	in := int64(0)
	for _, nd := range s.leaves {
		in += int64(min(nd.Size(), x.Size()) * nd.DType().Size())
	}
	out := int64(x.Size() * x.DType().Size())
	work := int64(c-1) * int64(cost) * int64(p.opts.BytesPerCost) * out / 4
	return cost <= CheapOps && int64(c)*in+work <= in+int64(1+c)*out
}
