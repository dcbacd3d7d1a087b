// Tests of the caching allocator: size classes, reuse without zeroing,
// the bound on cached bytes, Trim back to a checked allocator, room made
// for new classes, idle expiry on a fake clock, and concurrent use.

package exec_test

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/clock"
)

func TestPoolReuse(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(-1))
	a := p.Allocate(1000)
	require.Len(t, a, 1000)
	a[0] = 42
	p.Free(a)
	b := p.Allocate(1001) // same class (1024): the cached block comes back
	require.Len(t, b, 1001)
	require.Equal(t, &a[0], &b[0], "a block of the same class is reused")
	require.Equal(t, byte(42), b[0], "reused memory is not cleared")
	c := p.Allocate(5000)
	s := p.Stats()
	require.Equal(t, int64(1), s.Hits)
	require.Equal(t, int64(2), s.Misses)
	require.Equal(t, int64(1024+5120), s.InUse)
	p.Free(b)
	p.Free(c)
	s = p.Stats()
	require.Zero(t, s.InUse)
	require.Equal(t, int64(1024+5120), s.Cached)
	require.Equal(t, int64(1024+5120), s.PeakInUse)
	require.NotZero(t, checked.CurrentAlloc(), "cached blocks are still held")
	require.Equal(t, int64(1024+5120), p.Trim())
	require.Zero(t, checked.CurrentAlloc())
	require.Zero(t, p.Stats().Cached)
}

func TestPoolClasses(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(0))
	for _, n := range []int{0, 1, 63, 64, 65, 255, 256, 257, 320, 321, 1 << 20, 1<<20 + 1, 3 << 20} {
		b := p.Allocate(n)
		if len(b) != n {
			t.Errorf("Allocate(%d) got:%v want:%v bytes", n, len(b), n)
		}
		in := p.Stats().InUse
		if in < int64(n) || in > int64(n)+int64(n)/4+64 {
			t.Errorf("Allocate(%d) got:%v bytes held want:%d..%d", n, in, n, n+n/4+64)
		}
		p.Free(b)
	}
	require.Zero(t, p.Stats().Cached, "a pool bounded at 0 caches nothing")
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolBound(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(3000))
	bs := [][]byte{p.Allocate(1024), p.Allocate(1024), p.Allocate(1024), p.Allocate(4096)}
	for _, b := range bs {
		p.Free(b)
	}
	s := p.Stats()
	require.Equal(t, int64(2048), s.Cached, "the oldest block is evicted, the too-large one not cached")
	require.Equal(t, int64(1), s.Evictions)
	require.LessOrEqual(t, s.Cached, s.MaxCached)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolReallocate(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked)
	b := p.Allocate(100)
	for i := range b {
		b[i] = byte(i)
	}
	b2 := p.Reallocate(120, b)
	require.Equal(t, &b[0], &b2[0], "growth within the class keeps the block")
	b3 := p.Reallocate(10000, b2)
	require.Len(t, b3, 10000)
	for i := range 100 {
		if b3[i] != byte(i) {
			t.Fatalf("byte %d got:%v want:%v", i, b3[i], i)
		}
	}
	p.Free(b3)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolTensors(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked)
	x, err := exec.NewTensorUninit(p, graph.Float32, graph.Shape{4, 5})
	require.NoError(t, err)
	for i := range exec.Elems[float32](x) {
		exec.Elems[float32](x)[i] = 7
	}
	x.Release()
	y, err := exec.NewTensor(p, graph.Float32, graph.Shape{5, 4})
	require.NoError(t, err)
	for i, v := range exec.Elems[float32](y)[:20] {
		if v != 0 {
			t.Fatalf("NewTensor from a pool: element %d got:%v want:0", i, v)
		}
	}
	y.Release()
	_, err = exec.NewTensorUninit(exec.LimitAllocator(p, 1024), graph.Float64, graph.Shape{1000})
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolConcurrent(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(64<<10))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				n := 64 + (i*37+g*101)%8000
				b := p.Allocate(n)
				b[0], b[n-1] = byte(g), byte(g)
				if b[0] != byte(g) || b[n-1] != byte(g) {
					t.Errorf("block shared between goroutines")
					return
				}
				p.Free(b)
			}
		})
	}
	wg.Wait()
	s := p.Stats()
	require.Zero(t, s.InUse)
	require.Equal(t, int64(2000), s.Frees)
	require.LessOrEqual(t, s.Cached, int64(64<<10))
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

