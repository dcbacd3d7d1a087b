// Device and page-locked host memory: allocation, registration, async
// copies, memsets and the free/total query.

package cuda

import (
	"unsafe"

	"github.com/ebitengine/purego"
)

// DevicePtr is a CUdeviceptr, an address in device memory.
type DevicePtr uint64

// Stream is a CUstream; the zero Stream is the context's default stream.
type Stream uintptr

// HostAllocFlags are cuMemHostAlloc flags.
type HostAllocFlags uint32

// Flags of MemHostAlloc.
const (
	HostAllocPortable      HostAllocFlags = 1
	HostAllocDeviceMap     HostAllocFlags = 2
	HostAllocWriteCombined HostAllocFlags = 4
)

// HostRegisterFlags are cuMemHostRegister flags.
type HostRegisterFlags uint32

// Flags of MemHostRegister.
const (
	HostRegisterPortable  HostRegisterFlags = 1
	HostRegisterDeviceMap HostRegisterFlags = 2
	HostRegisterIOMemory  HostRegisterFlags = 4
	HostRegisterReadOnly  HostRegisterFlags = 8
)

// MemAlloc allocates n bytes of device memory (cuMemAlloc_v2). Out of
// memory is an *Error that IsOutOfMemory recognizes. The caller owns the
// memory and frees it with MemFree.
func (c *Context) MemAlloc(n uint64) (DevicePtr, error) {
	return callCtxOut[DevicePtr](c, fnMemAlloc, []uintptr{uintptr(n)}, "%d", n)
}

// MemFree frees device memory from MemAlloc (cuMemFree_v2).
func (c *Context) MemFree(p DevicePtr) error {
	if r, at := c.callCtx(fnMemFree, uintptr(p)); r != ResultSuccess {
		return c.failed(r, at, fnMemFree, "%#x", uint64(p))
	}
	return nil
}

// MemGetInfo returns the free and total device memory in bytes
// (cuMemGetInfo_v2).
func (c *Context) MemGetInfo() (free, total uint64, err error) {
	if err := c.enter(); err != nil {
		return 0, 0, err
	}
	defer c.exit()
	var info [2]uint64
	r, _, _ := purego.SyscallN(c.d.fn[fnMemGetInfo], uintptr(unsafe.Pointer(&info[0])), uintptr(unsafe.Pointer(&info[1])))
	if r := Result(int32(r)); r != ResultSuccess {
		return 0, 0, c.newError(r, fnMemGetInfo, "")
	}
	return info[0], info[1], nil
}

// MemHostAlloc allocates n bytes of page-locked host memory that the
// device reaches by DMA (cuMemHostAlloc). The memory is C memory, not Go
// memory: the caller owns it, views it with unsafe.Slice, and frees it with
// MemFreeHost.
func (c *Context) MemHostAlloc(n uint64, flags HostAllocFlags) (unsafe.Pointer, error) {
	return callCtxOut[unsafe.Pointer](c, fnMemHostAlloc, []uintptr{uintptr(n), uintptr(flags)}, "%d, %#x", n, uint32(flags))
}

// MemFreeHost frees memory from MemHostAlloc (cuMemFreeHost).
func (c *Context) MemFreeHost(p unsafe.Pointer) error {
	if r, at := c.callCtx(fnMemFreeHost, uintptr(p)); r != ResultSuccess {
		return c.failed(r, at, fnMemFreeHost, "%p", p)
	}
	return nil
}

// MemHostRegister page-locks n bytes of existing host memory at p
// (cuMemHostRegister_v2). The memory must stay allocated and, if it is Go
// memory, reachable and pinned (runtime.Pinner) until MemHostUnregister.
func (c *Context) MemHostRegister(p unsafe.Pointer, n uint64, flags HostRegisterFlags) error {
	if r, at := c.callCtx(fnMemHostRegister, uintptr(p), uintptr(n), uintptr(flags)); r != ResultSuccess {
		return c.failed(r, at, fnMemHostRegister, "%p, %d, %#x", p, n, uint32(flags))
	}
	return nil
}

