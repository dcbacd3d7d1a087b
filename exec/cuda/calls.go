// Call kernels of plans: an explicit kernel (package kernel) launched
// through the backend's kernel device on the evaluation's stream, with
// the device addresses of the plan's buffers as its slices, so that a
// lazy call moves nothing through the host. The planner has stored each
// written argument's initial values in its buffer; the kernel runs in
// place.

package cuda

import (
	"fmt"

	"github.com/fuseflow/fuseflow/fuse"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
	"github.com/fuseflow/fuseflow/kernel"
)

// planCall is a plan's Call kernel ready to launch: the kernel's loaded
// function, the geometry (ForAll's block size from the occupancy), and
// its arguments in plan buffers.
type planCall struct {
	k    *kernel.Kernel
	f    *kernelFunc
	cfg  kernel.Config
	run  bool // false for ForAll of no tasks
	args []fuse.CallArg
}

// prepareCall loads the function of Call kernel k and resolves its
// geometry. A kernel without PTX is an error naming it.
func (d *kernelDevice) prepareCall(k *fuse.Kernel) (*planCall, error) {
	c := k.Call()
	if c == nil {
		return nil, fmt.Errorf("cuda: call kernel %s without a CallSpec", k.Name)
	}
	kk, ok := c.Kernel.(*kernel.Kernel)
	if !ok {
		return nil, fmt.Errorf("cuda: call kernel %s: %T is not a *kernel.Kernel", k.Name, c.Kernel)
	}
	s := kk.Spec()
	if len(s.Params) != len(c.Args) {
		return nil, fmt.Errorf("cuda: kernel %s: %d arguments for %d parameters", s.Name, len(c.Args), len(s.Params))
	}
	f, err := d.function(kk)
	if err != nil {
		return nil, err
	}
	pc := &planCall{k: kk, f: f, run: true, args: c.Args}
	if c.ForAll {
		if pc.cfg, err = kk.ForAllConfig(d, c.Tasks); err != nil {
			return nil, err
		}
		pc.run = c.Tasks > 0
	} else {
		cfg := kernel.Config{Grid: kernel.D3(c.Grid[0], c.Grid[1], c.Grid[2]), Block: kernel.D3(c.Block[0], c.Block[1], c.Block[2]),
			SharedBytes: c.SharedBytes, Device: d}
		if pc.cfg, err = kk.CheckConfig(cfg); err != nil {
			return nil, err
		}
	}
	if err := d.allowShared(f, s, pc.cfg.SharedBytes); err != nil {
		return nil, err
	}
	return pc, nil
}

// launchCall queues pc on ln's stream with the device addresses ptrs of
// the plan's buffers (the packing of Launch, without host copies). A
// kernel with bounds checks is waited for, so that a failed check comes
// back as its *kernel.LaunchError; others are queued like the plan's
// own kernels.
func (d *kernelDevice) launchCall(ln *lane, pc *planCall, ptrs []drv.DevicePtr) error {
	if !pc.run {
		return nil
	}
	s := pc.k.Spec()
	a, _ := packKernelArgs(pc.f, s.Params, func(i int) (any, drv.DevicePtr, int) {
		arg := &pc.args[i]
		if arg.Buffer < 0 || arg.Len == 0 {
			return arg.Value, 0, arg.Len
		}
		return arg.Value, ptrs[arg.Buffer] + drv.DevicePtr(arg.Offset*arg.DType.Size()), arg.Len
	})
	word, err := d.checkWordFor(s, pc.f, a)
	if err != nil {
		return err
	}
	if word != nil {
		defer word.free()
	}
	return d.launchPacked(ln, s, pc.f, pc.cfg, a, word, word != nil)
}
