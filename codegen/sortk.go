// The Sort template: a stable LSD radix sort of every row at once, in
// launches of one kernel told apart by its pass number. Each key is
// mapped to an unsigned integer whose order is the sort order (the
// table of exec/cpu: NaN last, -0 and +0 equal, a descending sort flips
// every bit), and the row number is sorted as the most significant
// digits, so one global sort orders all rows by (row, key, position).
//
// Launch 0 writes the keys and their flat positions (row*N + j) to the
// first of two ping-pong scratch areas. Then, per 4-bit digit (the key's
// from the lowest, then the row's), three launches: every thread counts
// the digits of its own contiguous range (in registers) into a
// digit-major table (count[d*threads + t]); one block turns the table
// into exclusive offsets in place; every thread walks its range again in
// order and moves each key and position to its digit's next offset
// (kept in registers) in the other area. Ranges in thread order and a
// walk in element order make each pass stable. The last launch stores
// the first K of each row: the position along the row (ArgSort) and the
// key reloaded from the input at that position (Sort), so float values
// keep their bits (-0, NaN payloads).

package codegen

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// Radix sort constants.
const (
	sortDigitBits = 4                  // bits per digit pass
	sortBuckets   = 1 << sortDigitBits // digit values
	sortPerThread = 32                 // elements a thread's range holds at least
)

// sortKeyKind says how a dtype's bits map to an order-preserving key.
type sortKeyKind uint8

const (
	sortKeySigned sortKeyKind = iota + 1 // the sign bit flipped
	sortKeyFloat                         // NaN largest, -0 as +0, negatives inverted, positives' sign bit set
	sortKeyBool                          // a nonzero byte is 1
)

// sortKeyRow is a dtype's key: the bits of its element (and of the
// key), its kind, and for floats the bits of +Inf.
type sortKeyRow struct {
	bits int
	kind sortKeyKind
	inf  uint64
}

// keyBits is the number of significant bits of the key.
func (r sortKeyRow) keyBits() int {
	if r.kind == sortKeyBool {
		return 1
	}
	return r.bits
}

// sortKeyRows has a row for every dtype the GPU sorts (those of
// exec/cpu's table).
var sortKeyRows = map[graph.DType]sortKeyRow{
	graph.Bool:    {8, sortKeyBool, 0},
	graph.Int32:   {32, sortKeySigned, 0},
	graph.Int64:   {64, sortKeySigned, 0},
	graph.Float32: {32, sortKeyFloat, 0x7f800000},
	graph.Float64: {64, sortKeyFloat, 0x7ff0000000000000},
}

// sortDims returns the number of rows and the row length N of a Sort
// kernel.
func sortDims(k *fuse.Kernel) (rows, n int) {
	return spaceSize(k.Space[:len(k.Space)-1]), k.Space[len(k.Space)-1]
}

// sortPasses returns the digit passes of a Sort kernel: those of the key
// and those of the row number.
func sortPasses(k *fuse.Kernel, r sortKeyRow) (key, row int) {
	rows, _ := sortDims(k)
	key = (r.keyBits() + sortDigitBits - 1) / sortDigitBits
	if rows > 1 {
		row = (bits.Len(uint(rows-1)) + sortDigitBits - 1) / sortDigitBits
	}
	return key, row
}

// sortGeometry fills g for a Sort kernel: few threads with ranges of at
// least sortPerThread keys, shared memory for the chunk sums of the
// one-block scan of the count table, 32-bit indices when both ping-pong areas and
// every offset fit.
func sortGeometry(k *fuse.Kernel, block, maxGrid int, g *Geometry) error {
	s := k.Sort()
	if s == nil || len(k.Space) == 0 || len(k.Operands) != 1 || k.Operands[0].Buffer == fuse.NoBuffer {
		return fmt.Errorf("sort kernel without a SortSpec, a space and one buffer operand")
	}
	rows, n := sortDims(k)
	total := rows * n
	g.Strategy = StrategyRadixSort
	g.Block = block
	g.Rows, g.RowLen = rows, n
	g.ItemsPerThread = 1
	g.VectorWidth = 1
	g.Grid = max(1, min(max(1, maxGrid/8), cdiv(total, block*sortPerThread)))
	g.SharedBytes = block * 8
	g.Index32 = g.Index32 && 2*total < math.MaxInt32 && sortBuckets*g.Grid*g.Block < math.MaxInt32
	return nil
}

