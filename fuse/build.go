// Build: the planner's driver — decisions, kernel construction, buffers,
// collapsing and accounting, retried when a view must be materialized.

package fuse

import (
	"errors"
	"fmt"
	"os"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/config"
)

// Build plans outputs. bound gives the layout of every OpInput leaf under
// outputs and may give layouts of other nodes already computed (they are
// then read, not recomputed); the plan's input slots are these nodes in
// the order Key returns them. The plan says what fuses and what is
// stored, nothing about threads: each target chooses how to run a kernel
// when it lowers the plan. It returns an error for a graph node carrying
// an error, an unbound input or a bound layout that does not match its
// node. Safe for concurrent use.
//
// With FUSEFLOW_DEBUG=plan in the environment the plan's Explain is
// printed to stderr.
func Build(outputs []*graph.Node, bound map[*graph.Node]graph.Layout) (*Plan, error) {
	w, err := walkGraph(outputs, bound)
	if err != nil {
		return nil, err
	}
	return build(w, bound, Options{})
}

// BuildWith is Build with a target's options o (see Options).
func BuildWith(outputs []*graph.Node, bound map[*graph.Node]graph.Layout, o Options) (*Plan, error) {
	w, err := walkGraph(outputs, bound)
	if err != nil {
		return nil, err
	}
	return build(w, bound, o)
}

func build(w *walk, bound map[*graph.Node]graph.Layout, o Options) (*Plan, error) {
	var work int
	return buildCounted(w, bound, o, &work)
}

// buildCounted is build adding to *work the planner's count of
// elementary steps (see planner.work).
func buildCounted(w *walk, bound map[*graph.Node]graph.Layout, o Options, work *int) (*Plan, error) {
	pl, err := buildOnce(w, bound, o, false, work)
	if err != nil {
		return nil, err
	}
	if pl.Bytes > pl.UnfusedBytes {
		alt, err := buildOnce(w, bound, o, true, work)
		if err == nil && alt.Bytes < pl.Bytes {
			pl = alt
		}
	}
	if config.Debugging(config.DebugPlan) {
		fmt.Fprint(os.Stderr, Explain(pl))
	}
	return pl, nil
}

// buildOnce plans, materializing every Reshape the strides below it
// cannot express and, with noRecompute, every node with a cost that the
// plan computes in more than one place. A pass finds every such Reshape
// it meets (see applyXf) and the next pass materializes them all; each
// pass materializes at least one more node, so it ends within
// len(w.nodes) passes, and in practice within two or three.
func buildOnce(w *walk, bound map[*graph.Node]graph.Layout, o Options, noRecompute bool, work *int) (*Plan, error) {
	forced := map[int]bool{}
	for range len(w.nodes) + 1 {
		p := &planner{w: w, bound: bound, opts: o, forced: forced, noRecompute: noRecompute}
		pl, err := p.run()
		*work += len(w.nodes) + p.work
		var re *reshapeError
		if errors.As(err, &re) {
			p.fail(re.at)
		}
		if len(p.failed) > 0 {
			copies := p.reshapeCopies()
			for k, i := range copies {
				if forced[i] {
					r := p.failed[k]
					return nil, fmt.Errorf("fuse: cannot plan reshape %v to %v", r.Input(0).Shape(), r.Shape())
				}
			}
			for _, i := range copies {
				forced[i] = true
			}
			continue
		}
		if err == nil && noRecompute && p.recomputed(forced) {
			continue
		}
		return pl, err
	}
	return nil, fmt.Errorf("fuse: planning did not converge")
}

// reshapeCopies returns, for each Reshape of p.failed (which the strides
// of what this pass fused under it cannot express), the node to
// materialize. Usually the Reshape itself: a copy iterating in the shape
// below it, while the views below stay fused for their other readers
// (materializing one would make them read the copy, which is larger than
// what is under a broadcast). But when the views from the Reshape down to
// the computed value u under them can express it over u's own contiguous
// layout, and the Reshape has more elements than u (a broadcast on the
// way), it is u: the strides that failed were those of the values u's
// computation reads, and copying the Reshape would write and read the
// broadcast array where materializing u writes u once (as one kernel per
// op does). Then every failed Reshape that u's layout can express is
// served by u as well.
func (p *planner) reshapeCopies() []int {
	p.views = nil // over this pass's values
	out := make([]int, len(p.failed))
	vs := make([]viewLayout, len(p.failed))
	byU := map[int]bool{}
	for k, r := range p.failed {
		vs[k] = p.viewOf(r)
		out[k] = p.w.index[r]
		if u := p.w.nodes[vs[k].base]; vs[k].ok && !p.isValue(u) && r.Size() > u.Size() {
			byU[vs[k].base] = true
		}
	}
	for k, v := range vs {
		if v.ok && byU[v.base] {
			out[k] = v.base
		}
	}
	return out
}

// recomputed forces every node with a non-zero cost that the plan just
// built computes in more than one place, and reports whether there was
// any. The recompute rule predicts which kernels read a value before
// they exist (Map roots of one shape may still land in separate kernels
// to respect a dependency); a plan built without recomputation checks
// the kernels it got.
func (p *planner) recomputed(forced map[int]bool) bool {
	again := false
	for i, n := range p.computed {
		if n > 1 && costOf(p.w.nodes[i].Op()) > 0 && !forced[i] {
			forced[i] = true
			again = true
		}
	}
	return again
}

