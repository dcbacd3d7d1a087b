// This file implements LaunchError, the error of a kernel that failed
// while running: which kernel, block and thread, the source line where it
// is known, and what happened.

package kernel

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
)

// LaunchError is the error of a launch whose kernel failed while running:
// a panic in a thread on the CPU (an index out of range, a division by
// zero, ...), a barrier or warp operation that cannot complete, or a
// failed bounds check on a GPU.
type LaunchError struct {
	Kernel string
	Block  Dim3   // the block of the failing thread
	Thread Dim3   // the failing thread within its block
	Pos    string // "file.go:line" of the failure where known
	Msg    string
	// Panic is the value a CPU thread panicked with, nil otherwise.
	Panic any
}

// Error returns "kernel K: block (x,y,z) thread (x,y,z) at file.go:12: msg".
func (e *LaunchError) Error() string {
	at := ""
	if e.Pos != "" {
		at = " at " + e.Pos
	}
	return fmt.Sprintf("kernel %s: block %v thread %v%s: %s", e.Kernel, e.Block, e.Thread, at, e.Msg)
}

// Unwrap returns the panic value when it is an error.
func (e *LaunchError) Unwrap() error {
	err, _ := e.Panic.(error)
	return err
}

// kernelPkg is the prefix of this package's function names.
const kernelPkg = "github.com/fuseflow/fuseflow/kernel."

// panicSite returns "file.go:line" of the innermost frame of the
// panicking goroutine outside the runtime and this package: the kernel's
// line that panicked (or called the intrinsic that did). It must be
// called from the deferred function that recovers.
func panicSite() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.Function != "" && !strings.HasPrefix(f.Function, "runtime.") && !strings.HasPrefix(f.Function, kernelPkg) {
			return baseName(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}

// panicError returns the LaunchError of thread s panicking with p at pos.
func (r *launchRun) panicError(s *thread, p any, pos string) *LaunchError {
	msg := ""
	if err, ok := p.(error); ok {
		msg = err.Error()
	} else {
		msg = fmt.Sprint(p)
	}
	return &LaunchError{Kernel: r.k.Name(), Block: s.bid, Thread: s.tid, Pos: pos, Msg: "panic: " + msg, Panic: p}
}
