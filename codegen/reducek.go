// The Reduce strategies: warp per row, block per row, column (one thread
// per output point, optionally split over blocks with a second pass) and
// the deterministic two-pass full reduction, with warp shuffles and
// shared memory for the combining trees.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

func (l *lowerer) lowerReduce() error {
	rs, err := l.newReduceState()
	if err != nil {
		return err
	}
	switch l.g.Strategy {
	case StrategyWarpPerRow:
		return rs.warpPerRow()
	case StrategyBlockPerRow:
		return rs.blockPerRow()
	case StrategyColumn:
		return rs.column()
	case StrategyTwoPass:
		return rs.twoPass()
	}
	return fmt.Errorf("reduction strategy %v is not supported", l.g.Strategy)
}

// rowsLast reports whether the reduced axes are the last ones of Space.
func (rs *reduceState) rowsLast() bool {
	return len(rs.keep) == 0 || rs.keep[len(rs.keep)-1] < rs.red[0]
}

// warpReduce combines state across the lanes of each warp (the target's
// warp size) with shuffles down; lane 0 holds the warp's result.
func (rs *reduceState) warpReduce(state []*ir.Value) []*ir.Value {
	bb := rs.l.b
	for d := rs.l.t.WarpSize / 2; d >= 1; d /= 2 {
		other := make([]*ir.Value, len(state))
		for i, v := range state {
			other[i] = bb.Shfl(ir.ShflDown, v, bb.U32(uint32(d)), bb.FullMask())
		}
		state = rs.combineAll(state, other)
	}
	return state
}

// blockReduce combines state over the block: per warp with shuffles, then
// the warps' results through shared memory by warp 0. Thread 0 holds the
// result. It starts and ends with the whole block arriving (the caller's
// control flow must be uniform).
func (rs *reduceState) blockReduce(state []*ir.Value, shared []*ir.Value, tid *ir.Value) []*ir.Value {
	l := rs.l
	bb := l.b
	nw := l.g.Block / l.t.WarpSize
	state = rs.warpReduce(state)
	if nw == 1 {
		return state
	}
	ws := bb.U32(uint32(l.t.WarpSize))
	lane := bb.Rem(tid, ws)
	warp := bb.Div(tid, ws)
	bb.If(bb.Eq(lane, bb.U32(0)), func() {
		for i, v := range state {
			bb.Store(bb.Index(shared[i], warp), v)
		}
	})
	bb.Barrier()
	res := bb.IfElseValues(bb.Eq(warp, bb.U32(0)), func() []*ir.Value {
		in := bb.Lt(lane, bb.U32(uint32(nw)))
		idx := bb.Select(in, lane, bb.U32(0))
		id := rs.identities()
		vals := make([]*ir.Value, len(state))
		for i := range state {
			vals[i] = bb.Select(in, bb.Load(bb.Index(shared[i], idx)), id[i])
		}
		return rs.warpReduce(vals)
	}, func() []*ir.Value {
		return rs.identities()
	})
	bb.Barrier()
	return res
}

// sharedArrays declares one shared array per state value with n entries.
func (rs *reduceState) sharedArrays(n int) []*ir.Value {
	var out []*ir.Value
	for i, t := range rs.types() {
		out = append(out, rs.l.fn.AddShared(fmt.Sprintf("red%d", i), t, n))
	}
	return out
}

// warpPerRow: warp w of block b reduces rows b*W+w, +Grid*W, ... with its
// lanes striding the row; lane 0 finishes the row.
func (rs *reduceState) warpPerRow() error {
	l := rs.l
	bb := l.b
	if !rs.rowsLast() {
		return fmt.Errorf("warp-per-row needs the reduced axes last, space %v reduces %v", l.k.Space, l.k.Reduce().Axes)
	}
	rows := spaceSize(rs.keepEx)
	w := rs.reduceVectorWidth()
	l.launch(l.g.Grid, l.g.Block, 0)
	_, lane, row0, rstep := l.warpRows()
	bb.For(row0, l.uconst(rows), rstep, func(r *ir.Value) {
		base := rs.keptBase(r, false)
		state := rs.warpReduce(rs.rowLoop(base, lane, l.uconst(l.t.WarpSize), w))
		bb.If(bb.Eq(lane, l.uconst(0)), func() { rs.finish(r, state) })
	})
	return nil
}

// blockPerRow: block b reduces rows b, b+Grid, ...: threads stride the
// row, then the block combines; thread 0 finishes the row.
func (rs *reduceState) blockPerRow() error {
	l := rs.l
	bb := l.b
	if !rs.rowsLast() {
		return fmt.Errorf("block-per-row needs the reduced axes last, space %v reduces %v", l.k.Space, l.k.Reduce().Axes)
	}
	rows := spaceSize(rs.keepEx)
	w := rs.reduceVectorWidth()
	shared := rs.sharedArrays(l.g.Block / l.t.WarpSize)
	l.launch(l.g.Grid, l.g.Block, 0)
	tid := bb.TidX()
	t := bb.Cvt(tid, l.ut)
	bb.For(bb.Cvt(bb.CtaidX(), l.ut), l.uconst(rows), bb.Cvt(bb.NctaidX(), l.ut), func(r *ir.Value) {
		base := rs.keptBase(r, false)
		state := rs.blockReduce(rs.rowLoop(base, t, l.uconst(l.g.Block), w), shared, tid)
		bb.If(bb.Eq(tid, bb.U32(0)), func() { rs.finish(r, state) })
	})
	return nil
}

