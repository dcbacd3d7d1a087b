// Pool: a caching host allocator (arrow memory.Allocator) in the manner of
// CuPy's and PyTorch's memory pools. Sizes are rounded up to size classes
// (four per power of two); freed blocks go to per-class free lists and are
// handed out again without zeroing, so an evaluation that runs again
// pays neither for fresh pages nor for clearing them, and the garbage
// collector sees no new allocation. Idle memory goes back to the base
// allocator three ways: the least recently freed blocks first when the
// cache outgrows its bound, or when an allocation of another size class
// would make the pool hold more than its peak use calls for; every block
// left idle for a while (a timer, armed only while something is cached);
// and all of it on Trim.

package exec

import (
	"fmt"
	"math/bits"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/internal/clock"
)

// minClassShift is log2 of the smallest size class (64 bytes, arrow's
// alignment).
const minClassShift = 6

// numClasses is the number of size classes: classOf(MaxInt) is 223.
const numClasses = 4 * (64 - minClassShift - 1)

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
	Displaced int64 // cached blocks given back to make room for an allocation of another class
	Expired   int64 // cached blocks given back after sitting idle (PoolIdleTimeout)
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

// DefaultPoolIdleTimeout is how long a cached block may sit unused before
// a Pool gives it back, unless PoolIdleTimeout says otherwise.
const DefaultPoolIdleTimeout = 30 * time.Second

// PoolIdleTimeout makes a Pool give back cached blocks that have not been
// reused for d (d <= 0: never; without the option,
// DefaultPoolIdleTimeout). A block goes back between d and 2d after it
// was freed: a timer checks every d while anything is cached, and is not
// armed otherwise (so an idle, empty pool costs nothing).
func PoolIdleTimeout(d time.Duration) PoolOption {
	return func(p *Pool) { p.idle = max(d, 0) }
}

// poolClock makes a Pool schedule its idle checks on c (tests use a fake
// clock).
func poolClock(c clock.Clock) PoolOption { return func(p *Pool) { p.clock = c } }

// releaseToOSMin is the least number of bytes given back at once to a
// Go allocator after which a Pool asks the runtime to return freed memory
// to the operating system (debug.FreeOSMemory): otherwise the garbage
// collector would keep the pages until its next cycle, and the process's
// resident memory would not shrink.
const releaseToOSMin = 64 << 20

// Pool is a caching memory.Allocator over a base allocator. Allocate
// returns memory that is NOT zeroed when it comes from the cache (like
// malloc; use NewTensor, which clears, where zeroes are needed). Free
// puts a block on its class's free list. Cached blocks go back to the
// base allocator:
//   - the least recently freed first, when the cache would outgrow its
//     bound (PoolMaxCached);
//   - the least recently freed first, before a miss would make the
//     pool's footprint (bytes in use plus cached) larger than its peak
//     use so far (or than the use this allocation makes, when that is a
//     new peak) plus an eighth: idle blocks of other classes make room
//     for a large request instead of piling up beside it;
//   - when unused for the idle timeout (PoolIdleTimeout);
//   - all of them on Trim (CuPy's free_all_blocks), so that a checked
//     base allocator reports zero bytes once all buffers are released and
//     the pool trimmed.
//
// With a Go allocator as base, a new block of HugePageMin bytes or more
// is advised to the kernel for transparent huge pages (Linux), and
// giving back 64 MiB or more at once also
// returns the freed memory to the operating system (two garbage
// collections: without them the process's resident memory would not
// shrink until the collector's next cycles). While blocks are
// cached the idle timer holds a reference to the pool; it lets go within
// twice the idle timeout after the cache empties. A Pool is safe for
// concurrent use.
type Pool struct {
	base      memory.Allocator
	maxCached int64
	idle      time.Duration
	clock     clock.Clock
	released  func(bytes int64) // called after blocks went back to base, without p.mu
	advise    func(mem []byte)  // called on each new block from base, without p.mu

	mu    sync.Mutex
	live  map[unsafe.Pointer]*block // every block held, handed out or cached, by data address
	free  [numClasses]*block        // per class: most recently freed first (via nextC)
	lru   block                     // sentinel of the list of cached blocks, oldest at lru.next
	epoch uint64                    // idle checks so far
	timer clock.Timer               // the pending idle check; nil when none is armed
	stats PoolStats

	// hot is the most recently freed block, cached but not yet on the
	// lists (nil: none): a loop that frees a block and allocates one of
	// the same class again takes it back without linking it into both
	// lists and unlinking it. Whatever walks the lists first puts it
	// there (flushHotLocked), so it keeps its place as the newest.
	hot *block
}

