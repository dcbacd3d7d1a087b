// Launch geometry: block and grid sizes, items per thread, vector width,
// the reduction strategy, GEMM tiles, register estimates, shared memory
// and the scratch bytes of split reductions, chosen for a plan kernel
// from the target's properties and checked against its limits.

package codegen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/enum"
)

// Strategy is how a Reduce kernel is parallelized.
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
	// blocks share the reduced range of a column tile and a second launch
	// combines their partials (in scratch memory) in a fixed order.
	StrategyColumn
	// StrategyTwoPass: every axis reduced (one output point): Grid blocks
	// each reduce a fixed range into scratch memory, then one block
	// combines the Grid partials in order. Deterministic.
	StrategyTwoPass
	// StrategyScanLane (Scan): one thread per lane (the points off the
	// scanned axis), walking the axis front to back; Rows lanes of
	// RowLen points.
	StrategyScanLane
	// StrategyScanLookback (Scan, the scanned axis last, rows long): one
	// block per tile of Block*ItemsPerThread points of a row, taken from
	// an atomic ticket counter, with decoupled look-back over the tiles
	// before it (scratch: the counter and three words per tile).
	StrategyScanLookback
	// StrategyScanWarp (Scan, the scanned axis last, rows of moderate
	// length): one warp per row, WarpSize points at a time scanned with
	// shuffles and carried.
	StrategyScanWarp
	// StrategyRadixSort (Sort): an LSD radix sort of every row at once;
	// Grid*Block threads own contiguous ranges of the keys (see sortk.go).
	StrategyRadixSort
)

var strategyNames = [...]string{"none", "warp-per-row", "block-per-row", "column", "two-pass", "scan-lane", "scan-lookback", "scan-warp", "radix-sort"}

// String returns the strategy's name ("warp-per-row").
func (s Strategy) String() string {
	return enum.Name(strategyNames[:], s, "strategy?")
}

// Tile is the blocking of a GEMM: a block computes a BM x BN tile of the
// output stepping BK along K through shared memory; each thread computes
// TM x TN outputs in registers (Block == BM*BN/(TM*TN)).
type Tile struct {
	BM, BN, BK int
	TM, TN     int
}

// Geometry is the launch geometry of a kernel: the first launch has Grid
// blocks of Block threads (1-D).
//
// Map: a grid-stride loop; each thread handles ItemsPerThread consecutive
// groups of VectorWidth elements of the flattened (row-major over Space)
// iteration space per step. VectorWidth is 4 (128-bit for float32/int32)
// or 2 (float64/int64) only when every operand and store with a non-zero
// stride is contiguous along the innermost axis of Space and that extent
// and every offset are multiples of it (the template checks again before
// it uses vector accesses).
//
// Reduce: see Strategy. Rows is the number of output points; RowLen the
// number of points reduced into each. WarpPerRow: Block/WarpSize rows per
// block; BlockPerRow: one row per block (grid-stride over rows); Column:
// Block output points per block, Split blocks per column tile; TwoPass:
// Grid partials. SharedBytes is the static shared memory a block needs;
// ScratchBytes the scratch memory of the partials (8 bytes per partial
// accumulator, plus 8 for the index of ArgMax and ArgMin), 0 when none.
//
// MatMul: Tile; Grid is the number of output tiles times the batch.
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
	ScratchBytes   int64
	Tile           Tile
	Index32        bool
}

// String describes the geometry on one line: "block 256 grid 1056 items
// 4 vector 4", with the strategy, split, shared and scratch bytes of a
// reduction or the tile of a GEMM.
func (g Geometry) String() string {
	s := fmt.Sprintf("block %d grid %d items %d vector %d", g.Block, g.Grid, g.ItemsPerThread, g.VectorWidth)
	if g.Strategy != StrategyNone {
		s += fmt.Sprintf(" strategy %v split %d shared %d rows %d row length %d", g.Strategy, g.Split, g.SharedBytes, g.Rows, g.RowLen)
	}
	if g.ScratchBytes > 0 {
		s += fmt.Sprintf(" scratch %d", g.ScratchBytes)
	}
	if g.Tile != (Tile{}) {
		t := g.Tile
		s += fmt.Sprintf(" tile %dx%dx%d thread %dx%d shared %d", t.BM, t.BN, t.BK, t.TM, t.TN, g.SharedBytes)
	}
	return s + fmt.Sprintf(" index32 %v", g.Index32)
}

// Geometry constants.
const (
	gpuBlock       = 256 // threads per block for Map and Reduce kernels
	gpuWaves       = 8   // resident blocks per SM a grid-stride launch aims at
	warpRowMax     = 16  // rows up to warpRowMax*WarpSize use one warp each
	splitMinRowLen = 8192
	partialBytes   = 8 // shared and scratch bytes per reduction value (+8 for an index)
)

