// The Scan templates: one thread per lane (short or column lanes, walked
// front to back), and for long rows a single-pass scan with decoupled
// look-back, as CUB does: each block takes a tile of a row, publishes its
// aggregate and then its inclusive prefix in global status words, and
// looks back over the tiles before it for its carry-in.
//
// Forward progress: a block's tile comes from an atomic ticket counter,
// not from its block index, so every tile a block waits for belongs to a
// block that started earlier and is running or done; blocks scheduled in
// any order cannot wait on one that never runs.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// Scan geometry constants.
const (
	scanItems       = 8    // points per thread of a look-back tile
	scanLookbackMin = 2048 // rows at least this long use the look-back scan
	scanWarpMin     = 16   // rows from this long (and shorter than scanLookbackMin) take a warp each
)

// scanDims returns the kernel's space as outer lanes, the scanned extent
// and inner lanes.
func scanDims(k *fuse.Kernel) (o1, n, o2 int) {
	ax := k.Scan().Axis
	return spaceSize(k.Space[:ax]), k.Space[ax], spaceSize(k.Space[ax+1:])
}

// scanGeometry fills g for a Scan kernel: look-back over tiles of
// Block*ItemsPerThread points for long rows (the scanned axis last), with
// scratch for the ticket counter and three status words per tile (flag,
// aggregate, inclusive prefix; cleared before the launch); one thread
// per lane otherwise.
func scanGeometry(k *fuse.Kernel, t Target, block int, g *Geometry) error {
	if k.Scan() == nil || k.Scan().Axis < 0 || k.Scan().Axis >= len(k.Space) {
		return fmt.Errorf("scan kernel without a scanned axis in its space %v", k.Space)
	}
	o1, n, o2 := scanDims(k)
	g.Block = block
	g.Rows, g.RowLen = o1*o2, n
	if o2 == 1 && n >= scanLookbackMin {
		g.Strategy = StrategyScanLookback
		g.ItemsPerThread = scanItems
		tiles := o1 * cdiv(n, block*scanItems)
		if tiles > t.MaxGrid.X {
			return fmt.Errorf("%d scan tiles exceed the grid limit %d of %s", tiles, t.MaxGrid.X, t.Name)
		}
		g.Grid = tiles
		g.ScratchBytes = int64(8 * (1 + 3*tiles))
		g.SharedBytes = 8*block + 16
		return nil
	}
	if o2 == 1 && n >= scanWarpMin && block%t.WarpSize == 0 {
		g.Strategy = StrategyScanWarp
		g.ItemsPerThread = cdiv(n, t.WarpSize)
		maxGrid := min(t.MaxGrid.X, t.SMs*max(1, t.MaxThreadsPerSM/block)*gpuWaves)
		g.Grid = max(1, min(maxGrid, cdiv(o1, block/t.WarpSize)))
		return nil
	}
	g.Strategy = StrategyScanLane
	g.ItemsPerThread = 1
	g.Grid = max(1, cdiv(o1*o2, block))
	if g.Grid > t.MaxGrid.X {
		return fmt.Errorf("%d blocks exceed the grid limit %d of %s", g.Grid, t.MaxGrid.X, t.Name)
	}
	return nil
}

// checkScan checks a scan geometry against the kernel.
func checkScan(k *fuse.Kernel, t Target, g Geometry, bad func(string, ...any) error) error {
	if k.Scan() == nil || k.Scan().Axis < 0 || k.Scan().Axis >= len(k.Space) {
		return bad("scan kernel without a scanned axis in its space %v", k.Space)
	}
	o1, n, o2 := scanDims(k)
	switch g.Strategy {
	case StrategyScanLane:
		if g.Grid*g.Block < o1*o2 {
			return bad("%d threads for %d lanes", g.Grid*g.Block, o1*o2)
		}
	case StrategyScanWarp:
		if o2 != 1 || g.Block%t.WarpSize != 0 {
			return bad("warp-per-row scan needs the scanned axis last and whole warps, space %v axis %d block %d", k.Space, k.Scan().Axis, g.Block)
		}
	case StrategyScanLookback:
		if o2 != 1 {
			return bad("look-back scan needs the scanned axis last, space %v axis %d", k.Space, k.Scan().Axis)
		}
		tiles := o1 * cdiv(n, g.Block*max(1, g.ItemsPerThread))
		if g.Grid != tiles || g.ScratchBytes < int64(8*(1+3*tiles)) {
			return bad("look-back scan of %d tiles with grid %d and %d scratch bytes", tiles, g.Grid, g.ScratchBytes)
		}
	default:
		return bad("strategy %v is not a scan strategy", g.Strategy)
	}
	return nil
}

