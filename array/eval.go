// Eval: one backend request for several arrays, reusing every result the
// Context already holds, and keeping the new results on the arrays.

package array

import (
	"context"
	"fmt"
	"slices"
	"sync"

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
	}
	if oneContext(arrays) {
		if len(arrays) == 0 {
			return nil
		}
		return arrays[0].ctx.eval(ctx, arrays)
	}
	var order []*Context
	groups := map[*Context][]*Array{}
	for _, a := range arrays {
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

// oneContext reports whether all arrays belong to one Context (so they
// need no grouping).
func oneContext(arrays []*Array) bool {
	for _, a := range arrays {
		if a.ctx != arrays[0].ctx {
			return false
		}
	}
	return true
}

// Eval computes the Array with context.Background(); see the package-level
// Eval.
func (a *Array) Eval() error { return Eval(context.Background(), a) }

// eval computes arrays, all of Context c.
func (c *Context) eval(ctx context.Context, arrays []*Array) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sc := c.getScratch()
	defer c.putScratch(sc)
	sc.list = c.list
	c.mu.Lock()
	outs := sc.outs[:0]
	var want map[*graph.Node]bool // for several arrays: each node once
	if len(arrays) > 1 {
		want = map[*graph.Node]bool{}
	}
	for _, a := range arrays {
		if a.released {
			c.mu.Unlock()
			return fmt.Errorf("Eval: array %v %v was released", a.node.Shape(), a.node.DType())
		}
		if e := c.results[a.node]; e != nil {
			c.holdLocked(a, e)
			continue
		}
		if want == nil {
			outs = append(outs, a.node)
		} else if !want[a.node] {
			want[a.node] = true
			outs = append(outs, a.node)
		}
	}
	if len(outs) == 0 {
		c.mu.Unlock()
		return nil
	}
	sc.outs = outs
	err := sc.boundLocked(c, arrays)
	if err == nil {
		sc.offerLocked(c)
		sc.headers.Reset(c.limited)
		c.headers = sc.headers.Give(c.headers)
	}
	c.mu.Unlock()
	defer c.unbind(sc)
	if err != nil {
		return err
	}
	sc.req.Outputs, sc.req.Alloc, sc.req.Results, sc.req.Buffers = outs, c.limited, sc.res, &sc.headers
	if sc.list {
		sc.req.BoundList = sc.blist
	} else {
		sc.req.Bound = sc.bound
	}
	ts, err := c.evalBackend(ctx, &sc.req)
	sc.sortHeaders(ts)
	if err != nil {
		return err
	}
	if len(ts) != len(outs) {
		for _, t := range ts {
			t.Release()
		}
		return fmt.Errorf("Eval: backend %s returned %d results for %d outputs", c.name, len(ts), len(outs))
	}
	c.install(arrays, outs, ts, sc)
	return nil
}

// sortHeaders marks the entries offered for the results ts whose
// buffers came from sc.headers (see entry.pooled), and keeps for reuse
// the other headers sc.headers handed out: the backend released them
// before it returned (exec.Request.Buffers).
func (sc *evalScratch) sortHeaders(ts []*exec.Tensor) {
	for _, b := range sc.headers.Given() {
		out := false
		for i, t := range ts {
			if t != nil && t.Buf == b && i < len(sc.ents) {
				sc.ents[i].pooled, out = true, true
			}
		}
		if !out {
			sc.headers.Put(b)
		}
	}
}

// evalScratch is eval's pooled per-call state: the outputs, the bound
// results (their tensors as a map, or as a list for a backend that reads
// one, and their entries, which the evaluation holds until it ends), the
// entries offered for the results and their tensors, and the request
// made of them (a backend keeps none of them past Eval).
type evalScratch struct {
	req   exec.Request
	outs  []*graph.Node
	list  bool // bound values go to blist, not bound
	bound map[*graph.Node]*exec.Tensor
	blist []exec.Binding
	bents []*entry // the entries of the bound results
	ents  []*entry
	res   []*exec.Tensor
	// headers gives the backend the headers of its new buffers, the
	// Context's spare ones (Context.headers) while it runs.
	headers exec.BufferList
}

// offerLocked takes an entry of c for each output and offers their own
// tensors to the backend. The caller holds c.mu.
func (sc *evalScratch) offerLocked(c *Context) {
	for range sc.outs {
		e := c.newEntryLocked()
		sc.ents = append(sc.ents, e)
		sc.res = append(sc.res, e.offer())
	}
}

