// This file implements Array, a typed array in a device's memory: the
// counterpart of Numba's device arrays (cuda.to_device,
// cuda.device_array, cuda.device_array_like, copy_to_host).

package kernel

import "fmt"

// Array is an array of n elements of type T in a device's memory. Pass it
// for a slice parameter of a kernel launched on the same device. It is
// safe for concurrent reads; copies into it race with launches that use
// it, as on a GPU.
type Array[T Elem] struct {
	buf Buffer
}

// NewArray returns a zeroed array of n elements on device d (nil: the
// default device), Numba's cuda.device_array.
func NewArray[T Elem](d Device, n int) (*Array[T], error) {
	if d == nil {
		d = DefaultDevice()
	}
	t := TypeOf[T]()
	buf, err := d.Alloc(t, n)
	if err != nil {
		return nil, fmt.Errorf("kernel: NewArray of %d %s on %s: %w", n, t, d.Name(), err)
	}
	return &Array[T]{buf: buf}, nil
}

// ArrayLike returns a zeroed array on d of the length of host (Numba's
// cuda.device_array_like, which leaves it uninitialized).
func ArrayLike[T Elem](d Device, host []T) (*Array[T], error) { return NewArray[T](d, len(host)) }

// ToDevice returns a new array on d holding a copy of host (Numba's
// cuda.to_device).
func ToDevice[T Elem](d Device, host []T) (*Array[T], error) {
	a, err := NewArray[T](d, len(host))
	if err != nil {
		return nil, err
	}
	if err := a.CopyFrom(host); err != nil {
		a.Free()
		return nil, err
	}
	return a, nil
}

// Buffer returns the device memory (nil once freed).
func (a *Array[T]) Buffer() Buffer { return a.buf }

// Device returns the device holding the array (nil once freed).
func (a *Array[T]) Device() Device {
	if a.buf == nil {
		return nil
	}
	return a.buf.Device()
}

// Len returns the number of elements (0 once freed).
func (a *Array[T]) Len() int {
	if a.buf == nil {
		return 0
	}
	return a.buf.Len()
}

// CopyFrom copies host, which must have Len elements, into the array.
func (a *Array[T]) CopyFrom(host []T) error {
	if a.buf == nil {
		return fmt.Errorf("kernel: CopyFrom: the array was freed")
	}
	if len(host) != a.Len() {
		return fmt.Errorf("kernel: CopyFrom: %d elements into an array of %d", len(host), a.Len())
	}
	return a.buf.Device().CopyIn(a.buf, host)
}

// CopyTo copies the array into host, which must have Len elements.
func (a *Array[T]) CopyTo(host []T) error {
	if a.buf == nil {
		return fmt.Errorf("kernel: CopyTo: the array was freed")
	}
	if len(host) != a.Len() {
		return fmt.Errorf("kernel: CopyTo: an array of %d elements into %d", a.Len(), len(host))
	}
	return a.buf.Device().CopyOut(host, a.buf)
}

// CopyToHost returns a new host slice holding a copy of the array
// (Numba's copy_to_host).
func (a *Array[T]) CopyToHost() ([]T, error) {
	if a.buf == nil {
		return nil, fmt.Errorf("kernel: CopyToHost: the array was freed")
	}
	out := make([]T, a.Len())
	if err := a.CopyTo(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Free gives the memory back to the device; the array is unusable after.
func (a *Array[T]) Free() error {
	if a.buf == nil {
		return fmt.Errorf("kernel: Free: the array was freed already")
	}
	err := a.buf.Free()
	a.buf = nil
	return err
}
