// Device discovery: the codegen.Target the code generator chooses launch
// geometry for, read from the driver's device attributes.

package cuda

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// Device describes one GPU as the driver reports it: name, compute
// capability, SMs, thread, register and shared memory limits (per block,
// per SM and the per-block opt-in), warp size, memory size and clocks.
type Device = drv.Device

// TargetOf returns the code generation target for device d: its SMs,
// threads per block and per SM, largest block and grid, default (static)
// shared memory per block and shared memory per SM, registers per block
// and per SM, warp size and compute capability. The target's Name is the
// device name with its ordinal ("cuda:0 NVIDIA H100 80GB HBM3"). It
// errors when the attributes do not make a usable target.
func TargetOf(d Device) (codegen.Target, error) {
	t := codegen.Target{
		Name:               fmt.Sprintf("cuda:%d %s", d.Ordinal, d.Name),
		SMs:                d.SMs,
		MaxThreadsPerBlock: d.MaxThreadsPerBlock,
		MaxThreadsPerSM:    d.MaxThreadsPerSM,
		SharedPerBlock:     d.SharedMemPerBlock,
		SharedPerSM:        d.SharedMemPerSM,
		RegistersPerBlock:  d.RegistersPerBlock,
		RegistersPerSM:     d.RegistersPerSM,
		WarpSize:           d.WarpSize,
		MaxBlock:           codegen.Dim3{X: d.MaxBlockDim[0], Y: d.MaxBlockDim[1], Z: d.MaxBlockDim[2]},
		MaxGrid:            codegen.Dim3{X: d.MaxGridDim[0], Y: d.MaxGridDim[1], Z: d.MaxGridDim[2]},
		ComputeMajor:       d.Major,
		ComputeMinor:       d.Minor,
	}
	if err := t.Validate(); err != nil {
		return codegen.Target{}, fmt.Errorf("cuda: device %d (%s): %w", d.Ordinal, d.Name, err)
	}
	return t, nil
}
