// The caching device memory pool: size classes, stream-ordered reuse,
// statistics, Trim, idle blocks given back to make room for requests of
// other classes and after sitting unused, and the out-of-memory path
// (release the cache, retry once, then an error naming the request and the
// free memory).

package cuda

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"time"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/internal/clock"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// Size classes: requests up to smallLimit round up to a power of two of
// at least minClass bytes; larger ones round up to a multiple of bigStep.
const (
	minClass   = 512
	smallLimit = 1 << 20
	bigStep    = 2 << 20
)

// SizeClass returns the number of bytes the pool reserves for a request of
// n bytes: the next power of two of at least 512 bytes up to 1 MiB, and
// the next multiple of 2 MiB above that. Blocks of one class are
// interchangeable, so a freed block serves the next request of its class.
func SizeClass(n int64) int64 { return roundClass(n, minClass, smallLimit) }

// roundClass rounds a request of n bytes up to its size class: lo bytes
// at least, the next power of two up to small, and the next multiple of
// bigStep above that. The device pool and the pinned allocator differ
// only in lo and small.
func roundClass(n, lo, small int64) int64 {
	switch {
	case n <= lo:
		return lo
	case n <= small:
		return 1 << bits.Len64(uint64(n-1))
	default:
		return (n + bigStep - 1) / bigStep * bigStep
	}
}

// PoolStats are the counters of a Pool. Bytes are counted in size classes.
type PoolStats struct {
	// Live is the bytes of blocks handed out and not yet returned.
	Live int64
	// Cached is the bytes of returned blocks kept for reuse (including
	// blocks still in use by a running stream).
	Cached int64
	// Peak is the largest Live seen.
	Peak int64
	// Allocs counts requests; Hits those served from the cache; DriverAllocs
	// the cuMemAlloc calls; Retries the out-of-memory retries after
	// releasing the cache; Trimmed the bytes released by Trim and retries.
	Allocs, Hits, DriverAllocs, Retries int64
	Trimmed                             int64
	// Displaced counts cached blocks freed to make room for a request of
	// another class; Expired those freed after sitting unused for the
	// idle timeout.
	Displaced, Expired int64
}

// block is one device allocation of the pool.
type block struct {
	ptr   drv.DevicePtr
	class int64
	epoch uint64 // the pool's idle-check count when the block was returned
	seq   uint64 // order of return: the least recently returned go first
}

// PoolOption configures NewPool.
type PoolOption func(*Pool)

// PoolIdleTimeout makes a Pool free cached blocks that no request has
// reused for d (d <= 0: never; without the option,
// exec.DefaultPoolIdleTimeout), so that device memory the process no
// longer uses goes back to the driver for other processes. A block goes
// between d and 2d after it was returned: a timer checks every d while
// anything is cached, and is not armed otherwise.
func PoolIdleTimeout(d time.Duration) PoolOption {
	return func(p *Pool) { p.idle = max(d, 0) }
}

// poolClock makes a Pool schedule its idle checks on c (tests use a fake
// clock).
func poolClock(c clock.Clock) PoolOption { return func(p *Pool) { p.clock = c } }

// Pool is a caching allocator of device memory on one context. Returned
// blocks are kept per size class and handed out again without a driver
// call. Reuse is stream-ordered: a block returned while stream s may still
// use it is reused at once only by work on s (which runs after it); other
// streams get it after StreamDone(s) says s has finished.
//
// Cached blocks no stream is using go back to the driver: the least
// recently returned first, before a request the cache cannot serve would
// make the pool's footprint (Live + Cached) larger than its peak use so
// far (or than the use this request makes, when that is a new peak) plus
// an eighth, so that idle blocks of other classes make room instead of
// piling up beside new ones; when unused for the idle timeout
// (PoolIdleTimeout); all of them when the driver runs out of memory
// (then the request is retried once) and on Trim. It is safe for
// concurrent use.
type Pool struct {
	ctx *drv.Context
	// device names the backend's device ("cuda:0"), for Buffer.Device.
	device string
	idle   time.Duration
	clock  clock.Clock

	mu      sync.Mutex
	free    map[int64][]block
	pending map[drv.Stream]map[int64][]block
	stats   PoolStats
	closed  bool
	epoch   uint64      // idle checks so far
	seq     uint64      // blocks returned so far
	timer   clock.Timer // the pending idle check; nil when none is armed
}