// value is a materialized value: a graph node's, or a contiguous copy of
// a GEMM operand whose strides BLAS cannot take.
type value struct {
	node   *graph.Node
	shape  graph.Shape
	dtype  graph.DType
	result bool // an output or the base of an output view
	stores []int
	reads  []int
	buf    int
	label  string
}

type planner struct {
	w           *walk
	bound       map[*graph.Node]graph.Layout
	opts        Options
	forced      map[int]bool
	noRecompute bool

	mat  []bool
	outs []outDecision
	// views memoizes viewOf while decide runs; sums holds the summaries
	// of fused subgraphs the recompute rule has needed.
	views map[int]viewLayout
	sums  []*fusedSum
	// opLays memoizes operandLayout for the pass; copies holds the
	// contiguous copies of GEMM operands made (see copyOperand).
	opLays map[int]opLayout
	copies map[*graph.Node]int
	// computed counts, per walk index, the places a node is computed
	// (kernel, view transform, body or epilogue) in the plan built.
	computed []int

	values   []value // by walk index, then copies
	kernels  []*kbuild
	producer []int // by value: the last kernel that stores it, or -1
	memberOf map[int]*kbuild
	// epiOf holds the values computed in an epilogue: value -> kernel and
	// Epilogue index, so a later epilogue of the same kernel reuses them.
	epiOf map[int]epiValue
	// maps and reduces index the Map kernels by space and the Reduce
	// kernels by signature, in kernel order.
	maps, reduces map[string][]*kbuild
	// failed lists the Reshapes this pass could not express as strides
	// (see applyXf), each once; cont holds the layout above each failed
	// transform.
	failed   []*graph.Node
	failedAt map[*graph.Node]bool
	// callNodes groups the outputs of each call (see callGroups);
	// callBuilt records the calls whose kernel exists.
	callNodes map[string][]int
	callBuilt map[string]bool
	// sorts holds the Sort kernels built, by input, axis and count.
	sorts map[sortKey]*kbuild
	cont  map[*xform]contLayout
	// work counts the elementary steps of planning (nodes and edges
	// visited, kernels and buffers examined, terms of the stride maps
	// applied), for the tests that bound it by the size of the graph.
	work int
}

type contLayout struct {
	off int
	st  []int
}

type epiValue struct {
	kb  *kbuild
	val int
}

func (p *planner) run() (*Plan, error) {
	p.decide()
	w := p.w
	p.values = make([]value, len(w.nodes))
	p.computed = make([]int, len(w.nodes))
	p.producer = make([]int, len(w.nodes))
	p.memberOf = map[int]*kbuild{}
	p.epiOf = map[int]epiValue{}
	p.maps, p.reduces = map[string][]*kbuild{}, map[string][]*kbuild{}
	for i, nd := range w.nodes {
		p.values[i] = value{node: nd, shape: nd.Shape(), dtype: nd.DType(), buf: -1}
		p.producer[i] = -1
	}
	for _, o := range p.outs {
		if o.kind != outInput {
			p.values[o.base].result = true
		}
	}
	for i, nd := range w.nodes {
		if !p.mat[i] || w.isBound(nd) {
			continue
		}
		var err error
		switch nd.Op().Class() {
		case graph.ClassReduce:
			err = p.buildReduce(i)
		case graph.ClassMatMul:
			err = p.buildMatMul(i)
		case graph.ClassConcat:
			err = p.buildConcat(i)
		case graph.ClassCall:
			err = p.buildCall(i)
		case graph.ClassScan:
			err = p.buildScan(i)
		case graph.ClassIndex:
			if gatherFusible(nd) {
				err = p.buildMapRoot(i)
			} else {
				err = p.buildIndex(i)
			}
		case graph.ClassSort:
			err = p.buildSort(i)
		default:
			err = p.buildMapRoot(i)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(p.failed) > 0 {
		return nil, nil
	}
	return p.finish()
}

// fail records a Reshape that cannot be expressed as strides.
func (p *planner) fail(r *graph.Node) {
	if p.failedAt == nil {
		p.failedAt, p.cont = map[*graph.Node]bool{}, map[*xform]contLayout{}
	}
	if !p.failedAt[r] {
		p.failedAt[r] = true
		p.failed = append(p.failed, r)
	}
}

// applyXf maps a layout through xf. A Reshape the strides cannot express
// is recorded (see fail) and the layout goes on from a contiguous copy of
// the Reshape, as it will be read once materialized, so that one pass
// finds every such Reshape on the way instead of one per pass. The
// layout returned is then meaningless and the pass is dropped.
func (p *planner) applyXf(xf *xform, off int, st []int) (int, []int) {
	p.work += xf.cost()
	off, st, fx := xf.applyAt(off, st)
	var chain []*xform
	for fx != nil {
		if c, ok := p.cont[fx]; ok { // nil map before the first failure
			off, st = c.off, append([]int(nil), c.st...)
			break
		}
		p.fail(fx.st.at)
		chain = append(chain, fx)
		p.work += fx.parent.cost()
		off, st, fx = fx.parent.applyAt(0, fx.st.to.ContiguousStrides())
	}
	for _, f := range chain {
		p.cont[f] = contLayout{off, append([]int(nil), st...)}
	}
	return off, st
}
