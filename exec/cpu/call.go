// Call kernels: an explicit kernel (package kernel) run on the CPU device
// in place over the plan's buffers. The planner has stored each written
// argument's initial values in its buffer; the kernel's Go function gets
// Go slices over the buffers themselves, so nothing is copied.

package cpu

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/kernel"
)

// callKernel is a Call kernel ready to launch: the kernel, its geometry
// on the CPU device (none for ForAll of no tasks) and its arguments.
type callKernel struct {
	k    *kernel.Kernel
	cfg  kernel.Config
	run  bool
	args []fuse.CallArg
}

// lowerCall checks a Call kernel's arguments against the kernel's
// parameters and resolves its geometry.
func lowerCall(k *fuse.Kernel) (*callKernel, error) {
	c := k.Call()
	if c == nil {
		return nil, fmt.Errorf("cpu: call kernel %s without a CallSpec", k.Name)
	}
	kk, ok := c.Kernel.(*kernel.Kernel)
	if !ok {
		return nil, fmt.Errorf("cpu: call kernel %s: %T is not a *kernel.Kernel", k.Name, c.Kernel)
	}
	ps := kk.Params()
	if len(ps) != len(c.Args) {
		return nil, fmt.Errorf("cpu: kernel %s: %d arguments for %d parameters", kk.Name(), len(c.Args), len(ps))
	}
	for i, a := range c.Args {
		if ps[i].Slice && a.Len > 0 && (a.Buffer < 0 || slicers[ps[i].Type] == nil) {
			return nil, fmt.Errorf("cpu: kernel %s: parameter %s has no buffer of its type", kk.Name(), ps[i])
		}
	}
	ck := &callKernel{k: kk, args: c.Args, run: true,
		cfg: kernel.Config{Grid: kernel.D3(c.Grid[0], c.Grid[1], c.Grid[2]), Block: kernel.D3(c.Block[0], c.Block[1], c.Block[2]),
			SharedBytes: c.SharedBytes, Device: kernel.CPU()}}
	if c.ForAll {
		cfg, err := kk.ForAllConfig(kernel.CPU(), c.Tasks)
		if err != nil {
			return nil, err
		}
		ck.cfg, ck.run = cfg, c.Tasks > 0
	}
	return ck, nil
}

// slicers make the Go slice of a parameter's element type over n
// elements at p (an empty slice for n == 0).
var slicers = map[kernel.Type]func(p unsafe.Pointer, n int) any{
	kernel.Bool:    func(p unsafe.Pointer, n int) any { return goSlice[bool](p, n) },
	kernel.Int:     func(p unsafe.Pointer, n int) any { return goSlice[int](p, n) },
	kernel.Int32:   func(p unsafe.Pointer, n int) any { return goSlice[int32](p, n) },
	kernel.Int64:   func(p unsafe.Pointer, n int) any { return goSlice[int64](p, n) },
	kernel.Float32: func(p unsafe.Pointer, n int) any { return goSlice[float32](p, n) },
	kernel.Float64: func(p unsafe.Pointer, n int) any { return goSlice[float64](p, n) },
}

func goSlice[T any](p unsafe.Pointer, n int) []T {
	if n == 0 || p == nil {
		return []T{}
	}
	return unsafe.Slice((*T)(p), n)
}

// run launches the kernel on the CPU device over slices of the buffers
// at bases and waits for it; a failing kernel's *kernel.LaunchError is
// the error.
func (ck *callKernel) runOn(ctx context.Context, bases []unsafe.Pointer) error {
	if !ck.run {
		return nil
	}
	ps := ck.k.Params()
	args := make([]any, len(ck.args))
	for i, a := range ck.args {
		if !ps[i].Slice {
			args[i] = a.Value
			continue
		}
		var p unsafe.Pointer
		if a.Len > 0 {
			p = unsafe.Add(bases[a.Buffer], a.Offset*a.DType.Size())
		}
		args[i] = slicers[ps[i].Type](p, a.Len)
	}
	return ck.k.LaunchContext(ctx, ck.cfg, args...)
}
