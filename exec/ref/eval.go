// Evaluator: the exec.Backend that schedules nodes in topological order,
// checks bindings, computes each node into a fresh contiguous tensor and
// releases intermediates after their last use.

package ref

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Evaluator is the reference backend. It holds no state and is safe for
// concurrent use.
type Evaluator struct{}

// New returns the reference evaluator.
func New() *Evaluator { return &Evaluator{} }

// Name returns "ref".
func (*Evaluator) Name() string { return "ref" }

var _ exec.Backend = (*Evaluator)(nil)

// Eval computes req.Outputs. It first runs graph.Verify and returns a
// sticky error carried by the graph as it is. Every Input leaf under the
// outputs must be bound; a bound tensor must have its node's dtype and
// shape and lie inside its buffer (any strides, 0 and negative included).
// Bound nodes are not recomputed, and their inputs are not visited.
//
// Each result is owned by the caller, who must Release it. A computed
// result is a contiguous tensor allocated from req.Alloc
// (memory.DefaultAllocator when nil); a result whose node is bound is a
// view of the bound tensor with the same layout, holding its own
// reference to the bound buffer. Intermediates are released as soon as
// their last consumer has run. The context is checked before each node;
// on cancellation or any error Eval releases everything it allocated and
// returns the error, which names the failing node's op, shape and dtype.
// A node whose result or float64 working copies would be larger than
// exec.AllocLimit(req.Alloc) gives an *exec.MemoryError, and so does an
// allocator that panics with one.
func (e *Evaluator) Eval(ctx context.Context, req *exec.Request) (res []*exec.Tensor, err error) {
	defer exec.RecoverMemoryError(&err)
	if req == nil {
		return nil, errors.New("ref: nil request")
	}
	if err := graph.Verify(req.Outputs...); err != nil {
		return nil, err
	}
	alloc := req.Alloc
	if alloc == nil {
		alloc = memory.DefaultAllocator
	}
	order, uses := schedule(req)
	vals := make(map[*graph.Node]*exec.Tensor, len(order))
	owned := map[*graph.Node]bool{}
	defer func() {
		// Drop the references still held: on success only none are left.
		for n, t := range vals {
			if owned[n] {
				t.Release()
			}
		}
		if err != nil {
			for _, t := range res {
				t.Release()
			}
			res = nil
		}
	}()
	for _, n := range order {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("ref: %w", err)
		}
		if t, ok := req.Bound[n]; ok {
			if err := checkBound(n, t); err != nil {
				return nil, err
			}
			vals[n] = t
			continue
		}
		ins := make([]*exec.Tensor, len(n.Inputs()))
		for i, in := range n.Inputs() {
			ins[i] = vals[in]
		}
		t, err := compute(ctx, alloc, n, ins)
		if err != nil {
			return nil, nodeErr(n, err)
		}
		vals[n], owned[n] = t, true
		for _, in := range n.Inputs() {
			release(in, uses, vals, owned)
		}
	}
	res = make([]*exec.Tensor, 0, len(req.Outputs))
	for _, o := range req.Outputs {
		t := vals[o]
		res = append(res, t.View(t.Shape, t.Strides, t.Offset))
		release(o, uses, vals, owned)
	}
	return res, nil
}

// schedule returns the nodes to visit in topological order (stopping at
// bound nodes) and how many times each is read: once per consuming edge
// and once per appearance among the outputs.
func schedule(req *exec.Request) ([]*graph.Node, map[*graph.Node]int) {
	all := graph.Topo(req.Outputs...)
	need := map[*graph.Node]bool{}
	for _, o := range req.Outputs {
		need[o] = true
	}
	for i := len(all) - 1; i >= 0; i-- {
		n := all[i]
		if _, bound := req.Bound[n]; need[n] && !bound {
			for _, in := range n.Inputs() {
				need[in] = true
			}
		}
	}
	uses := map[*graph.Node]int{}
	var order []*graph.Node
	for _, n := range all {
		if !need[n] {
			continue
		}
		order = append(order, n)
		if _, bound := req.Bound[n]; !bound {
			for _, in := range n.Inputs() {
				uses[in]++
			}
		}
	}
	for _, o := range req.Outputs {
		uses[o]++
	}
	return order, uses
}