// ChooseGeometry returns the launch geometry Lower uses for k on t: the
// block size the kernel's register estimate allows, a grid of a few
// waves, vector width and items per thread of a Map, the reduction
// strategy, and the largest GEMM tile that fits. It returns an error
// naming the kernel and the limit when none fits t (registers, shared
// memory, threads per block, grid size) or t is not a valid target.
// Safe for concurrent use.
func ChooseGeometry(k *fuse.Kernel, t Target) (Geometry, error) {
	if err := t.Validate(); err != nil {
		return Geometry{}, err
	}
	g := Geometry{}
	red := reducedAxes(k)
	rows, rowLen := 1, 1
	for i, e := range k.Space {
		if red[i] {
			rowLen *= e
		} else {
			rows *= e
		}
	}
	total := rows * rowLen
	if k.Kind() == fuse.KindReduce {
		g.Rows, g.RowLen = rows, rowLen
	}
	g.Index32 = index32(k)
	bad := func(format string, args ...any) (Geometry, error) {
		return Geometry{}, fmt.Errorf("codegen: kernel %s (%v): %s", k.Name, k.Kind(), fmt.Sprintf(format, args...))
	}
	block := min(gpuBlock, t.MaxThreadsPerBlock/t.WarpSize*t.WarpSize, t.MaxBlock.X/t.WarpSize*t.WarpSize)
	body, epi := k.Bodies()
	regs := 24 + 2*(len(body)+len(epi))
	for block > t.WarpSize && block*regs > t.RegistersPerBlock {
		block -= t.WarpSize
	}
	if block < 1 || block*regs > t.RegistersPerBlock {
		return bad("needs %d registers per warp, target %s has %d per block", t.WarpSize*regs, t.Name, t.RegistersPerBlock)
	}
	maxGrid := min(t.MaxGrid.X, t.SMs*max(1, t.MaxThreadsPerSM/block)*gpuWaves)
	switch k.Kind() {
	case fuse.KindMap:
		g.Block = block
		g.VectorWidth = vectorWidth(k)
		g.ItemsPerThread = 1
		if total >= block*g.VectorWidth*4*t.SMs {
			g.ItemsPerThread = 4
		}
		g.Grid = min(maxGrid, cdiv(total, block*g.VectorWidth*g.ItemsPerThread))
	case fuse.KindReduce:
		part := kernelPartialBytes(k)
		switch {
		case rows == 1:
			g.Strategy = StrategyTwoPass
			g.Block = block
			g.ItemsPerThread = 4
			g.Grid = min(t.SMs*4, cdiv(rowLen, block*g.ItemsPerThread))
			g.SharedBytes = block / t.WarpSize * part
			if g.Grid > 1 {
				g.ScratchBytes = int64(g.Grid * part)
			}
		case red[len(red)-1] && rowLen <= warpRowMax*t.WarpSize:
			g.Strategy = StrategyWarpPerRow
			g.Block = block
			g.ItemsPerThread = cdiv(rowLen, t.WarpSize)
			g.Grid = min(maxGrid, cdiv(rows, block/t.WarpSize))
		case red[len(red)-1]:
			g.Strategy = StrategyBlockPerRow
			g.Block = block
			if rowLen >= 16*gpuBlock*4 && 2*block <= min(t.MaxThreadsPerBlock, t.MaxBlock.X) && 2*block*regs <= t.RegistersPerBlock {
				g.Block = 2 * block
			}
			g.ItemsPerThread = cdiv(rowLen, g.Block)
			g.Grid = min(maxGrid, rows)
			g.SharedBytes = g.Block / t.WarpSize * part
		default:
			g.Strategy = StrategyColumn
			g.Block = block
			g.Grid = cdiv(rows, block)
			g.Split = 1
			if g.Grid < t.SMs && rowLen >= splitMinRowLen {
				g.Split = min(cdiv(2*t.SMs, g.Grid), rowLen/1024)
				g.ScratchBytes = int64(g.Split * rows * part)
			}
			g.Grid *= g.Split
			g.ItemsPerThread = cdiv(rowLen, g.Split)
		}
	case fuse.KindMatMul:
		tile, err := gemmTile(k, t)
		if err != nil {
			return bad("%v", err)
		}
		g.Tile = tile
		g.Block = tile.BM * tile.BN / (tile.TM * tile.TN)
		g.SharedBytes = (tile.BM + tile.BN) * tile.BK * k.MatMul().A.DType.Size()
		g.Grid = cdiv(k.MatMul().M, tile.BM) * cdiv(k.MatMul().N, tile.BN) * max(spaceSize(k.Space[:len(k.Space)-2]), 1)
		if g.Grid > t.MaxGrid.X {
			return bad("%d tiles exceed the grid limit %d of %s", g.Grid, t.MaxGrid.X, t.Name)
		}
	case fuse.KindScan:
		if err := scanGeometry(k, t, block, &g); err != nil {
			return bad("%v", err)
		}
	case fuse.KindIndex:
		g = indexGeometry(k, block, maxGrid)
	case fuse.KindSort:
		if err := sortGeometry(k, block, maxGrid, &g); err != nil {
			return bad("%v", err)
		}
	default:
		return bad("kind %v has no generated geometry", k.Kind())
	}
	if g.SharedBytes > t.SharedPerBlock {
		return bad("strategy %v needs %d bytes of shared memory per block, target %s has %d", g.Strategy, g.SharedBytes, t.Name, t.SharedPerBlock)
	}
	if g.Block > t.MaxThreadsPerBlock || g.Block < 1 {
		return bad("needs %d threads per block, target %s allows %d", g.Block, t.Name, t.MaxThreadsPerBlock)
	}
	return g, nil
}

