// Limited allocators: an arrow allocator that refuses single allocations
// above a size (the allocation limit) and allocations that would bring
// its live bytes above a total (the memory limit), counting what is live.

package exec

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Limits are the bounds of a LimitedAllocator.
type Limits struct {
	// MaxAllocation is the largest single allocation in bytes (<= 0:
	// DefaultMemoryLimit()).
	MaxAllocation int64
	// MemoryLimit bounds the bytes live at once: allocated through the
	// allocator and not yet freed (<= 0: no bound).
	MemoryLimit int64
}

// LimitedAllocator forwards to another allocator within Limits, counting
// the bytes it has handed out and not yet taken back (the sizes asked,
// which for arrow buffers are rounded up to 64 bytes). It reports its
// limits to AllocLimit and CheckAlloc (it is a Limiter and a Budget), so
// that NewTensor and CheckAlloc return a *MemoryError before asking for
// too much. An allocation asked of it directly that breaks a limit
// (memory.Allocator has no error result) panics with the *MemoryError
// instead, having allocated nothing; RecoverMemoryError turns that back
// into an error at a backend's boundary. Safe for concurrent use when the
// allocator it wraps is: the count is atomic and two allocations cannot
// both take the last bytes under the limit.
type LimitedAllocator struct {
	inner    memory.Allocator
	maxAlloc int64
	limit    int64
	live     atomic.Int64
}

// NewLimitedAllocator returns an allocator that forwards to alloc within
// l, with nothing live.
func NewLimitedAllocator(alloc memory.Allocator, l Limits) *LimitedAllocator {
	if l.MaxAllocation <= 0 {
		l.MaxAllocation = DefaultMemoryLimit()
	}
	return &LimitedAllocator{inner: alloc, maxAlloc: l.MaxAllocation, limit: max(l.MemoryLimit, 0)}
}

// LimitAllocator returns an allocator that forwards to alloc but refuses
// single allocations of more than limit bytes (limit <= 0:
// DefaultMemoryLimit; arrow rounds capacities up to 64 bytes, and so does
// the limit here), with no bound on the total. An allocation limit on
// alloc itself is replaced, not stacked: a LimitedAllocator without a
// memory limit is unwrapped first (one with a memory limit is kept, and
// its bound and count still apply). See LimitedAllocator for the errors.
func LimitAllocator(alloc memory.Allocator, limit int64) memory.Allocator {
	if l, ok := alloc.(*LimitedAllocator); ok && l.limit == 0 {
		alloc = l.inner
	}
	return NewLimitedAllocator(alloc, Limits{MaxAllocation: limit})
}

// AllocLimit returns the largest single allocation.
func (a *LimitedAllocator) AllocLimit() int64 { return a.maxAlloc }

// MemoryBudget returns the memory limit and the bytes live now. Without
// a memory limit of its own it reports that of the allocator it wraps,
// when that is a Budget, and (0, live) otherwise.
func (a *LimitedAllocator) MemoryBudget() (limit, inUse int64) {
	if a.limit == 0 {
		if b, ok := a.inner.(Budget); ok {
			return b.MemoryBudget()
		}
	}
	return a.limit, a.live.Load()
}

// InUse returns the bytes handed out and not yet freed.
func (a *LimitedAllocator) InUse() int64 { return a.live.Load() }

// Allocator returns the allocator a forwards to.
func (a *LimitedAllocator) Allocator() memory.Allocator { return a.inner }

// reserve counts delta more live bytes, panicking with a *MemoryError
// when size is above the allocation limit (beyond arrow's 64-byte
// rounding) or when the live bytes would exceed the memory limit.
func (a *LimitedAllocator) reserve(size int, delta int64) {
	if int64(size) > a.maxAlloc && int64(size)-a.maxAlloc >= 64 {
		panic(&MemoryError{Bytes: int64(size), Limit: a.maxAlloc})
	}
	for {
		cur := a.live.Load()
		if a.limit > 0 && delta > 0 && cur+delta > a.limit {
			panic(&MemoryError{Bytes: int64(size), Limit: a.limit, Total: true, InUse: cur})
		}
		if a.live.CompareAndSwap(cur, cur+delta) {
			return
		}
	}
}

// Allocate forwards to the wrapped allocator within the limits.
func (a *LimitedAllocator) Allocate(size int) []byte {
	a.reserve(size, int64(size))
	done := false
	defer func() {
		if !done { // the wrapped allocator panicked: nothing was allocated
			a.live.Add(-int64(size))
		}
	}()
	b := a.inner.Allocate(size)
	done = true
	return b
}

// Reallocate forwards to the wrapped allocator within the limits. A
// growth counts the new size in full until the wrapped allocator returns
// (it may hold both buffers while it copies), then only the new size; a
// shrink counts the smaller size once done.
func (a *LimitedAllocator) Reallocate(size int, b []byte) []byte {
	old := int64(len(b))
	if int64(size) <= old {
		out := a.inner.Reallocate(size, b)
		a.live.Add(int64(size) - old)
		return out
	}
	a.reserve(size, int64(size))
	done := false
	defer func() {
		if !done {
			a.live.Add(-int64(size))
		}
	}()
	out := a.inner.Reallocate(size, b)
	done = true
	a.live.Add(-old)
	return out
}

// Free forwards to the wrapped allocator and then counts b's bytes as no
// longer live (in that order, so that the wrapped allocator never holds
// more than the count says, even while others allocate).
func (a *LimitedAllocator) Free(b []byte) {
	a.inner.Free(b)
	a.live.Add(-int64(len(b)))
}

var (
	_ memory.Allocator = (*LimitedAllocator)(nil)
	_ Limiter          = (*LimitedAllocator)(nil)
	_ Budget           = (*LimitedAllocator)(nil)
)
