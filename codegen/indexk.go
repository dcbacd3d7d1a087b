// The Index template: scatters as grid-stride loops with a
// data-dependent address (gathers, Take and TakeAlong, are fused into Map
// and Reduce kernels instead: see gatherk.go). A scatter has a thread per
// update:
// ScatterAdd adds with atom.add (red.global.add for ints and floats),
// ScatterMax with atom.max for ints (constant updates, as Bincount's
// ones, are an immediate instead of a load) and a compare-and-swap loop for
// floats (NaN wins), a bool maximum is a store of true; Put (set) first
// finds, per destination, the last update that writes it with atom.max
// into a zeroed scratch array (first launch), and only that update
// stores (second launch), so a repeated index keeps the last update as on
// every other backend. An index out of range is not loaded through: the
// thread raises the kernel's error word (zeroed scratch) with atom.max of
// Positions - position, so the word ends holding the first bad position,
// which the executor reads after the launches (see IndexCheck).
// Nonzero and Compress (a mask) compact in three launches: each thread
// counts the non-zero elements of its own contiguous range of the
// condition, one thread turns the counts into exclusive offsets, and
// each thread writes the indices (Nonzero) or copies the rows
// (Compress) of its range from its offset, so they come out in order.

package codegen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// IndexCheck tells an executor how an Index kernel reports an index out
// of range: after the kernel's launches, the uint64 at the start of
// Signature.Scratch[Scratch] is 0 when every index was in range, else
// Positions - p for the first bad position p of the index array (element
// Offset + p of plan buffer Buffer, of DType). Err turns the word and the
// index read there into the error every backend gives.
//
// With Strides set (a fused gather's index array, which may be a view),
// position p is at element Offset plus the strides of p's row-major
// coordinates over Shape (see Element).
type IndexCheck struct {
	Scratch   int
	Positions int
	Buffer    int
	Offset    int
	DType     graph.DType
	Op        graph.Op
	Axis, Len int
	Shape     []int
	Strides   []int
}

// Element returns the element of the index buffer at position pos.
func (c *IndexCheck) Element(pos int) int {
	if c.Strides == nil {
		return c.Offset + pos
	}
	g := fuse.GatherAttr{Index: fuse.IndexArg{Offset: c.Offset}, Shape: c.Shape, Strides: c.Strides}
	return g.At(pos)
}

// Position returns the bad position the error word w names, false when
// w is 0 (no error).
func (c *IndexCheck) Position(w uint64) (int, bool) {
	if w == 0 || w > uint64(c.Positions) {
		return 0, false
	}
	return c.Positions - int(w), true
}

// Err returns the error of the bad index value v.
func (c *IndexCheck) Err(v int64) error { return graph.IndexError(c.Op, v, c.Axis, c.Len) }

// idxParam declares the pointer parameter of plan buffer buf (once) as
// elements of d and returns its typed pointer.
func (l *lowerer) idxParam(a fuse.IndexArg, written bool) *ir.Value {
	t := memType(a.DType)
	if a.Buffer < 0 || a.Len == 0 {
		return nil
	}
	if _, ok := l.bufs[a.Buffer]; !ok {
		v := l.fn.AddParam(fmt.Sprintf("b%d", a.Buffer), ir.PtrTo(ir.SpaceGlobal, t))
		l.fn.Param(v).ReadOnly = !written
		l.bufs[a.Buffer] = v
		l.typed[ptrKey{a.Buffer, t}] = v
		l.sig.Params = append(l.sig.Params, Param{Kind: ParamBuffer, Name: v.Name, Buffer: a.Buffer, ReadOnly: !written})
	} else if written {
		l.fn.Param(l.bufs[a.Buffer]).ReadOnly = false
		for i := range l.sig.Params {
			if l.sig.Params[i].Kind == ParamBuffer && l.sig.Params[i].Buffer == a.Buffer {
				l.sig.Params[i].ReadOnly = false
			}
		}
	}
	p := l.ptr(a.Buffer, t)
	if a.Offset != 0 {
		p = l.b.Index(p, l.b.Int(ir.S64, int64(a.Offset)))
	}
	return p
}

