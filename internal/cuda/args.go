// Args: reusable storage for the kernel parameters of cuLaunchKernel,
// packed without allocating per launch.

package cuda

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/fuseflow/fuseflow/internal/enum"
)

// ArgKind is the type of one kernel parameter.
type ArgKind uint8

// Kernel parameter kinds. Each occupies one 8-byte slot; 4-byte kinds use
// its low half (the driver reads as many bytes as the kernel declares).
const (
	ArgPtr ArgKind = iota // a DevicePtr (.u64)
	ArgI32
	ArgU32
	ArgF32
	ArgI64
	ArgU64
	ArgF64
)

var argKindNames = [...]string{ArgPtr: "ptr", ArgI32: "i32", ArgU32: "u32", ArgF32: "f32", ArgI64: "i64", ArgU64: "u64", ArgF64: "f64"}

// String returns the kind's short name, such as "f32".
func (k ArgKind) String() string {
	return enum.Numbered(argKindNames[:], k, "ArgKind")
}

// Args holds the parameters of one kernel signature: built once, refilled
// with Set* before each launch, and reused.
//
// cuLaunchKernel takes kernelParams, an array of pointers each pointing at
// one parameter value. Args keeps both in one Go-allocated []uint64: slots
// [0,n) hold the values and slots [n,2n) the addresses of those values. For
// a launch, Launch pins that one heap object with a runtime.Pinner
// (reusing the Pinner's storage, so nothing is allocated), rewrites the
// addresses from the pinned object, passes the address of the pointer
// half, and unpins after the call returns. This follows the cgo pointer
// rules: C receives Go memory that holds pointers only into pinned Go
// memory, and only for the duration of the call. The driver copies the
// parameter values during cuLaunchKernel, so an Args may be refilled as
// soon as Launch returns.
//
// An Args is not safe for concurrent use; give each goroutine its own.
// Setting a parameter of the wrong kind or index panics: the signature is
// fixed by the code that builds the Args.
type Args struct {
	kinds []ArgKind
	buf   []uint64
	pin   runtime.Pinner
}

// NewArgs returns the Args for a kernel whose parameters have the given
// kinds, in order, all set to zero.
func NewArgs(kinds ...ArgKind) *Args {
	for i, k := range kinds {
		if int(k) >= len(argKindNames) {
			panic(fmt.Sprintf("cuda: NewArgs: parameter %d has invalid kind %d", i, k))
		}
	}
	return &Args{kinds: append([]ArgKind(nil), kinds...), buf: make([]uint64, 2*len(kinds))}
}

// Len returns the number of parameters.
func (a *Args) Len() int { return len(a.kinds) }

// Kind returns the kind of parameter i.
func (a *Args) Kind(i int) ArgKind { return a.kinds[i] }

// Raw returns the 8-byte slot of parameter i.
func (a *Args) Raw(i int) uint64 { return a.buf[i] }

// set stores v in slot i after checking its kind.
func (a *Args) set(i int, k ArgKind, v uint64) {
	if a.kinds[i] != k {
		panic(fmt.Sprintf("cuda: Args: parameter %d is %v, set as %v", i, a.kinds[i], k))
	}
	a.buf[i] = v
}

// SetPtr sets parameter i, of kind ArgPtr, to p.
func (a *Args) SetPtr(i int, p DevicePtr) { a.set(i, ArgPtr, uint64(p)) }

// SetI32 sets parameter i, of kind ArgI32.
func (a *Args) SetI32(i int, v int32) { a.set(i, ArgI32, uint64(uint32(v))) }

// SetU32 sets parameter i, of kind ArgU32.
func (a *Args) SetU32(i int, v uint32) { a.set(i, ArgU32, uint64(v)) }

// SetF32 sets parameter i, of kind ArgF32.
func (a *Args) SetF32(i int, v float32) { a.set(i, ArgF32, uint64(math.Float32bits(v))) }

// SetI64 sets parameter i, of kind ArgI64.
func (a *Args) SetI64(i int, v int64) { a.set(i, ArgI64, uint64(v)) }

// SetU64 sets parameter i, of kind ArgU64.
func (a *Args) SetU64(i int, v uint64) { a.set(i, ArgU64, v) }

// SetF64 sets parameter i, of kind ArgF64.
func (a *Args) SetF64(i int, v float64) { a.set(i, ArgF64, math.Float64bits(v)) }

// pinParams pins the storage, writes the value addresses into the pointer
// half and returns the kernelParams array, or nil for no parameters. The
// caller must call unpin after the driver call.
func (a *Args) pinParams() unsafe.Pointer {
	n := len(a.kinds)
	if n == 0 {
		return nil
	}
	a.pin.Pin(&a.buf[0])
	for i := range n {
		a.buf[n+i] = uint64(uintptr(unsafe.Pointer(&a.buf[i])))
	}
	return unsafe.Pointer(&a.buf[n])
}

// unpin releases what pinParams pinned.
func (a *Args) unpin() {
	if len(a.kinds) > 0 {
		a.pin.Unpin()
	}
}
