// Tests of the device memory pool: size classes, reuse, stream-ordered
// reuse, statistics, Trim, room made for new classes, idle expiry on a
// fake clock, and the out-of-memory retry and error.

package cuda

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/internal/clock"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

func TestSizeClass(t *testing.T) {
	for _, c := range []struct{ n, want int64 }{
		{1, 512}, {512, 512}, {513, 1024}, {3000, 4096}, {1 << 20, 1 << 20},
		{1<<20 + 1, 2 << 20}, {5 << 20, 6 << 20}, {6 << 20, 6 << 20},
	} {
		if got := SizeClass(c.n); got != c.want {
			t.Errorf("SizeClass(%d) got:%v want:%v", c.n, got, c.want)
		}
	}
}

func TestPoolReuseAndStats(t *testing.T) {
	f, b := fakeBackend(t, Options{})
	p := b.Pool()
	used0 := f.MemUsed()
	a, err := p.Alloc(3000, 0)
	require.NoError(t, err)
	require.Equal(t, 3000, a.Len())
	st := p.Stats()
	require.Equal(t, PoolStats{Live: 4096, Peak: 4096, Allocs: 1, DriverAllocs: 1}, st)
	ptr := a.Ptr()
	a.Retain()
	a.Release()
	require.Equal(t, int64(4096), p.Stats().Live, "a retained buffer stays live")
	a.Release()
	st = p.Stats()
	require.Equal(t, int64(0), st.Live)
	require.Equal(t, int64(4096), st.Cached)

	c, err := p.Alloc(2049, 0) // same class
	require.NoError(t, err)
	require.Equal(t, ptr, c.Ptr(), "a freed block serves its class again")
	st = p.Stats()
	require.Equal(t, int64(1), st.Hits)
	require.Equal(t, int64(1), st.DriverAllocs)
	require.Equal(t, uint64(4096), f.MemUsed()-used0, "no second driver allocation")
	c.Release()

	require.Equal(t, int64(4096), p.Trim())
	st = p.Stats()
	require.Equal(t, int64(0), st.Cached)
	require.Equal(t, int64(4096), st.Peak)
	require.Equal(t, used0, f.MemUsed(), "Trim gives the memory back to the driver")
}

func TestPoolStreamOrderedReuse(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	p := b.Pool()
	s1, s2 := drv.Stream(0x1000), drv.Stream(0x2000) // only used as keys here
	a, err := p.Alloc(100, s1)
	require.NoError(t, err)
	ptr := a.Ptr()
	a.stream.Store(uintptr(s1))
	a.Release()

	other, err := p.Alloc(100, s2)
	require.NoError(t, err)
	require.NotEqual(t, ptr, other.Ptr(), "a block pending on s1 must not go to s2")
	same, err := p.Alloc(100, s1)
	require.NoError(t, err)
	require.Equal(t, ptr, same.Ptr(), "s1 reuses its own block at once")
	same.stream.Store(uintptr(s1))
	same.Release()

	p.StreamDone(s1)
	again, err := p.Alloc(100, s2)
	require.NoError(t, err)
	require.Equal(t, ptr, again.Ptr(), "after StreamDone any stream may reuse it")
	other.Release()
	again.Release()
}

func TestPoolOutOfMemory(t *testing.T) {
	f, b := fakeBackend(t, Options{})
	p := b.Pool()
	base := f.MemUsed()
	f.SetMemLimit(base + 8<<20)

	// Cache 6 MiB (a 4 MiB and a 2 MiB block, live together: the peak),
	// then let the device fill up so that only those 6 MiB are left: a
	// 512 KiB request (within the peak plus an eighth, so nothing is
	// displaced) fails in the driver, the cache is released, the retry
	// succeeds.
	a, err := p.Alloc(4<<20, 0)
	require.NoError(t, err)
	a2, err := p.Alloc(2<<20, 0)
	require.NoError(t, err)
	a.Release()
	a2.Release()
	require.Equal(t, int64(6<<20), p.Stats().Cached)
	f.SetMemLimit(base + 6<<20)
	big, err := p.Alloc(512<<10, 0)
	require.NoError(t, err)
	st := p.Stats()
	require.Equal(t, int64(1), st.Retries)
	require.Equal(t, int64(0), st.Displaced)
	require.Equal(t, int64(0), st.Cached)
	require.Equal(t, int64(6<<20), st.Trimmed)
	f.SetMemLimit(base + 8<<20)

	// More than the device has: a clear error naming the request and the
	// free memory, wrapping the driver's out-of-memory error.
	_, err = p.Alloc(64<<20, 0)
	require.Error(t, err)
	require.True(t, drv.IsOutOfMemory(err), "got:%v", err)
	msg := err.Error()
	for _, want := range []string{"cannot allocate 67108864 bytes", "bytes free of", "CUDA_ERROR_OUT_OF_MEMORY"} {
		require.Contains(t, msg, want)
	}
	require.Equal(t, int64(2), p.Stats().Retries)

	// Work after it succeeds.
	big.Release()
	small, err := p.Alloc(1<<20, 0)
	require.NoError(t, err)
	small.Release()
}

