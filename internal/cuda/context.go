// Contexts: the device's primary context and how a call makes it current on
// the OS thread it runs on.

package cuda

import (
	"runtime"
	"strconv"
	"sync"

	"github.com/ebitengine/purego"
)

// Context is a retained primary context of one device. The driver keeps a
// current context per OS thread while goroutines move between threads, so
// every method that needs a context pins its goroutine to its thread
// (runtime.LockOSThread), makes the context current there (cuCtxSetCurrent,
// a cheap thread-local store in the driver), makes its call and unpins.
// No dedicated driver goroutine is involved: a hand-off to another thread
// would cost microseconds per call, while this costs one extra driver call.
//
// All methods are safe for concurrent use from many goroutines, except
// Release, which must come after every other use.
type Context struct {
	d   *Driver
	dev DeviceHandle
	h   uintptr // CUcontext
}

// RetainPrimaryContext retains the primary context of device h
// (cuDevicePrimaryCtxRetain). Release it when done.
func (d *Driver) RetainPrimaryContext(h DeviceHandle) (*Context, error) {
	ctx, err := callOut[uintptr](d, fnDevicePrimaryCtxRetain, []uintptr{uintptr(h)}, "device %d", h)
	if err != nil {
		return nil, err
	}
	return &Context{d: d, dev: h, h: ctx}, nil
}

// Driver returns the driver the context belongs to.
func (c *Context) Driver() *Driver { return c.d }

// Device returns the handle of the context's device.
func (c *Context) Device() DeviceHandle { return c.dev }

// Handle returns the raw CUcontext.
func (c *Context) Handle() uintptr { return c.h }

// Release releases the primary context (cuDevicePrimaryCtxRelease_v2). The
// Context must not be used afterwards.
func (c *Context) Release() error {
	if r := c.d.call(fnDevicePrimaryCtxRelease, uintptr(c.dev)); r != ResultSuccess {
		return c.newError(r, fnDevicePrimaryCtxRelease, "device "+strconv.Itoa(int(c.dev)))
	}
	c.h = 0
	return nil
}

// frame is scratch space for the arguments of one driver call.
// purego.SyscallN is variadic and marked go:uintptrescapes, so a fresh
// argument list escapes to the heap on every call; handing it a pooled
// frame's slice instead keeps calls that carry no Go pointers free of
// allocations.
type frame struct{ a [16]uintptr }

var framePool = sync.Pool{New: func() any { return new(frame) }}

// callCtx locks the goroutine to its thread, makes the context current,
// calls driver function fn with args, and unlocks. args must hold no Go
// pointers except into memory pinned for the duration of the call. It
// returns the result and the function that produced it: fn, or
// fnCtxSetCurrent when the context could not be made current. It allocates
// nothing.
func (c *Context) callCtx(fn int, args ...uintptr) (Result, int) {
	fr := framePool.Get().(*frame)
	runtime.LockOSThread()
	fr.a[0] = c.h
	r, _, _ := purego.SyscallN(c.d.fn[fnCtxSetCurrent], fr.a[:1]...)
	at := fnCtxSetCurrent
	if Result(int32(r)) == ResultSuccess {
		n := copy(fr.a[:], args)
		r, _, _ = purego.SyscallN(c.d.fn[fn], fr.a[:n]...)
		at = fn
	}
	runtime.UnlockOSThread()
	framePool.Put(fr)
	return Result(int32(r)), at
}

// callCtxOut is callOut for a call made in c (see callCtx): a failure to
// make c current is that call's *Error.
func callCtxOut[T any](c *Context, fn int, args []uintptr, format string, fmtArgs ...any) (T, error) {
	out, call, unpin := pinnedOut[T](args)
	defer unpin()
	if r, at := c.callCtx(fn, call...); r != ResultSuccess {
		var zero T
		return zero, c.failed(r, at, fn, format, fmtArgs...)
	}
	return *out, nil
}

// failed builds the error of a callCtx that returned r from function at
// while calling fn; format and args describe fn's arguments.
func (c *Context) failed(r Result, at, fn int, format string, args ...any) error {
	if at != fn {
		return c.newError(r, at, "")
	}
	return c.errorf(r, fn, format, args...)
}

// newError is Driver.newError for a call made in c, recording a sticky
// fault (see Fault).
func (c *Context) newError(code Result, fn int, args string) *Error {
	return c.note(c.d.newError(code, fn, args))
}

// errorf is Driver.errorf for a call made in c, recording a sticky fault.
func (c *Context) errorf(code Result, fn int, format string, args ...any) *Error {
	return c.note(c.d.errorf(code, fn, format, args...))
}

// enter locks the goroutine to its OS thread and makes the context current
// there. On success the caller must call exit.
func (c *Context) enter() error {
	runtime.LockOSThread()
	r, _, _ := purego.SyscallN(c.d.fn[fnCtxSetCurrent], c.h)
	if r := Result(int32(r)); r != ResultSuccess {
		runtime.UnlockOSThread()
		return c.newError(r, fnCtxSetCurrent, "")
	}
	return nil
}

// exit undoes enter.
func (c *Context) exit() { runtime.UnlockOSThread() }

// Do runs f with the calling goroutine locked to its OS thread and the
// context current there, for callers that make raw driver calls of their
// own. f must not unlock the thread.
func (c *Context) Do(f func() error) error {
	if err := c.enter(); err != nil {
		return err
	}
	defer c.exit()
	return f()
}

// Synchronize waits for all work in the context to finish
// (cuCtxSynchronize); errors of earlier asynchronous work surface here.
func (c *Context) Synchronize() error {
	if r, at := c.callCtx(fnCtxSynchronize); r != ResultSuccess {
		return c.failed(r, at, fnCtxSynchronize, "")
	}
	return nil
}
