// Target: the GPU a plan's kernels are generated for — the device
// properties launch geometry is chosen from (SMs, thread, register and
// shared memory limits, warp size, grid and block extents, compute
// capability).

package codegen

import (
	"fmt"
	"math"
)

// Target describes the GPU code is generated for. Lower and Compile
// choose every kernel's launch geometry from it and check the geometry
// against its limits. exec/cuda fills one from the driver's device
// attributes (cuda.TargetOf); H100 is a representative one for tests and
// for explaining plans without a device. Target is a comparable value.
type Target struct {
	// Name says which device ("H100", "cuda:0 NVIDIA H100 80GB HBM3").
	Name string
	SMs  int
	// MaxThreadsPerBlock bounds a block's threads; MaxBlock bounds its
	// extent along each axis and MaxGrid the grid's.
	MaxThreadsPerBlock int
	MaxThreadsPerSM    int
	MaxBlock, MaxGrid  Dim3
	// SharedPerBlock is the static shared memory a block may declare,
	// SharedPerSM what an SM holds, in bytes.
	SharedPerBlock, SharedPerSM int
	// RegistersPerBlock and RegistersPerSM count 32-bit registers.
	RegistersPerBlock, RegistersPerSM int
	// WarpSize is the threads of a warp: every template takes its warps'
	// lanes, shuffles and per-warp partials from it.
	WarpSize int
	// ComputeMajor and ComputeMinor are the compute capability (9 and 0
	// for sm_90); 0 leaves the PTX emitter's default.
	ComputeMajor, ComputeMinor int
}

// ptxWarp is the number of lanes of a PTX warp: shfl.sync and vote.sync
// take 32-bit lane masks.
const ptxWarp = 32

// H100 returns a representative NVIDIA H100 SXM (compute capability 9.0),
// for tests and for planning without a device.
func H100() Target {
	return Target{
		Name: "H100", SMs: 132,
		MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048,
		MaxBlock: Dim3{X: 1024, Y: 1024, Z: 64}, MaxGrid: Dim3{X: math.MaxInt32, Y: 65535, Z: 65535},
		SharedPerBlock: 48 << 10, SharedPerSM: 228 << 10,
		RegistersPerBlock: 65536, RegistersPerSM: 65536,
		WarpSize: 32, ComputeMajor: 9, ComputeMinor: 0,
	}
}

// SmallGPU returns H100 cut down to 2 SMs, blocks of at most 256 threads
// (512 an SM) and compute capability 8.0, for tests: small shapes spread
// over several blocks and every reduction strategy shows.
func SmallGPU() Target {
	t := H100()
	t.Name = "small"
	t.SMs = 2
	t.MaxThreadsPerBlock = 256
	t.MaxThreadsPerSM = 512
	t.ComputeMajor, t.ComputeMinor = 8, 0
	return t
}

// Validate reports whether t describes a usable device that PTX can
// target: positive limits that agree with each other, and warps of 32
// lanes.
func (t Target) Validate() error {
	if t.SMs < 1 || t.WarpSize < 1 || t.MaxThreadsPerBlock < t.WarpSize || t.MaxThreadsPerSM < t.MaxThreadsPerBlock ||
		t.RegistersPerBlock < 1 || min(t.MaxGrid.X, t.MaxGrid.Y, t.MaxGrid.Z, t.MaxBlock.X, t.MaxBlock.Y, t.MaxBlock.Z) < 1 {
		return fmt.Errorf("codegen: GPU target %q is inconsistent: SMs %d, warp %d, threads/block %d, threads/SM %d, grid %v, block %v, registers %d",
			t.Name, t.SMs, t.WarpSize, t.MaxThreadsPerBlock, t.MaxThreadsPerSM, t.MaxGrid, t.MaxBlock, t.RegistersPerBlock)
	}
	if t.WarpSize != ptxWarp {
		return fmt.Errorf("codegen: warp size %d of target %s is not supported: PTX warps have %d lanes", t.WarpSize, t.Name, ptxWarp)
	}
	return nil
}