// scanState is the lowering of one Scan kernel.
type scanState struct {
	l    *lowerer
	spec *fuse.ScanSpec
	t    ir.Type // register type of the running value
	pro  []bool  // body instructions the scanned value needs
	epi  []bool  // epilogue instructions the stores need
}

func (l *lowerer) lowerScan() error {
	s := l.k.Scan()
	if s == nil || s.Value < 0 || s.Value >= len(s.Body) || s.Body[s.Value].DType != s.DType {
		return fmt.Errorf("scan kernel without a scanned value of its dtype")
	}
	if _, ok := scanIdentity[s.Op]; !ok {
		return fmt.Errorf("%v is not a scan", s.Op)
	}
	if s.DType.IsInt() && s.DType != graph.Int32 && s.DType != graph.Int64 || regType(s.DType) == ir.Invalid {
		return fmt.Errorf("%v of %v is not supported", s.Op, s.DType)
	}
	if (s.Op == graph.OpCumSum || s.Op == graph.OpCumProd) && s.DType == graph.Bool {
		return fmt.Errorf("%v of bool is not supported (the graph sums bools as int64)", s.Op)
	}
	roots := make([]int, len(l.k.Stores))
	for i, st := range l.k.Stores {
		if st.Value < 0 || st.Value >= len(s.Epilogue) {
			return fmt.Errorf("store of value %d, the epilogue has %d", st.Value, len(s.Epilogue))
		}
		roots[i] = st.Value
	}
	ss := &scanState{l: l, spec: s, t: regType(s.DType), pro: needed(s.Body, []int{s.Value}), epi: needed(s.Epilogue, roots)}
	switch l.g.Strategy {
	case StrategyScanLane:
		return ss.lane()
	case StrategyScanWarp:
		return ss.warpPerRow()
	case StrategyScanLookback:
		return ss.lookback()
	}
	return fmt.Errorf("scan strategy %v is not supported", l.g.Strategy)
}

// scanIdentity gives each scan's identity for a dtype in register form.
var scanIdentity = map[graph.Op]func(l *lowerer, d graph.DType) *ir.Value{
	graph.OpCumSum: func(l *lowerer, d graph.DType) *ir.Value {
		if d.IsFloat() {
			return l.negZero(regType(d)) // -0 + x is x, -0 included
		}
		return l.b.Zero(regType(d))
	},
	graph.OpCumProd: func(l *lowerer, d graph.DType) *ir.Value { return l.b.One(regType(d)) },
	graph.OpCumMax:  func(l *lowerer, d graph.DType) *ir.Value { return l.lowest(d, regType(d)) },
	graph.OpCumMin:  func(l *lowerer, d graph.DType) *ir.Value { return l.highest(d, regType(d)) },
}

func (ss *scanState) identity() *ir.Value { return scanIdentity[ss.spec.Op](ss.l, ss.spec.DType) }

// combine returns acc op x, acc being the earlier value: CumMax and
// CumMin are NumPy's maximum and minimum (NaN propagates, ties keep acc).
func (ss *scanState) combine(acc, x *ir.Value) *ir.Value {
	switch ss.spec.Op {
	case graph.OpCumSum:
		return ss.l.b.Add(acc, x)
	case graph.OpCumProd:
		return ss.l.b.Mul(acc, x)
	}
	return ss.l.extreme(ss.spec.Op == graph.OpCumMax, acc, x)
}

