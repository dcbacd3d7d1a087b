// The plan cache: one bounded LRU of plans and their programs keyed by
// the plan's structural key, built once per key while concurrent callers
// wait, reference-counted while evaluations use them, with a warm index
// of node IDs so that repeating a request on the same nodes skips the
// key; no graph node is kept alive.

package runner

import (
	"container/list"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// entry is a plan with its program, being built (ready open) or built.
// Fields other than ready, plan, prog and err are guarded by cache.mu.
type entry struct {
	key   string
	ready chan struct{}
	plan  *fuse.Plan
	prog  Program
	err   error
	// elem is the entry's place in the LRU, nil once dropped.
	elem *list.Element
	// refs counts the cache's reference while cached and one per
	// evaluation; the program is released when it drops to zero. It is
	// raised under cache.mu (while the cache's own reference keeps it
	// above zero) and lowered with or without it.
	refs atomic.Int64
	// warm is the request the warm index maps to this entry: the IDs of
	// its outputs (unique in the process, never reused, so equal IDs are
	// the same node) and the paths from them to its bound nodes in slot
	// order (see slotPaths).
	warm    bool
	outs    []uint64
	paths   []int32
	pathOff []int32
}

type cache struct {
	t        Target
	capacity int

	mu           sync.Mutex
	lru          list.List // of *entry, most recent first
	entries      map[string]*entry
	warm         map[uint64]*entry // ID of the first output -> entry
	last         *entry            // the entry of the last warm hit, in warm; nil: none
	hits, misses int64
}

func newCache(t Target, capacity int) *cache {
	return &cache{t: t, capacity: capacity, entries: map[string]*entry{}, warm: map[uint64]*entry{}}
}

// get returns the entry of req's plan, holding a reference the caller
// gives back with release, and the bound values in slot order (nil for a
// slot req does not bind), appended to buf[:0].
func (c *cache) get(req *exec.Request, buf []*exec.Tensor) (*entry, []*exec.Tensor, error) {
	if e, vals := c.lookupWarm(req, buf); e != nil {
		return e, vals, nil
	}
	if err := graph.Verify(req.Outputs...); err != nil {
		return nil, nil, err
	}
	bound := make(map[*graph.Node]graph.Layout, req.NumBound())
	for n, t := range req.Bound {
		if t == nil || (t.Buf == nil && t.Dev == nil) {
			return nil, nil, fmt.Errorf("%s: bound value for %v %v has no buffer", c.t.Name(), n.Op(), n.Shape())
		}
		bound[n] = t.Layout
	}
	for _, b := range req.BoundList {
		n, t := b.Node, b.Tensor
		if t == nil || (t.Buf == nil && t.Dev == nil) {
			return nil, nil, fmt.Errorf("%s: bound value for %v %v has no buffer", c.t.Name(), n.Op(), n.Shape())
		}
		bound[n] = t.Layout
	}
	g, err := fuse.Walk(req.Outputs, bound)
	if err != nil {
		return nil, nil, err
	}
	key, slots := g.Key(), g.Slots()
	w, wok := newWarmReq(req, slots)
	counted := false
	for {
		c.mu.Lock()
		e, ok := c.entries[key]
		if !ok {
			break
		}
		if !counted {
			c.hits++
			counted = true
		}
		select {
		case <-e.ready:
			e.refs.Add(1)
			c.lru.MoveToFront(e.elem)
			c.remember(e, w, wok)
			c.mu.Unlock()
			return e, slotValues(req, slots, buf), nil
		default:
		}
		c.mu.Unlock()
		<-e.ready
		if e.err != nil {
			return nil, nil, e.err
		}
		// Built: take the reference under the lock (it may have been
		// dropped meanwhile; then it is built again).
	}
	if !counted {
		c.misses++
	}
	e := &entry{key: key, ready: make(chan struct{})}
	e.refs.Store(1)
	e.elem = c.lru.PushFront(e)
	c.entries[key] = e
	var dead []Program
	for c.lru.Len() > c.capacity {
		if p := c.drop(c.lru.Back().Value.(*entry)); p != nil {
			dead = append(dead, p)
		}
	}
	c.mu.Unlock()
	for _, p := range dead {
		p.Release()
	}

	var plan *fuse.Plan
	if po, ok := c.t.(PlanOptioner); ok {
		plan, err = g.BuildWith(po.PlanOptions())
	} else {
		plan, err = g.Build()
	}
	var prog Program
	if err == nil {
		prog, err = c.t.Prepare(plan)
	}
	c.mu.Lock()
	e.plan, e.prog, e.err = plan, prog, err
	if err != nil {
		if e.elem != nil {
			c.lru.Remove(e.elem)
			e.elem = nil
			delete(c.entries, key)
		}
	} else {
		e.refs.Add(1) // the caller's
		if e.elem != nil {
			c.remember(e, w, wok)
		}
	}
	c.mu.Unlock()
	close(e.ready)
	if err != nil {
		return nil, nil, err
	}
	return e, slotValues(req, slots, buf), nil
}

// slotValues appends to buf[:0] the values req binds to slots.
func slotValues(req *exec.Request, slots []*graph.Node, buf []*exec.Tensor) []*exec.Tensor {
	vals := buf[:0]
	for _, n := range slots {
		vals = append(vals, req.BoundValue(n))
	}
	return vals
}

// lookupWarm returns, with a reference, the entry last used for the very
// outputs of req when req binds the very nodes it bound then, with the
// same layouts, and their values in slot order appended to buf[:0]; else
// nil. The entry of the last warm hit is tried first (a loop repeats one
// request: no map lookup), then the one the warm index maps to.
func (c *cache) lookupWarm(req *exec.Request, buf []*exec.Tensor) (*entry, []*exec.Tensor) {
	if len(req.Outputs) == 0 {
		return nil, nil
	}
	id := idOf(req.Outputs[0])
	c.mu.Lock()
	defer c.mu.Unlock()
	last := c.last
	if last != nil && last.outs[0] == id {
		if vals, ok := c.warmHit(last, req, buf); ok {
			return last, vals
		}
	}
	e := c.warm[id]
	if e == nil || e == last {
		return nil, nil
	}
	if vals, ok := c.warmHit(e, req, buf); ok {
		c.last = e
		return e, vals
	}
	return nil, nil
}

// warmHit reports whether req asks again what e, a warm entry, was last
// used for, and then takes a reference to e and returns the bound values
// in slot order appended to buf[:0]. c.mu is held.
func (c *cache) warmHit(e *entry, req *exec.Request, buf []*exec.Tensor) ([]*exec.Tensor, bool) {
	if e.elem == nil || len(e.outs) != len(req.Outputs) || len(e.pathOff)-1 != req.NumBound() {
		return nil, false
	}
	nslots := len(e.pathOff) - 1
	for i, n := range req.Outputs[1:] {
		if idOf(n) != e.outs[i+1] {
			return nil, false
		}
	}
	// The very outputs: the paths lead to the nodes bound last time. The
	// request binds exactly those: as many, each of them.
	vals := buf[:0]
	for i := range nslots {
		n := follow(req.Outputs, e.paths[e.pathOff[i]:e.pathOff[i+1]])
		t := req.BoundValue(n)
		if t == nil || !t.Layout.Equal(e.plan.Inputs[i].Layout) {
			return nil, false
		}
		vals = append(vals, t)
	}
	e.refs.Add(1)
	c.hits++
	if c.lru.Front() != e.elem { // a repeated request leaves the list alone
		c.lru.MoveToFront(e.elem)
	}
	return vals, true
}

// idOf returns n's ID, 0 (no node's) for nil.
func idOf(n *graph.Node) uint64 {
	if n == nil {
		return 0
	}
	return n.ID()
}

// warmReq is what the warm index keeps of a request (see entry.warm),
// made outside the cache's lock.
type warmReq struct {
	outs    []uint64
	paths   []int32
	pathOff []int32
}

// newWarmReq returns what the warm index keeps of req, whose bound nodes
// are slots; ok is false for a request the warm index does not keep
// (bound values beyond the plan's inputs: the key decides).
func newWarmReq(req *exec.Request, slots []*graph.Node) (w warmReq, ok bool) {
	if len(req.Outputs) == 0 || len(slots) != req.NumBound() {
		return w, false
	}
	w.paths, w.pathOff, ok = slotPaths(req.Outputs, slots)
	if !ok {
		return w, false
	}
	w.outs = make([]uint64, len(req.Outputs))
	for i, n := range req.Outputs {
		w.outs[i] = n.ID()
	}
	return w, true
}

// remember makes w the request the warm index maps to e, replacing e's
// last one. c.mu is held.
func (c *cache) remember(e *entry, w warmReq, ok bool) {
	if !ok {
		return
	}
	c.forgetWarm(e)
	e.outs, e.paths, e.pathOff = w.outs, w.paths, w.pathOff
	e.warm = true
	c.warm[e.outs[0]] = e
}

// forgetWarm removes e's request from the warm index. c.mu is held.
func (c *cache) forgetWarm(e *entry) {
	if e.warm && c.warm[e.outs[0]] == e {
		delete(c.warm, e.outs[0])
	}
	if c.last == e {
		c.last = nil
	}
	e.warm, e.outs, e.paths, e.pathOff = false, nil, nil, nil
}

// drop removes e from the cache and returns its program when the cache
// held the last reference to it, for the caller to release once c.mu is
// released. c.mu is held.
func (c *cache) drop(e *entry) Program {
	if e.elem == nil {
		return nil
	}
	c.lru.Remove(e.elem)
	e.elem = nil
	delete(c.entries, e.key)
	c.forgetWarm(e)
	if e.refs.Add(-1) == 0 {
		return e.prog // nil while building: its builder holds no reference yet
	}
	return nil
}

// release gives back a reference from get.
func (c *cache) release(e *entry) {
	if e.refs.Add(-1) == 0 && e.prog != nil {
		e.prog.Release()
	}
}

// forget drops every entry.
func (c *cache) forget() {
	c.mu.Lock()
	var dead []Program
	for c.lru.Len() > 0 {
		if p := c.drop(c.lru.Front().Value.(*entry)); p != nil {
			dead = append(dead, p)
		}
	}
	c.mu.Unlock()
	for _, p := range dead {
		p.Release()
	}
}

func (c *cache) stats() exec.CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return exec.CacheStats{Hits: c.hits, Misses: c.misses, Len: c.lru.Len()}
}
