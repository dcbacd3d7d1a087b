// Graph walks: topological order, consumer counts and Verify.

package graph

import (
	"errors"
	"fmt"
)

// Topo returns every node reachable from roots, each once, inputs before
// the nodes that use them. It does not recurse, so deep graphs are fine.
func Topo(roots ...*Node) []*Node {
	return walk(nil, roots, false)
}

// Consumers counts, for every node reachable from roots, how many edges
// of the graph read it. Roots count one extra use each, as outputs.
func Consumers(roots ...*Node) map[*Node]int {
	uses := map[*Node]int{}
	for _, n := range Topo(roots...) {
		for _, in := range n.inputs {
			uses[in]++
		}
	}
	for _, r := range roots {
		uses[r]++
	}
	return uses
}

// Verify checks the graph under roots: no node carries an error, and
// every node's shape and dtype are what its op infers from its inputs. It
// returns the first sticky error or all inconsistencies found. A node
// found consistent is remembered as such (nodes are immutable), so a
// later Verify checks only what was built since: verifying a new node
// over a verified graph costs the new node alone and allocates nothing
// for small graphs.
func Verify(roots ...*Node) error {
	for _, r := range roots {
		if r == nil {
			return errors.New("graph: nil root")
		}
		if r.err != nil {
			return r.err
		}
	}
	var buf [16]*Node
	order := unverified(buf[:0], roots)
	var errs []error
	for _, n := range order {
		if n.err != nil {
			return n.err
		}
		if err := recheck(n); err != nil {
			errs = append(errs, fmt.Errorf("graph: node %d (%v): %w", n.id, n.op, err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, n := range order {
		n.verified.Store(true)
	}
	return nil
}

// unverified appends to order the nodes under roots not yet verified,
// each once, inputs first; it stops at verified nodes.
func unverified(order []*Node, roots []*Node) []*Node {
	return walk(order, roots, true)
}

// walk appends to order the nodes reachable from roots, each once, inputs
// before the nodes that use them, and returns it; with skipVerified it
// neither lists nor enters verified nodes. It does not recurse, so deep
// graphs are fine, and it allocates nothing but order's growth for small
// graphs: it finds the nodes it has seen in order and on its stack until
// they are many enough for a map.
func walk(order []*Node, roots []*Node, skipVerified bool) []*Node {
	var sbuf [16]frame
	stack := sbuf[:0]
	w := walker{order: order, skipVerified: skipVerified}
	for _, r := range roots {
		if !w.enter(r, stack) {
			continue
		}
		stack = append(stack, frame{n: r})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.n.inputs) {
				in := top.n.inputs[top.next]
				top.next++
				if w.enter(in, stack) {
					stack = append(stack, frame{n: in})
				}
				continue
			}
			w.order = append(w.order, top.n)
			stack = stack[:len(stack)-1]
		}
	}
	return w.order
}

// walker is the state of walk besides its stack: the nodes done, and the
// map of nodes seen once there are too many to scan.
type walker struct {
	order        []*Node
	seen         map[*Node]bool
	skipVerified bool
}

// frame is a node on walk's stack and the index of its next input.
type frame struct {
	n    *Node
	next int
}

// enter reports whether walk is to push n on stack: n is not nil, not
// skipped as verified and not met before; if so it marks n as met.
func (w *walker) enter(n *Node, stack []frame) bool {
	if n == nil || w.skipVerified && n.verified.Load() || w.visited(n, stack) {
		return false
	}
	if w.seen == nil && len(w.order)+len(stack) >= 32 {
		w.seen = make(map[*Node]bool, 64)
		for _, m := range w.order {
			w.seen[m] = true
		}
		for _, f := range stack {
			w.seen[f.n] = true
		}
	}
	if w.seen != nil {
		w.seen[n] = true
	}
	return true
}

// visited reports whether walk has met n: n is done or on the stack.
func (w *walker) visited(n *Node, stack []frame) bool {
	if w.seen != nil {
		return w.seen[n]
	}
	for _, m := range w.order {
		if m == n {
			return true
		}
	}
	for _, f := range stack {
		if f.n == n {
			return true
		}
	}
	return false
}

// recheck rebuilds n from its inputs and compares the inferred result.
func recheck(n *Node) error {
	if n.op.Class() == ClassLeaf {
		if !n.dtype.Supported() {
			return fmt.Errorf("unsupported dtype %v", n.dtype)
		}
		return CheckShape(n.shape, n.dtype)
	}
	for _, in := range n.inputs {
		if in.id >= n.id {
			return fmt.Errorf("input %d created after its consumer", in.id)
		}
	}
	var r *Node
	switch c := n.op.Class(); c {
	case ClassUnary:
		if n.op == OpCast {
			r = Cast(n.inputs[0], n.dtype)
		} else {
			r = Unary(n.op, n.inputs[0])
		}
	case ClassBinary:
		r = Binary(n.op, n.inputs[0], n.inputs[1])
	case ClassWhere:
		r = Where(n.inputs[0], n.inputs[1], n.inputs[2])
	case ClassMatMul:
		r = MatMul(n.inputs[0], n.inputs[1])
	case ClassConcat:
		r = Concat(n.inputs, n.attr.Axis)
	case ClassCopy:
		r = Copy(n.inputs[0])
	case ClassScan:
		r = Scan(n.op, n.inputs[0], n.attr.Axis)
	case ClassSort:
		r = recheckSort(n)
	case ClassCall:
		outs := Call(n.attr.Call, n.inputs)
		if r = outs[0]; r.err == nil {
			if n.attr.Output < 0 || n.attr.Output >= len(outs) {
				return fmt.Errorf("output %d of a call with %d", n.attr.Output, len(outs))
			}
			r = outs[n.attr.Output]
		}
	case ClassIndex:
		r = recheckIndex(n)
	default:
		// Views and reductions carry normalized attributes; check the
		// invariants they promise.
		return recheckAttr(n)
	}
	if r.err != nil {
		return r.err
	}
	if r.dtype != n.dtype || !r.shape.Equal(n.shape) {
		return fmt.Errorf("result %v %v, inferred %v %v", n.shape, n.dtype, r.shape, r.dtype)
	}
	return nil
}

func recheckAttr(n *Node) error {
	x := n.inputs[0]
	switch n.op {
	case OpReshape:
		if x.Size() != n.Size() {
			return fmt.Errorf("reshape changes size %d to %d", x.Size(), n.Size())
		}
	case OpPermute:
		for i, p := range n.attr.Perm {
			if n.shape[i] != x.shape[p] {
				return fmt.Errorf("permute shape mismatch")
			}
		}
	case OpBroadcast:
		if b, err := Broadcast(x.shape, n.shape); err != nil || !b.Equal(n.shape) {
			return fmt.Errorf("cannot broadcast %v to %v", x.shape, n.shape)
		}
	case OpSlice:
		for i, sp := range n.attr.Slices {
			if sp.Len > 0 && (sp.Start < 0 || sp.Start >= x.shape[i] ||
				sp.Start+(sp.Len-1)*sp.Step < 0 || sp.Start+(sp.Len-1)*sp.Step >= x.shape[i]) {
				return fmt.Errorf("slice %+v out of range for axis %d of %v", sp, i, x.shape)
			}
		}
	default:
		if n.op.Class() != ClassReduce {
			return fmt.Errorf("unknown op class")
		}
		if n.dtype != ReduceDType(n.op, x.dtype) {
			return fmt.Errorf("reduction dtype %v for input %v", n.dtype, x.dtype)
		}
	}
	return nil
}
