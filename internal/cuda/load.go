// Loading the driver: dlopen of libcuda.so.1 (or the path in
// FUSEFLOW_LIBCUDA), symbol resolution, cuInit, and the process-wide driver.

package cuda

import (
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/fuseflow/fuseflow/internal/config"
)

// LibraryEnv names the environment variable that overrides the path of the
// driver library Load opens.
const LibraryEnv = config.LibCUDA

// DefaultLibrary is the driver library Load opens when LibraryEnv is unset.
const DefaultLibrary = "libcuda.so.1"

// Driver is a loaded and initialized CUDA driver library. It holds the
// resolved entry points and, per device, the first sticky fault a call
// returned (see Context.Fault). It is safe for concurrent use and never
// unloaded.
type Driver struct {
	path string
	lib  uintptr
	fn   [numFns]uintptr
	// faults maps a DeviceHandle to the *Error of its first sticky fault.
	faults sync.Map
}

var (
	loadOnce   sync.Once
	loadDriver *Driver
	loadErr    error
)

// Load returns the process-wide driver, loading it on first use from the
// path in FUSEFLOW_LIBCUDA or else libcuda.so.1 (found by the dynamic
// loader's search). The outcome, success or error, is decided once per
// process. A missing library or symbol gives an error wrapping ErrNoDriver;
// a failing cuInit (no device, driver mismatch) gives an *Error. It never
// panics and is safe for concurrent use.
func Load() (*Driver, error) {
	loadOnce.Do(func() {
		path := config.Value(LibraryEnv)
		if path == "" {
			path = DefaultLibrary
		}
		loadDriver, loadErr = Open(path)
	})
	return loadDriver, loadErr
}

// Open loads the driver library at path (a file name the dynamic loader
// searches for, or a path), resolves every function this package binds and
// calls cuInit(0). Errors are as for Load. Opening the same library twice
// shares the loaded library.
func Open(path string) (*Driver, error) {
	// RTLD_LOCAL: the driver's symbols must not interpose on libraries
	// loaded after it.
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("%w: dlopen %s: %v", ErrNoDriver, path, err)
	}
	d := &Driver{path: path, lib: lib}
	for i, name := range fnNames {
		sym, err := purego.Dlsym(lib, name)
		if err != nil {
			purego.Dlclose(lib)
			return nil, fmt.Errorf("%w: %s lacks %s (driver too old?): %v", ErrNoDriver, path, name, err)
		}
		d.fn[i] = sym
	}
	if r := d.call(fnInit, 0); r != ResultSuccess {
		err := d.newError(r, fnInit, "0")
		purego.Dlclose(lib)
		return nil, err
	}
	return d, nil
}

// Path returns the library path the driver was opened from.
func (d *Driver) Path() string { return d.path }

// call calls driver function fn with arguments that hold no Go pointers
// and returns its CUresult. It allocates nothing (see frame).
func (d *Driver) call(fn int, args ...uintptr) Result {
	fr := framePool.Get().(*frame)
	n := copy(fr.a[:], args)
	r, _, _ := purego.SyscallN(d.fn[fn], fr.a[:n]...)
	framePool.Put(fr)
	return Result(int32(r))
}

// callOut calls driver function fn with a pointer to a fresh T, where the
// function writes its result, followed by args (which hold no Go
// pointers), and returns that T. A failure is fn's *Error, its arguments
// described by format and fmtArgs, and the zero T.
func callOut[T any](d *Driver, fn int, args []uintptr, format string, fmtArgs ...any) (T, error) {
	out, call, unpin := pinnedOut[T](args)
	defer unpin()
	if r := d.call(fn, call...); r != ResultSuccess {
		var zero T
		return zero, d.errorf(r, fn, format, fmtArgs...)
	}
	return *out, nil
}

// pinnedOut returns a fresh T, pinned so that a driver call may write it
// through a uintptr, and the arguments of that call: its address, then
// args. unpin releases it once the call is done.
func pinnedOut[T any](args []uintptr) (out *T, call []uintptr, unpin func()) {
	out = new(T)
	pin := new(runtime.Pinner)
	pin.Pin(out)
	return out, append([]uintptr{uintptr(unsafe.Pointer(out))}, args...), pin.Unpin
}

// Version returns the driver's CUDA version as the driver encodes it,
// 1000*major + 10*minor (12080 is CUDA 12.8).
func (d *Driver) Version() (int, error) {
	v, err := callOut[int32](d, fnDriverGetVersion, nil, "")
	return int(v), err
}

// VersionString formats a driver version such as 12080 as "12.8".
func VersionString(v int) string {
	return strconv.Itoa(v/1000) + "." + strconv.Itoa(v%1000/10)
}

// ErrorName returns the driver's name for code (cuGetErrorName), such as
// CUDA_ERROR_OUT_OF_MEMORY. It fails with an *Error for a code the driver
// does not recognize; Result.String names it from the package's table.
func (d *Driver) ErrorName(code Result) (string, error) { return d.errorText(fnGetErrorName, code) }

// ErrorString returns the driver's description of code
// (cuGetErrorString). It fails with an *Error for a code the driver does not
// recognize; Result.Description describes it from the package's table.
func (d *Driver) ErrorString(code Result) (string, error) {
	return d.errorText(fnGetErrorString, code)
}

// errorText returns the string that fn, cuGetErrorName or
// cuGetErrorString, gives for code.
func (d *Driver) errorText(fn int, code Result) (string, error) {
	var p *byte
	r, _, _ := purego.SyscallN(d.fn[fn], uintptr(code), uintptr(unsafe.Pointer(&p)))
	if r := Result(int32(r)); r != ResultSuccess {
		return "", &Error{Code: r, Name: r.String(), Description: r.Description(),
			Call: fnNames[fn] + "(" + strconv.Itoa(int(code)) + ")"}
	}
	return goString(p), nil
}

// goString copies the NUL-terminated C string at p, which the driver owns,
// into a Go string. A nil p gives "".
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// cString returns s as a NUL-terminated byte slice for passing to C.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}
