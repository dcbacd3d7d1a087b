// This file implements the device interface a kernel launches through:
// the CPU device is built in; a GPU backend registers its devices (exec/
// cuda does, where a GPU is present), and the default device is the last
// registered one, or the CPU.

package kernel

import (
	"context"
	"sync"
)

// Device runs kernels and holds memory for their arguments. The CPU
// device (CPU) runs the Go functions themselves; a GPU device loads the
// kernel's PTX. Implementations must be safe for concurrent use.
type Device interface {
	// Name says which device: "cpu", "cuda:0".
	Name() string
	// Launch runs kernel k with cfg (already checked: dimensions within
	// limits, Device this device) and args (checked against k's
	// parameters: see Arg). It returns when the kernel has finished, with
	// a *LaunchError when a thread failed, or when ctx is done.
	Launch(ctx context.Context, k *Kernel, cfg Config, args []Arg) error
	// BlockSize returns the threads per block that ForAll uses for k
	// with sharedBytes of dynamic shared memory (on a GPU, from its
	// occupancy).
	BlockSize(k *Kernel, sharedBytes int) int
	// Alloc returns zeroed memory for n elements of type t on the device.
	Alloc(t Type, n int) (Buffer, error)
	// CopyIn copies the host slice src ([]T of dst's type and length)
	// into dst.
	CopyIn(dst Buffer, src any) error
	// CopyOut copies src into the host slice dst ([]T of src's type and
	// length).
	CopyOut(dst any, src Buffer) error
}

// Buffer is memory of a device holding the elements of one array.
type Buffer interface {
	Device() Device
	Type() Type
	Len() int
	// Free gives the memory back; later uses are errors.
	Free() error
}

// Stream orders launches and copies on a device. Reserved: every launch
// of this release is synchronous, and a Config's Stream must be nil or
// belong to the Config's device.
type Stream interface {
	Device() Device
}

// Arg is one launch argument as a Device receives it, already checked
// against its parameter.
type Arg struct {
	Param *Param
	// Value is a scalar converted to the parameter's Go type, or a host
	// slice []T of the parameter's element type (len == cap) for a slice
	// given from the host; nil for a slice given as a Buffer.
	Value any
	// Buffer is device memory given for a slice parameter (a device
	// array), nil otherwise.
	Buffer Buffer
	// Len is the number of elements of a slice argument.
	Len int
}

var devices struct {
	sync.Mutex
	list []Device
}

// Register adds a device to those launches may use; the last one
// registered becomes the default (see DefaultDevice). A GPU backend calls
// it for each device it finds. Safe for concurrent use.
func Register(d Device) {
	devices.Lock()
	defer devices.Unlock()
	devices.list = append(devices.list, d)
}

// Devices returns the CPU device followed by the registered devices.
func Devices() []Device {
	devices.Lock()
	defer devices.Unlock()
	return append([]Device{CPU()}, devices.list...)
}

// DefaultDevice returns the device a launch uses when its Config names
// none: the last registered device, or the CPU when none is.
func DefaultDevice() Device {
	devices.Lock()
	defer devices.Unlock()
	if n := len(devices.list); n > 0 {
		return devices.list[n-1]
	}
	return CPU()
}