// A miss makes room by giving back idle blocks of other classes, least
// recently freed first, so that the pool never holds much more than its
// peak use: after releasing everything, a large request of a new class
// does not pile new memory on top of the idle cache.
func TestPoolDisplacesIdleBlocks(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(-1), exec.PoolIdleTimeout(0))
	const mib = 1 << 20
	var bs [][]byte
	for i := range 4 {
		bs = append(bs, p.Allocate((i+1)*mib)) // classes of 1, 2, 3 and 4 MiB
	}
	for _, b := range bs {
		p.Free(b)
	}
	s := p.Stats()
	require.EqualValues(t, 10*mib, s.Cached)
	require.EqualValues(t, 10*mib, s.PeakInUse)

	// A hit gives back nothing; neither does a small miss within the
	// peak plus an eighth.
	p.Free(p.Allocate(3 * mib))
	small := p.Allocate(64)
	require.Zero(t, p.Stats().Displaced)
	p.Free(small)

	// 7 MiB of a new class: 10 cached + 7 is over 10 + 10/8, so the
	// oldest blocks (1, 2 and 4 MiB: the 3 MiB one was reused) go first.
	big := p.Allocate(7 * mib)
	s = p.Stats()
	require.EqualValues(t, 3, s.Displaced)
	require.EqualValues(t, 3*mib+64, s.Cached, "the most recently used blocks stay")
	require.LessOrEqual(t, s.InUse+s.Cached, s.PeakInUse+s.PeakInUse/8)
	require.EqualValues(t, 10*mib+64, checked.CurrentAlloc(), "held: the 7 MiB block and the cache")

	// A new peak: room is made relative to it.
	p.Free(big)
	huge := p.Allocate(20 * mib)
	s = p.Stats()
	require.EqualValues(t, 20*mib, s.PeakInUse)
	require.LessOrEqual(t, s.InUse+s.Cached, int64(20*mib+20*mib/8))
	p.Free(huge)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

// Cached blocks go back to the base allocator after sitting unused for
// between one and two idle timeouts; a block reused meanwhile stays. The
// timer is armed only while something is cached.
func TestPoolIdleExpiry(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	clk := clock.NewFake()
	p := exec.NewPool(checked, exec.PoolIdleTimeout(10*time.Second), exec.PoolClock(clk))
	require.Zero(t, clk.Pending(), "an empty pool arms no timer")

	a, b := p.Allocate(1000), p.Allocate(5000)
	p.Free(a)
	p.Free(b)
	require.Equal(t, 1, clk.Pending())
	clk.Advance(10 * time.Second)
	require.EqualValues(t, 1024+5120, p.Stats().Cached, "not yet idle for a whole period")

	clk.Advance(5 * time.Second)
	p.Free(p.Allocate(1000)) // reused at t=15s: cached again, fresh
	clk.Advance(5 * time.Second)
	s := p.Stats()
	require.EqualValues(t, 1024, s.Cached, "the 5 KiB block, idle since t=0, expired at t=20s")
	require.EqualValues(t, 1, s.Expired)
	require.EqualValues(t, 1024, checked.CurrentAlloc())

	clk.Advance(10 * time.Second)
	s = p.Stats()
	require.Zero(t, s.Cached, "the reused block, idle since t=15s, expired at t=30s")
	require.EqualValues(t, 2, s.Expired)
	require.Zero(t, checked.CurrentAlloc())
	require.Zero(t, clk.Pending(), "with nothing cached the timer is not re-armed")

	// Blocks in use never expire.
	c := p.Allocate(100)
	clk.Advance(time.Minute)
	require.EqualValues(t, 128, p.Stats().InUse)
	p.Free(c)
	clk.Advance(20 * time.Second)
	require.Zero(t, checked.CurrentAlloc())

	// Trim empties the cache at once; the pending check then disarms.
	p.Free(p.Allocate(100))
	require.EqualValues(t, 128, p.Trim())
	clk.Advance(10 * time.Second)
	require.Zero(t, clk.Pending())
}

// With the real clock the idle check is a runtime timer, not a goroutine:
// a pool holding cached blocks adds none.
func TestPoolIdleNoGoroutine(t *testing.T) {
	same := false
	for range 5 { // another test's timer may fire meanwhile: try again
		before := runtime.NumGoroutine()
		p := exec.NewPool(memory.NewGoAllocator(), exec.PoolIdleTimeout(time.Hour))
		for range 100 {
			p.Free(p.Allocate(4096))
		}
		same = runtime.NumGoroutine() == before
		p.Trim()
		if same {
			break
		}
	}
	require.True(t, same, "the pool started goroutines")
}

