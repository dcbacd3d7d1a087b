// Registry entries reused: a Context keeps the entries it frees and hands
// them out again, each with room for a result tensor and its layout, so
// that a warm evaluation allocates neither an entry nor a tensor.

package array

import "github.com/fuseflow/fuseflow/exec"

// maxOwnRank is the largest rank whose layout fits in an entry's own
// tensor.
const maxOwnRank = 4

// maxSpare is the most freed entries a Context keeps for reuse.
const maxSpare = 64

// newEntryLocked returns an empty entry: a spare one when c has one. The
// caller holds c.mu.
func (c *Context) newEntryLocked() *entry {
	n := len(c.spare)
	if n == 0 {
		return &entry{}
	}
	e := c.spare[n-1]
	c.spare[n-1] = nil
	c.spare = c.spare[:n-1]
	return e
}

// dropLocked removes e, which no Array holds any more, from the
// registry, drops its tensors and keeps it for reuse. The caller holds
// c.mu.
func (c *Context) dropLocked(e *entry) {
	delete(c.results, e.node)
	if e.pooled {
		// A header whose last reference is the entry's is freed here,
		// under c.mu, which every other reference is taken under: it
		// can be reused.
		if b := e.t.Buf; exec.ReleaseSole(b) && len(c.headers) < maxSpare {
			c.headers = append(c.headers, b)
		}
		e.host.Release()
	} else {
		e.release()
	}
	c.recycleLocked(e)
}

// recycleLocked keeps e, out of the registry and holding no buffer, for
// reuse; not while a host copy of its result runs (the copy holds e
// until it ends, see copyToHost), nor beyond maxSpare. The caller holds
// c.mu.
func (c *Context) recycleLocked(e *entry) {
	if e.copying != nil || len(c.spare) >= maxSpare {
		return
	}
	// The fields that point somewhere: dims hold nothing, refs is 0.
	e.node, e.t, e.host, e.pooled = nil, nil, nil, false
	e.own.Buf, e.own.Dev, e.own.Shape, e.own.Strides = nil, nil, nil, nil
	c.spare = append(c.spare, e)
}

// offer readies e's own tensor to receive a result (see
// exec.Request.Results) and returns it.
func (e *entry) offer() *exec.Tensor {
	e.own.Buf, e.own.Dev = nil, nil
	e.own.Shape = e.dims[:0:maxOwnRank]
	e.own.Strides = e.dims[maxOwnRank : maxOwnRank : 2*maxOwnRank]
	return &e.own
}