// NewPool returns an empty pool allocating on ctx, configured by opts.
func NewPool(ctx *drv.Context, opts ...PoolOption) *Pool {
	p := &Pool{ctx: ctx, idle: exec.DefaultPoolIdleTimeout, clock: clock.Real(),
		free: map[int64][]block{}, pending: map[drv.Stream]map[int64][]block{}}
	for _, o := range opts {
		if o != nil {
			o(p)
		}
	}
	return p
}

// take pops a block of class c from list m, if any.
func take(m map[int64][]block, c int64) (block, bool) {
	l := m[c]
	if len(l) == 0 {
		return block{}, false
	}
	b := l[len(l)-1]
	m[c] = l[:len(l)-1]
	return b, true
}

// Alloc returns a buffer of n bytes (n > 0) for use on stream s, holding
// one reference. Its contents are undefined. When the driver is out of
// memory the pool frees its cache and retries once; if that fails too the
// error names n, the class, the free and total device memory and the
// pool's own holdings, and wraps the driver's error (see IsOutOfMemory).
func (p *Pool) Alloc(n int64, s drv.Stream) (*Buffer, error) {
	if n <= 0 {
		return nil, fmt.Errorf("cuda: pool: allocation of %d bytes", n)
	}
	c := SizeClass(n)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, fmt.Errorf("cuda: pool: allocation of %d bytes after Close", n)
	}
	p.stats.Allocs++
	b, ok := take(p.pending[s], c)
	if !ok {
		b, ok = take(p.free, c)
	}
	if ok {
		p.stats.Hits++
		p.stats.Cached -= c
		p.addLive(c)
		p.mu.Unlock()
		return newBuffer(p, b, n), nil
	}
	evict := p.makeRoomLocked(c)
	p.mu.Unlock()
	p.freeBlocks(evict)

	ptr, err := p.ctx.MemAlloc(uint64(c))
	if drv.IsOutOfMemory(err) {
		p.mu.Lock()
		p.stats.Retries++
		p.mu.Unlock()
		p.Trim()
		ptr, err = p.ctx.MemAlloc(uint64(c))
	}
	if err != nil {
		return nil, p.allocError(n, c, err)
	}
	p.mu.Lock()
	p.stats.DriverAllocs++
	p.addLive(c)
	p.mu.Unlock()
	return newBuffer(p, block{ptr: ptr, class: c}, n), nil
}

// makeRoomLocked takes the least recently returned free blocks off the
// cache until a new block of c bytes keeps the footprint (Live + Cached
// + c) within the peak use (including this request) plus an eighth, and
// returns them for freeBlocks. Blocks pending on a stream stay. Called
// with p.mu held.
func (p *Pool) makeRoomLocked(c int64) []block {
	bound := max(p.stats.Peak, p.stats.Live+c)
	bound += bound / 8
	if p.stats.Live+p.stats.Cached+c <= bound {
		return nil
	}
	var all []block
	for _, l := range p.free {
		all = append(all, l...)
	}
	slices.SortFunc(all, func(a, b block) int { return cmp.Compare(a.seq, b.seq) })
	n := 0
	for n < len(all) && p.stats.Live+p.stats.Cached+c > bound {
		p.stats.Cached -= all[n].class
		p.stats.Displaced++
		n++
	}
	evict := all[:n]
	gone := make(map[drv.DevicePtr]bool, n)
	for _, b := range evict {
		gone[b.ptr] = true
	}
	for cl, l := range p.free {
		l = slices.DeleteFunc(l, func(b block) bool { return gone[b.ptr] })
		if len(l) == 0 {
			delete(p.free, cl)
		} else {
			p.free[cl] = l
		}
	}
	return evict
}

// freeBlocks gives blocks back to the driver and returns their bytes.
// Called without p.mu.
func (p *Pool) freeBlocks(blocks []block) int64 {
	var n int64
	for _, b := range blocks {
		n += b.class
		// A failing free leaves the memory to the context's teardown;
		// there is nothing better to do with it.
		_ = p.ctx.MemFree(b.ptr)
	}
	return n
}

