// Column reductions (O2 > 1 output points inside the reduced axes): each
// of the O1 slabs is R rows of O2 contiguous columns, folded row by row
// into per-column typed states (reduce_colops.go). A task owns one slab,
// one block of columns and one piece of the rows; the pieces' states are
// combined in range order. Tasks of Any and All stop once every state of
// their block is decided.

package cpu

import (
	"context"
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

// columns runs the column reduction into accs.
func (rk *redKernel) columns(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	O2, R, nred := rk.o2, rk.inner, len(rk.reds)
	c := rk.colPlan(chunk)
	words := 0
	for _, op := range rk.col {
		words += op.words * c.w
	}
	nw := max(1, min(workers, rk.o1*c.blocks*c.pieces))
	states := make([][]uint64, nw)
	for w := range states {
		states[w] = make([]uint64, words)
	}
	// parts[((o*pieces)+p)*nred+j] is piece p's state of reduction j at
	// output point o; a reduction whose states collect their results
	// (one piece, bool results) writes them to accs[j] directly, and
	// with one piece the others finish theirs in the task.
	direct := make([]bool, nred)
	nparts := 0
	for j, r := range rk.reds {
		direct[j] = c.pieces == 1 && rk.col[j].collect != nil && r.DType == graph.Bool
		if !direct[j] && c.pieces > 1 {
			nparts = rk.outer * c.pieces * nred
		}
	}
	parts := make([]accum, nparts)
	tasks := rk.o1 * c.blocks * c.pieces
	// decided[t/pieces]: a piece of the block found all its states
	// decided, so the other pieces of the block need fold no more.
	var decided []atomic.Bool
	if rk.colDecides() {
		decided = make([]atomic.Bool, rk.o1*c.blocks)
	}
	err := parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, rk.pro, chunk)
		p := t % c.pieces
		blk := (t / c.pieces) % c.blocks
		o1 := t / (c.pieces * c.blocks)
		col0 := blk * c.w
		width := min(c.w, O2-col0) // columns of the block (m == 1)
		st := make([]unsafe.Pointer, nred)
		off := 0
		for j, op := range rk.col {
			st[j] = unsafe.Pointer(&states[w][off])
			off += op.words * c.w
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
		folds := 0 // whole (super-)rows folded since the last flush
		flush := func(force bool) {
			if folds++; folds < colFlush && !force {
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
		stop := func(n int) bool {
			if decided == nil {
				return false
			}
			if since++; since < colCheck {
				return false
			}
			since = 0
			if decided[t/c.pieces].Load() {
				return true
			}
			for j, op := range rk.col {
				if !op.decided(st[j], n) {
					return false
				}
			}
			decided[t/c.pieces].Store(true)
			return true
		}
		base := o1 * R * O2
		if c.blocks == 1 && c.w <= chunk {
			// Whole rows: evaluate as many super-rows as a chunk holds.
			per := max(1, chunk/c.w) * c.m
		wide:
			for a := r0; a < r1; a += per {
				b := min(r1, a+per)
				rk.pro.runChunk(f, ex.bases, nil, base+a*O2, (b-a)*O2)
				for row := a; row < b; row += c.m {
					fold((row-a)*O2, 0, (min(b, row+c.m)-row)*O2, row)
					first = false
					flush(false)
					if stop(c.w) {
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
				flush(false)
				if stop(width) {
					break
				}
			}
		}
		flush(true)
		// Read the states out; super-rows fold their m sub-rows.
		cols := width
		if c.m > 1 {
			cols = O2
		}
		for j, r := range rk.reds {
			op := rk.col[j]
			if direct[j] {
				op.collect(st[j], c.m, O2, cols, at(accs[j], o1*O2+col0, 1))
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
				o := o1*O2 + col0 + k
				if c.pieces == 1 { // nothing to combine: finish here, in parallel
					finish(r.Op, r.DType, &s, at(accs[j], o, r.DType.Size()))
					continue
				}
				parts[(o*c.pieces+p)*nred+j] = s
			}
		}
	})
	if err != nil {
		return err
	}
	for j, r := range rk.reds {
		if direct[j] || c.pieces == 1 {
			continue
		}
		float := rk.vdt[j].IsFloat()
		for o := range rk.outer {
			s := parts[o*c.pieces*nred+j]
			for p := 1; p < c.pieces; p++ {
				combine(r.Op, float, &s, parts[(o*c.pieces+p)*nred+j])
			}
			finish(r.Op, r.DType, &s, at(accs[j], o, r.DType.Size()))
		}
	}
	return nil
}
