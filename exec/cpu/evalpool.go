// Pooled evaluations: the per-call state of an evaluation (buffer tables,
// base addresses, run state, the workers' frames) is reused across calls
// from its backend's pool, so that a warm evaluation of a cached plan
// allocates little besides its results.

package cpu

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// newEvaluation returns an evaluation of lp on b with empty tables for
// its buffers, from b's pool.
func newEvaluation(b *Backend, lp *lowPlan, alloc memory.Allocator) *evaluation {
	e, _ := b.evals.Get().(*evaluation)
	if e == nil {
		e = &evaluation{b: b, ex: &runState{}, frames: make([]frame, b.workers)}
	}
	n := len(lp.plan.Buffers)
	// A pooled evaluation keeps the plan it last ran (as its frames keep
	// their programs) and its tables' lengths: running the same plan
	// again writes fewer pointers, each of which costs a barrier while
	// the collector marks.
	if e.lp != lp {
		e.lp = lp
	}
	e.alloc = alloc
	if len(e.bufs) != n {
		e.bufs = zeroed(e.bufs, n)
		e.owned = zeroed(e.owned, n)
		e.ex.bases = zeroed(e.ex.bases, n)
	}
	if e.ex.frames == nil {
		e.ex.frames = e.frames
	}
	return e
}

// recycle clears e, which must hold no buffer any more (End freed them
// and cleared owned), and returns it to its backend's pool with its
// frames and plan: a pooled evaluation's tables are zero up to their
// capacity.
func (e *evaluation) recycle() {
	b := e.b
	// One by one, the few that are set: cheaper than clear while the
	// collector marks (clear's write barrier walks the whole table).
	for i, buf := range e.bufs {
		if buf != nil {
			e.bufs[i] = nil
		}
	}
	for i, p := range e.ex.bases {
		if p != nil {
			e.ex.bases[i] = nil
		}
	}
	e.alloc, e.headers = nil, nil
	b.evals.Put(e)
}

// zeroed returns s with length n, reusing its storage when it is large
// enough; a pooled evaluation's tables are zero already (see recycle).
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
