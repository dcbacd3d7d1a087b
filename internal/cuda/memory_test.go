// Tests of device and host memory: allocation, copies, memsets, out of
// memory, page-locked allocation and registration.

package cuda

import (
	"encoding/binary"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func TestMemoryRoundTrip(t *testing.T) {
	f, ctx := fakeContext(t)
	const n = 1000
	before := f.MemUsed()
	a, err := ctx.MemAlloc(4 * n)
	require.NoError(t, err)
	b, err := ctx.MemAlloc(4 * n)
	require.NoError(t, err)
	require.Equal(t, before+8*n, f.MemUsed())
	free, total, err := ctx.MemGetInfo()
	require.NoError(t, err)
	require.Equal(t, uint64(1<<30), total)
	require.Equal(t, total-f.MemUsed(), free)

	src := make([]int32, n)
	for i := range src {
		src[i] = int32(i*7 - 300)
	}
	require.NoError(t, ctx.MemcpyHtoDAsync(a, hostPtr(src), 4*n, 0))
	require.NoError(t, ctx.MemcpyDtoDAsync(b, a, 4*n, 0))
	got := make([]int32, n)
	require.NoError(t, ctx.MemcpyDtoHAsync(hostPtr(got), b, 4*n, 0))
	require.NoError(t, ctx.Synchronize())
	require.Equal(t, src, got)

	require.NoError(t, ctx.MemsetD32Async(a, 0xdeadbeef, n, 0))
	require.NoError(t, ctx.MemsetD8Async(a, 0x11, 8, 0)) // the first two words
	require.NoError(t, ctx.MemcpyDtoHAsync(hostPtr(got), a, 4*n, 0))
	for i, v := range got {
		want := uint32(0xdeadbeef)
		if i < 2 {
			want = 0x11111111
		}
		if uint32(v) != want {
			t.Fatalf("word %d after memsets got:%#x want:%#x", i, uint32(v), want)
		}
	}

	require.NoError(t, ctx.MemFree(a))
	require.NoError(t, ctx.MemFree(b))
	require.Equal(t, before, f.MemUsed())

	err = ctx.MemFree(a) // already freed: the fake checks a magic word
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
}

func TestOutOfMemory(t *testing.T) {
	f, ctx := fakeContext(t)
	f.SetMemLimit(1 << 20)
	p, err := ctx.MemAlloc(1 << 19)
	require.NoError(t, err)
	_, err = ctx.MemAlloc(1 << 30)
	require.True(t, IsOutOfMemory(err), "got:%v", err)
	require.Equal(t, "cuMemAlloc_v2(1073741824): CUDA_ERROR_OUT_OF_MEMORY: out of memory", err.Error())
	_, err = ctx.MemAlloc(1<<19 + 1)
	require.True(t, IsOutOfMemory(err), "got:%v", err)
	require.NoError(t, ctx.MemFree(p))
	// After the failure the device works again.
	p, err = ctx.MemAlloc(1 << 20)
	require.NoError(t, err)
	require.NoError(t, ctx.MemFree(p))
}

func TestHostMemory(t *testing.T) {
	f, ctx := fakeContext(t)
	live := f.HostAllocs()
	p, err := ctx.MemHostAlloc(4096, HostAllocPortable|HostAllocDeviceMap)
	require.NoError(t, err)
	require.NotNil(t, p)
	buf := unsafe.Slice((*byte)(p), 4096)
	for i := range buf {
		buf[i] = byte(i)
	}
	d, err := ctx.MemAlloc(4096)
	require.NoError(t, err)
	require.NoError(t, ctx.MemcpyHtoDAsync(d, p, 4096, 0))
	back := make([]byte, 4096)
	require.NoError(t, ctx.MemcpyDtoHAsync(hostPtr(back), d, 4096, 0))
	require.Equal(t, buf, back)
	require.NoError(t, ctx.MemFree(d))
	require.Equal(t, live+1, f.HostAllocs())
	require.NoError(t, ctx.MemFreeHost(p))
	require.Equal(t, live, f.HostAllocs())

	_, err = ctx.MemHostAlloc(16, HostAllocFlags(64))
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
	require.Contains(t, err.Error(), "cuMemHostAlloc(16, 0x40)")
}

func TestHostRegister(t *testing.T) {
	_, ctx := fakeContext(t)
	mem := make([]uint64, 512)
	var pin runtime.Pinner
	pin.Pin(&mem[0])
	defer pin.Unpin()
	p := hostPtr(mem)
	require.NoError(t, ctx.MemHostRegister(p, 4096, HostRegisterPortable))
	err := ctx.MemHostRegister(p, 4096, HostRegisterPortable)
	require.True(t, IsResult(err, Result(712)), "registering twice got:%v", err)
	require.Contains(t, err.Error(), "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED")

	d, err := ctx.MemAlloc(4096)
	require.NoError(t, err)
	require.NoError(t, ctx.MemsetD32Async(d, 7, 1024, 0))
	require.NoError(t, ctx.MemcpyDtoHAsync(p, d, 4096, 0))
	require.NoError(t, ctx.Synchronize())
	require.Equal(t, uint64(7)<<32|7, mem[0])
	require.Equal(t, uint32(7), binary.LittleEndian.Uint32(unsafe.Slice((*byte)(p), 4096)[4092:]))
	require.NoError(t, ctx.MemFree(d))

	require.NoError(t, ctx.MemHostUnregister(p))
	err = ctx.MemHostUnregister(p)
	require.True(t, IsResult(err, Result(713)), "unregistering twice got:%v", err)
}

func TestContextCurrentPerCall(t *testing.T) {
	f, ctx := fakeContext(t)
	done := make(chan error)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		// Clear the thread's current context behind the binding's back.
		if err := ctx.Do(func() error {
			if f.CurrentContext() != ctx.Handle() {
				t.Errorf("Do: current context got:%#x want:%#x", f.CurrentContext(), ctx.Handle())
			}
			if r := ctx.d.call(fnCtxSetCurrent, 0); r != ResultSuccess {
				t.Errorf("clearing the context: %v", r)
			}
			if r := ctx.d.call(fnCtxSynchronize); r != ResultInvalidContext {
				t.Errorf("without a current context got:%v want:%v", r, ResultInvalidContext)
			}
			return nil
		}); err != nil {
			done <- err
			return
		}
		// Every method makes the context current again itself.
		p, err := ctx.MemAlloc(64)
		if err == nil {
			err = ctx.MemFree(p)
		}
		done <- err
	}()
	require.NoError(t, <-done)

	f.FailNext("cuCtxSetCurrent", int32(ResultInvalidContext))
	err := ctx.Synchronize()
	require.True(t, IsResult(err, ResultInvalidContext), "got:%v", err)
	require.Contains(t, err.Error(), "cuCtxSetCurrent(): CUDA_ERROR_INVALID_CONTEXT")
}

