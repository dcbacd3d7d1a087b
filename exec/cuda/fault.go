// Faults: a kernel fault that breaks the device context (illegal or
// misaligned address, illegal instruction, launch failure and their kin)
// makes the backend unusable; every later call says so, naming the first
// fault, instead of passing the driver's repeated error along.

package cuda

import (
	"errors"
	"fmt"
	"strings"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// ErrDeviceFault is wrapped by every error of a backend whose device
// context a fault has broken (see FaultError).
var ErrDeviceFault = errors.New("cuda: the device context is broken by a fault")

// FaultError says that a fault broke the device context: the driver
// fails every call in it for the rest of the process, so the backend
// refuses all work. It wraps ErrDeviceFault and the driver's first
// *drv.Error with a sticky code (drv.Result.Sticky).
type FaultError struct {
	// Device is the backend's name, "cuda:0".
	Device string
	// Err is the first driver error that reported the fault.
	Err *drv.Error
	// During says what the backend was doing when the fault surfaced,
	// such as "running kernels k0_map_exp"; empty when unknown.
	During string
	// PTX is the module of the kernels that were running, when known.
	// A fault surfaces at the next synchronization, so these are the
	// kernels of the evaluation that saw it, usually the culprits.
	PTX string
}

// Error names the device, the first fault and what was running.
func (e *FaultError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is unusable: %v", e.Device, e.Err)
	if e.During != "" {
		fmt.Fprintf(&b, " (while %s)", e.During)
	}
	b.WriteString(" broke its context for the rest of the process; restart the process to use the GPU again")
	return b.String()
}

// Unwrap returns ErrDeviceFault and the driver's error.
func (e *FaultError) Unwrap() []error { return []error{ErrDeviceFault, e.Err} }

// faultedError is the error of the call that met the fault: its own
// error, then what the fault means.
type faultedError struct {
	err error
	f   *FaultError
}

func (e *faultedError) Error() string {
	during := ""
	if e.f.During != "" {
		during = ", met while " + e.f.During + ","
	}
	return e.err.Error() + "; " + e.f.Device + " is unusable from now on: the fault" + during +
		" breaks the device context for the rest of the process"
}

func (e *faultedError) Unwrap() []error { return []error{e.err, e.f} }

// Fault returns the fault that broke the device context, or nil while the
// backend works. Once set it stays. Safe for concurrent use.
func (b *Backend) Fault() *FaultError {
	if f := b.fault.Load(); f != nil {
		return f
	}
	e := b.ctx.Fault()
	if e == nil {
		return nil
	}
	b.fault.CompareAndSwap(nil, &FaultError{Device: b.Name(), Err: e})
	return b.fault.Load()
}

// usable returns the backend's fault, or nil when there is none.
func (b *Backend) usable() error {
	if f := b.Fault(); f != nil {
		return f
	}
	return nil
}

// faulted returns err unchanged unless the device context is broken by a
// fault, which err may be, or follow from: then the fault is recorded,
// with what the backend was doing (during) and the module text of the
// kernels involved (ptx, may be empty) when it is the first to report
// it, and err comes back saying that the device is now unusable.
func (b *Backend) faulted(err error, during, ptx string) error {
	if err == nil {
		return nil
	}
	e := b.ctx.Fault()
	if e == nil {
		return err
	}
	f := &FaultError{Device: b.Name(), Err: e, During: during, PTX: ptx}
	for {
		old := b.fault.Load()
		if old != nil && (old.During != "" || old.Err != e) {
			f = old // the first report with what was running stays
			break
		}
		if b.fault.CompareAndSwap(old, f) {
			break
		}
	}
	if errors.Is(err, ErrDeviceFault) {
		return err
	}
	return &faultedError{err: err, f: f}
}
