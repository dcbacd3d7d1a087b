// PinnedAllocator: an arrow memory.Allocator over page-locked host memory
// (cuMemHostAlloc) with its own size-class cache, and the registry that
// tells transfers which host bytes are pinned.

package cuda

import (
	"fmt"
	"sort"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// Pinned size classes: powers of two of at least one page up to 64 MiB,
// then multiples of 2 MiB.
const (
	pinnedMin   = 4096
	pinnedSmall = 64 << 20
)

// pinnedClass returns the bytes reserved for a pinned request of n bytes.
func pinnedClass(n int) int { return int(roundClass(int64(n), pinnedMin, pinnedSmall)) }

// PinnedStats are the counters of a PinnedAllocator, in bytes of size
// classes.
type PinnedStats struct {
	Live, Cached, Peak int64
	// HostAllocs counts cuMemHostAlloc calls; Fallbacks the allocations
	// that got ordinary Go memory because pinning failed.
	HostAllocs, Fallbacks int64
}

// pinnedBlock is one page-locked allocation: base is what the driver
// returned, p the 64-byte aligned start of the class bytes handed out.
type pinnedBlock struct {
	base, p unsafe.Pointer
	class   int
}

// PinnedAllocator allocates arrow buffers in page-locked host memory, so
// the backend copies them to and from the device by asynchronous DMA
// instead of through its staging ring. Freed blocks are cached by size
// class (up to MaxCached bytes) and reused. Memory is 4096-byte aligned,
// which satisfies arrow's 64-byte alignment. When the driver cannot pin
// more memory, Allocate returns ordinary Go memory instead (counted in
// Fallbacks) rather than failing, since the arrow interface has no error
// result; such buffers still transfer, through the staging ring. It is
// safe for concurrent use.
type PinnedAllocator struct {
	ctx *drv.Context
	// MaxCached bounds the bytes kept in the cache (set before use).
	MaxCached int64

	mu    sync.Mutex
	free  map[int][]pinnedBlock
	live  map[uintptr]pinnedBlock // by address; class 0: Go memory
	stats PinnedStats
}

var _ memory.Allocator = (*PinnedAllocator)(nil)

// NewPinnedAllocator returns a pinned allocator on ctx that caches up to
// 256 MiB of freed blocks.
func NewPinnedAllocator(ctx *drv.Context) *PinnedAllocator {
	return &PinnedAllocator{ctx: ctx, MaxCached: 256 << 20, free: map[int][]pinnedBlock{}, live: map[uintptr]pinnedBlock{}}
}

// Allocate returns size bytes of pinned memory (zero length for size 0).
// The contents are undefined, as with arrow's allocators.
func (a *PinnedAllocator) Allocate(size int) []byte {
	if size <= 0 {
		return []byte{}
	}
	c := pinnedClass(size)
	a.mu.Lock()
	if l := a.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		a.free[c] = l[:len(l)-1]
		a.stats.Cached -= int64(c)
		a.hand(b)
		a.mu.Unlock()
		return unsafe.Slice((*byte)(b.p), c)[:size]
	}
	a.mu.Unlock()
	b, err := a.hostAlloc(c)
	if err != nil {
		a.Trim()
		b, err = a.hostAlloc(c)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.stats.Fallbacks++
		buf := make([]byte, size+64)
		off := (64 - int(uintptr(unsafe.Pointer(&buf[0]))%64)) % 64
		buf = buf[off : off+size : off+size]
		a.live[uintptr(unsafe.Pointer(&buf[0]))] = pinnedBlock{base: unsafe.Pointer(&buf[0]), p: unsafe.Pointer(&buf[0])}
		return buf
	}
	a.stats.HostAllocs++
	a.hand(b)
	registerPinned(uintptr(b.p), c)
	return unsafe.Slice((*byte)(b.p), c)[:size]
}

// hostAlloc pins c bytes aligned to 64 bytes. The driver returns
// page-aligned memory; should it not be 64-byte aligned, the block is
// allocated again 64 bytes larger and its start rounded up.
func (a *PinnedAllocator) hostAlloc(c int) (pinnedBlock, error) {
	p, err := a.ctx.MemHostAlloc(uint64(c), drv.HostAllocPortable)
	if err != nil {
		return pinnedBlock{}, err
	}
	if uintptr(p)%64 == 0 {
		return pinnedBlock{base: p, p: p, class: c}, nil
	}
	_ = a.ctx.MemFreeHost(p)
	if p, err = a.ctx.MemHostAlloc(uint64(c+64), drv.HostAllocPortable); err != nil {
		return pinnedBlock{}, err
	}
	return pinnedBlock{base: p, p: unsafe.Add(p, (64-uintptr(p)%64)%64), class: c}, nil
}

