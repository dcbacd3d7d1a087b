// Pool: a caching host allocator (arrow memory.Allocator) in the manner of
// CuPy's and PyTorch's memory pools. Sizes are rounded up to size classes
// (four per power of two); freed blocks go to per-class free lists and are
// handed out again without zeroing, so an evaluation that runs again
// pays neither for fresh pages nor for clearing them, and the garbage
// collector sees no new allocation. Cached bytes are bounded: the least
// recently freed blocks go back to the base allocator first.

package exec

import (
	"fmt"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// minClassShift is log2 of the smallest size class (64 bytes, arrow's
// alignment).
const minClassShift = 6

// classOf returns the size class of an allocation of n bytes: classes
// 0-3 are 64 bytes apart up to 256; above that each power of two is cut
// into four steps, so a block wastes at most a quarter of its size.
func classOf(n int) int {
	if n <= 1<<minClassShift {
		return 0
	}
	m := uint64(n - 1)
	e := bits.Len64(m) - 1 // 2^e <= n-1 < 2^(e+1)
	if e < minClassShift+2 {
		return int(m >> minClassShift) // 64-byte steps up to 256
	}
	q := int(m>>(e-2)) & 3 // which quarter of [2^e, 2^(e+1))
	return 4*(e-minClassShift-1) + q
}

// classSize returns the capacity of class c (the largest n with
// classOf(n) == c).
func classSize(c int) int {
	if c < 4 {
		return (c + 1) << minClassShift
	}
	e := c/4 + minClassShift + 1
	return (1 << e) + (c%4+1)<<(e-2)
}

// PoolStats describes a Pool at one moment. All sizes are in bytes of
// whole blocks (requests rounded up to their size class).
type PoolStats struct {
	InUse     int64 // handed out and not yet freed
	Cached    int64 // on the free lists
	PeakInUse int64 // the largest InUse so far
	MaxCached int64 // the bound on Cached
	Hits      int64 // allocations served from the free lists
	Misses    int64 // allocations that went to the base allocator
	Evictions int64 // cached blocks given back to keep Cached under MaxCached
	Frees     int64 // blocks freed by users
}

// PoolOption configures NewPool.
type PoolOption func(*Pool)

// PoolMaxCached bounds the bytes a Pool keeps on its free lists (n < 0:
// no bound; 0: cache nothing, every Free goes back to the base
// allocator). Without it the bound is an eighth of DefaultMemoryLimit(),
// at least 256 MiB.
func PoolMaxCached(n int64) PoolOption {
	return func(p *Pool) {
		if n < 0 {
			n = 1<<63 - 1
		}
		p.maxCached = n
	}
}

// Pool is a caching memory.Allocator over a base allocator. Allocate
// returns memory that is NOT zeroed when it comes from the cache (like
// malloc; use NewTensor, which clears, where zeroes are needed). Free
// puts a block on its class's free list; Trim gives every cached block
// back to the base allocator, so that a checked base allocator reports
// zero bytes once all buffers are released and the pool trimmed. A Pool
// is safe for concurrent use.
type Pool struct {
	base      memory.Allocator
	maxCached int64

	mu    sync.Mutex
	live  map[unsafe.Pointer]*block // handed-out blocks by data address
	free  map[int]*block            // per class: most recently freed first (via nextC)
	lru   block                     // sentinel of the list of cached blocks, oldest at lru.next
	stats PoolStats
}

// block is one allocation from the base allocator.
type block struct {
	mem        []byte // exactly as the base allocator returned it
	class      int
	nextC      *block // next cached block of the same class
	prevC      *block
	prev, next *block // LRU list of cached blocks
}

// NewPool returns a Pool drawing from base (nil: a Go allocator).
func NewPool(base memory.Allocator, opts ...PoolOption) *Pool {
	if base == nil {
		base = memory.NewGoAllocator()
	}
	p := &Pool{base: base, maxCached: max(DefaultMemoryLimit()/8, 256<<20),
		live: map[unsafe.Pointer]*block{}, free: map[int]*block{}}
	for _, o := range opts {
		if o != nil {
			o(p)
		}
	}
	p.lru.prev, p.lru.next = &p.lru, &p.lru
	return p
}

var defaultPool = sync.OnceValue(func() *Pool { return NewPool(memory.NewGoAllocator()) })

// DefaultPool returns the process-wide Pool over a Go allocator, with the
// default bound on cached bytes. Safe for concurrent use.
func DefaultPool() *Pool { return defaultPool() }

// Base returns the allocator the pool draws from.
func (p *Pool) Base() memory.Allocator { return p.base }

// Allocate returns size bytes, 64-byte aligned, not zeroed. It panics as
// the base allocator does when that fails, and for a negative size.
func (p *Pool) Allocate(size int) []byte {
	if size < 0 {
		panic(fmt.Sprintf("exec: Pool.Allocate(%d): negative size", size))
	}
	c := classOf(size)
	p.mu.Lock()
	b := p.free[c]
	if b != nil {
		p.unlinkCached(b)
		p.stats.Hits++
	} else {
		p.mu.Unlock()
		mem := p.base.Allocate(classSize(c)) // outside the lock: it may be slow or panic
		b = &block{mem: mem, class: c}
		p.mu.Lock()
		p.stats.Misses++
	}
	p.live[unsafe.Pointer(unsafe.SliceData(b.mem))] = b
	p.stats.InUse += int64(classSize(c))
	p.stats.PeakInUse = max(p.stats.PeakInUse, p.stats.InUse)
	p.mu.Unlock()
	return b.mem[:size:size]
}

// Reallocate resizes b (from this pool) to size bytes, keeping its
// contents up to the smaller size; within b's size class it returns b
// itself.
func (p *Pool) Reallocate(size int, b []byte) []byte {
	if size < 0 {
		panic(fmt.Sprintf("exec: Pool.Reallocate(%d): negative size", size))
	}
	p.mu.Lock()
	blk := p.live[unsafe.Pointer(unsafe.SliceData(b))]
	p.mu.Unlock()
	if blk != nil && classOf(size) == blk.class {
		return blk.mem[:size:size]
	}
	out := p.Allocate(size)
	copy(out, b)
	p.Free(b)
	return out
}

// Free returns b (from Allocate or Reallocate of this pool) to the cache,
// evicting the least recently freed blocks to the base allocator when the
// cache would exceed its bound. A slice the pool did not hand out goes
// straight to the base allocator.
func (p *Pool) Free(b []byte) {
	var evict []*block
	p.mu.Lock()
	key := unsafe.Pointer(unsafe.SliceData(b))
	blk := p.live[key]
	if blk == nil {
		p.mu.Unlock()
		p.base.Free(b)
		return
	}
	delete(p.live, key)
	sz := int64(classSize(blk.class))
	p.stats.InUse -= sz
	p.stats.Frees++
	if sz > p.maxCached {
		evict = append(evict, blk)
	} else {
		for p.stats.Cached+sz > p.maxCached {
			old := p.lru.next
			p.unlinkCached(old)
			p.stats.Evictions++
			evict = append(evict, old)
		}
		p.linkCached(blk)
	}
	p.mu.Unlock()
	for _, e := range evict {
		p.base.Free(e.mem)
	}
}

// Trim gives every cached block back to the base allocator and returns
// how many bytes that was. Blocks in use are not affected.
func (p *Pool) Trim() int64 {
	p.mu.Lock()
	var all []*block
	for p.lru.next != &p.lru {
		b := p.lru.next
		p.unlinkCached(b)
		all = append(all, b)
	}
	p.mu.Unlock()
	var n int64
	for _, b := range all {
		n += int64(classSize(b.class))
		p.base.Free(b.mem)
	}
	return n
}

// Stats returns the pool's statistics.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.MaxCached = p.maxCached
	return s
}

// linkCached puts b at the head of its class's free list and at the
// newest end of the LRU list. Called with p.mu held.
func (p *Pool) linkCached(b *block) {
	head := p.free[b.class]
	b.prevC, b.nextC = nil, head
	if head != nil {
		head.prevC = b
	}
	p.free[b.class] = b
	b.prev, b.next = p.lru.prev, &p.lru
	p.lru.prev.next = b
	p.lru.prev = b
	p.stats.Cached += int64(classSize(b.class))
}

// unlinkCached takes b off both lists. Called with p.mu held.
func (p *Pool) unlinkCached(b *block) {
	if b.prevC != nil {
		b.prevC.nextC = b.nextC
	} else if b.nextC != nil {
		p.free[b.class] = b.nextC
	} else {
		delete(p.free, b.class)
	}
	if b.nextC != nil {
		b.nextC.prevC = b.prevC
	}
	b.prevC, b.nextC = nil, nil
	b.prev.next, b.next.prev = b.next, b.prev
	b.prev, b.next = nil, nil
	p.stats.Cached -= int64(classSize(b.class))
}

var _ memory.Allocator = (*Pool)(nil)