// checkSort checks a sort geometry against the kernel.
func checkSort(k *fuse.Kernel, g Geometry, bad func(string, ...any) error) error {
	s := k.Sort()
	if s == nil {
		return bad("sort kernel without a SortSpec")
	}
	rows, n := sortDims(k)
	if s.N != n || s.K < 0 || s.K > n {
		return bad("sort of %d keys per row keeping %d in space %v", s.N, s.K, k.Space)
	}
	if g.Strategy != StrategyRadixSort {
		return bad("strategy %v is not a sort strategy", g.Strategy)
	}
	if g.Index32 && (2*rows*n >= math.MaxInt32 || sortBuckets*g.Grid*g.Block >= math.MaxInt32) {
		return bad("32-bit indices for %d keys and %d threads", rows*n, g.Grid*g.Block)
	}
	return nil
}

// sortScratch declares a scratch area of n elements of t (not cleared).
func (l *lowerer) sortScratch(name string, n int, t ir.Type) *ir.Value {
	v := l.fn.AddParam(name, ir.PtrTo(ir.SpaceGlobal, t))
	l.sig.Scratch = append(l.sig.Scratch, Scratch{Bytes: int64(max(n, 1)) * int64(t.Bits()/8)})
	l.sig.Params = append(l.sig.Params, Param{Kind: ParamScratch, Name: v.Name, Buffer: len(l.sig.Scratch) - 1})
	return v
}

// sortState is the lowering of one Sort kernel.
type sortState struct {
	l          *lowerer
	spec       *fuse.SortSpec
	op         fuse.Operand
	row        sortKeyRow
	kt         ir.Type // the key's register type (u32 or u64)
	rows, n    int
	total      int
	threads    int
	per        int
	keyPasses  int
	rowPasses  int
	keys, idx  *ir.Value // ping-pong areas of 2*total keys and positions
	counts     *ir.Value // the digit-major table of sortBuckets*threads
	rowExtents []int
	raw        *ir.Value // the operand's buffer as unsigned words of its size
}

func (l *lowerer) lowerSort() error {
	s := l.k.Sort()
	op := l.k.Operands[0]
	r, ok := sortKeyRows[op.DType]
	if !ok {
		return fmt.Errorf("sort of dtype %v is not supported", op.DType)
	}
	for _, st := range l.k.Stores {
		switch {
		case st.Value == fuse.SortValues && st.DType == op.DType:
		case st.Value == fuse.SortIndices && st.DType == graph.Int64:
		default:
			return fmt.Errorf("sort store of value %d and dtype %v", st.Value, st.DType)
		}
	}
	ss := &sortState{l: l, spec: s, op: op, row: r, kt: ir.U32}
	if r.bits == 64 {
		ss.kt = ir.U64
	}
	ss.rows, ss.n = sortDims(l.k)
	ss.total = ss.rows * ss.n
	ss.threads = l.g.Grid * l.g.Block
	ss.per = cdiv(ss.total, ss.threads)
	ss.keyPasses, ss.rowPasses = sortPasses(l.k, r)
	ss.rowExtents = append([]int(nil), l.k.Space[:len(l.k.Space)-1]...)
	ss.keys = l.sortScratch("keys", 2*ss.total, ss.kt)
	ss.idx = l.sortScratch("pos", 2*ss.total, l.ut)
	ss.counts = l.sortScratch("counts", sortBuckets*ss.threads, l.ut)
	rawT := map[int]ir.Type{8: ir.U8, 32: ir.U32, 64: ir.U64}[r.bits]
	ss.raw = l.ptr(op.Buffer, rawT) // in the entry block: it dominates every use
	l.addPass()
	digits := ss.keyPasses + ss.rowPasses
	l.launch(l.g.Grid, l.g.Block, 0)
	for p := range digits {
		base := int32(1 + 3*p)
		l.launch(l.g.Grid, l.g.Block, base)
		l.launch(1, l.g.Block, base+1)
		l.launch(l.g.Grid, l.g.Block, base+2)
	}
	last := int32(1 + 3*digits)
	l.launch(max(1, min(l.g.Grid, cdiv(ss.rows*s.K, l.g.Block))), l.g.Block, last)
	if ss.total == 0 || s.K == 0 {
		return nil
	}
	bb := l.b
	pass := l.pass
	bb.If(bb.Eq(pass, bb.S32(0)), ss.load)
	bb.If(bb.And(bb.Gt(pass, bb.S32(0)), bb.Lt(pass, bb.S32(last))), ss.digitPass)
	bb.If(bb.Eq(pass, bb.S32(last)), ss.store)
	return nil
}