// hand records b as live; a.mu is held.
func (a *PinnedAllocator) hand(b pinnedBlock) {
	a.live[uintptr(b.p)] = b
	a.stats.Live += int64(b.class)
	a.stats.Peak = max(a.stats.Peak, a.stats.Live)
}

// Reallocate resizes b to size bytes, keeping its contents up to the
// smaller size. It reuses b's block when the block is large enough.
func (a *PinnedAllocator) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size && cap(b) > 0 {
		a.mu.Lock()
		blk, ok := a.live[uintptr(unsafe.Pointer(unsafe.SliceData(b)))]
		a.mu.Unlock()
		if ok && blk.class >= size && blk.class > 0 {
			return unsafe.Slice((*byte)(blk.p), blk.class)[:size]
		}
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free returns b, which must come from this allocator, to the cache.
// Freeing memory the allocator did not hand out panics: it is a broken
// invariant of the caller.
func (a *PinnedAllocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	key := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	a.mu.Lock()
	blk, ok := a.live[key]
	if !ok {
		a.mu.Unlock()
		panic(fmt.Sprintf("cuda: PinnedAllocator.Free of %d bytes at %#x it did not allocate", cap(b), key))
	}
	delete(a.live, key)
	if blk.class == 0 { // Go memory from a fallback
		a.mu.Unlock()
		return
	}
	a.stats.Live -= int64(blk.class)
	if a.stats.Cached+int64(blk.class) <= a.MaxCached {
		a.free[blk.class] = append(a.free[blk.class], blk)
		a.stats.Cached += int64(blk.class)
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	a.release(blk)
}

// release gives a block back to the driver.
func (a *PinnedAllocator) release(b pinnedBlock) {
	unregisterPinned(uintptr(b.p))
	// A failing free leaves the memory pinned until exit; nothing better
	// can be done with it.
	_ = a.ctx.MemFreeHost(b.base)
}

// Trim frees every cached block and returns the bytes freed.
func (a *PinnedAllocator) Trim() int64 {
	a.mu.Lock()
	blocks := drainClasses(a.free)
	var n int64
	for _, b := range blocks {
		n += int64(b.class)
	}
	a.stats.Cached -= n
	a.mu.Unlock()
	for _, b := range blocks {
		a.release(b)
	}
	return n
}

// Stats returns a snapshot of the allocator's counters.
func (a *PinnedAllocator) Stats() PinnedStats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats
}

// pinnedRange is one registered page-locked range [lo, hi).
type pinnedRange struct{ lo, hi uintptr }

// pinned is the process-wide registry of page-locked host ranges, sorted
// by start, so a transfer can tell whether host bytes are pinned.
var pinned struct {
	sync.RWMutex
	r []pinnedRange
}

func registerPinned(p uintptr, n int) {
	pinned.Lock()
	defer pinned.Unlock()
	i := sort.Search(len(pinned.r), func(i int) bool { return pinned.r[i].lo >= p })
	pinned.r = append(pinned.r, pinnedRange{})
	copy(pinned.r[i+1:], pinned.r[i:])
	pinned.r[i] = pinnedRange{p, p + uintptr(n)}
}

func unregisterPinned(p uintptr) {
	pinned.Lock()
	defer pinned.Unlock()
	i := sort.Search(len(pinned.r), func(i int) bool { return pinned.r[i].lo >= p })
	if i < len(pinned.r) && pinned.r[i].lo == p {
		pinned.r = append(pinned.r[:i], pinned.r[i+1:]...)
	}
}

// IsPinned reports whether the n bytes at p lie inside one block of
// page-locked memory from a PinnedAllocator (or the staging ring).
func IsPinned(p unsafe.Pointer, n int) bool {
	if p == nil || n <= 0 {
		return false
	}
	a := uintptr(p)
	pinned.RLock()
	defer pinned.RUnlock()
	i := sort.Search(len(pinned.r), func(i int) bool { return pinned.r[i].lo > a })
	return i > 0 && a+uintptr(n) <= pinned.r[i-1].hi
}
