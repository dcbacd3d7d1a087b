// Sticky faults: the result codes after which the driver keeps failing
// every call in the context for the rest of the process, and the record of
// the first such fault per device.

package cuda

import "errors"

// stickyResults are the codes whose description in the driver API says
// that the process is left in an inconsistent state, that any further
// CUDA work returns the same error, and that the process must be
// terminated and relaunched to use CUDA again (or, for
// CUDA_ERROR_ASSERT, that the context cannot be used anymore). Launch
// errors that are reported before a kernel runs, such as
// CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701) or
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (720), are not among them.
var stickyResults = map[Result]bool{
	226: true, // CUDA_ERROR_CONTAINED
	700: true, // CUDA_ERROR_ILLEGAL_ADDRESS
	702: true, // CUDA_ERROR_LAUNCH_TIMEOUT
	710: true, // CUDA_ERROR_ASSERT
	714: true, // CUDA_ERROR_HARDWARE_STACK_ERROR
	715: true, // CUDA_ERROR_ILLEGAL_INSTRUCTION
	716: true, // CUDA_ERROR_MISALIGNED_ADDRESS
	717: true, // CUDA_ERROR_INVALID_ADDRESS_SPACE
	718: true, // CUDA_ERROR_INVALID_PC
	719: true, // CUDA_ERROR_LAUNCH_FAILED
	721: true, // CUDA_ERROR_TENSOR_MEMORY_LEAK
	810: true, // CUDA_ERROR_MPS_CLIENT_TERMINATED
	911: true, // CUDA_ERROR_EXTERNAL_DEVICE
}

// Sticky reports whether r is a fault that breaks the context for the
// rest of the process: an illegal, misaligned or out-of-space address, an
// illegal instruction, a hardware stack error, an invalid program
// counter, an unspecified launch failure, a launch timeout, a device-side
// assert, and their kin. After one, every later call in the context
// returns an error, and only a new process can use the device again.
func (r Result) Sticky() bool { return stickyResults[r] }

// IsSticky reports whether err is, or wraps, an *Error whose code is
// Sticky.
func IsSticky(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code.Sticky()
}

// note records e as the device's fault when its code is sticky and no
// fault was recorded before, and returns e.
func (c *Context) note(e *Error) *Error {
	if e.Code.Sticky() {
		c.d.faults.LoadOrStore(c.dev, e)
	}
	return e
}

// Fault returns the first sticky error (see Result.Sticky) that a call
// on the device's primary context returned in this process, through this
// Context or another one retained on the same device, or nil. Once set it
// stays: the driver fails every later call in the context. Safe for
// concurrent use.
func (c *Context) Fault() *Error {
	if e, ok := c.d.faults.Load(c.dev); ok {
		return e.(*Error)
	}
	return nil
}

// ClearFault forgets the fault recorded for device h. A real driver's
// fault lasts as long as the process, so this is for test drivers that
// can recover (the fake driver of the tests).
func (d *Driver) ClearFault(h DeviceHandle) { d.faults.Delete(h) }
