// Tests of the pinned host allocator: arrow buffers built with it (under
// a checked allocator), its size-class cache, Reallocate and the pinned
// registry.

package cuda

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

func TestPinnedAllocatorArrow(t *testing.T) {
	f, b := fakeBackend(t, Options{})
	pa := b.HostAllocator()
	mem := checkedAlloc(t, pa)
	hostBefore := f.HostAllocs()

	bld := array.NewFloat32Builder(mem)
	for i := range 10000 {
		bld.Append(float32(i) / 2)
	}
	arr := bld.NewFloat32Array()
	bld.Release()
	vals := arr.Data().Buffers()[1].Bytes()
	require.True(t, IsPinned(unsafe.Pointer(&vals[0]), len(vals)), "arrow values are in pinned memory")
	require.Zero(t, uintptr(unsafe.Pointer(&vals[0]))%64, "64-byte aligned")
	require.Equal(t, float32(4999.5), arr.Value(9999))
	require.Positive(t, f.HostAllocs()-hostBefore, "cuMemHostAlloc was called")
	st := pa.Stats()
	require.Positive(t, st.Live)
	require.Zero(t, st.Fallbacks)
	arr.Release()

	st = pa.Stats()
	require.Zero(t, st.Live)
	require.Positive(t, st.Cached)
	allocs := st.HostAllocs

	// The same sizes again come from the cache.
	bld = array.NewFloat32Builder(mem)
	bld.AppendValues(make([]float32, 10000), nil)
	arr = bld.NewFloat32Array()
	bld.Release()
	require.Equal(t, allocs, pa.Stats().HostAllocs, "cached blocks are reused")
	arr.Release()
	require.Positive(t, pa.Trim())
	require.Zero(t, pa.Stats().Cached)
}

func TestPinnedReallocateKeepsContents(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	mem := checkedAlloc(t, b.HostAllocator())
	buf := mem.Allocate(100)
	for i := range buf {
		buf[i] = byte(i)
	}
	same := mem.Reallocate(200, buf) // fits the 4 KiB class
	require.Equal(t, unsafe.SliceData(buf), unsafe.SliceData(same))
	grown := mem.Reallocate(10000, same)
	require.Len(t, grown, 10000)
	for i := range 100 {
		if grown[i] != byte(i) {
			t.Fatalf("byte %d got:%v want:%v", i, grown[i], byte(i))
		}
	}
	mem.Free(grown)
	require.Empty(t, mem.Allocate(0))
}

func TestPinnedRetriesAfterFailure(t *testing.T) {
	f, b := fakeBackend(t, Options{})
	pa := b.HostAllocator()
	before := pa.Stats().HostAllocs
	f.FailNext("cuMemHostAlloc", 2)
	buf := pa.Allocate(1000)
	require.True(t, IsPinned(unsafe.Pointer(&buf[0]), len(buf)), "the retry pinned it")
	require.Equal(t, before+1, pa.Stats().HostAllocs)
	pa.Free(buf)
}

func TestPinnedFallsBackToGoMemory(t *testing.T) {
	needFake(t)
	d, err := drv.Load()
	require.NoError(t, err)
	ctx, err := d.RetainPrimaryContext(0)
	require.NoError(t, err)
	require.NoError(t, ctx.Release()) // every later call fails
	pa := NewPinnedAllocator(ctx)
	mem := checkedAlloc(t, pa)
	buf := mem.Allocate(1000)
	require.Len(t, buf, 1000)
	require.Zero(t, uintptr(unsafe.Pointer(&buf[0]))%64, "64-byte aligned")
	require.False(t, IsPinned(unsafe.Pointer(&buf[0]), len(buf)))
	require.Equal(t, int64(1), pa.Stats().Fallbacks)
	mem.Free(buf)
}

func TestPinnedFreeOfForeignMemoryPanics(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	require.Panics(t, func() { b.HostAllocator().Free(make([]byte, 10)) })
}

func TestIsPinned(t *testing.T) {
	mem := make([]byte, 0x3000)
	base := unsafe.Pointer(&mem[0])
	for _, c := range []struct {
		lo, n, p, size int
		want           bool
	}{
		{0x1000, 0x1000, 0x1000, 0x1000, true},
		{0x1000, 0x1000, 0x1800, 0x800, true},
		{0x1000, 0x1000, 0x1800, 0x801, false},
		{0x1000, 0x1000, 0x0fff, 2, false},
	} {
		registerPinned(uintptr(base)+uintptr(c.lo), c.n)
		got := IsPinned(unsafe.Add(base, c.p), c.size)
		unregisterPinned(uintptr(base) + uintptr(c.lo))
		if got != c.want {
			t.Errorf("IsPinned(+%#x, %d) in [+%#x,+%#x) got:%v want:%v", c.p, c.size, c.lo, c.lo+c.n, got, c.want)
		}
	}
	require.False(t, IsPinned(nil, 1))
}