// TestCopyOutsideAllocation checks that the fake rejects copies and
// memsets that reach past a live allocation or start in none, and that
// fresh device memory holds all ones.
func TestCopyOutsideAllocation(t *testing.T) {
	_, ctx := fakeContext(t)
	a, err := ctx.MemAlloc(64)
	require.NoError(t, err)
	defer func() { require.NoError(t, ctx.MemFree(a)) }()
	host := make([]byte, 64)
	require.NoError(t, ctx.MemcpyDtoHAsync(unsafe.Pointer(&host[0]), a, 64, 0))
	for i, v := range host {
		require.Equal(t, byte(0xff), v, "fresh byte %d", i)
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"htod past the end", ctx.MemcpyHtoDAsync(a+8, unsafe.Pointer(&host[0]), 64, 0)},
		{"dtoh past the end", ctx.MemcpyDtoHAsync(unsafe.Pointer(&host[0]), a+60, 8, 0)},
		{"dtod from before the start", ctx.MemcpyDtoDAsync(a, a-16, 16, 0)},
		{"memset past the end", ctx.MemsetD32Async(a+32, 0, 9, 0)},
	} {
		require.True(t, IsResult(c.err, ResultInvalidValue), "%s got:%v", c.name, c.err)
	}
	require.NoError(t, ctx.MemcpyHtoDAsync(a+56, unsafe.Pointer(&host[0]), 8, 0), "the last 8 bytes")
}
