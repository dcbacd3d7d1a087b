// The MatMul template: a shared-memory tiled GEMM with 2-D register
// blocking. A block computes a BM x BN tile of one batch's product,
// stepping BK along K: the block stages the A and B tiles in shared
// memory (zero outside the matrices, so any M, N, K work), then each
// thread accumulates its TM x TN outputs in registers from vector loads
// of the staged tiles. The epilogue runs per output point in bounds.

package codegen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// matFits32 reports whether every element offset of m fits an int32.
func matFits32(m fuse.MatOperand, space []int, rows, cols int) bool {
	ext := append(append([]int(nil), space[:len(space)-2]...), rows, cols)
	lo, hi := m.Offset, m.Offset
	for i, s := range m.Strides {
		if ext[i] == 0 {
			return true
		}
		if s > 0 {
			hi += (ext[i] - 1) * s
		} else {
			lo += (ext[i] - 1) * s
		}
	}
	return lo >= math.MinInt32 && hi <= math.MaxInt32
}

// gemm holds the lowering state of a MatMul kernel.
type gemm struct {
	l        *lowerer
	mm       *fuse.MatMulSpec
	tile     Tile
	t        ir.Type // element and accumulator type
	nb       int     // batch axes
	as, bs   *ir.Value
	pa, pb   *ir.Value
	tid      *ir.Value
	tx, ty   *ir.Value
	m0, n0   *ir.Value // first row and column of the block's tile
	batchCo  []*ir.Value
	aBase    *ir.Value
	bBase    *ir.Value
	epilogue []bool
}

func (l *lowerer) lowerMatMul() error {
	k := l.k
	mm := k.MatMul()
	if mm == nil {
		return fmt.Errorf("matmul kernel without a MatMulSpec")
	}
	if mm.A.DType != mm.B.DType || mm.A.DType == graph.Bool || regType(mm.A.DType) == ir.Invalid {
		return fmt.Errorf("matmul of %v by %v is not supported", mm.A.DType, mm.B.DType)
	}
	nd := len(k.Space)
	if nd < 2 || k.Space[nd-2] != mm.M || k.Space[nd-1] != mm.N || len(mm.A.Strides) != nd || len(mm.B.Strides) != nd {
		return fmt.Errorf("matmul space %v does not match M %d, N %d and the operands' ranks", k.Space, mm.M, mm.N)
	}
	if !matFits32(mm.A, k.Space, mm.M, mm.K) || !matFits32(mm.B, k.Space, mm.K, mm.N) {
		l.ut = ir.U64
	}
	g := &gemm{l: l, mm: mm, tile: l.g.Tile, t: regType(mm.A.DType), nb: nd - 2}
	roots := make([]int, len(k.Stores))
	for i, s := range k.Stores {
		if s.Value < 0 || s.Value >= len(mm.Epilogue) {
			return fmt.Errorf("store of value %d, the epilogue has %d", s.Value, len(mm.Epilogue))
		}
		roots[i] = s.Value
	}
	g.epilogue = needed(mm.Epilogue, roots)
	return g.lower()
}