// allocError describes a failed allocation of n bytes (class c).
func (p *Pool) allocError(n, c int64, err error) error {
	st := p.Stats()
	free, total, qerr := p.ctx.MemGetInfo()
	if qerr != nil {
		return fmt.Errorf("cuda: cannot allocate %d bytes of device memory (a %d-byte block; pool holds %d live, %d cached): %w",
			n, c, st.Live, st.Cached, err)
	}
	return fmt.Errorf("cuda: cannot allocate %d bytes of device memory (a %d-byte block): %d bytes free of %d (pool holds %d live, %d cached): %w",
		n, c, free, total, st.Live, st.Cached, err)
}

// addLive adds c bytes to Live and updates Peak; p.mu is held.
func (p *Pool) addLive(c int64) {
	p.stats.Live += c
	p.stats.Peak = max(p.stats.Peak, p.stats.Live)
}

// put takes back a block that stream s may still be using (s == 0: no
// stream is).
func (p *Pool) put(b block, s drv.Stream) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stats.Live -= b.class
	if p.closed {
		// The context may be gone; the memory went with it.
		return
	}
	p.stats.Cached += b.class
	b.epoch, b.seq = p.epoch, p.seq
	p.seq++
	if p.timer == nil && p.idle > 0 {
		p.timer = p.clock.AfterFunc(p.idle, p.expire)
	}
	if s == 0 {
		p.free[b.class] = append(p.free[b.class], b)
		return
	}
	m := p.pending[s]
	if m == nil {
		m = map[int64][]block{}
		p.pending[s] = m
	}
	m[b.class] = append(m[b.class], b)
}

// StreamDone tells the pool that all work queued on s so far has
// finished, so the blocks returned on s may serve any stream.
func (p *Pool) StreamDone(s drv.Stream) {
	p.mu.Lock()
	defer p.mu.Unlock()
	moveClasses(p.free, p.pending[s])
}

// Trim frees every cached block no stream is using back to the driver and
// returns the bytes freed. Blocks still pending on a running stream stay.
func (p *Pool) Trim() int64 {
	p.mu.Lock()
	blocks := drainClasses(p.free)
	var n int64
	for _, b := range blocks {
		n += b.class
	}
	p.stats.Cached -= n
	p.stats.Trimmed += n
	p.mu.Unlock()
	p.freeBlocks(blocks)
	return n
}

// expire is the idle check: it frees the blocks no stream is using that
// were returned before the previous check (unused for at least the idle
// timeout), and re-arms the timer while anything stays cached.
func (p *Pool) expire() {
	var old []block
	p.mu.Lock()
	if p.closed {
		p.timer = nil
		p.mu.Unlock()
		return
	}
	p.epoch++
	for c, l := range p.free {
		l = slices.DeleteFunc(l, func(b block) bool {
			if b.epoch+2 > p.epoch {
				return false
			}
			old = append(old, b)
			p.stats.Cached -= b.class
			p.stats.Expired++
			return true
		})
		if len(l) == 0 {
			delete(p.free, c)
		} else {
			p.free[c] = l
		}
	}
	if p.stats.Cached > 0 {
		p.timer = p.clock.AfterFunc(p.idle, p.expire)
	} else {
		p.timer = nil
	}
	p.mu.Unlock()
	p.freeBlocks(old)
}

// Stats returns a snapshot of the pool's counters.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// close frees the cache (pending blocks included: the caller has
// synchronized every stream) and makes later returns drop their blocks.
// It reports the bytes still live.
func (p *Pool) close() int64 {
	p.mu.Lock()
	for s, l := range p.pending {
		moveClasses(p.free, l)
		delete(p.pending, s)
	}
	p.mu.Unlock()
	p.Trim()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	return p.stats.Live
}

// drainClasses empties free, lists of blocks by size class, and returns
// the blocks it held.
func drainClasses[C comparable, B any](free map[C][]B) []B {
	var out []B
	for _, l := range free {
		out = append(out, l...)
	}
	clear(free)
	return out
}

// moveClasses appends the lists of src, blocks by size class, to those of
// dst and empties src.
func moveClasses[C comparable, B any](dst, src map[C][]B) {
	for c, l := range src {
		dst[c] = append(dst[c], l...)
	}
	clear(src)
}
