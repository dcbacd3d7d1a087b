// Column reductions (O2 > 1 output points inside the reduced axes): each
// of the O1 slabs is R rows of O2 contiguous columns, folded row by row
// into per-column typed states (reduce_colops.go), several rows per call
// where the rows are wide (colOp.rows). A task owns one slab, one block
// of columns and one piece of the rows; the pieces' states are merged in
// range order by typed loops over the whole block. Tasks of Any and All
// stop once every state of their block is decided.

package cpu

import (
	"context"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

const (
	// colBlock bounds the columns a task folds at a time: their states
	// (8 or 16 bytes each) stay in L2 while rows of them stream by, whole
	// rows where they fit (a row of a row-major matrix is one run of
	// memory; blocks of it are runs the prefetchers must find again).
	colBlock = 8192
	// colWide is the width narrow rows are grouped to: rows of fewer
	// than colWide values are grouped m at a time into super-rows of
	// m*O2 <= colWide values, folded as one row into m*O2 states.
	colWide = 512
	// colTasks is the number of tasks below which the rows are split
	// into pieces, and colMinRows the fewest (super-)rows in a piece:
	// each piece's states are read out and combined one by one, so a
	// piece folds many rows to make that cost small.
	colTasks   = 32
	colMinRows = 512
	// colCheck is the (super-)rows an Any or All column task folds
	// between checks whether all its states are decided.
	colCheck = 64
	// colRows is the most (super-)rows folded by one call of a multi-row
	// column fold (colOp.rows): each state is read and written once per
	// call while the rows stream by.
	colRows = 8
	// colRowsBytes is the least row of values (bytes) folded by the
	// multi-row folds: narrower rows and their states stay in L1 while a
	// row streams by, and one stream at a time reads faster there.
	colRowsBytes = 8192
)

// colPlan is the split of a column reduction.
type colPlan struct {
	m      int // rows per super-row
	w      int // columns of a block (m*O2 for super-rows)
	blocks int // column blocks per slab
	srows  int // super-rows per slab
	pieces int // row pieces per block
	per    int // super-rows per piece
}

func (rk *redKernel) colPlan(chunk int) colPlan {
	O2, R := rk.o2, rk.inner
	c := colPlan{m: 1, w: min(O2, colBlock)}
	if O2 < colWide && O2 <= chunk {
		c.m = min(max(1, min(colWide, chunk)/O2), R)
		c.w = c.m * O2
	}
	c.blocks = (O2 + c.w - 1) / c.w
	if c.m > 1 {
		c.blocks = 1
	}
	c.srows = (R + c.m - 1) / c.m
	base := rk.o1 * c.blocks
	c.pieces = 1
	if base < colTasks {
		c.pieces = max(1, min((colTasks+base-1)/base, c.srows/colMinRows))
	}
	c.per = (c.srows + c.pieces - 1) / c.pieces
	c.pieces = (c.srows + c.per - 1) / c.per
	return c
}

// colDecides reports whether the kernel is of Any and All only, each
// with a decided test of its column states.
func (rk *redKernel) colDecides() bool {
	for _, op := range rk.col {
		if op.decided == nil {
			return false
		}
	}
	return rk.decides
}

// columns runs the column reduction into accs. With one piece per
// block a task reads its states out itself; with several, each task
// keeps its own states, and once all are done the states of each
// block's pieces are merged in range order (typed loops over whole
// blocks of columns) and read out once.
func (rk *redKernel) columns(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	nred := len(rk.reds)
	c := rk.colPlan(chunk)
	words := 0
	for _, op := range rk.col {
		words += op.words * c.w
	}
	tasks := rk.o1 * c.blocks * c.pieces
	nw := max(1, min(workers, tasks))
	nst := nw // per worker, or per task when pieces are merged
	if c.pieces > 1 {
		nst = tasks
	}
	mp := colMem(nst * words)
	defer colMemPool.Put(mp)
	mem := *mp
	stateOf := func(i int) []unsafe.Pointer {
		st := make([]unsafe.Pointer, nred)
		off := i * words
		for j, op := range rk.col {
			st[j] = unsafe.Pointer(&mem[off])
			off += op.words * c.w
		}
		return st
	}
	// decided[t/pieces]: a piece of the block found all its states
	// decided, so the other pieces of the block need fold no more.
	var decided []atomic.Bool
	if rk.colDecides() {
		decided = make([]atomic.Bool, rk.o1*c.blocks)
	}
	err := parallel(ctx, workers, tasks, func(w, t int) {
		slot := w
		if c.pieces > 1 {
			slot = t
		}
		st := stateOf(slot)
		rk.colTask(ex, st, c, decided, chunk, w, t)
		if c.pieces == 1 {
			rk.colRead(accs, st, c, t)
		}
	})
	if err != nil || c.pieces == 1 {
		return err
	}
	for b := range rk.o1 * c.blocks {
		st := stateOf(b * c.pieces)
		for p := 1; p < c.pieces; p++ {
			src := stateOf(b*c.pieces + p)
			for j, op := range rk.col {
				op.merge(st[j], src[j], c.w, c.w)
			}
		}
		rk.colRead(accs, st, c, b*c.pieces)
	}
	return nil
}

// colMemPool keeps the state memory of column reductions between calls
// (a megabyte or two where pieces keep their own states); every state a
// task reads is set by its init or its folds first, so it is not
// cleared.
var colMemPool sync.Pool

// colMem returns n words from colMemPool, or new ones.
func colMem(n int) *[]uint64 {
	if p, _ := colMemPool.Get().(*[]uint64); p != nil && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	m := make([]uint64, n)
	return &m
}

// colTask folds the rows of task t (one piece of one column block of
// one slab) into the states st on worker w, and flushes them.
func (rk *redKernel) colTask(ex *runState, st []unsafe.Pointer, c colPlan, decided []atomic.Bool, chunk, w, t int) {
	O2, R := rk.o2, rk.inner
	f := ex.frame(w, rk.pro, chunk)
	p := t % c.pieces
	blk := (t / c.pieces) % c.blocks
	o1 := t / (c.pieces * c.blocks)
	col0 := blk * c.w
	width := min(c.w, O2-col0) // columns of the block (m == 1)
	for j, op := range rk.col {
		op.init(st[j], c.w)
	}
	r0, r1 := p*c.per*c.m, min(R, (p+1)*c.per*c.m)
	first := true
	fold := func(vals, k0, n, row int) {
		for j, r := range rk.reds {
			src := at(f.ptr[r.Value], vals, rk.vdt[j].Size())
			if first {
				rk.col[j].load(st[j], c.w, k0, src, n, int64(row))
			} else {
				rk.col[j].fold(st[j], c.w, k0, src, n, int64(row))
			}
		}
	}
	// foldRows folds q whole super-rows of c.w values from vals, the
	// first at row row (not the first row of the task).
	foldRows := func(vals, q, row int) {
		for j, r := range rk.reds {
			src := at(f.ptr[r.Value], vals, rk.vdt[j].Size())
			if op := rk.col[j]; op.rows != nil && c.w*rk.vdt[j].Size() >= colRowsBytes {
				op.rows(st[j], c.w, src, q)
				continue
			}
			for i := range q {
				rk.col[j].fold(st[j], c.w, 0, at(src, i*c.w, rk.vdt[j].Size()), c.w, int64(row+i*c.m))
			}
		}
	}
	folds := 0 // whole (super-)rows folded since the last flush
	flush := func(n int, force bool) {
		if folds += n; folds < colFlush && !force {
			return
		}
		folds = 0
		for j, op := range rk.col {
			if op.flush != nil {
				op.flush(st[j], c.w, c.w)
			}
		}
	}
	// stop reports, every colCheck (super-)rows of an Any/All kernel,
	// whether this block is decided, here or in another piece.
	since := 0
	stop := func(n, width int) bool {
		if decided == nil {
			return false
		}
		if since += n; since < colCheck {
			return false
		}
		since = 0
		if decided[t/c.pieces].Load() {
			return true
		}
		for j, op := range rk.col {
			if !op.decided(st[j], width) {
				return false
			}
		}
		decided[t/c.pieces].Store(true)
		return true
	}
	base := o1 * R * O2
	if c.blocks == 1 && c.w <= chunk {
		// Whole rows: evaluate as many super-rows as a chunk holds and
		// fold them colRows at a time, between flushes and checks.
		per := max(1, chunk/c.w) * c.m
	wide:
		for a := r0; a < r1; a += per {
			b := min(r1, a+per)
			rk.pro.runChunk(f, ex.bases, nil, base+a*O2, (b-a)*O2)
			row := a
			if first {
				fold(0, 0, (min(b, row+c.m)-row)*O2, row)
				first = false
				row += c.m
				flush(1, false)
				if stop(1, c.w) {
					break wide
				}
			}
			for row < b {
				q := min(colRows, (b-row)/c.m, colFlush-folds)
				if decided != nil {
					q = min(q, colCheck-since)
				}
				if q == 0 { // a last, partial super-row
					fold((row-a)*O2, 0, (b-row)*O2, row)
					row = b
					q = 1
				} else {
					foldRows((row-a)*O2, q, row)
					row += q * c.m
				}
				flush(q, false)
				if stop(q, c.w) {
					break wide
				}
			}
		}
	} else {
		// A block of one row at a time, a chunk at a time.
		for row := r0; row < r1; row++ {
			for k0 := 0; k0 < width; k0 += chunk {
				n := min(chunk, width-k0)
				rk.pro.runChunk(f, ex.bases, nil, base+row*O2+col0+k0, n)
				fold(0, k0, n, row)
			}
			first = false
			flush(1, false)
			if stop(1, width) {
				break
			}
		}
	}
	flush(0, true)
}

// colRead reads out the states st of task t's block (all its pieces
// merged): super-rows combine their m sub-rows, and each column's
// result is written to accs.
func (rk *redKernel) colRead(accs []unsafe.Pointer, st []unsafe.Pointer, c colPlan, t int) {
	O2 := rk.o2
	blk := (t / c.pieces) % c.blocks
	o1 := t / (c.pieces * c.blocks)
	col0 := blk * c.w
	cols := min(c.w, O2-col0)
	if c.m > 1 {
		cols = O2
	}
	for j, r := range rk.reds {
		op := rk.col[j]
		if op.collect != nil && r.DType == graph.Bool {
			op.collect(st[j], c.m, O2, cols, at(accs[j], o1*O2+col0, 1))
			continue
		}
		if op.results != nil && (r.DType == graph.Float32 || r.DType == graph.Float64) {
			op.results(st[j], c.m, O2, cols, at(accs[j], o1*O2+col0, r.DType.Size()), r.DType)
			continue
		}
		arg, float := r.Op == graph.OpArgMax || r.Op == graph.OpArgMin, rk.vdt[j].IsFloat()
		for k := range cols {
			s := op.read(st[j], c.w, k)
			for i := 1; i < c.m; i++ {
				b := op.read(st[j], c.w, i*O2+k)
				if arg {
					if b.x >= 0 {
						b.x += int64(i)
					}
					mergeArg(r.Op == graph.OpArgMax, float, &s, b)
				} else {
					combine(r.Op, float, &s, b)
				}
			}
			finish(r.Op, r.DType, &s, at(accs[j], o1*O2+col0+k, r.DType.Size()))
		}
	}
}
