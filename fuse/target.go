// Target and Geometry: the device a plan is built for and the launch
// geometry the planner chooses for each kernel.

package fuse

import (
	"fmt"
	"runtime"
)

// TargetKind says whether a Target is a CPU or a GPU.
type TargetKind uint8

// The target kinds.
const (
	TargetCPU TargetKind = iota + 1
	TargetGPU
)

// Target describes the device a plan is built for. The GPU fields are used
// when Kind is TargetGPU, the CPU fields when it is TargetCPU. Target is a
// comparable value; it is part of the plan cache key.
type Target struct {
	Kind TargetKind
	Name string

	// GPU.
	SMs                int
	MaxThreadsPerBlock int
	MaxThreadsPerSM    int
	SharedPerBlock     int // bytes
	SharedPerSM        int // bytes
	RegistersPerBlock  int // 32-bit registers
	RegistersPerSM     int
	WarpSize           int
	MaxGridX           int
	ComputeMajor       int
	ComputeMinor       int

	// CPU.
	Cores int
	// CacheBytes is the cache budget of one worker (L2); a chunk's
	// operands take at most half of it.
	CacheBytes int
}

// DefaultCPU returns the CPU target of this machine: runtime.NumCPU()
// cores and a 1 MiB cache budget per worker.
func DefaultCPU() Target {
	return Target{Kind: TargetCPU, Name: "cpu", Cores: runtime.NumCPU(), CacheBytes: 1 << 20}
}

// H100 returns a representative NVIDIA H100 SXM (compute capability 9.0)
// target, for tests and for planning without a device.
func H100() Target {
	return Target{
		Kind: TargetGPU, Name: "H100", SMs: 132,
		MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048,
		SharedPerBlock: 48 << 10, SharedPerSM: 228 << 10,
		RegistersPerBlock: 65536, RegistersPerSM: 65536,
		WarpSize: 32, MaxGridX: 1<<31 - 1, ComputeMajor: 9, ComputeMinor: 0,
	}
}

// Validate reports whether t describes a usable device.
func (t Target) Validate() error {
	switch t.Kind {
	case TargetCPU:
		if t.Cores < 1 || t.CacheBytes < 64 {
			return fmt.Errorf("fuse: CPU target %q needs Cores >= 1 and CacheBytes >= 64 (have %d, %d)", t.Name, t.Cores, t.CacheBytes)
		}
	case TargetGPU:
		if t.SMs < 1 || t.WarpSize < 1 || t.MaxThreadsPerBlock < t.WarpSize || t.MaxGridX < 1 ||
			t.MaxThreadsPerSM < t.MaxThreadsPerBlock || t.RegistersPerBlock < 1 {
			return fmt.Errorf("fuse: GPU target %q is inconsistent: SMs %d, warp %d, threads/block %d, threads/SM %d, grid %d, registers %d",
				t.Name, t.SMs, t.WarpSize, t.MaxThreadsPerBlock, t.MaxThreadsPerSM, t.MaxGridX, t.RegistersPerBlock)
		}
	default:
		return fmt.Errorf("fuse: target %q has no kind", t.Name)
	}
	return nil
}

// Strategy is how a Reduce kernel is parallelized on a GPU.
type Strategy uint8

// The reduction strategies.
const (
	StrategyNone Strategy = iota
	// StrategyWarpPerRow: reduced axes at the end of Space, rows short
	// (RowLen <= 16*WarpSize): each warp reduces one row with shuffles; a
	// block holds Block/WarpSize rows.
	StrategyWarpPerRow
	// StrategyBlockPerRow: reduced axes at the end, rows long: one block
	// per row, warp shuffles then shared memory.
	StrategyBlockPerRow
	// StrategyColumn: reduced axes at the start of Space: each thread owns
	// one output point (consecutive threads, consecutive outputs, so reads
	// are coalesced) and walks the reduced axes; with Split > 1, Split
	// blocks share the reduced range of a column tile and a second pass
	// (over Scratch) combines them in a fixed order.
	StrategyColumn
	// StrategyTwoPass: every axis reduced (one output point): Grid blocks
	// each reduce a fixed range into Scratch, then one block combines the
	// Grid partials in order. Deterministic.
	StrategyTwoPass
)

var strategyNames = [...]string{"none", "warp-per-row", "block-per-row", "column", "two-pass"}

// String returns the strategy's name ("warp-per-row").
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return "strategy?"
}

// Tile is the blocking of a GEMM on a GPU: a block computes a BM x BN
// tile of the output stepping BK along K through shared memory; each
// thread computes TM x TN outputs in registers (Block == BM*BN/(TM*TN)).
type Tile struct {
	BM, BN, BK int
	TM, TN     int
}

// Geometry is the launch geometry of a kernel. GPU fields are set for GPU
// targets, CPU fields for CPU targets.
//
// GPU Map: a 1-D grid-stride launch of Grid blocks of Block threads; each
// thread handles ItemsPerThread consecutive groups of VectorWidth
// elements of the flattened (row-major over Space) iteration space per
// step. VectorWidth is 4 (128-bit for float32/int32) or 2 (float64/int64)
// only when every operand and store with a non-zero stride is contiguous
// along the innermost axis of Space, that extent and every offset are
// multiples of it; the generator must still check buffer base alignment
// (16 bytes) at run time or rely on the executor's allocation alignment.
//
// GPU Reduce: see Strategy. Rows is the number of output points; RowLen
// the number of points reduced into each. For WarpPerRow Block/WarpSize
// rows per block; BlockPerRow one row per block (grid-stride over rows);
// Column Block output points per block; TwoPass Grid partials.
// SharedBytes is the static shared memory a block needs; Scratch is the
// index in Plan.Buffers of the partials buffer (BufTemp, ScratchBytes
// bytes: Grid partial accumulators per reduction, each 8 bytes, plus an
// int64 index for ArgMax/ArgMin), or -1.
//
// GPU MatMul: Tile; Grid is the number of output tiles times the batch.
//
// CPU: Chunk is the number of points of Space a worker processes at a
// time (so that all operands of a chunk fit in half of CacheBytes),
// Workers the number of goroutines worth starting (<= Cores). For a
// Reduce, Rows and RowLen are set as for the GPU; a task reduces
// max(1, Chunk/RowLen) whole output points, and when Rows < Workers the
// reduced range of each output point is split into Chunk-sized pieces
// whose partials are combined in range order (deterministic).
//
// Index32 is true when every element offset the kernel computes fits in
// an int32.
type Geometry struct {
	Block, Grid    int
	ItemsPerThread int
	VectorWidth    int
	Strategy       Strategy
	Split          int
	Rows, RowLen   int
	SharedBytes    int
	Scratch        int
	ScratchBytes   int64
	Tile           Tile

	Chunk   int
	Workers int

	Index32 bool
}
