// Eval: one backend request for several arrays, reusing every result the
// Context already holds, and keeping the new results on the arrays.

package array

import (
	"context"
	"fmt"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Eval computes arrays: one request to the backend per Context for all of
// them, so shared subexpressions are computed once. Results stay on each
// Array (see Array for ownership) and later expressions built on them
// reuse them instead of recomputing. Arrays that already hold a result
// cost nothing. It returns the first build error of any array (and then
// computes nothing), an error for a nil or released Array or for an
// expression whose input data was released, ctx's error when it is
// cancelled, or the backend's error. Safe for concurrent use.
func Eval(ctx context.Context, arrays ...*Array) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var order []*Context
	groups := map[*Context][]*Array{}
	for i, a := range arrays {
		if a == nil {
			return fmt.Errorf("Eval: array %d: %w", i, errNilArray)
		}
		if err := a.Err(); err != nil {
			return err
		}
		if a.ctx == nil {
			return fmt.Errorf("Eval: array %d belongs to no Context", i)
		}
		if _, ok := groups[a.ctx]; !ok {
			order = append(order, a.ctx)
		}
		groups[a.ctx] = append(groups[a.ctx], a)
	}
	for _, c := range order {
		if err := c.eval(ctx, groups[c]); err != nil {
			return err
		}
	}
	return nil
}

// Fetch evaluates arrays as Eval does and brings their results to the
// host: a result a device backend keeps in device memory is copied once,
// and ToSlice, ToArrow, Value, String and ToDense then read the host copy
// (they make it themselves, without a deadline, when nothing fetched it).
// A copy another goroutine is making is waited for, not made twice, and
// copies hold no lock of the Context, so its other evaluations and reads
// go on meanwhile. Cancelling ctx stops the wait and the copy (as far as
// the backend's copy honours it) and Fetch returns ctx.Err(); the result
// stays on the device, and a later read copies it again. Results on the
// host cost nothing. Errors are those of Eval, ctx's and the backend's
// copy errors. Safe for concurrent use.
func Fetch(ctx context.Context, arrays ...*Array) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := Eval(ctx, arrays...); err != nil {
		return err
	}
	for _, a := range arrays {
		t, err := a.hostTensor(ctx, "Fetch")
		if err != nil {
			return err
		}
		t.Release()
	}
	return nil
}

// Eval computes the Array with context.Background(); see the package-level
// Eval.
func (a *Array) Eval() error { return Eval(context.Background(), a) }

// eval computes arrays, all of Context c.
func (c *Context) eval(ctx context.Context, arrays []*Array) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	var outs []*graph.Node
	want := map[*graph.Node]bool{}
	for _, a := range arrays {
		if a.h.released {
			c.mu.Unlock()
			return fmt.Errorf("Eval: array %v %v was released", a.node.Shape(), a.node.DType())
		}
		if e := c.results[a.node]; e != nil {
			c.holdLocked(a, e)
			continue
		}
		if !want[a.node] {
			want[a.node] = true
			outs = append(outs, a.node)
		}
	}
	if len(outs) == 0 {
		c.mu.Unlock()
		return nil
	}
	bound, err := c.boundLocked(outs)
	c.mu.Unlock()
	defer func() {
		for _, t := range bound {
			t.Release()
		}
	}()
	if err != nil {
		return err
	}
	ts, err := c.evalBackend(ctx, &exec.Request{Outputs: outs, Bound: bound, Alloc: c.limited})
	if err != nil {
		return err
	}
	if len(ts) != len(outs) {
		for _, t := range ts {
			t.Release()
		}
		return fmt.Errorf("Eval: backend %s returned %d results for %d outputs", c.name, len(ts), len(outs))
	}
	c.install(arrays, outs, ts)
	return nil
}

// evalBackend runs the backend on req, turning a panic of the allocator
// that carries an *exec.MemoryError into that error.
func (c *Context) evalBackend(ctx context.Context, req *exec.Request) (ts []*exec.Tensor, err error) {
	defer exec.RecoverMemoryError(&err)
	return c.backend.Eval(ctx, req)
}

// boundLocked returns views of every result the registry holds that the
// outputs read (stopping the walk there), so the backend reuses them. An
// input leaf with no data is an error. The caller holds c.mu and releases
// the returned views.
func (c *Context) boundLocked(outs []*graph.Node) (map[*graph.Node]*exec.Tensor, error) {
	bound := map[*graph.Node]*exec.Tensor{}
	seen := map[*graph.Node]bool{}
	stack := append([]*graph.Node(nil), outs...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		if e := c.results[n]; e != nil {
			bound[n] = e.t.View(e.t.Shape, e.t.Strides, e.t.Offset)
			continue
		}
		if n.Op() == graph.OpInput {
			return bound, fmt.Errorf("Eval: input %v %v (%s) was released", n.Shape(), n.DType(), n.Attr().Label)
		}
		stack = append(stack, n.Inputs()...)
	}
	return bound, nil
}

// install records the results ts of outs and makes each array hold its
// result. It takes ownership of ts. A result some other evaluation
// installed meanwhile wins, and a result no array holds any more is freed.
func (c *Context) install(arrays []*Array, outs []*graph.Node, ts []*exec.Tensor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, n := range outs {
		if c.results[n] != nil {
			ts[i].Release()
			continue
		}
		c.results[n] = &entry{node: n, t: ts[i]}
	}
	for _, a := range arrays {
		if e := c.results[a.node]; e != nil {
			c.holdLocked(a, e)
		}
	}
	for _, n := range outs {
		if e := c.results[n]; e != nil && e.refs == 0 {
			delete(c.results, n)
			e.release()
		}
	}
}