// MemHostUnregister undoes MemHostRegister (cuMemHostUnregister).
func (c *Context) MemHostUnregister(p unsafe.Pointer) error {
	if r, at := c.callCtx(fnMemHostUnregister, uintptr(p)); r != ResultSuccess {
		return c.failed(r, at, fnMemHostUnregister, "%p", p)
	}
	return nil
}

// MemcpyHtoDAsync copies n bytes from host memory at src to the device at
// dst on stream s (cuMemcpyHtoDAsync_v2). From page-locked memory the copy
// is asynchronous and src must stay valid until the stream reaches it. From
// ordinary (pageable) memory, Go memory included, the driver stages the
// data before returning, so src need only be valid during the call.
func (c *Context) MemcpyHtoDAsync(dst DevicePtr, src unsafe.Pointer, n uint64, s Stream) error {
	if err := c.enter(); err != nil {
		return err
	}
	defer c.exit()
	r, _, _ := purego.SyscallN(c.d.fn[fnMemcpyHtoDAsync], uintptr(dst), uintptr(src), uintptr(n), uintptr(s))
	if r := Result(int32(r)); r != ResultSuccess {
		return c.errorf(r, fnMemcpyHtoDAsync, "%#x, %p, %d, stream %#x", uint64(dst), src, n, uintptr(s))
	}
	return nil
}

// MemcpyDtoHAsync copies n bytes from the device at src to host memory at
// dst on stream s (cuMemcpyDtoHAsync_v2). Into page-locked memory the copy
// is asynchronous: read dst only after synchronizing the stream. Into
// pageable memory, Go memory included, the call returns when the copy is
// done.
func (c *Context) MemcpyDtoHAsync(dst unsafe.Pointer, src DevicePtr, n uint64, s Stream) error {
	if err := c.enter(); err != nil {
		return err
	}
	defer c.exit()
	r, _, _ := purego.SyscallN(c.d.fn[fnMemcpyDtoHAsync], uintptr(dst), uintptr(src), uintptr(n), uintptr(s))
	if r := Result(int32(r)); r != ResultSuccess {
		return c.errorf(r, fnMemcpyDtoHAsync, "%p, %#x, %d, stream %#x", dst, uint64(src), n, uintptr(s))
	}
	return nil
}

// MemcpyDtoDAsync copies n bytes between device buffers on stream s
// (cuMemcpyDtoDAsync_v2).
func (c *Context) MemcpyDtoDAsync(dst, src DevicePtr, n uint64, s Stream) error {
	if r, at := c.callCtx(fnMemcpyDtoDAsync, uintptr(dst), uintptr(src), uintptr(n), uintptr(s)); r != ResultSuccess {
		return c.failed(r, at, fnMemcpyDtoDAsync, "%#x, %#x, %d, stream %#x", uint64(dst), uint64(src), n, uintptr(s))
	}
	return nil
}

// MemsetD32Async sets count 32-bit words at dst to v on stream s
// (cuMemsetD32Async); dst must be 4-byte aligned.
func (c *Context) MemsetD32Async(dst DevicePtr, v uint32, count uint64, s Stream) error {
	if r, at := c.callCtx(fnMemsetD32Async, uintptr(dst), uintptr(v), uintptr(count), uintptr(s)); r != ResultSuccess {
		return c.failed(r, at, fnMemsetD32Async, "%#x, %#x, %d, stream %#x", uint64(dst), v, count, uintptr(s))
	}
	return nil
}

// MemsetD8Async sets count bytes at dst to v on stream s
// (cuMemsetD8Async).
func (c *Context) MemsetD8Async(dst DevicePtr, v uint8, count uint64, s Stream) error {
	if r, at := c.callCtx(fnMemsetD8Async, uintptr(dst), uintptr(v), uintptr(count), uintptr(s)); r != ResultSuccess {
		return c.failed(r, at, fnMemsetD8Async, "%#x, %#x, %d, stream %#x", uint64(dst), v, count, uintptr(s))
	}
	return nil
}