// column: the reduced axes come first; thread o of the grid owns output
// point o and walks the reduced range (coalesced across threads). With
// Split > 1 block b covers part b%Split of the reduced range for the
// column tile b/Split and writes a partial; a second launch (pass 1)
// combines the Split partials of each output point in order.
func (rs *reduceState) column() error {
	l := rs.l
	bb := l.b
	rows, rowLen := spaceSize(rs.keepEx), spaceSize(rs.redEx)
	split := max(1, l.g.Split)
	if split > 1 && l.g.ScratchBytes == 0 {
		return fmt.Errorf("column reduction split %d ways needs scratch memory", split)
	}
	body := func(o, lo, hi *ir.Value) []*ir.Value {
		base := rs.keptBase(o, false)
		return bb.ForCarry(lo, hi, l.uconst(1), rs.identities(), func(j *ir.Value, st []*ir.Value) []*ir.Value {
			return rs.accumulate(st, base, j)
		})
	}
	if split == 1 {
		l.launch(l.g.Grid, l.g.Block, 0)
		o := bb.GlobalIndex(l.ut)
		bb.If(bb.Lt(o, l.uconst(rows)), func() {
			rs.finish(o, body(o, l.uconst(0), l.uconst(rowLen)))
		})
		return nil
	}
	rs.scratchPtrs()
	pass := l.addPass()
	tiles := (rows + l.g.Block - 1) / l.g.Block
	l.launch(tiles*split, l.g.Block, 0)
	l.launch(tiles, l.g.Block, 1)
	chunk := (rowLen + split - 1) / split
	nslots := split * rows
	bb.IfElse(bb.Eq(pass, bb.S32(0)), func() {
		b := bb.Cvt(bb.CtaidX(), l.ut)
		s := bb.Rem(b, l.uconst(split))
		tile := bb.Div(b, l.uconst(split))
		o := bb.Add(bb.Mul(tile, l.uconst(l.g.Block)), bb.Cvt(bb.TidX(), l.ut))
		bb.If(bb.Lt(o, l.uconst(rows)), func() {
			lo := bb.Mul(s, l.uconst(chunk))
			hi := bb.Min(bb.Add(lo, l.uconst(chunk)), l.uconst(rowLen))
			st := body(o, lo, hi)
			rs.writePartial(st, bb.Add(bb.Mul(s, l.uconst(rows)), o), nslots)
		})
	}, func() {
		o := bb.GlobalIndex(l.ut)
		bb.If(bb.Lt(o, l.uconst(rows)), func() {
			st := bb.ForCarry(l.uconst(0), l.uconst(split), l.uconst(1), rs.identities(), func(s *ir.Value, st []*ir.Value) []*ir.Value {
				return rs.combineAll(st, rs.readPartial(bb.Add(bb.Mul(s, l.uconst(rows)), o), nslots))
			})
			rs.finish(o, st)
		})
	})
	return nil
}

// twoPass: one output point. Pass 0: Grid blocks reduce the points
// assigned by a grid-stride loop (a fixed assignment) and write one
// partial each; pass 1: one block combines the Grid partials in a fixed
// tree. With Grid 1 the single block finishes directly.
func (rs *reduceState) twoPass() error {
	l := rs.l
	bb := l.b
	if len(rs.keep) != 0 && spaceSize(rs.keepEx) != 1 {
		return fmt.Errorf("two-pass reduction of %d output points", spaceSize(rs.keepEx))
	}
	grid := max(1, l.g.Grid)
	if grid > 1 && l.g.ScratchBytes == 0 {
		return fmt.Errorf("two-pass reduction over %d blocks needs scratch memory", grid)
	}
	if grid > 1 {
		rs.scratchPtrs()
	}
	shared := rs.sharedArrays(l.g.Block / l.t.WarpSize)
	zero := l.uconst(0)
	pass0 := func() {
		base := rs.keptBase(zero, false)
		st := rs.rowLoop(base, bb.GlobalIndex(l.ut), bb.GridSize(l.ut), rs.reduceVectorWidth())
		tid := bb.TidX()
		st = rs.blockReduce(st, shared, tid)
		bb.If(bb.Eq(tid, bb.U32(0)), func() {
			if grid == 1 {
				rs.finish(zero, st)
				return
			}
			rs.writePartial(st, bb.Cvt(bb.CtaidX(), l.ut), grid)
		})
	}
	if grid == 1 {
		l.launch(1, l.g.Block, 0)
		pass0()
		return nil
	}
	pass := l.addPass()
	l.launch(grid, l.g.Block, 0)
	l.launch(1, l.g.Block, 1)
	bb.IfElse(bb.Eq(pass, bb.S32(0)), pass0, func() {
		tid := bb.TidX()
		st := bb.ForCarry(bb.Cvt(tid, l.ut), l.uconst(grid), l.uconst(l.g.Block), rs.identities(), func(i *ir.Value, st []*ir.Value) []*ir.Value {
			return rs.combineAll(st, rs.readPartial(i, grid))
		})
		st = rs.blockReduce(st, shared, tid)
		bb.If(bb.Eq(tid, bb.U32(0)), func() { rs.finish(zero, st) })
	})
	return nil
}
