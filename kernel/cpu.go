// This file implements the CPU device: the backend without a GPU, and
// fuseflow's CUDA simulator. It runs the kernel's Go function itself,
// with the arguments in host memory (device arrays of the CPU are Go
// slices). Blocks spread over a pool of workers, one goroutine per
// processor; a kernel whose threads never synchronize runs each block's
// threads one after another in a loop, a kernel with barriers or warp
// operations runs them as goroutines (run.go).

package kernel

import (
	"context"
	"fmt"
	"reflect"
)

// cpuDevice is the CPU device.
type cpuDevice struct{}

var theCPU Device = cpuDevice{}

// CPU returns the CPU device. It is always present, and the default when
// no other device is registered.
func CPU() Device { return theCPU }

// Name returns "cpu".
func (cpuDevice) Name() string { return "cpu" }

// BlockSize returns 256, the block size of ForAll on the CPU.
func (cpuDevice) BlockSize(*Kernel, int) int { return 256 }

// Launch runs the kernel's Go function over the grid (see run.go).
func (d cpuDevice) Launch(ctx context.Context, k *Kernel, cfg Config, args []Arg) error {
	if k.spec.Bind == nil {
		return fmt.Errorf("kernel %s: no Go function is bound (Spec.Bind is nil)", k.spec.Name)
	}
	vals := make([]any, len(args))
	for i, a := range args {
		switch {
		case a.Buffer != nil:
			cb, ok := a.Buffer.(*cpuBuffer)
			if !ok || cb.Device() != Device(d) {
				return fmt.Errorf("kernel %s: argument %d for parameter %s is on %s, not the CPU", k.spec.Name, i+1, a.Param, a.Buffer.Device().Name())
			}
			v, err := cb.slice()
			if err != nil {
				return fmt.Errorf("kernel %s: argument %d for parameter %s: %w", k.spec.Name, i+1, a.Param, err)
			}
			vals[i] = v
		default:
			vals[i] = a.Value
		}
	}
	return runCPU(ctx, k, cfg, k.spec.Bind(vals))
}

// cpuBuffer is memory of the CPU device: a Go slice []T.
type cpuBuffer struct {
	t     Type
	n     int
	v     reflect.Value // the slice; invalid once freed
	freed bool
}

func (b *cpuBuffer) Device() Device { return theCPU }
func (b *cpuBuffer) Type() Type     { return b.t }
func (b *cpuBuffer) Len() int       { return b.n }

// Free drops the slice; later uses of the buffer are errors.
func (b *cpuBuffer) Free() error {
	if b.freed {
		return fmt.Errorf("kernel: CPU buffer freed twice")
	}
	b.freed, b.v = true, reflect.Value{}
	return nil
}

func (b *cpuBuffer) slice() (any, error) {
	if b.freed {
		return nil, fmt.Errorf("the device array was freed")
	}
	return b.v.Interface(), nil
}

// Alloc returns a zeroed Go slice of n elements of type t.
func (cpuDevice) Alloc(t Type, n int) (Buffer, error) {
	if t <= Invalid || t >= numTypes {
		return nil, fmt.Errorf("kernel: Alloc of type %s", t)
	}
	if n < 0 {
		return nil, fmt.Errorf("kernel: Alloc of %d elements", n)
	}
	return &cpuBuffer{t: t, n: n, v: reflect.MakeSlice(reflect.SliceOf(t.goType()), n, n)}, nil
}

// copyCheck checks a host slice against a CPU buffer for a copy.
func copyCheck(b Buffer, host any, what string) (*cpuBuffer, reflect.Value, error) {
	cb, ok := b.(*cpuBuffer)
	if !ok {
		return nil, reflect.Value{}, fmt.Errorf("kernel: %s: the buffer is on %s, not the CPU", what, b.Device().Name())
	}
	if cb.freed {
		return nil, reflect.Value{}, fmt.Errorf("kernel: %s: the buffer was freed", what)
	}
	hv := reflect.ValueOf(host)
	if !hv.IsValid() || hv.Type() != cb.v.Type() {
		return nil, reflect.Value{}, fmt.Errorf("kernel: %s: got %T, want %s", what, host, cb.v.Type())
	}
	if hv.Len() != cb.n {
		return nil, reflect.Value{}, fmt.Errorf("kernel: %s: the host slice has %d elements, the buffer %d", what, hv.Len(), cb.n)
	}
	return cb, hv, nil
}

// CopyIn copies the host slice src into dst.
func (cpuDevice) CopyIn(dst Buffer, src any) error {
	cb, hv, err := copyCheck(dst, src, "CopyIn")
	if err != nil {
		return err
	}
	reflect.Copy(cb.v, hv)
	return nil
}

// CopyOut copies src into the host slice dst.
func (cpuDevice) CopyOut(dst any, src Buffer) error {
	cb, hv, err := copyCheck(src, dst, "CopyOut")
	if err != nil {
		return err
	}
	reflect.Copy(hv, cb.v)
	return nil
}