// bindLocked records the result e of c's registry holds for node n as a
// bound value: e's tensor itself, which the evaluation holds a reference
// to e for (released by unbindLocked), so that neither e nor its tensor
// changes while the backend reads it, whoever releases the Arrays that
// hold it meanwhile. The caller holds c.mu.
func (sc *evalScratch) bindLocked(n *graph.Node, e *entry) {
	e.refs++
	sc.bents = append(sc.bents, e)
	t := e.t
	switch {
	case sc.list && len(sc.blist) < maxBindList:
		sc.blist = append(sc.blist, exec.Binding{Node: n, Tensor: t})
	case sc.list:
		// Too many for a list, which the backend searches: a map.
		for _, b := range sc.blist {
			sc.bound[b.Node] = b.Tensor
		}
		sc.blist = clearBindings(sc.blist)
		sc.list = false
		fallthrough
	default:
		sc.bound[n] = t
	}
}

// maxBindList is the most bound values an evaluation passes as a list
// (exec.Request.BoundList, searched linearly); more go in a map.
const maxBindList = 8

var evalScratches = sync.Pool{New: func() any {
	return &evalScratch{bound: map[*graph.Node]*exec.Tensor{}}
}}

// getScratch returns a scratch for an evaluation of c: the one c keeps
// when no other evaluation has it, else one from the shared pool.
func (c *Context) getScratch() *evalScratch {
	if sc := c.scratch.Swap(nil); sc != nil {
		return sc
	}
	return evalScratches.Get().(*evalScratch)
}

// putScratch clears sc, so that it holds no node or tensor, and keeps it
// for c's next evaluation, or pools it when c keeps one already.
// unbindLocked has emptied the bound map.
func (c *Context) putScratch(sc *evalScratch) {
	sc.outs = clearPtrs(sc.outs)
	sc.ents = clearPtrs(sc.ents)
	sc.res = clearPtrs(sc.res)
	sc.req.Outputs, sc.req.Bound, sc.req.BoundList, sc.req.Alloc, sc.req.Results = nil, nil, nil, nil, nil
	if !c.scratch.CompareAndSwap(nil, sc) {
		evalScratches.Put(sc)
	}
}

// clearPtrs sets the pointers of s to nil one by one (for the few a
// scratch holds, cheaper than clear while the collector marks) and
// returns s[:0].
func clearPtrs[T any](s []*T) []*T {
	for i := range s {
		if s[i] != nil {
			s[i] = nil
		}
	}
	return s[:0]
}

// evalBackend runs the backend on req, turning a panic of the allocator
// that carries an *exec.MemoryError into that error.
func (c *Context) evalBackend(ctx context.Context, req *exec.Request) (ts []*exec.Tensor, err error) {
	defer exec.RecoverMemoryError(&err)
	return c.backend.Eval(ctx, req)
}

// boundLocked puts in sc.bound the results c's registry holds that the
// outputs read (stopping the walk there), each with its buffer retained,
// so the backend reuses them. An input leaf with no data is an error.
// The operand Arrays of arrays (whose nodes the outputs are) answer for
// their own nodes without a lookup in the registry. The caller holds c.mu
// and calls unbindLocked (or unbind) when done, error or not; the
// tensors themselves stay the registry's and must not be changed.
func (sc *evalScratch) boundLocked(c *Context, arrays []*Array) error {
	if len(arrays) == 1 && len(sc.outs) == 1 && sc.bindOperandsLocked(c, arrays[0]) {
		return nil
	}
	var sbuf, vbuf [16]*graph.Node
	stack := sbuf[:0]
	visited := vbuf[:0] // a linear set: graphs here are mostly small
	// The outputs hold no result (eval looked under the same lock): the
	// walk starts from their operands.
	for _, n := range sc.outs {
		if n.Op() == graph.OpInput {
			return fmt.Errorf("Eval: input %v %v (%s) was released", n.Shape(), n.DType(), n.Attr().Label)
		}
		visited = append(visited, n)
		stack = append(stack, n.Inputs()...)
	}
	var seen map[*graph.Node]bool
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen == nil && len(visited) >= 32 {
			seen = make(map[*graph.Node]bool, 2*len(visited))
			for _, v := range visited {
				seen[v] = true
			}
		}
		if seen != nil {
			if seen[n] {
				continue
			}
			seen[n] = true
		} else {
			if slices.Contains(visited, n) {
				continue
			}
			visited = append(visited, n)
		}
		e := heldOperand(c, arrays, n)
		if e == nil {
			e = c.results[n]
		}
		if e != nil {
			sc.bindLocked(n, e)
			continue
		}
		if n.Op() == graph.OpInput {
			return fmt.Errorf("Eval: input %v %v (%s) was released", n.Shape(), n.DType(), n.Attr().Label)
		}
		stack = append(stack, n.Inputs()...)
	}
	return nil
}