// block is one allocation from the base allocator.
type block struct {
	mem        []byte // exactly as the base allocator returned it
	class      int
	used       bool   // handed out (else cached)
	epoch      uint64 // the pool's epoch when the block was cached
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
		idle: DefaultPoolIdleTimeout, clock: clock.Real(),
		live: map[unsafe.Pointer]*block{}}
	if _, ok := base.(*memory.GoAllocator); ok {
		p.released = releaseToOS
		p.advise = adviseHuge
	}
	for _, o := range opts {
		if o != nil {
			o(p)
		}
	}
	p.lru.prev, p.lru.next = &p.lru, &p.lru
	return p
}

// releaseToOS returns freed Go memory to the operating system after a
// large release. It collects twice: scratch kept in a sync.Pool (the CPU
// executor's frames, for one) may still point into a block given back,
// and a sync.Pool lets go of its objects only at the second collection.
func releaseToOS(bytes int64) {
	if bytes >= releaseToOSMin {
		runtime.GC()
		debug.FreeOSMemory()
	}
}

var defaultPool = sync.OnceValue(func() *Pool { return NewPool(memory.NewGoAllocator()) })

// DefaultPool returns the process-wide Pool over a Go allocator, with the
// default bound on cached bytes and idle timeout. Safe for concurrent
// use.
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
	b := p.hot
	if b != nil && b.class == c {
		p.hot = nil
		p.stats.Cached -= int64(classSize(c))
		p.stats.Hits++
	} else if b = p.free[c]; b != nil {
		p.unlinkCached(b) // it stays in live
		p.stats.Hits++
	} else {
		evict := p.makeRoomLocked(int64(classSize(c)))
		p.mu.Unlock()
		p.giveBack(evict)
		mem := p.base.Allocate(classSize(c)) // outside the lock: it may be slow or panic
		if p.advise != nil {
			p.advise(mem)
		}
		b = &block{mem: mem, class: c}
		p.mu.Lock()
		p.stats.Misses++
		p.live[unsafe.Pointer(unsafe.SliceData(b.mem))] = b
	}
	b.used = true
	p.stats.InUse += int64(classSize(c))
	p.stats.PeakInUse = max(p.stats.PeakInUse, p.stats.InUse)
	p.mu.Unlock()
	return b.mem[:size:size]
}

// makeRoomLocked takes the least recently freed blocks off the cache
// until a new block of sz bytes keeps the footprint (InUse + Cached + sz)
// within the peak use (including this allocation) plus an eighth, and
// returns them for giveBack. Called with p.mu held.
func (p *Pool) makeRoomLocked(sz int64) []*block {
	if p.stats.Cached == 0 {
		return nil
	}
	p.flushHotLocked()
	bound := max(p.stats.PeakInUse, p.stats.InUse+sz)
	bound += bound / 8
	var evict []*block
	for p.stats.Cached > 0 && p.stats.InUse+p.stats.Cached+sz > bound {
		old := p.lru.next
		p.dropCachedLocked(old)
		p.stats.Displaced++
		evict = append(evict, old)
	}
	return evict
}

// giveBack frees blocks to the base allocator. Called without p.mu.
func (p *Pool) giveBack(blocks []*block) int64 {
	var n int64
	for _, b := range blocks {
		n += int64(classSize(b.class))
		p.base.Free(b.mem)
	}
	if n > 0 && p.released != nil {
		p.released(n)
	}
	return n
}