// idxScratch declares a zeroed scratch area of n bytes as elements of t.
func (l *lowerer) idxScratch(name string, n int64, t ir.Type) *ir.Value {
	v := l.fn.AddParam(name, ir.PtrTo(ir.SpaceGlobal, t))
	l.sig.Scratch = append(l.sig.Scratch, Scratch{Bytes: n, Zero: true})
	l.sig.Params = append(l.sig.Params, Param{Kind: ParamScratch, Name: v.Name, Buffer: len(l.sig.Scratch) - 1})
	return v
}

// indexPointers are the typed pointers of an Index kernel's operands.
type indexPointers struct {
	idx, upd, out, errw, win *ir.Value
}

func (l *lowerer) lowerIndex() error {
	s := l.k.Index()
	if s == nil {
		return fmt.Errorf("index kernel without an IndexSpec")
	}
	if s.Op == graph.OpNonzero || s.Op == graph.OpCompress {
		return l.lowerNonzero()
	}
	if it := s.Index.DType; s.Index.Len > 0 && !it.IsInt() {
		return fmt.Errorf("%v: indices of dtype %v are not supported", s.Op, it)
	}
	if memType(s.Out.DType) == ir.Invalid {
		return fmt.Errorf("%v: dtype %v is not supported", s.Op, s.Out.DType)
	}
	if !s.IsScatter() {
		return fmt.Errorf("%v is not an Index kernel op (gathers are fused into Map and Reduce kernels)", s.Op)
	}
	var ps indexPointers
	ps.idx = l.idxParam(s.Index, false)
	ps.upd = l.idxParam(s.Updates, false)
	ps.out = l.idxParam(s.Out, true)
	positions := s.Count
	ps.errw = l.idxScratch("err", 8, ir.U64)
	l.sig.Check = &IndexCheck{Scratch: len(l.sig.Scratch) - 1, Positions: positions, Buffer: s.Index.Buffer, Offset: s.Index.Offset,
		DType: s.Index.DType, Op: s.Op, Axis: s.Axis, Len: s.Len}
	work := s.Outer * s.Count * s.Inner
	if work == 0 || ps.idx == nil {
		l.launch(1, l.g.Block, 0)
		return nil
	}
	if s.Op == graph.OpScatter {
		ps.win = l.idxScratch("win", int64(s.Len)*8, ir.U64)
		l.addPass()
		l.launch(max(1, min(l.g.Grid, cdiv(s.Count, l.g.Block))), l.g.Block, 0)
		l.launch(l.g.Grid, l.g.Block, 1)
		bb := l.b
		bb.IfElse(bb.Eq(l.pass, bb.S32(0)), func() {
			// Pass 0: the last update of each destination.
			bb.GridStride(l.uconst(s.Count), func(j *ir.Value) {
				l.checkedIndex(&ps, j, positions, func(i *ir.Value) {
					bb.Atomic(ir.AtomMax, bb.Index(ps.win, i), bb.Add(bb.Cvt(j, ir.U64), bb.U64(1)))
				})
			})
		}, func() {
			l.scatterLoop(&ps, positions)
		})
		return nil
	}
	l.launch(l.g.Grid, l.g.Block, 0)
	l.scatterLoop(&ps, positions)
	return nil
}

// checkedIndex loads the index at position pos, normalizes it (a
// negative one counts from the end) and calls body with it in the index
// type; a bad one raises the error word instead.
func (l *lowerer) checkedIndex(ps *indexPointers, pos *ir.Value, positions int, body func(i *ir.Value)) {
	s := l.k.Index()
	bb := l.b
	raw := bb.LoadNC(bb.Index(ps.idx, pos))
	i := bb.Cvt(raw, ir.S64)
	n := bb.S64(int64(s.Len))
	i = bb.Select(bb.Lt(i, bb.S64(0)), bb.Add(i, n), i)
	ok := bb.Lt(bb.Cvt(i, ir.U64), bb.U64(uint64(s.Len)))
	bb.IfElse(ok, func() {
		body(bb.Cvt(i, l.ut))
	}, func() {
		bb.Atomic(ir.AtomMax, ps.errw, bb.Sub(bb.U64(uint64(positions)), bb.Cvt(pos, ir.U64)))
	})
}

// split returns (o, j, in) of linear position p over (Outer, Count,
// Inner).
func (l *lowerer) split(p *ir.Value) (o, j, in *ir.Value) {
	s := l.k.Index()
	c := l.unravel(p, []int{s.Outer, s.Count, s.Inner})
	return c[0], c[1], c[2]
}