// toBits and fromBits move a running value through a u64 word (shared
// memory and the status words).
func (ss *scanState) toBits(v *ir.Value) *ir.Value {
	b := ss.l.b
	switch ss.t {
	case ir.Pred:
		return b.Select(v, b.U64(1), b.U64(0))
	case ir.F32, ir.S32:
		return b.Cvt(b.Bitcast(v, ir.U32), ir.U64)
	}
	return b.Bitcast(v, ir.U64)
}

func (ss *scanState) fromBits(u *ir.Value) *ir.Value {
	b := ss.l.b
	switch ss.t {
	case ir.Pred:
		return b.Ne(u, b.U64(0))
	case ir.F32, ir.S32:
		return b.Bitcast(b.Cvt(u, ir.U32), ss.t)
	}
	return b.Bitcast(u, ss.t)
}

// env returns what bodies read at flat point p of the space.
func (ss *scanState) env(p *ir.Value, acc *ir.Value) pointEnv {
	l := ss.l
	k := l.k
	ix := l.newSpaceIndexer(k.Space, p)
	return pointEnv{
		load: func(op int) *ir.Value {
			o := k.Operands[op]
			if o.Buffer == fuse.NoBuffer {
				return l.load(o.Buffer, o.DType, nil)
			}
			return l.load(o.Buffer, o.DType, ix.offset(o.Offset, o.Strides))
		},
		index: func(op int) *ir.Value {
			o := k.Operands[op]
			return ix.offset(o.Offset, o.Strides)
		},
		acc: func(int) *ir.Value { return acc },
	}
}

// value evaluates the prologue at flat point p and returns the scanned
// value (the identity on an error, which it records with fail).
func (ss *scanState) value(p *ir.Value) *ir.Value {
	vals, err := ss.l.evalBody(ss.spec.Body, ss.env(p, nil), ss.pro)
	if ss.l.fail(err) {
		return ss.identity()
	}
	return vals[ss.spec.Value]
}

// finish evaluates the epilogue at flat point p with running value acc
// and performs the stores; an error it records with fail.
func (ss *scanState) finish(p, acc *ir.Value) {
	l := ss.l
	k := l.k
	vals, err := l.evalBody(ss.spec.Epilogue, ss.env(p, acc), ss.epi)
	if l.fail(err) {
		return
	}
	ix := l.newSpaceIndexer(k.Space, p)
	for _, s := range k.Stores {
		l.store(s.Buffer, s.DType, ix.offset(s.Offset, s.Strides), vals[s.Value])
	}
}

// lane: thread g of the grid owns lane g (outer o, inner j) and walks the
// scanned axis front to back; consecutive threads take consecutive inner
// points, so column scans read and write coalesced rows.
func (ss *scanState) lane() error {
	l := ss.l
	bb := l.b
	o1, n, o2 := scanDims(l.k)
	l.launch(l.g.Grid, l.g.Block, 0)
	g := bb.GlobalIndex(l.ut)
	bb.If(bb.Lt(g, l.uconst(o1*o2)), func() {
		o := bb.Div(g, l.uconst(o2))
		j := bb.Rem(g, l.uconst(o2))
		base := bb.Add(bb.Mul(o, l.uconst(n*o2)), j)
		bb.ForCarry(l.uconst(0), l.uconst(n), l.uconst(1), []*ir.Value{ss.identity()}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
			p := bb.Add(base, bb.Mul(i, l.uconst(o2)))
			acc := ss.combine(c[0], ss.value(p))
			ss.finish(p, acc)
			return []*ir.Value{acc}
		})
	})
	return nil
}