// Reallocate resizes b (from this pool) to size bytes, keeping its
// contents up to the smaller size. Within b's size class, and when
// shrinking to at least half of b's block, it returns b itself: a shrink
// moves nothing. (Readers such as arrow-go's Parquet decoders grow a
// buffer by doubling and shrink it to the bytes used when they hand it
// over; moving it would allocate a block of a smaller class, copy, and,
// while the larger one is still held, push the pool past its peak so
// that cached blocks are given back and every batch misses again.)
func (p *Pool) Reallocate(size int, b []byte) []byte {
	if size < 0 {
		panic(fmt.Sprintf("exec: Pool.Reallocate(%d): negative size", size))
	}
	p.mu.Lock()
	blk := p.live[unsafe.Pointer(unsafe.SliceData(b))]
	p.mu.Unlock()
	if blk != nil && blk.used && (classOf(size) == blk.class || (size <= len(b) && 2*size >= classSize(blk.class))) {
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
	if blk == nil || !blk.used {
		p.mu.Unlock()
		p.base.Free(b)
		return
	}
	blk.used = false
	sz := int64(classSize(blk.class))
	p.stats.InUse -= sz
	p.stats.Frees++
	if sz > p.maxCached {
		delete(p.live, key)
		evict = append(evict, blk)
	} else {
		if p.stats.Cached+sz > p.maxCached {
			p.flushHotLocked()
		}
		for p.stats.Cached+sz > p.maxCached {
			old := p.lru.next
			p.dropCachedLocked(old)
			p.stats.Evictions++
			evict = append(evict, old)
		}
		p.parkLocked(blk)
	}
	p.mu.Unlock()
	if evict != nil {
		p.giveBack(evict)
	}
}

// Trim gives every cached block back to the base allocator and returns
// how many bytes that was, as CuPy's free_all_blocks does. Blocks in use
// are not affected.
func (p *Pool) Trim() int64 {
	p.mu.Lock()
	p.flushHotLocked()
	var all []*block
	for p.lru.next != &p.lru {
		b := p.lru.next
		p.dropCachedLocked(b)
		all = append(all, b)
	}
	p.mu.Unlock()
	return p.giveBack(all)
}

// expire is the idle check: it gives back the blocks cached since before
// the previous check (unused for at least the idle timeout) and re-arms
// the timer while anything stays cached.
func (p *Pool) expire() {
	var old []*block
	p.mu.Lock()
	p.flushHotLocked()
	p.epoch++
	for b := p.lru.next; b != &p.lru && b.epoch+2 <= p.epoch; b = p.lru.next {
		p.dropCachedLocked(b)
		p.stats.Expired++
		old = append(old, b)
	}
	if p.lru.next != &p.lru {
		p.timer = p.clock.AfterFunc(p.idle, p.expire)
	} else {
		p.timer = nil
	}
	p.mu.Unlock()
	p.giveBack(old)
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
// newest end of the LRU list, and arms the idle check if none is armed.
// Called with p.mu held.
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
	b.epoch = p.epoch
	p.stats.Cached += int64(classSize(b.class))
	if p.timer == nil && p.idle > 0 {
		p.timer = p.clock.AfterFunc(p.idle, p.expire)
	}
}

// parkLocked caches b, freed just now, as the hot block, putting the
// one it displaces on the lists, and arms the idle check if none is
// armed. Called with p.mu held.
func (p *Pool) parkLocked(b *block) {
	p.flushHotLocked()
	b.epoch = p.epoch
	p.hot = b
	p.stats.Cached += int64(classSize(b.class))
	if p.timer == nil && p.idle > 0 {
		p.timer = p.clock.AfterFunc(p.idle, p.expire)
	}
}

// flushHotLocked puts the hot block, if any, on the lists as the newest
// cached block, with the epoch it was freed in. Called with p.mu held.
func (p *Pool) flushHotLocked() {
	b := p.hot
	if b == nil {
		return
	}
	p.hot = nil
	p.stats.Cached -= int64(classSize(b.class))
	epoch := b.epoch
	p.linkCached(b)
	b.epoch = epoch
}

// dropCachedLocked takes cached block b off the cache for the base
// allocator. Called with p.mu held.
func (p *Pool) dropCachedLocked(b *block) {
	p.unlinkCached(b)
	delete(p.live, unsafe.Pointer(unsafe.SliceData(b.mem)))
}

// unlinkCached takes b off both lists. Called with p.mu held.
func (p *Pool) unlinkCached(b *block) {
	if b.prevC != nil {
		b.prevC.nextC = b.nextC
	} else {
		p.free[b.class] = b.nextC
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
