// Tests of the device memory pool: size classes, reuse, stream-ordered
// reuse, statistics, Trim, and the out-of-memory retry and error.

package cuda

import (
	"testing"

	"github.com/stretchr/testify/require"

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
	used0 := f.memUsed()
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
	require.Equal(t, uint64(4096), f.memUsed()-used0, "no second driver allocation")
	c.Release()

	require.Equal(t, int64(4096), p.Trim())
	st = p.Stats()
	require.Equal(t, int64(0), st.Cached)
	require.Equal(t, int64(4096), st.Peak)
	require.Equal(t, used0, f.memUsed(), "Trim gives the memory back to the driver")
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
	base := f.memUsed()
	f.setLimit(base + 8<<20)

	// Fill the cache with a 4 MiB block, then ask for 6 MiB: the first
	// driver allocation fails, the cache is released, the retry succeeds.
	a, err := p.Alloc(4<<20, 0)
	require.NoError(t, err)
	a.Release()
	require.Equal(t, int64(4<<20), p.Stats().Cached)
	big, err := p.Alloc(6<<20, 0)
	require.NoError(t, err)
	st := p.Stats()
	require.Equal(t, int64(1), st.Retries)
	require.Equal(t, int64(0), st.Cached)
	require.Equal(t, int64(4<<20), st.Trimmed)

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
