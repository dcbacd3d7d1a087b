// Pooled evaluations: the per-call state of an evaluation (buffer tables,
// base addresses, run state) is reused across calls, so that a warm
// evaluation of a cached plan allocates little besides its results.

package cpu

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

var evaluations = sync.Pool{New: func() any { return &evaluation{ex: &runState{}} }}

// newEvaluation returns an evaluation of lp on b with empty tables for
// its buffers, from the pool.
func newEvaluation(b *Backend, lp *lowPlan, alloc memory.Allocator) *evaluation {
	e := evaluations.Get().(*evaluation)
	n := len(lp.plan.Buffers)
	e.b, e.lp, e.alloc = b, lp, alloc
	e.bufs = resize(e.bufs, n)
	e.owned = resize(e.owned, n)
	e.ex.bases = resize(e.ex.bases, n)
	e.frames = b.frames()
	e.ex.frames = *e.frames
	return e
}

// recycle clears e, which must hold no buffer any more (End freed them),
// and returns it to the pool.
func (e *evaluation) recycle() {
	clear(e.bufs)
	clear(e.ex.bases)
	e.b, e.lp, e.alloc, e.frames, e.ex.frames = nil, nil, nil, nil, nil
	evaluations.Put(e)
}

// resize returns s with length n and every element zero, reusing its
// storage when it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
