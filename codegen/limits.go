// Geometry checks: a kernel's launch geometry against the target's
// limits (threads per block, grid size, shared memory, registers) and
// against what its template needs (full warps for reductions, scratch
// memory for split reductions, a consistent GEMM tile), so that a bad
// geometry is an error before any launch.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/fuse"
)

// minRegsPerThread is the fewest registers a generated thread needs; a
// block that cannot have them cannot launch.
const minRegsPerThread = 16

// checkGeometry returns an error naming the kernel, the limit and the
// target when k cannot run on t in geometry g.
func checkGeometry(k *fuse.Kernel, t Target, g Geometry) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("codegen: kernel %s (%v): %s", k.Name, k.Kind(), fmt.Sprintf(format, args...))
	}
	if g.Block < 1 || g.Block > min(t.MaxThreadsPerBlock, t.MaxBlock.X) {
		return bad("%d threads per block, target %s allows 1 to %d", g.Block, t.Name, min(t.MaxThreadsPerBlock, t.MaxBlock.X))
	}
	if g.Grid < 1 || g.Grid > t.MaxGrid.X {
		return bad("a grid of %d blocks, target %s allows 1 to %d", g.Grid, t.Name, t.MaxGrid.X)
	}
	if g.Block*minRegsPerThread > t.RegistersPerBlock {
		return bad("%d threads need at least %d registers, target %s has %d per block",
			g.Block, g.Block*minRegsPerThread, t.Name, t.RegistersPerBlock)
	}
	if len(k.Space) == 0 {
		return bad("empty iteration space")
	}
	for _, e := range k.Space {
		if e < 0 {
			return bad("negative extent in space %v", k.Space)
		}
	}
	switch k.Kind() {
	case fuse.KindReduce:
		return checkReduce(k, t, g, bad)
	case fuse.KindMatMul:
		return checkMatMul(k, t, g, bad)
	case fuse.KindScan:
		return checkScan(k, t, g, bad)
	case fuse.KindSort:
		return checkSort(k, g, bad)
	}
	return nil
}

func checkReduce(k *fuse.Kernel, t Target, g Geometry, bad func(string, ...any) error) error {
	if g.Block%t.WarpSize != 0 {
		return bad("%d threads per block is not a whole number of warps", g.Block)
	}
	part := kernelPartialBytes(k)
	if shared := g.Block / t.WarpSize * part; shared > t.SharedPerBlock {
		return bad("strategy %v needs %d bytes of shared memory per block, target %s has %d",
			g.Strategy, shared, t.Name, t.SharedPerBlock)
	}
	slots := 0
	switch g.Strategy {
	case StrategyTwoPass:
		if g.Grid > 1 {
			slots = g.Grid
		}
	case StrategyColumn:
		if g.Split > 1 {
			rows := max(1, g.Rows)
			slots = g.Split * rows
			if tiles := (rows + g.Block - 1) / g.Block; tiles*g.Split > t.MaxGrid.X {
				return bad("%d column tiles split %d ways exceed the grid limit %d of %s", tiles, g.Split, t.MaxGrid.X, t.Name)
			}
		}
	case StrategyWarpPerRow, StrategyBlockPerRow:
	default:
		return bad("no reduction strategy")
	}
	if need := int64(slots) * int64(part); g.ScratchBytes < need {
		return bad("strategy %v needs %d bytes of scratch memory for its partials, the geometry gives %d",
			g.Strategy, need, g.ScratchBytes)
	}
	return nil
}

func checkMatMul(k *fuse.Kernel, t Target, g Geometry, bad func(string, ...any) error) error {
	tl := g.Tile
	if k.MatMul() == nil {
		return bad("no MatMulSpec")
	}
	if tl.BM < 1 || tl.BN < 1 || tl.BK < 1 || tl.TM < 1 || tl.TN < 1 || tl.BM%tl.TM != 0 || tl.BN%tl.TN != 0 {
		return bad("inconsistent GEMM tile %+v", tl)
	}
	if threads := tl.BM / tl.TM * (tl.BN / tl.TN); threads != g.Block {
		return bad("tile %+v needs %d threads per block, the geometry has %d", tl, threads, g.Block)
	}
	es := k.MatMul().A.DType.Size()
	if shared := (tl.BM + tl.BN) * tl.BK * es; shared > t.SharedPerBlock {
		return bad("tile %+v needs %d bytes of shared memory per block, target %s has %d", tl, shared, t.Name, t.SharedPerBlock)
	}
	if regs := g.Block * (tl.TM*tl.TN*max(1, es/4) + tl.TM + tl.TN + minRegsPerThread); regs > t.RegistersPerBlock {
		return bad("tile %+v needs about %d registers per block, target %s has %d", tl, regs, t.Name, t.RegistersPerBlock)
	}
	batch := 1
	for _, e := range k.Space[:max(0, len(k.Space)-2)] {
		batch *= e
	}
	tiles := (k.MatMul().M + tl.BM - 1) / tl.BM * ((k.MatMul().N + tl.BN - 1) / tl.BN) * batch
	if tiles > t.MaxGrid.X {
		return bad("%d output tiles exceed the grid limit %d of %s", tiles, t.MaxGrid.X, t.Name)
	}
	return nil
}