// bindOperandsLocked binds the results of a's operand Arrays when they
// are all a's node's inputs and all hold their results (a op b of
// evaluated arrays, the common case of a loop of small evaluations):
// nothing further down needs a look, and no walk is made. It reports
// false, having bound nothing, when that is not so. The caller holds
// c.mu.
func (sc *evalScratch) bindOperandsLocked(c *Context, a *Array) bool {
	n := a.node
	ins := n.Inputs()
	if len(ins) == 0 || len(ins) > len(a.dep) || n.Op() == graph.OpInput {
		return false
	}
	var held [len(a.dep)]*entry
	for i, in := range ins {
		for _, d := range a.dep {
			if d != nil && d.node == in && d.ctx == c && d.e != nil {
				held[i] = d.e
				break
			}
		}
		if held[i] == nil {
			return false
		}
	}
	for i, in := range ins {
		if i > 0 && in == ins[0] {
			continue // x op x: bound once
		}
		sc.bindLocked(in, held[i])
	}
	return true
}

// heldOperand returns the registry entry of node n when one of the
// operand Arrays of arrays (Array.dep) is n's, belongs to c and holds its
// result, else nil. An Array holds only the entry c.results has for its
// node (see holdLocked), so the two agree. The caller holds c.mu.
func heldOperand(c *Context, arrays []*Array, n *graph.Node) *entry {
	for _, a := range arrays {
		for _, d := range a.dep {
			if d != nil && d.node == n && d.ctx == c && d.e != nil {
				return d.e
			}
		}
	}
	return nil
}

// releaseTensor drops a reference to t's buffers without changing t.
func releaseTensor(t *exec.Tensor) {
	if t == nil {
		return
	}
	if t.Buf != nil {
		t.Buf.Release()
	}
	if t.Dev != nil {
		t.Dev.Release()
	}
}

// unbindLocked gives back the references to entries boundLocked took,
// freeing the entries no Array holds any more, and empties the bound map
// or list. The caller holds c.mu.
func (sc *evalScratch) unbindLocked(c *Context) {
	if len(sc.bents) == 0 {
		return
	}
	for i, e := range sc.bents {
		sc.bents[i] = nil
		e.refs--
		if e.refs == 0 {
			c.dropLocked(e)
		}
	}
	sc.bents = sc.bents[:0]
	if sc.list {
		sc.blist = clearBindings(sc.blist)
	} else {
		clear(sc.bound)
	}
}

// unbind is unbindLocked for a caller that does not hold c.mu; it takes
// the lock only when sc holds something.
func (c *Context) unbind(sc *evalScratch) {
	if len(sc.bents) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sc.unbindLocked(c)
}

// clearBindings sets the pointers of s to nil and returns s[:0]: field by
// field, as clearPtrs does (a whole Binding is cleared through the
// collector's bulk barrier while it marks).
func clearBindings(s []exec.Binding) []exec.Binding {
	for i := range s {
		b := &s[i]
		if b.Node != nil {
			b.Node = nil
		}
		if b.Tensor != nil {
			b.Tensor = nil
		}
	}
	return s[:0]
}

// install records the results ts of outs and makes each array hold its
// result. It takes ownership of ts, and of sc.ents, the entries offered
// for them (ts[i] is sc.ents[i]'s own tensor when the backend filled
// it), and gives c the headers sc.headers keeps for reuse. A
// result some other evaluation installed meanwhile wins, and a result no
// array holds any more is freed.
func (c *Context) install(arrays []*Array, outs []*graph.Node, ts []*exec.Tensor, sc *evalScratch) {
	ents := sc.ents
	c.mu.Lock()
	defer c.mu.Unlock()
	c.headers = sc.headers.Take(c.headers)
	defer sc.unbindLocked(c)
	if len(arrays) == 1 && len(outs) == 1 {
		// The common case, one lookup: the array's own node.
		a, n := arrays[0], outs[0]
		e := c.results[n]
		if e != nil {
			ts[0].Release()
			c.recycleLocked(ents[0])
		} else {
			e = ents[0]
			e.node, e.t = n, ts[0]
			c.results[n] = e
		}
		c.holdLocked(a, e)
		if e.refs == 0 {
			c.dropLocked(e)
		}
		return
	}
	for i, n := range outs {
		if c.results[n] != nil {
			ts[i].Release()
			c.recycleLocked(ents[i])
			continue
		}
		e := ents[i]
		e.node, e.t = n, ts[i]
		c.results[n] = e
	}
	for _, a := range arrays {
		if e := c.results[a.node]; e != nil {
			c.holdLocked(a, e)
		}
	}
	for _, n := range outs {
		if e := c.results[n]; e != nil && e.refs == 0 {
			c.dropLocked(e)
		}
	}
}