// Giving back blocks tells the pool's release hook how many bytes went;
// pools over a Go allocator return large releases to the operating
// system.
func TestPoolReleaseHook(t *testing.T) {
	require.True(t, exec.ReleasesToOS(exec.NewPool(memory.NewGoAllocator())))
	require.True(t, exec.ReleasesToOS(exec.NewPool(nil)))
	require.False(t, exec.ReleasesToOS(exec.NewPool(memory.NewCheckedAllocator(memory.NewGoAllocator()))))

	var released []int64
	clk := clock.NewFake()
	p := exec.NewPool(memory.NewGoAllocator(), exec.PoolMaxCached(4096), exec.PoolClock(clk),
		exec.PoolIdleTimeout(time.Second), exec.PoolReleased(func(n int64) { released = append(released, n) }))
	a, b := p.Allocate(4096), p.Allocate(4096)
	p.Free(a)
	p.Free(b)                // over the bound: a goes back
	p.Free(p.Allocate(8192)) // b makes room for it; then it is too large to cache
	p.Free(p.Allocate(1000))
	clk.Advance(2 * time.Second) // the 1 KiB block expires
	require.Equal(t, []int64{4096, 4096, 8192, 1024}, released, "evicted, displaced, too large to cache, expired")
	s := p.Stats()
	require.Equal(t, [3]int64{1, 1, 1}, [3]int64{s.Evictions, s.Displaced, s.Expired})
	require.Zero(t, p.Trim())
	require.Len(t, released, 4, "nothing to release, no call")
}

// TestPoolShrinkInPlace: a shrink to at least half of the block keeps
// the block (no copy, no allocation); a smaller one moves to a block of
// its own class.
func TestPoolShrinkInPlace(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked)
	b := p.Allocate(1 << 20)
	b[1000] = 7
	half := p.Reallocate(1<<19, b)
	require.Same(t, &b[0], &half[0], "a shrink to half keeps the block")
	require.Len(t, half, 1<<19)
	require.Equal(t, byte(7), half[1000])
	st := p.Stats()
	require.Equal(t, int64(1), st.Misses)
	require.Equal(t, int64(1<<20), st.InUse, "the block is still in use whole")
	small := p.Reallocate(1000, half)
	require.NotSame(t, &b[0], &small[0], "a shrink below half moves")
	require.Equal(t, int64(0), p.Stats().Cached-(1<<20), "the large block is cached")
	p.Free(small)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

// TestPoolDecoderBatches replays what arrow-go's Parquet column readers
// do batch after batch (buffers grown by doubling, shrunk to the bytes
// used when a batch is handed over, freed when it is released, the next
// batch's buffers allocated before the last one is released): once two
// batches have been read (two are live at once) every allocation comes
// from the cache and nothing is given back.
func TestPoolDecoderBatches(t *testing.T) {
	p := exec.NewPool(nil)
	defer p.Trim()
	const cols, rows = 3, 1 << 17
	var prev [][]byte
	var warm exec.PoolStats
	for batch := range 6 {
		var cur [][]byte
		for c := range cols {
			size := rows * (4 << (c % 2)) // 4- and 8-byte columns
			buf := p.Allocate(1024)
			for cp := 1024; cp < size; {
				cp *= 2
				buf = p.Reallocate(cp, buf) // growth by doubling
			}
			used := size*3/4 + 64*c // what the batch filled
			cur = append(cur, p.Reallocate(used, buf))
			valid := p.Allocate(rows / 8)
			cur = append(cur, valid)
		}
		for _, b := range prev { // the previous batch is released
			p.Free(b)
		}
		prev = cur
		if batch == 1 {
			warm = p.Stats()
		}
	}
	for _, b := range prev {
		p.Free(b)
	}
	st := p.Stats()
	if st.Misses != warm.Misses || st.Displaced != warm.Displaced {
		t.Errorf("after two batches got:%d misses, %d displaced want:0, 0 (%+v)", st.Misses-warm.Misses, st.Displaced-warm.Displaced, st)
	}
}

// TestPoolHoldsOnlyItsBlocks: the pool keeps track of exactly the blocks
// it holds, handed out or cached; every way a block goes back to the
// base allocator (displaced, too large to cache, expired, trimmed) lets
// go of it.
func TestPoolHoldsOnlyItsBlocks(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	clk := clock.NewFake()
	p := exec.NewPool(checked, exec.PoolMaxCached(2048), exec.PoolIdleTimeout(10*time.Second), exec.PoolClock(clk))
	a, b := p.Allocate(1000), p.Allocate(1000)
	p.Free(a)
	p.Free(b)
	require.Equal(t, 2, p.Held(), "two cached")
	p.Free(p.Allocate(1000))
	require.Equal(t, 2, p.Held(), "a hit holds no new block")
	c := p.Allocate(2000) // another class: both cached blocks are displaced
	require.EqualValues(t, 2, p.Stats().Displaced)
	require.Equal(t, 1, p.Held())
	p.Free(c)
	d := p.Allocate(5000) // displaces c's block; too large to cache when freed
	p.Free(d)
	require.Equal(t, 0, p.Held())
	p.Free(p.Allocate(100))
	require.Equal(t, 1, p.Held())
	clk.Advance(20 * time.Second)
	require.EqualValues(t, 1, p.Stats().Expired)
	require.Equal(t, 0, p.Held())
	p.Free(p.Allocate(100))
	p.Trim()
	require.Equal(t, 0, p.Held())
	require.Zero(t, checked.CurrentAlloc())
}
