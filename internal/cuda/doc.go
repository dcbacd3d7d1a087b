// Package cuda binds the CUDA driver API at run time, without cgo and
// without a CUDA toolkit: libcuda.so.1 is opened with dlopen (through
// purego) the first time Load is called, so one binary runs with and without
// a GPU. FUSEFLOW_LIBCUDA overrides the library path.
//
// Every driver call goes through this package and returns a Go error: an
// *Error that names the call and its arguments, the CUDA error name and the
// driver's description, for example
//
//	cuMemAlloc_v2(1073741824): CUDA_ERROR_OUT_OF_MEMORY: out of memory
//
// and, for a PTX module the JIT rejected, the JIT's error log. A machine
// without the driver gets an error wrapping ErrNoDriver, never a panic.
//
// # Contexts and threads
//
// The driver keeps a current context per OS thread, while goroutines move
// between threads. A Context (a retained primary context) therefore makes
// itself current on every call that needs it: the method locks its
// goroutine to the thread, calls cuCtxSetCurrent, makes its own call and
// unlocks. That costs one cheap driver call and no thread hand-off, so any
// number of goroutines may use one Context at once.
//
// # Launches
//
// Launch takes its parameters in an Args built once per kernel signature
// and refilled before each launch; packing them allocates nothing (see Args
// for why the storage is safe to hand to the driver).
//
// # Faults
//
// Some errors, such as CUDA_ERROR_ILLEGAL_ADDRESS from a kernel that read
// outside its buffers, break the context for the rest of the process: the
// driver then fails every call in it (Result.Sticky lists them). The
// first such error a call returns is recorded for its device, and
// Context.Fault reports it, so that callers can refuse further work with
// an error naming the original fault.
//
// Handles (DevicePtr, Stream, Event, Module, Function) are plain values of
// the driver's handles; the caller owns what it creates and destroys it
// with the matching method.
package cuda