// lookback: the decoupled look-back scan of rows (the scanned axis
// last). A block takes ticket vb (an atomic counter in scratch word 0):
// tile vb%tiles of row vb/tiles, Block*ItemsPerThread points, each
// thread ItemsPerThread consecutive ones. The block folds its thread
// totals into a block scan in shared memory; thread 0 publishes the
// tile's aggregate (status 1), looks back over the earlier tiles of the
// row (adding aggregates until a tile with its inclusive prefix, status
// 2), then publishes its own inclusive prefix (status 2); a row's first
// tile publishes status 2 at once. Words are written by atomic exchange
// and read by atomic add of 0, with a GPU-scope fence between a value
// and its status. Every thread then scans its points again from its
// carry-in and runs the epilogue.
func (ss *scanState) lookback() error {
	l := ss.l
	bb := l.b
	_, n, _ := scanDims(l.k)
	B, I := l.g.Block, max(1, l.g.ItemsPerThread)
	T := B * I
	tilesPerRow := cdiv(n, T)
	sp := l.ptr(scratchBuf, ir.U64)
	shTicket := l.fn.AddShared("scan_ticket", ir.U64, 1)
	shVals := l.fn.AddShared("scan_vals", ir.U64, B)
	shPre := l.fn.AddShared("scan_prefix", ir.U64, 1)
	l.launch(l.g.Grid, B, 0)
	tid := bb.TidX()
	t := bb.Cvt(tid, l.ut)
	zero32 := bb.U32(0)
	bb.If(bb.Eq(tid, zero32), func() {
		bb.Store(bb.Index(shTicket, zero32), bb.Atomic(ir.AtomAdd, bb.Index(sp, bb.U64(0)), bb.U64(1)))
	})
	bb.Barrier()
	vb := bb.Cvt(bb.Load(bb.Index(shTicket, zero32)), l.ut)
	row := bb.Div(vb, l.uconst(tilesPerRow))
	tile := bb.Rem(vb, l.uconst(tilesPerRow))
	q0 := bb.Add(bb.Mul(tile, l.uconst(T)), bb.Mul(t, l.uconst(I))) // this thread's first position in the row
	rowBase := bb.Mul(row, l.uconst(n))
	// items runs fn over this thread's points in the row, carrying c.
	items := func(init *ir.Value, fn func(p, c *ir.Value) *ir.Value) *ir.Value {
		out := bb.ForCarry(l.uconst(0), l.uconst(I), l.uconst(1), []*ir.Value{init}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
			q := bb.Add(q0, i)
			return bb.IfElseValues(bb.Lt(q, l.uconst(n)), func() []*ir.Value {
				return []*ir.Value{fn(bb.Add(rowBase, q), c[0])}
			}, func() []*ir.Value { return c })
		})
		return out[0]
	}
	total := items(ss.identity(), func(p, c *ir.Value) *ir.Value { return ss.combine(c, ss.value(p)) })
	// Inclusive scan of the thread totals (Hillis-Steele, log2 B steps).
	bb.Store(bb.Index(shVals, tid), ss.toBits(total))
	bb.Barrier()
	for d := 1; d < B; d *= 2 {
		mine := ss.fromBits(bb.Load(bb.Index(shVals, tid)))
		has := bb.Ge(tid, bb.U32(uint32(d)))
		j := bb.Select(has, bb.Sub(tid, bb.U32(uint32(d))), tid)
		prev := bb.Select(has, ss.fromBits(bb.Load(bb.Index(shVals, j))), ss.identity())
		bb.Barrier()
		bb.Store(bb.Index(shVals, tid), ss.toBits(ss.combine(prev, mine)))
		bb.Barrier()
	}
	hasPrev := bb.Gt(tid, zero32)
	jp := bb.Select(hasPrev, bb.Sub(tid, bb.U32(1)), tid)
	excl := bb.Select(hasPrev, ss.fromBits(bb.Load(bb.Index(shVals, jp))), ss.identity())
	agg := ss.fromBits(bb.Load(bb.Index(shVals, bb.U32(uint32(B-1)))))
	word := func(tileIdx *ir.Value, k int) *ir.Value {
		return bb.Index(sp, bb.Add(bb.Mul(bb.Cvt(tileIdx, ir.U64), bb.U64(3)), bb.U64(uint64(1+k))))
	}
	const flagW, aggW, inclW = 0, 1, 2
	publish := func(w int, v *ir.Value, status uint64) {
		bb.Atomic(ir.AtomExch, word(vb, w), ss.toBits(v))
		bb.Fence(ir.ScopeGPU)
		bb.Atomic(ir.AtomExch, word(vb, flagW), bb.U64(status))
	}
	read := func(p *ir.Value) *ir.Value { return bb.Atomic(ir.AtomAdd, p, bb.U64(0)) }
	bb.If(bb.Eq(tid, zero32), func() {
		bb.IfElse(bb.Eq(tile, l.uconst(0)), func() {
			publish(inclW, agg, 2)
			bb.Store(bb.Index(shPre, zero32), ss.toBits(ss.identity()))
		}, func() {
			publish(aggW, agg, 1)
			res := bb.While([]*ir.Value{bb.Sub(vb, l.uconst(1)), ss.toBits(ss.identity()), bb.U32(0)},
				func(v []*ir.Value) *ir.Value { return bb.Eq(v[2], bb.U32(0)) },
				func(v []*ir.Value) []*ir.Value {
					j := v[0]
					f := bb.While([]*ir.Value{read(word(j, flagW))},
						func(f []*ir.Value) *ir.Value { return bb.Eq(f[0], bb.U64(0)) },
						func([]*ir.Value) []*ir.Value { return []*ir.Value{read(word(j, flagW))} })[0]
					bb.Fence(ir.ScopeGPU)
					incl := bb.Eq(f, bb.U64(2))
					w := bb.Select(incl, read(word(j, inclW)), read(word(j, aggW)))
					pre := ss.combine(ss.fromBits(w), ss.fromBits(v[1]))
					return []*ir.Value{bb.Sub(j, l.uconst(1)), ss.toBits(pre), bb.Select(incl, bb.U32(1), bb.U32(0))}
				})
			pre := ss.fromBits(res[1])
			publish(inclW, ss.combine(pre, agg), 2)
			bb.Store(bb.Index(shPre, zero32), res[1])
		})
	})
	bb.Barrier()
	pre := ss.fromBits(bb.Load(bb.Index(shPre, zero32)))
	items(ss.combine(pre, excl), func(p, c *ir.Value) *ir.Value {
		acc := ss.combine(c, ss.value(p))
		ss.finish(p, acc)
		return acc
	})
	return nil
}