// srcOffset is (o*Len + i)*Inner + in.
func (l *lowerer) srcOffset(o, i, in *ir.Value) *ir.Value {
	s := l.k.Index()
	bb := l.b
	r := bb.Add(bb.Mul(o, l.uconst(s.Len)), i)
	if s.Inner != 1 {
		r = bb.Add(bb.Mul(r, l.uconst(s.Inner)), in)
	}
	return r
}

// scatterLoop applies one update per update position.
func (l *lowerer) scatterLoop(ps *indexPointers, positions int) {
	s := l.k.Index()
	bb := l.b
	d := s.Out.DType
	bb.GridStride(l.uconst(s.Outer*s.Count*s.Inner), func(p *ir.Value) {
		o, j, in := l.split(p)
		l.checkedIndex(ps, j, positions, func(i *ir.Value) {
			dst := bb.Index(ps.out, l.srcOffset(o, i, in))
			var u *ir.Value
			switch {
			case s.Const != nil && d == graph.Bool:
				u = bb.Const(ir.U8, uint64(min(max(s.Const.I, 0), 1)))
			case s.Const != nil:
				u = l.constOf(*s.Const, d)
			default:
				u = bb.LoadNC(bb.Index(ps.upd, p))
			}
			switch {
			case s.Op == graph.OpScatter:
				last := bb.Load(bb.Index(ps.win, i))
				bb.If(bb.Eq(last, bb.Add(bb.Cvt(j, ir.U64), bb.U64(1))), func() { bb.Store(dst, u) })
			case s.Op == graph.OpScatterAdd:
				bb.Atomic(ir.AtomAdd, dst, u)
			case d == graph.Bool:
				bb.If(bb.Ne(bb.Cvt(u, ir.U32), bb.U32(0)), func() { bb.Store(dst, bb.Const(ir.U8, 1)) })
			case d.IsInt():
				bb.Atomic(ir.AtomMax, dst, u)
			default:
				l.casMax(dst, u)
			}
		})
	})
}

// casMax raises the float at dst to u with a compare-and-swap loop on
// its bits: the new value is u when u > old or u is NaN (NaN wins, and a
// NaN already there stays).
func (l *lowerer) casMax(dst, u *ir.Value) {
	bb := l.b
	ft := u.Type
	bt := ir.U32
	if ft == ir.F64 {
		bt = ir.U64
	}
	bits := bb.PtrCast(dst, bt)
	ub := bb.Bitcast(u, bt)
	old := bb.Load(bits)
	bb.While([]*ir.Value{old, bb.Bool(true)}, func(v []*ir.Value) *ir.Value { return v[1] }, func(v []*ir.Value) []*ir.Value {
		of := bb.Bitcast(v[0], ft)
		raise := bb.Or(bb.Gt(u, of), bb.Cmp(ir.CmpNEU, u, u))
		nw := bb.Select(raise, ub, v[0])
		prev := bb.AtomicCAS(bits, v[0], nw)
		// Go on while the swap lost a race to another thread and the
		// value must still be raised.
		again := bb.And(raise, bb.Ne(prev, v[0]))
		return []*ir.Value{prev, again}
	})
}

// indexGeometry returns the geometry of an Index kernel: a block of
// threads, enough blocks for its work (capped at waves of the target),
// 32-bit indices when every position and element offset fits.
func indexGeometry(k *fuse.Kernel, block, maxGrid int) Geometry {
	s := k.Index()
	work := 1
	g := Geometry{Block: block, ItemsPerThread: 1, VectorWidth: 1}
	if s != nil && (s.Op == graph.OpNonzero || s.Op == graph.OpCompress) {
		// Threads own contiguous ranges of at least 32 elements, and one
		// thread adds up their counts: few of them.
		g.Index32 = s.Len < math.MaxInt32
		g.Grid = max(1, min(maxGrid/8, cdiv(s.Len, block*32)))
		return g
	}
	if s != nil {
		work = s.Outer * s.Count * s.Inner
		big := max(work, s.Outer*s.Len*s.Inner, s.X.Len, s.Index.Len, s.Updates.Len, s.Out.Len)
		g.Index32 = big < math.MaxInt32
	}
	g.Grid = max(1, min(maxGrid, cdiv(work, block)))
	return g
}