// key returns the order-preserving key of flat position e.
func (ss *sortState) key(e *ir.Value) *ir.Value {
	l, bb := ss.l, ss.l.b
	r := ss.row
	var raw *ir.Value
	off := l.newSpaceIndexer(ss.l.k.Space, e).offset(ss.op.Offset, ss.op.Strides)
	raw = bb.LoadNC(bb.Index(ss.raw, off))
	if r.bits == 8 {
		raw = bb.Cvt(raw, ir.U32)
	}
	kt := ss.kt
	sign := bb.Const(kt, 1<<(r.bits-1))
	var k *ir.Value
	switch r.kind {
	case sortKeyBool:
		k = bb.Select(bb.Ne(raw, bb.U32(0)), bb.U32(1), bb.U32(0))
	case sortKeySigned:
		k = bb.Xor(raw, sign)
	case sortKeyFloat:
		abs := bb.And(raw, bb.Not(sign))
		k = bb.Select(bb.Ne(bb.And(raw, sign), bb.Const(kt, 0)), bb.Not(raw), bb.Or(raw, sign))
		k = bb.Select(bb.Eq(abs, bb.Const(kt, 0)), sign, k)
		k = bb.Select(bb.Gt(abs, bb.Const(kt, r.inf)), bb.Const(kt, math.MaxUint64>>(64-r.bits)), k)
	}
	if ss.spec.Desc {
		k = bb.Xor(k, bb.Const(kt, math.MaxUint64>>(64-r.keyBits())))
	}
	return k
}

// load is launch 0: every key and its flat position into area 0.
func (ss *sortState) load() {
	l, bb := ss.l, ss.l.b
	bb.GridStride(l.uconst(ss.total), func(e *ir.Value) {
		bb.Store(bb.Index(ss.keys, e), ss.key(e))
		bb.Store(bb.Index(ss.idx, e), e)
	})
}

// digitPass is the three launches of one digit: pass 1+3p+phase.
func (ss *sortState) digitPass() {
	l, bb := ss.l, ss.l.b
	q := bb.Sub(l.pass, bb.S32(1))
	p := bb.Div(q, bb.S32(3))
	phase := bb.Rem(q, bb.S32(3))
	bb.If(bb.Eq(phase, bb.S32(1)), ss.scan)
	bb.If(bb.Ne(phase, bb.S32(1)), func() {
		// Area p&1 holds the keys of digit p; the other receives them.
		src := bb.Cvt(bb.And(p, bb.S32(1)), l.ut)
		srcOff := bb.Mul(src, l.uconst(ss.total))
		dstOff := bb.Mul(bb.Sub(l.uconst(1), src), l.uconst(ss.total))
		isRow := bb.Ge(p, bb.S32(int32(ss.keyPasses)))
		keyShift := bb.Cvt(bb.Mul(p, bb.S32(sortDigitBits)), ir.U32)
		rowShift := bb.Cvt(bb.Mul(bb.Sub(p, bb.S32(int32(ss.keyPasses))), bb.S32(sortDigitBits)), ir.U32)
		// A digit of the row number only when rows remain to sort.
		keyShift = bb.Select(isRow, bb.U32(0), keyShift)
		rowShift = bb.Select(isRow, rowShift, bb.U32(0))
		mask := l.uconst(sortBuckets - 1)
		digit := func(k, e *ir.Value) *ir.Value {
			kd := bb.Cvt(bb.And(bb.Shr(k, keyShift), bb.Const(ss.kt, sortBuckets-1)), l.ut)
			rd := bb.And(bb.Shr(bb.Div(e, l.uconst(ss.n)), rowShift), mask)
			return bb.Select(isRow, rd, kd)
		}
		t := bb.GlobalIndex(l.ut)
		lo := bb.Min(bb.Mul(t, l.uconst(ss.per)), l.uconst(ss.total))
		hi := bb.Min(bb.Add(lo, l.uconst(ss.per)), l.uconst(ss.total))
		slot := func(d *ir.Value) *ir.Value {
			return bb.Index(ss.counts, bb.Add(bb.Mul(d, l.uconst(ss.threads)), t))
		}
		bb.If(bb.Lt(t, l.uconst(ss.threads)), func() {
			bb.IfElse(bb.Eq(phase, bb.S32(0)), func() {
				// Count the digits of the range in registers.
				zero := make([]*ir.Value, sortBuckets)
				for d := range zero {
					zero[d] = l.uconst(0)
				}
				n := bb.ForCarry(lo, hi, l.uconst(1), zero, func(i *ir.Value, c []*ir.Value) []*ir.Value {
					k := bb.Load(bb.Index(ss.keys, bb.Add(srcOff, i)))
					e := bb.Load(bb.Index(ss.idx, bb.Add(srcOff, i)))
					return ss.bump(c, digit(k, e), nil)
				})
				for d := range n {
					bb.Store(slot(l.uconst(d)), n[d])
				}
			}, func() {
				// Move each key to its digit's next offset, in order, the
				// offsets in registers.
				start := make([]*ir.Value, sortBuckets)
				for d := range start {
					start[d] = bb.Load(slot(l.uconst(d)))
				}
				bb.ForCarry(lo, hi, l.uconst(1), start, func(i *ir.Value, c []*ir.Value) []*ir.Value {
					k := bb.Load(bb.Index(ss.keys, bb.Add(srcOff, i)))
					e := bb.Load(bb.Index(ss.idx, bb.Add(srcOff, i)))
					var at *ir.Value
					next := ss.bump(c, digit(k, e), &at)
					bb.Store(bb.Index(ss.keys, bb.Add(dstOff, at)), k)
					bb.Store(bb.Index(ss.idx, bb.Add(dstOff, at)), e)
					return next
				})
			})
		})
	})
}