func (g *gemm) lower() error {
	l, bb, tl, mm := g.l, g.l.b, g.tile, g.mm
	g.pa = l.ptr(mm.A.Buffer, memType(mm.A.DType))
	g.pb = l.ptr(mm.B.Buffer, memType(mm.B.DType))
	g.as = l.fn.AddShared("As", g.t, tl.BK*tl.BM)
	g.bs = l.fn.AddShared("Bs", g.t, tl.BK*tl.BN)
	tilesM := (mm.M + tl.BM - 1) / tl.BM
	tilesN := (mm.N + tl.BN - 1) / tl.BN
	batch := spaceSize(l.k.Space[:g.nb])
	l.launch(tilesM*tilesN*batch, l.g.Block, 0)

	g.tid = bb.Cvt(bb.TidX(), l.ut)
	cols := tl.BN / tl.TN
	g.tx = bb.Rem(g.tid, l.uconst(cols))
	g.ty = bb.Div(g.tid, l.uconst(cols))
	b := bb.Cvt(bb.CtaidX(), l.ut)
	per := l.uconst(tilesM * tilesN)
	bat, rem := bb.Div(b, per), bb.Rem(b, per)
	g.m0 = bb.Mul(bb.Div(rem, l.uconst(tilesN)), l.uconst(tl.BM))
	g.n0 = bb.Mul(bb.Rem(rem, l.uconst(tilesN)), l.uconst(tl.BN))
	if g.nb > 0 {
		g.batchCo = l.unravel(bat, l.k.Space[:g.nb])
	}
	g.aBase = g.batchBase(mm.A.Offset, mm.A.Strides)
	g.bBase = g.batchBase(mm.B.Offset, mm.B.Strides)

	init := make([]*ir.Value, tl.TM*tl.TN)
	for i := range init {
		init[i] = bb.Zero(g.t)
	}
	acc := bb.ForCarry(l.uconst(0), l.uconst(mm.K), l.uconst(tl.BK), init, func(k0 *ir.Value, acc []*ir.Value) []*ir.Value {
		g.stageA(k0)
		g.stageB(k0)
		bb.Barrier()
		acc = g.multiply(acc)
		bb.Barrier()
		return acc
	})
	return g.finish(acc)
}

// batchBase returns off plus the offset of the block's batch point.
func (g *gemm) batchBase(off int, strides []int) *ir.Value {
	l := g.l
	base := l.uconst(off)
	if g.nb == 0 {
		return base
	}
	return l.affine(base, strides[:g.nb], g.batchCo)
}

// stage copies a rows x cols tile of a matrix operand into shared memory
// laid out k-major: for A (rows m, cols k) As[kk*BM+mm], for B (rows k,
// cols n) Bs[kk*BN+nn]. Consecutive threads take consecutive elements
// along the operand's unit-stride axis; elements outside the matrix are 0.
// Operands the kernel never writes are read through the non-coherent
// cache.
func (g *gemm) stage(op fuse.MatOperand, p, base, sh *ir.Value, r0, c0 *ir.Value, tr, tc, nr, nc int, aSide bool) {
	l, bb := g.l, g.l.b
	rs, cs := op.Strides[g.nb], op.Strides[g.nb+1]
	n := tr * tc
	block := l.g.Block
	for q := 0; q < n; q += block {
		idx := g.tid
		if q > 0 {
			idx = bb.Add(idx, l.uconst(q))
		}
		body := func() {
			var rr, cc *ir.Value
			if op.Trans { // rows contiguous
				rr, cc = bb.Rem(idx, l.uconst(tr)), bb.Div(idx, l.uconst(tr))
			} else {
				rr, cc = bb.Div(idx, l.uconst(tc)), bb.Rem(idx, l.uconst(tc))
			}
			gr, gc := bb.Add(r0, rr), bb.Add(c0, cc)
			in := bb.And(bb.Lt(gr, l.uconst(nr)), bb.Lt(gc, l.uconst(nc)))
			v := bb.IfElseValues(in, func() []*ir.Value {
				off := l.affine(base, []int{rs, cs}, []*ir.Value{gr, gc})
				at := bb.Index(p, off)
				if l.fn.Param(l.bufs[op.Buffer]).ReadOnly {
					return []*ir.Value{bb.LoadNC(at)}
				}
				return []*ir.Value{bb.Load(at)}
			}, func() []*ir.Value { return []*ir.Value{bb.Zero(g.t)} })[0]
			var at *ir.Value
			if aSide { // As[kk*BM + mm], kk = cc
				at = bb.Add(bb.Mul(cc, l.uconst(tr)), rr)
			} else { // Bs[kk*BN + nn], kk = rr
				at = bb.Add(bb.Mul(rr, l.uconst(tc)), cc)
			}
			bb.Store(bb.Index(sh, at), v)
		}
		if q+block > n {
			bb.If(bb.Lt(idx, l.uconst(n)), body)
		} else {
			body()
		}
	}
}