// lowerNonzero lowers Nonzero (see the file comment): pass 0 counts,
// pass 1 (one thread) makes the counts exclusive offsets in place, pass 2
// writes. An index beyond Count (which the counted length rules out)
// is never written.
func (l *lowerer) lowerNonzero() error {
	s := l.k.Index()
	bb := l.b
	// The condition: X for Nonzero, Index for Compress (whose X holds the
	// rows).
	ca := s.X
	if s.Op == graph.OpCompress {
		ca = s.Index
	}
	if regType(ca.DType) == ir.Invalid || memType(s.Out.DType) == ir.Invalid {
		return fmt.Errorf("%v: dtype %v is not supported", s.Op, ca.DType)
	}
	threads := l.g.Grid * l.g.Block
	per := max(1, cdiv(s.Len, threads))
	var x, rows *ir.Value
	if ca.Len > 0 && ca.Buffer >= 0 {
		x = l.idxParam(ca, false)
	}
	if s.Op == graph.OpCompress && s.X.Len > 0 {
		rows = l.idxParam(s.X, false)
	}
	out := l.idxParam(s.Out, true)
	counts := l.idxScratch("counts", int64(threads)*8, ir.U64)
	l.addPass()
	l.launch(l.g.Grid, l.g.Block, 0)
	l.launch(1, 1, 1)
	l.launch(l.g.Grid, l.g.Block, 2)
	if x == nil || out == nil {
		return nil // nothing selected: nothing to write
	}
	nz := func(e *ir.Value) *ir.Value {
		v := l.fromMem(bb.LoadNC(bb.Index(x, e)), ca.DType)
		switch {
		case ca.DType == graph.Bool:
			return v
		case ca.DType.IsFloat():
			return bb.Cmp(ir.CmpNEU, v, bb.Float(v.Type, 0))
		}
		return bb.Ne(v, bb.Int(v.Type, 0))
	}
	t := bb.GlobalIndex(l.ut)
	lo := bb.Min(bb.Mul(t, l.uconst(per)), l.uconst(s.Len))
	hi := bb.Min(bb.Add(lo, l.uconst(per)), l.uconst(s.Len))
	slot := bb.Index(counts, t)
	pass := l.pass
	bb.If(bb.Eq(pass, bb.S32(0)), func() {
		c := bb.ForCarry(lo, hi, l.uconst(1), []*ir.Value{bb.U64(0)}, func(e *ir.Value, c []*ir.Value) []*ir.Value {
			return []*ir.Value{bb.Add(c[0], bb.Select(nz(e), bb.U64(1), bb.U64(0)))}
		})
		bb.Store(slot, c[0])
	})
	bb.If(bb.Eq(pass, bb.S32(1)), func() {
		bb.ForCarry(l.uconst(0), l.uconst(threads), l.uconst(1), []*ir.Value{bb.U64(0)}, func(i *ir.Value, acc []*ir.Value) []*ir.Value {
			p := bb.Index(counts, i)
			c := bb.Load(p)
			bb.Store(p, acc[0])
			return []*ir.Value{bb.Add(acc[0], c)}
		})
	})
	bb.If(bb.Eq(pass, bb.S32(2)), func() {
		start := bb.Load(slot)
		bb.ForCarry(lo, hi, l.uconst(1), []*ir.Value{start}, func(e *ir.Value, k []*ir.Value) []*ir.Value {
			hit := nz(e)
			bb.If(bb.And(hit, bb.Lt(k[0], bb.U64(uint64(s.Count)))), func() {
				if s.Op == graph.OpNonzero {
					bb.Store(bb.Index(out, k[0]), bb.Cvt(e, ir.S64))
					return
				}
				if rows == nil {
					return
				}
				// Copy row e to row k.
				dst := bb.Mul(bb.Cvt(k[0], l.ut), l.uconst(s.Inner))
				src := bb.Mul(e, l.uconst(s.Inner))
				bb.For(l.uconst(0), l.uconst(s.Inner), l.uconst(1), func(c *ir.Value) {
					bb.Store(bb.Index(out, bb.Add(dst, c)), bb.LoadNC(bb.Index(rows, bb.Add(src, c))))
				})
			})
			return []*ir.Value{bb.Add(k[0], bb.Select(hit, bb.U64(1), bb.U64(0)))}
		})
	})
	return nil
}