// shfl moves v between the lanes of a warp (a bool as a u32 0 or 1).
func (ss *scanState) shfl(mode ir.ShflMode, v, lane *ir.Value) *ir.Value {
	b := ss.l.b
	if ss.t == ir.Pred {
		u := b.Shfl(mode, b.Select(v, b.U32(1), b.U32(0)), lane, b.FullMask())
		return b.Ne(u, b.U32(0))
	}
	return b.Shfl(mode, v, lane, b.FullMask())
}

// warpPerRow: warp w of block b scans rows b*W+w, +Grid*W, ... (the
// scanned axis last), WarpSize points at a time: each lane evaluates one
// point, the warp scans them with shuffles up (log2 WarpSize steps), the
// carry from the points before is combined in, and the last lane's value
// is the next carry.
func (ss *scanState) warpPerRow() error {
	l := ss.l
	bb := l.b
	o1, n, _ := scanDims(l.k)
	ws := l.t.WarpSize
	l.launch(l.g.Grid, l.g.Block, 0)
	laneU, lane, row0, rstep := l.warpRows()
	bb.For(row0, l.uconst(o1), rstep, func(r *ir.Value) {
		base := bb.Mul(r, l.uconst(n))
		bb.ForCarry(l.uconst(0), l.uconst(n), l.uconst(ws), []*ir.Value{ss.identity()}, func(c0 *ir.Value, c []*ir.Value) []*ir.Value {
			q := bb.Add(c0, lane)
			valid := bb.Lt(q, l.uconst(n))
			p := bb.Add(base, q)
			v := bb.IfElseValues(valid, func() []*ir.Value { return []*ir.Value{ss.value(p)} },
				func() []*ir.Value { return []*ir.Value{ss.identity()} })[0]
			for d := 1; d < ws; d *= 2 {
				y := ss.shfl(ir.ShflUp, v, bb.U32(uint32(d)))
				v = bb.Select(bb.Ge(laneU, bb.U32(uint32(d))), ss.combine(y, v), v)
			}
			acc := ss.combine(c[0], v)
			bb.If(valid, func() { ss.finish(p, acc) })
			return []*ir.Value{ss.shfl(ir.ShflIdx, acc, bb.U32(uint32(ws-1)))}
		})
	})
	return nil
}