func (g *gemm) stageA(k0 *ir.Value) {
	tl := g.tile
	g.stage(g.mm.A, g.pa, g.aBase, g.as, g.m0, k0, tl.BM, tl.BK, g.mm.M, g.mm.K, true)
}

func (g *gemm) stageB(k0 *ir.Value) {
	tl := g.tile
	g.stage(g.mm.B, g.pb, g.bBase, g.bs, k0, g.n0, tl.BK, tl.BN, g.mm.K, g.mm.N, false)
}

// vecWidth returns the widest shared vector load (16 bytes at most) that
// divides n elements of the element type.
func (g *gemm) vecWidth(n int) int {
	for _, w := range []int{4, 2} {
		if n%w == 0 && w*g.t.Size() <= 16 {
			return w
		}
	}
	return 1
}

// loadRun loads n consecutive shared elements starting at index at.
func (g *gemm) loadRun(sh, at *ir.Value, n int) []*ir.Value {
	l, bb := g.l, g.l.b
	w := g.vecWidth(n)
	out := make([]*ir.Value, 0, n)
	for i := 0; i < n; i += w {
		p := bb.Index(sh, l.addConst(at, i))
		if w == 1 {
			out = append(out, bb.Load(p))
		} else {
			out = append(out, bb.LoadVec(p, w)...)
		}
	}
	return out
}

// multiply accumulates the staged tiles into acc (TM x TN, row-major).
func (g *gemm) multiply(acc []*ir.Value) []*ir.Value {
	l, bb, tl := g.l, g.l.b, g.tile
	aRow := bb.Mul(g.ty, l.uconst(tl.TM))
	bCol := bb.Mul(g.tx, l.uconst(tl.TN))
	acc = append([]*ir.Value(nil), acc...)
	for kk := 0; kk < tl.BK; kk++ {
		av := g.loadRun(g.as, l.addConst(aRow, kk*tl.BM), tl.TM)
		bv := g.loadRun(g.bs, l.addConst(bCol, kk*tl.BN), tl.TN)
		for i := range tl.TM {
			for j := range tl.TN {
				c := acc[i*tl.TN+j]
				if g.t.IsFloat() {
					acc[i*tl.TN+j] = bb.FMA(av[i], bv[j], c)
				} else {
					acc[i*tl.TN+j] = bb.Add(c, bb.Mul(av[i], bv[j]))
				}
			}
		}
	}
	return acc
}

// finish evaluates the epilogue at each of the thread's output points
// inside the matrix and stores the results.
func (g *gemm) finish(acc []*ir.Value) error {
	l, bb, tl := g.l, g.l.b, g.tile
	k := l.k
	nd := len(k.Space)
	var err error
	rowBase := bb.Add(g.m0, bb.Mul(g.ty, l.uconst(tl.TM)))
	colBase := bb.Add(g.n0, bb.Mul(g.tx, l.uconst(tl.TN)))
	for i := range tl.TM {
		m := l.addConst(rowBase, i)
		for j := range tl.TN {
			n := l.addConst(colBase, j)
			a := acc[i*tl.TN+j]
			in := bb.And(bb.Lt(m, l.uconst(g.mm.M)), bb.Lt(n, l.uconst(g.mm.N)))
			bb.If(in, func() {
				off := func(o int, strides []int) *ir.Value {
					base := g.batchBase(o, strides)
					return l.affine(base, strides[nd-2:], []*ir.Value{m, n})
				}
				env := pointEnv{
					load: func(op int) *ir.Value {
						o := k.Operands[op]
						return l.load(o.Buffer, o.DType, off(o.Offset, o.Strides))
					},
					index: func(op int) *ir.Value {
						o := k.Operands[op]
						return off(o.Offset, o.Strides)
					},
					acc: func(int) *ir.Value { return a },
				}
				vals, e := l.evalBody(g.mm.Epilogue, env, g.epilogue)
				if e != nil {
					err = fmt.Errorf("epilogue: %w", e)
					return
				}
				for _, s := range k.Stores {
					l.store(s.Buffer, s.DType, off(s.Offset, s.Strides), vals[s.Value])
				}
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}