func TestPoolRejectsEmptyRequest(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	_, err := b.Pool().Alloc(0, 0)
	require.ErrorContains(t, err, "allocation of 0 bytes")
}

// A request the cache cannot serve first frees idle blocks of other
// classes, least recently returned first, so that the pool's footprint
// stays within its peak use plus an eighth; blocks pending on a stream
// stay.
func TestPoolDisplacesIdleBlocks(t *testing.T) {
	f, b := fakeBackend(t, Options{})
	p := NewPool(b.Context(), PoolIdleTimeout(0))
	defer p.close()
	base := f.MemUsed()
	const mib = 1 << 20
	var bufs []*Buffer
	for _, n := range []int64{2 * mib, 4 * mib, 6 * mib, 8 * mib} {
		buf, err := p.Alloc(n, 0)
		require.NoError(t, err)
		bufs = append(bufs, buf)
	}
	pendingOn := drv.Stream(0x1000)
	bufs[0].stream.Store(uintptr(pendingOn)) // the oldest stays pending
	for _, buf := range bufs {
		buf.Release()
	}
	require.Equal(t, int64(20*mib), p.Stats().Cached)

	// 12 MiB: 20 cached + 12 is over 20 + 20/8 = 22.5; the 4 and 6 MiB
	// blocks go (the older 2 MiB one is pending), leaving 2 + 8 + 12 =
	// 22 MiB.
	big, err := p.Alloc(12*mib, 0)
	require.NoError(t, err)
	st := p.Stats()
	require.Equal(t, int64(2), st.Displaced)
	require.Equal(t, int64(10*mib), st.Cached)
	require.Equal(t, uint64(22*mib), f.MemUsed()-base, "the driver holds the peak plus at most an eighth")
	big.Release()

	// A hit displaces nothing.
	again, err := p.Alloc(12*mib, 0)
	require.NoError(t, err)
	require.Equal(t, int64(2), p.Stats().Displaced)
	again.Release()
	p.StreamDone(pendingOn)
	require.Equal(t, int64(22*mib), p.Trim())
	require.Equal(t, base, f.MemUsed())
}

// Cached blocks go back to the driver after sitting unused for between one
// and two idle timeouts (on a fake clock); pending blocks wait for their
// stream; Close stops the timer.
func TestPoolIdleExpiry(t *testing.T) {
	f, b := fakeBackend(t, Options{})
	clk := clock.NewFake()
	p := NewPool(b.Context(), PoolIdleTimeout(10*time.Second), poolClock(clk))
	base := f.MemUsed()
	require.Zero(t, clk.Pending(), "an empty pool arms no timer")

	x, err := p.Alloc(1000, 0)
	require.NoError(t, err)
	y, err := p.Alloc(5000, 0)
	require.NoError(t, err)
	s := drv.Stream(0x2000)
	y.stream.Store(uintptr(s))
	x.Release()
	y.Release()
	require.Equal(t, 1, clk.Pending())
	clk.Advance(10 * time.Second)
	require.Equal(t, int64(1024+8192), p.Stats().Cached, "not yet idle for a whole period")
	clk.Advance(10 * time.Second)
	st := p.Stats()
	require.Equal(t, int64(8192), st.Cached, "the free block expired; the pending one waits")
	require.Equal(t, int64(1), st.Expired)
	require.Equal(t, uint64(8192), f.MemUsed()-base)

	p.StreamDone(s)
	clk.Advance(10 * time.Second)
	st = p.Stats()
	require.Zero(t, st.Cached)
	require.Equal(t, int64(2), st.Expired)
	require.Equal(t, base, f.MemUsed())
	require.Zero(t, clk.Pending(), "with nothing cached the timer is not re-armed")

	// A block reused within the timeout stays; Close stops the timer.
	z, err := p.Alloc(100, 0)
	require.NoError(t, err)
	z.Release()
	clk.Advance(15 * time.Second)
	z, err = p.Alloc(100, 0)
	require.NoError(t, err)
	require.Equal(t, int64(1), p.Stats().Hits)
	z.Release()
	require.Equal(t, 1, clk.Pending())
	require.Zero(t, p.close())
	require.Zero(t, clk.Pending())
	require.Equal(t, base, f.MemUsed())
}