// cdiv returns a/b rounded up, at least 1.
func cdiv(a, b int) int { return max(1, (a+b-1)/b) }

// reducedAxes marks the reduced axes of k's space.
func reducedAxes(k *fuse.Kernel) []bool {
	red := make([]bool, len(k.Space))
	if k.Reduce() == nil {
		return red
	}
	for _, a := range k.Reduce().Axes {
		if a >= 0 && a < len(red) {
			red[a] = true
		}
	}
	return red
}

// kernelPartialBytes returns the bytes of one partial of all the
// reductions of k: 8 per accumulator, 8 more for an ArgMax or ArgMin
// index.
func kernelPartialBytes(k *fuse.Kernel) int {
	n := 0
	if k.Reduce() == nil {
		return 0
	}
	for _, r := range k.Reduce().Reductions {
		n += partialBytes
		if r.Op == graph.OpArgMax || r.Op == graph.OpArgMin {
			n += partialBytes
		}
	}
	return n
}

// gemmTile picks the largest tile that fits the target: 128x128x8 with
// 8x8 per thread for float32 (64x64x8, 4x4 for float64 or small
// matrices), shrinking while shared memory, threads or registers are
// short; an error when even 16x16x4 does not fit.
func gemmTile(k *fuse.Kernel, t Target) (Tile, error) {
	es := k.MatMul().A.DType.Size()
	cands := []Tile{{128, 128, 8, 8, 8}, {64, 64, 8, 4, 4}, {32, 32, 8, 2, 2}, {16, 16, 4, 1, 1}}
	start := 0
	if es == 8 || k.MatMul().M < 128 || k.MatMul().N < 128 {
		start = 1
	}
	for _, c := range cands[start:] {
		threads := c.BM * c.BN / (c.TM * c.TN)
		shared := (c.BM + c.BN) * c.BK * es
		regs := threads * (c.TM*c.TN*es/4 + c.TM + c.TN + 24)
		if shared <= t.SharedPerBlock && threads <= min(t.MaxThreadsPerBlock, t.MaxBlock.X) && regs <= t.RegistersPerBlock {
			return c, nil
		}
	}
	return Tile{}, fmt.Errorf("no GEMM tile fits target %s (shared memory %d bytes, %d threads, %d registers per block)",
		t.Name, t.SharedPerBlock, t.MaxThreadsPerBlock, t.RegistersPerBlock)
}

// vectorAccess reports whether a strided access of k's space can move w
// consecutive points along the innermost axis at once: contiguous along
// it with its offset and outer strides multiples of w, or, with
// broadcast, constant along it (one scalar access per vector).
func vectorAccess(off int, strides []int, w int, broadcast bool) bool {
	inner := len(strides) - 1
	switch strides[inner] {
	case 0:
		return broadcast
	case 1:
		if off%w != 0 {
			return false
		}
		for _, s := range strides[:inner] {
			if s%w != 0 {
				return false
			}
		}
		return true
	}
	return false
}

// vectorWidth returns the number of elements a thread can move with one
// 128-bit access (at most 4): every buffer operand and store must be
// contiguous or broadcast along the innermost axis, with the innermost
// extent, offsets and outer strides multiples of the width.
func vectorWidth(k *fuse.Kernel) int {
	maxSize := 1
	for _, o := range k.Operands {
		if o.Buffer != fuse.NoBuffer {
			maxSize = max(maxSize, o.DType.Size())
		}
	}
	for _, s := range k.Stores {
		maxSize = max(maxSize, s.DType.Size())
	}
	w := min(4, 16/maxSize)
	if w < 2 || k.Space[len(k.Space)-1]%w != 0 {
		return 1
	}
	for _, o := range k.Operands {
		if o.Buffer != fuse.NoBuffer && !vectorAccess(o.Offset, o.Strides, w, true) {
			return 1
		}
	}
	for _, s := range k.Stores {
		if !vectorAccess(s.Offset, s.Strides, w, true) {
			return 1
		}
	}
	return w
}

// index32 reports whether every element offset of the kernel fits in an
// int32.
func index32(k *fuse.Kernel) bool {
	if spaceSize(k.Space) > math.MaxInt32 {
		return false
	}
	fits := func(off int, strides []int) bool {
		l := graph.Layout{Shape: k.Space, Strides: strides, Offset: off}
		lo, hi := l.Span()
		return lo >= math.MinInt32 && hi <= math.MaxInt32
	}
	for _, o := range k.Operands {
		if !fits(o.Offset, o.Strides) {
			return false
		}
	}
	for _, s := range k.Stores {
		if !fits(s.Offset, s.Strides) {
			return false
		}
	}
	return true
}