// release records one read of n and frees its value after the last.
func release(n *graph.Node, uses map[*graph.Node]int, vals map[*graph.Node]*exec.Tensor, owned map[*graph.Node]bool) {
	uses[n]--
	if uses[n] > 0 {
		return
	}
	if owned[n] {
		vals[n].Release()
	}
	delete(vals, n)
}

// checkBound reports a bound tensor that does not fit its node.
func checkBound(n *graph.Node, t *exec.Tensor) error {
	switch {
	case t == nil || t.Buf == nil:
		return nodeErr(n, errors.New("bound tensor is nil or released"))
	case t.DType != n.DType() || !t.Shape.Equal(n.Shape()):
		return nodeErr(n, fmt.Errorf("bound tensor is %v %v", t.Shape, t.DType))
	case len(t.Strides) != len(t.Shape):
		return nodeErr(n, fmt.Errorf("bound tensor has %d strides for rank %d", len(t.Strides), len(t.Shape)))
	case t.Size() == 0:
		return nil
	}
	lo, hi := t.Offset, t.Offset
	for i, e := range t.Shape {
		if d := (e - 1) * t.Strides[i]; d < 0 {
			lo += d
		} else {
			hi += d
		}
	}
	if elems := t.Buf.Len() / t.DType.Size(); lo < 0 || hi >= elems {
		return nodeErr(n, fmt.Errorf("bound tensor reaches elements %d to %d of a buffer of %d", lo, hi, elems))
	}
	return nil
}

// nodeErr prefixes err with n's op, shape and dtype.
func nodeErr(n *graph.Node, err error) error {
	return fmt.Errorf("ref: %v %v %v: %w", n.Op(), n.Shape(), n.DType(), err)
}

// compute evaluates one unbound node from its inputs' values into a new
// contiguous tensor.
func compute(ctx context.Context, alloc memory.Allocator, n *graph.Node, ins []*exec.Tensor) (*exec.Tensor, error) {
	s := n.Shape()
	if err := checkScratch(alloc, n, ins); err != nil {
		return nil, err
	}
	var v vec
	var err error
	switch n.Op().Class() {
	case graph.ClassLeaf:
		if n.Op() == graph.OpInput {
			return nil, fmt.Errorf("input %q is not bound", n.Attr().Label)
		}
		v, err = leaf(n)
	case graph.ClassUnary:
		v, err = unary(n, load(ins[0], s))
	case graph.ClassBinary:
		v, err = binary(n, load(ins[0], s), load(ins[1], s))
	case graph.ClassWhere:
		v = where(load(ins[0], s), load(ins[1], s), load(ins[2], s))
	case graph.ClassReduce:
		v, err = reduce(n, load(ins[0], ins[0].Shape))
	case graph.ClassMatMul:
		v = matmul(n, ins[0], ins[1])
	case graph.ClassScan:
		v, err = scan(n, load(ins[0], ins[0].Shape))
	case graph.ClassSort:
		v = sortRows(n, load(ins[0], ins[0].Shape))
	case graph.ClassView, graph.ClassCopy:
		return view(alloc, n, ins[0])
	case graph.ClassConcat:
		return concat(alloc, n, ins)
	case graph.ClassCall:
		return call(ctx, alloc, n, ins)
	case graph.ClassIndex:
		v, err = index(n, ins)
	default:
		return nil, errors.New("unknown op")
	}
	if err != nil {
		return nil, err
	}
	if d := n.DType(); v.isFloat() && (d == graph.Float16 || d == graph.BFloat16) && n.Op() != graph.OpCast &&
		(n.Op().Class() == graph.ClassUnary || n.Op().Class() == graph.ClassBinary) {
		// NumPy (and JAX) compute float16 (bfloat16) ops in float32 and
		// round the float32 result: round to float32 first (store then
		// rounds to the dtype). For + - * / and Sqrt this is the
		// correctly rounded result; for the math functions it is
		// NumPy's.
		for k, x := range v.f {
			v.f[k] = float64(float32(x))
		}
	}
	if !v.isFloat() && n.DType() == graph.Uint64 {
		v.u = true // a cast from uint64 keeps the flag for store
	}
	return store(alloc, v, n.DType(), s)
}
