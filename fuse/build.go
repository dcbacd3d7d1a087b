// Build: the planner's driver — decisions, kernel construction, buffers,
// collapsing, geometry and accounting, retried when a view must be
// materialized.

package fuse

import (
	"errors"
	"fmt"
	"os"

	"github.com/fuseflow/fuseflow/graph"
)

// Build plans outputs for target t. bound gives the layout of every
// OpInput leaf under outputs and may give layouts of other nodes already
// computed (they are then read, not recomputed); the plan's input slots
// are these nodes in the order Key returns them. It returns an error for
// a graph node carrying an error, an unbound input, a bound layout that
// does not match its node, an invalid target, or a kernel whose geometry
// cannot satisfy the target's limits. Safe for concurrent use.
//
// With FUSEFLOW_DEBUG=plan in the environment the plan's Explain is
// printed to stderr.
func Build(outputs []*graph.Node, bound map[*graph.Node]Layout, t Target) (*Plan, error) {
	w, err := walkGraph(outputs, bound)
	if err != nil {
		return nil, err
	}
	return build(w, bound, t)
}

func build(w *walk, bound map[*graph.Node]Layout, t Target) (*Plan, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	pl, err := buildOnce(w, bound, t, false)
	if err != nil {
		return nil, err
	}
	if pl.Bytes > pl.UnfusedBytes {
		alt, err := buildOnce(w, bound, t, true)
		if err == nil && alt.Bytes < pl.Bytes {
			pl = alt
		}
	}
	if debugPlan() {
		fmt.Fprint(os.Stderr, Explain(pl))
	}
	return pl, nil
}

func debugPlan() bool {
	v := os.Getenv("FUSEFLOW_DEBUG")
	for len(v) > 0 {
		i := 0
		for i < len(v) && v[i] != ',' {
			i++
		}
		if v[:i] == "plan" {
			return true
		}
		if i == len(v) {
			break
		}
		v = v[i+1:]
	}
	return false
}

// buildOnce plans, materializing every Reshape the strides below it
// cannot express and, with noRecompute, every node with a cost that the
// plan computes in more than one place. Each retry materializes one more node, so it
// ends within len(w.nodes) retries.
func buildOnce(w *walk, bound map[*graph.Node]Layout, t Target, noRecompute bool) (*Plan, error) {
	forced := map[int]bool{}
	for range len(w.nodes) + 1 {
		p := &planner{w: w, bound: bound, t: t, forced: forced, noRecompute: noRecompute}
		pl, err := p.run()
		var re *reshapeError
		if errors.As(err, &re) {
			// The Reshape itself becomes a copy iterating in the shape
			// below it; the view below stays fused for its other readers
			// (materializing it instead would make them read the copy,
			// which is larger than what is under a broadcast).
			i := w.index[re.at]
			if forced[i] {
				return nil, fmt.Errorf("fuse: cannot plan reshape %v to %v", re.at.Input(0).Shape(), re.at.Shape())
			}
			forced[i] = true
			continue
		}
		if err == nil && noRecompute && p.recomputed(forced) {
			continue
		}
		return pl, err
	}
	return nil, fmt.Errorf("fuse: planning did not converge")
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
	bound       map[*graph.Node]Layout
	t           Target
	forced      map[int]bool
	noRecompute bool

	mat  []bool
	outs []outDecision
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
		default:
			err = p.buildMapRoot(i)
		}
		if err != nil {
			return nil, err
		}
	}
	return p.finish()
}
