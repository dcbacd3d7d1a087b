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

// buildOnce plans, materializing more views until every reshape and GEMM
// operand is expressible.
func buildOnce(w *walk, bound map[*graph.Node]Layout, t Target, noRecompute bool) (*Plan, error) {
	forced := map[int]bool{}
	for range len(w.nodes) + 1 {
		p := &planner{w: w, bound: bound, t: t, forced: forced, noRecompute: noRecompute}
		pl, err := p.run()
		var re *reshapeError
		if errors.As(err, &re) {
			i := w.index[re.at]
			y := re.at.Input(0)
			if j, ok := w.index[y]; ok && !w.isBound(y) && !p.mat[j] && !forced[j] {
				forced[j] = true
			} else if !forced[i] {
				forced[i] = true
			} else {
				return nil, fmt.Errorf("fuse: cannot plan reshape %v to %v", y.Shape(), re.at.Shape())
			}
			continue
		}
		var fe *forceError
		if errors.As(err, &fe) {
			forced[fe.node] = true
			continue
		}
		return pl, err
	}
	return nil, fmt.Errorf("fuse: planning did not converge")
}

// forceError asks buildOnce to materialize a node and plan again.
type forceError struct{ node int }

func (e *forceError) Error() string { return fmt.Sprintf("materialize node %d", e.node) }

// value is a materialized value: a graph node's, or a contiguous copy of a
// bound value made for a GEMM.
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
