// The lifetime of what an Array holds: Release, and for Arrays the
// program forgets, finalizers, given in batches so that an Array
// released soon after it was evaluated never gets one.

package array

import "runtime"

// maxYoung is the most Arrays a Context keeps waiting for a finalizer;
// one more gives them all theirs.
const maxYoung = 256

// Release drops the input data or result the Array holds; the buffer is
// freed when no other Array, view or exported arrow.Array holds it. After
// Release the Array cannot be evaluated again (Eval returns an error), and
// expressions that still need its input data fail the same way. Release is
// safe to call more than once, on a nil Array, and concurrently.
func (a *Array) Release() {
	if a == nil || a.ctx == nil {
		return
	}
	c := a.ctx
	c.mu.Lock()
	defer c.mu.Unlock()
	a.released = true
	c.unholdLocked(a)
}

// unholdLocked drops a's reference to its entry, freeing the entry when it
// was the last, and a's finalizer or its place among the young. The
// caller holds c.mu.
func (c *Context) unholdLocked(a *Array) {
	if a.young != 0 {
		c.dropYoungLocked(a)
	}
	if a.final {
		// Cheaper than letting the collector queue and run it.
		a.final = false
		runtime.SetFinalizer(a, nil)
	}
	e := a.e
	if e == nil {
		return
	}
	a.e = nil
	e.refs--
	if e.refs == 0 {
		c.dropLocked(e)
	}
}

// holdLocked makes a hold a reference to e (once). So that an Array the
// program forgets without Release still gives back its result, it joins
// the Context's young: Arrays that hold something and have no finalizer
// yet. Most are released soon and leave the list again, which costs
// nothing. The others get their finalizer when the collector next runs
// (see armLocked), or all together once maxYoung are waiting: a forgotten
// Array is freed one collection later than a finalizer of its own would
// free it. The caller holds c.mu.
func (c *Context) holdLocked(a *Array, e *entry) {
	if a.e != nil || a.released {
		return
	}
	a.e = e
	e.refs++
	// a's result no longer needs its operands. Field by field, those
	// set: cheaper than clearing them all while the collector marks.
	if a.dep[0] != nil {
		a.dep[0] = nil
	}
	if a.dep[1] != nil {
		a.dep[1] = nil
	}
	if a.final || a.young != 0 {
		return
	}
	if len(c.young) >= maxYoung {
		c.finalizeYoungLocked()
	}
	c.young = append(c.young, a)
	a.young = int32(len(c.young))
	if !c.armed {
		c.armLocked()
	}
}

// dropYoungLocked takes a off the young list (the last one takes its
// place). The caller holds c.mu.
func (c *Context) dropYoungLocked(a *Array) {
	i, last := int(a.young-1), len(c.young)-1
	if i != last {
		m := c.young[last]
		c.young[i] = m
		m.young = int32(i + 1)
	}
	c.young[last] = nil
	c.young = c.young[:last]
	a.young = 0
}

// finalizeYoungLocked gives every young Array its finalizer and empties
// the list. The caller holds c.mu.
func (c *Context) finalizeYoungLocked() {
	for i, a := range c.young {
		a.young = 0
		a.final = true
		runtime.SetFinalizer(a, finalize)
		c.young[i] = nil
	}
	c.young = c.young[:0]
}

// sentinel is an object made only to be collected: its cleanup tells a
// Context that the collector has run. It holds a pointer so that it is
// not packed with other small objects (which could keep it alive).
type sentinel struct{ _ *byte }

// armLocked makes the next collection give the young Arrays of c their
// finalizers: the cleanup of a sentinel nothing references. The cleanup
// holds c until then (so a Context dropped together with its young
// Arrays still frees their results), and is armed again only while
// Arrays are young. The caller holds c.mu.
func (c *Context) armLocked() {
	c.armed = true
	runtime.AddCleanup(&sentinel{}, collected, c)
}

// collected runs after a collection found c's sentinel unreachable.
func collected(c *Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = false
	c.finalizeYoungLocked()
}

// finalize is the finalizer of an Array holding a result: the collector
// found it unreachable, so nothing can Release it; it drops the result as
// Release would.
func finalize(a *Array) {
	c := a.ctx
	c.mu.Lock()
	defer c.mu.Unlock()
	a.released, a.final = true, false
	c.unholdLocked(a)
}