// bump returns the counters c with the one of digit d incremented, and
// sets *at (when at is not nil) to that counter's value before.
func (ss *sortState) bump(c []*ir.Value, d *ir.Value, at **ir.Value) []*ir.Value {
	l, bb := ss.l, ss.l.b
	out := make([]*ir.Value, len(c))
	one, zero := l.uconst(1), l.uconst(0)
	for b := range c {
		hit := bb.Eq(d, l.uconst(b))
		if at != nil {
			if *at == nil {
				*at = c[b]
			} else {
				*at = bb.Select(hit, c[b], *at)
			}
		}
		out[b] = bb.Add(c[b], bb.Select(hit, one, zero))
	}
	return out
}

// scan turns the digit-major count table into exclusive offsets in
// place, in one block: each thread adds up its own contiguous chunk of
// the table, thread 0 makes the chunk sums exclusive in shared memory,
// and each thread rewrites its chunk from its sum's offset.
func (ss *sortState) scan() {
	l, bb := ss.l, ss.l.b
	m := sortBuckets * ss.threads
	chunk := cdiv(m, l.g.Block)
	sh := l.fn.AddShared("sort_sums", l.ut, l.g.Block)
	tid := bb.Cvt(bb.TidX(), l.ut)
	lo := bb.Min(bb.Mul(tid, l.uconst(chunk)), l.uconst(m))
	hi := bb.Min(bb.Add(lo, l.uconst(chunk)), l.uconst(m))
	sum := bb.ForCarry(lo, hi, l.uconst(1), []*ir.Value{l.uconst(0)}, func(i *ir.Value, acc []*ir.Value) []*ir.Value {
		return []*ir.Value{bb.Add(acc[0], bb.Load(bb.Index(ss.counts, i)))}
	})
	bb.Store(bb.Index(sh, tid), sum[0])
	bb.Barrier()
	bb.If(bb.Eq(tid, l.uconst(0)), func() {
		bb.ForCarry(l.uconst(0), l.uconst(l.g.Block), l.uconst(1), []*ir.Value{l.uconst(0)}, func(i *ir.Value, acc []*ir.Value) []*ir.Value {
			p := bb.Index(sh, i)
			c := bb.Load(p)
			bb.Store(p, acc[0])
			return []*ir.Value{bb.Add(acc[0], c)}
		})
	})
	bb.Barrier()
	bb.ForCarry(lo, hi, l.uconst(1), []*ir.Value{bb.Load(bb.Index(sh, tid))}, func(i *ir.Value, acc []*ir.Value) []*ir.Value {
		p := bb.Index(ss.counts, i)
		c := bb.Load(p)
		bb.Store(p, acc[0])
		return []*ir.Value{bb.Add(acc[0], c)}
	})
}

// store is the last launch: the first K of each row, from the area the
// last digit pass wrote.
func (ss *sortState) store() {
	l, bb := ss.l, ss.l.b
	kk := ss.spec.K
	final := ((ss.keyPasses + ss.rowPasses) & 1) * ss.total
	outExt := append(append([]int(nil), ss.rowExtents...), kk)
	bb.GridStride(l.uconst(ss.rows*kk), func(q *ir.Value) {
		r, i := bb.Div(q, l.uconst(kk)), bb.Rem(q, l.uconst(kk))
		at := l.addConst(bb.Add(bb.Mul(r, l.uconst(ss.n)), i), final)
		e := bb.Load(bb.Index(ss.idx, at))
		j := bb.Rem(e, l.uconst(ss.n))
		out := l.newSpaceIndexer(outExt, q)
		for _, st := range l.k.Stores {
			dst := bb.Index(l.ptr(st.Buffer, memType(st.DType)), out.offset(st.Offset, st.Strides))
			if st.Value == fuse.SortIndices {
				bb.Store(dst, bb.Cvt(j, ir.S64))
				continue
			}
			src := l.newSpaceIndexer(l.k.Space, e).offset(ss.op.Offset, ss.op.Strides)
			bb.Store(dst, bb.LoadNC(bb.Index(l.ptr(ss.op.Buffer, memType(ss.op.DType)), src)))
		}
	})
}
