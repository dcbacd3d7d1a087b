// Device discovery: the fuse.Target the planner sizes GPU kernels for,
// read from the driver's device attributes.

package cuda

import (
	"fmt"

	"github.com/fuseflow/fuseflow/fuse"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// Device describes one GPU as the driver reports it: name, compute
// capability, SMs, thread, register and shared memory limits (per block,
// per SM and the per-block opt-in), warp size, memory size and clocks.
type Device = drv.Device

// TargetOf returns the planning target for device d: its SMs, threads per
// block and per SM, default (static) shared memory per block and shared
// memory per SM, registers per block and per SM, warp size, largest grid
// and compute capability. The target's Name is the device name with its
// ordinal ("cuda:0 NVIDIA H100 80GB HBM3"), so plans of different devices
// never share a cache key. It errors when the attributes do not make a
// usable target.
func TargetOf(d Device) (fuse.Target, error) {
	t := fuse.Target{
		Kind:               fuse.TargetGPU,
		Name:               fmt.Sprintf("cuda:%d %s", d.Ordinal, d.Name),
		SMs:                d.SMs,
		MaxThreadsPerBlock: d.MaxThreadsPerBlock,
		MaxThreadsPerSM:    d.MaxThreadsPerSM,
		SharedPerBlock:     d.SharedMemPerBlock,
		SharedPerSM:        d.SharedMemPerSM,
		RegistersPerBlock:  d.RegistersPerBlock,
		RegistersPerSM:     d.RegistersPerSM,
		WarpSize:           d.WarpSize,
		MaxGridX:           d.MaxGridDim[0],
		ComputeMajor:       d.Major,
		ComputeMinor:       d.Minor,
	}
	if err := t.Validate(); err != nil {
		return fuse.Target{}, fmt.Errorf("cuda: device %d (%s): %w", d.Ordinal, d.Name, err)
	}
	return t, nil
}
