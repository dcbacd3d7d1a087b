// Launch geometry: chunk sizes and workers for the CPU; block and grid
// sizes, vector width, reduction strategy and GEMM tiles for a GPU,
// checked against the target's limits.

package fuse

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// Geometry constants.
const (
	gpuBlock       = 256 // threads per block for Map and Reduce kernels
	gpuWaves       = 8   // resident blocks per SM a grid-stride launch aims at
	warpRowMax     = 16  // rows up to warpRowMax*WarpSize use one warp each
	splitMinRowLen = 8192
	accBytes       = 8 // shared/scratch bytes per reduction partial (+8 for an index)
)

func geometry(pl *Plan, ki int) error {
	k := &pl.Kernels[ki]
	g := Geometry{Scratch: -1}
	rows, rowLen := 1, 1
	red := make([]bool, len(k.Space))
	for _, a := range k.ReduceAxes {
		red[a] = true
	}
	for i, e := range k.Space {
		if red[i] {
			rowLen *= e
		} else {
			rows *= e
		}
	}
	total := rows * rowLen
	if k.Kind == KindReduce {
		g.Rows, g.RowLen = rows, rowLen
	}
	g.Index32 = index32(k)
	t := pl.Target
	if t.Kind == TargetCPU {
		bpp := 0
		for _, o := range k.Operands {
			if o.Buffer != NoBuffer {
				bpp += o.DType.Size()
			}
		}
		for _, s := range k.Stores {
			bpp += s.DType.Size()
		}
		if k.MatMul != nil {
			bpp += k.MatMul.A.DType.Size() * 2
		}
		bpp = max(bpp, 1)
		g.Chunk = max(64, (t.CacheBytes/2)/bpp/64*64)
		g.Chunk = min(g.Chunk, max(total, 1))
		tasks := (total + g.Chunk - 1) / g.Chunk
		g.Workers = max(1, min(t.Cores, tasks))
		k.Geometry = g
		return nil
	}
	block := min(gpuBlock, t.MaxThreadsPerBlock/t.WarpSize*t.WarpSize)
	regs := 24 + 2*(len(k.Body)+len(k.Epilogue))
	for block > t.WarpSize && block*regs > t.RegistersPerBlock {
		block -= t.WarpSize
	}
	if block*regs > t.RegistersPerBlock {
		return fmt.Errorf("fuse: kernel %d (%s) needs %d registers per warp, target %s has %d per block",
			ki, k.Name, t.WarpSize*regs, t.Name, t.RegistersPerBlock)
	}
	maxGrid := min(t.MaxGridX, t.SMs*max(1, t.MaxThreadsPerSM/block)*gpuWaves)
	cdiv := func(a, b int) int { return max(1, (a+b-1)/b) }
	switch k.Kind {
	case KindMap:
		g.Block = block
		g.VectorWidth = vectorWidth(k)
		g.ItemsPerThread = 1
		if total >= block*g.VectorWidth*4*t.SMs {
			g.ItemsPerThread = 4
		}
		g.Grid = min(maxGrid, cdiv(total, block*g.VectorWidth*g.ItemsPerThread))
	case KindReduce:
		part := 0
		for _, r := range k.Reductions {
			part += accBytes
			if r.Op == graph.OpArgMax || r.Op == graph.OpArgMin {
				part += accBytes
			}
		}
		lastReduced := red[len(red)-1]
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
		case lastReduced && rowLen <= warpRowMax*t.WarpSize:
			g.Strategy = StrategyWarpPerRow
			g.Block = block
			g.ItemsPerThread = cdiv(rowLen, t.WarpSize)
			g.Grid = min(maxGrid, cdiv(rows, block/t.WarpSize))
		case lastReduced:
			g.Strategy = StrategyBlockPerRow
			g.Block = block
			if rowLen >= 16*gpuBlock*4 && 2*block <= t.MaxThreadsPerBlock && 2*block*regs <= t.RegistersPerBlock {
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
	case KindMatMul:
		tile, err := gemmTile(k, t)
		if err != nil {
			return fmt.Errorf("fuse: kernel %d (%s): %w", ki, k.Name, err)
		}
		g.Tile = tile
		g.Block = tile.BM * tile.BN / (tile.TM * tile.TN)
		g.SharedBytes = (tile.BM + tile.BN) * tile.BK * k.MatMul.A.DType.Size()
		batch := 1
		for _, e := range k.Space[:len(k.Space)-2] {
			batch *= e
		}
		g.Grid = cdiv(k.MatMul.M, tile.BM) * cdiv(k.MatMul.N, tile.BN) * max(batch, 1)
		if g.Grid > t.MaxGridX {
			return fmt.Errorf("fuse: kernel %d (%s): %d tiles exceed the grid limit %d of %s", ki, k.Name, g.Grid, t.MaxGridX, t.Name)
		}
	}
	if g.SharedBytes > t.SharedPerBlock {
		return fmt.Errorf("fuse: kernel %d (%s) with strategy %v needs %d bytes of shared memory per block, target %s has %d",
			ki, k.Name, g.Strategy, g.SharedBytes, t.Name, t.SharedPerBlock)
	}
	if g.Block > t.MaxThreadsPerBlock || g.Block < 1 {
		return fmt.Errorf("fuse: kernel %d (%s) needs %d threads per block, target %s allows %d",
			ki, k.Name, g.Block, t.Name, t.MaxThreadsPerBlock)
	}
	if g.ScratchBytes > 0 {
		g.Scratch = len(pl.Buffers)
		pl.Buffers = append(pl.Buffers, Buffer{Kind: BufTemp, Slot: -1, ElemSize: 1, Elems: int(g.ScratchBytes),
			Bytes: g.ScratchBytes, First: ki, Last: ki, Values: []string{fmt.Sprintf("partials of kernel %d", ki)}})
	}
	k.Geometry = g
	return nil
}

// gemmTile picks the largest tile that fits the target: 128x128x8 with
// 8x8 per thread for float32 (64x64x8, 4x4 for float64 or small
// matrices), shrinking while shared memory, threads or registers are
// short; an error when even 16x16x4 does not fit.
func gemmTile(k *Kernel, t Target) (Tile, error) {
	es := k.MatMul.A.DType.Size()
	cands := []Tile{{128, 128, 8, 8, 8}, {64, 64, 8, 4, 4}, {32, 32, 8, 2, 2}, {16, 16, 4, 1, 1}}
	start := 0
	if es == 8 || k.MatMul.M < 128 || k.MatMul.N < 128 {
		start = 1
	}
	for _, c := range cands[start:] {
		threads := c.BM * c.BN / (c.TM * c.TN)
		shared := (c.BM + c.BN) * c.BK * es
		regs := threads * (c.TM*c.TN*es/4 + c.TM + c.TN + 24)
		if shared <= t.SharedPerBlock && threads <= t.MaxThreadsPerBlock && regs <= t.RegistersPerBlock {
			return c, nil
		}
	}
	return Tile{}, fmt.Errorf("no GEMM tile fits target %s (shared memory %d bytes, %d threads, %d registers per block)",
		t.Name, t.SharedPerBlock, t.MaxThreadsPerBlock, t.RegistersPerBlock)
}

// vectorWidth returns the number of elements a GPU thread can move with
// one 128-bit access (at most 4): every buffer operand and store must be
// contiguous or broadcast along the innermost axis, with the innermost
// extent, offsets and outer strides multiples of the width.
func vectorWidth(k *Kernel) int {
	inner := len(k.Space) - 1
	maxSize := 1
	type acc struct {
		off     int
		strides []int
		size    int
	}
	var all []acc
	for _, o := range k.Operands {
		if o.Buffer != NoBuffer {
			all = append(all, acc{o.Offset, o.Strides, o.DType.Size()})
		}
	}
	for _, s := range k.Stores {
		all = append(all, acc{s.Offset, s.Strides, s.DType.Size()})
	}
	for _, a := range all {
		maxSize = max(maxSize, a.size)
	}
	w := min(4, 16/maxSize)
	if w < 2 || k.Space[inner]%w != 0 {
		return 1
	}
	for _, a := range all {
		switch a.strides[inner] {
		case 0: // broadcast along the vector: one scalar load
		case 1:
			if a.off%w != 0 {
				return 1
			}
			for i := 0; i < inner; i++ {
				if a.strides[i]%w != 0 {
					return 1
				}
			}
		default:
			return 1
		}
	}
	return w
}

// index32 reports whether every element offset of the kernel fits in an
// int32.
func index32(k *Kernel) bool {
	check := func(off int, st []int) bool {
		lo, hi := off, off
		for i, s := range st {
			e := k.Space[i]
			if e == 0 {
				return true
			}
			if s > 0 {
				hi += (e - 1) * s
			} else {
				lo += (e - 1) * s
			}
		}
		return lo >= math.MinInt32 && hi <= math.MaxInt32
	}
	total := 1
	for _, e := range k.Space {
		total *= e
	}
	if total > math.MaxInt32 {
		return false
	}
	for _, o := range k.Operands {
		if !check(o.Offset, o.Strides) {
			return false
		}
	}
	for _, s := range k.Stores {
		if !check(s.Offset, s.Strides) {
			return false
		}
	}
	return true
}
