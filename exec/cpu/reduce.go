// Reduce kernels: the prologue evaluated chunk by chunk, its values
// folded into accumulators, then the epilogue over the output points.
//
// The executor orders the kernel's space as O1 x R x O2: kept axes, the
// reduced axes, kept axes again, choosing which kept axes go inside by
// the operands' strides (an operand contiguous along a kept axis puts
// that axis innermost, so a reduction over a middle axis or over the rows
// of a transposed operand reads rows front to back). The order of the
// kept axes is the kernel's, and so is that of the reduced ones where
// it counts (ArgMax's indices); elsewhere the reduced axes go in the
// order of an operand's memory (reduce_order.go).
//
// Rows (O2 = 1): an output point reduces R consecutive points. Rows of at
// most a chunk are reduced whole, several per task, a block of them per
// call (reduce_rows.go); longer rows are split
// into pieces of up to rowPiece chunks whose partial states are combined
// in range order. A Sum of the product of two contiguous loads reads
// them in place and folds the products as it goes (reduce_dot.go).
// Columns (O2 > 1): each O1 slab is a block of R rows of
// O2 columns, read row by row into typed per-column states (colTab); the
// columns are split into blocks of at most colBlock, rows narrower than
// colWide values are grouped into super-rows of about colWide values, and
// when there are few such blocks the rows are split into pieces, merged
// in range order (reduce_cols.go). Every split depends on the sizes and the chunk only,
// never on the number of workers, so results are the same for any
// worker count. Rows of Any and All stop once their result is decided,
// and so do column tasks once all their columns are; a bool load that
// feeds only Any and All is read in place (reduce_bool.go).

package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// redKernel is a lowered Reduce kernel.
type redKernel struct {
	pro, epi *prog
	o1, o2   int // output points outside and inside the reduced axes
	outer    int // output points, o1*o2
	inner    int // points reduced into each
	reds     []fuse.Reduction
	vdt      []graph.DType // dtype of each reduced value
	fold     []foldFn
	rows     []rowsFn // row-block loop of each reduction
	col      []colOp
	decides  bool        // only Any and All: a row may stop once decided
	direct   bool        // the prologue only loads contiguous operands in place
	dot      *dotKernel  // a Sum of products of two loads, fused (reduce_dot.go)
	perm     *outPerm    // results to reorder before the epilogue (reduce_keep.go), or nil
	spread   *spreadDims // reduced axes outside and inside the kept ones (reduce_spread.go), or nil
}

func lowerReduce(k *fuse.Kernel) (*redKernel, error) {
	rs := k.Reduce()
	if rs == nil || len(rs.Axes) == 0 || len(rs.Reductions) == 0 {
		return nil, fmt.Errorf("cpu: reduce kernel %s without reduced axes or reductions", k.Name)
	}
	k = foldNarrow(k)
	rs = k.Reduce()
	rank := len(k.Space)
	red := make([]bool, rank)
	for _, a := range rs.Axes {
		if a < 0 || a >= rank {
			return nil, fmt.Errorf("cpu: reduce kernel %s: axis %d out of range", k.Name, a)
		}
		red[a] = true
	}
	n := len(rs.Axes)
	rows := rs.Axes[0] == rank-n && rs.Axes[n-1] == rank-1
	cols := rs.Axes[0] == 0 && rs.Axes[n-1] == n-1
	if !rows && !cols {
		return nil, fmt.Errorf("cpu: reduce kernel %s: reduced axes %v are neither leading nor trailing", k.Name, rs.Axes)
	}
	rk := &redKernel{o1: 1, o2: 1, inner: 1, reds: rs.Reductions}
	var keep, reduced []int
	var outShape []int
	for a, e := range k.Space {
		if red[a] {
			rk.inner *= e
			reduced = append(reduced, a)
		} else {
			keep = append(keep, a)
			outShape = append(outShape, e)
		}
	}
	memRed := memoryReduced(k, reduced)
	order, nIn := spaceOrder(k, keep, memRed, cols)
	if so, d, ok := spreadOrder(k, keep, memRed); ok && nIn == 0 {
		order, nIn, rk.spread = so, len(keep), &d
	}
	var exec []int // the kept axes in the executor's order
	for _, a := range order {
		if !red[a] {
			exec = append(exec, a)
		}
	}
	for _, a := range exec[:len(exec)-nIn] {
		rk.o1 *= k.Space[a]
	}
	for _, a := range exec[len(exec)-nIn:] {
		rk.o2 *= k.Space[a] // all kept axes for a spread kernel: never a row group (sched.go)
	}
	rk.perm = newOutPerm(k.Space, keep, exec)
	rk.outer = rk.o1 * rk.o2
	shape := make([]int, rank)
	for i, a := range order {
		shape[i] = k.Space[a]
	}
	opds := make([]fuse.Operand, len(k.Operands))
	for j, o := range k.Operands {
		o.Strides = make([]int, rank)
		for i, a := range order {
			o.Strides[i] = k.Operands[j].Strides[a]
		}
		opds[j] = o
	}
	flipReduced(k, order, red, shape, opds)
	live := make([]int, len(rs.Reductions))
	for j, r := range rs.Reductions {
		live[j] = r.Value
	}
	var err error
	if rk.pro, err = compile(newSpace(shape), opds, rs.Body, nil, nil, live); err != nil {
		return nil, err
	}
	rk.decides = true
	for _, r := range rs.Reductions {
		rk.decides = rk.decides && (r.Op == graph.OpAny || r.Op == graph.OpAll)
		d := rk.pro.steps[r.Value].dt
		f, c := foldTab[r.Op][d], colTab[r.Op][d]
		if f == nil || c.fold == nil {
			return nil, fmt.Errorf("cpu: reduce kernel %s: %v of %v is not supported", k.Name, r.Op, d)
		}
		rk.vdt = append(rk.vdt, d)
		rk.fold = append(rk.fold, f)
		rk.col = append(rk.col, c)
		rows := rowsTab[r.Op][d]
		if rows == nil || rowsOut[r.Op][d] != r.DType {
			rows = foldRows(r.Op, d, r.DType, f)
		}
		rk.rows = append(rk.rows, rows)
	}
	rk.decides = rk.decides && rk.pro.gathers == 0 // every index is checked
	rk.rawBools(k)
	rk.direct = true
	for _, st := range rk.pro.steps {
		o := st.opd
		rk.direct = rk.direct && st.kind == fuse.InstrLoad && !st.norm && rk.pro.opds[o].contig
	}
	rk.dot = rk.lowerDot()
	if keep == nil {
		keep = []int{}
	}
	if rk.epi, err = compile(newSpace(outShape), k.Operands, rs.Epilogue, k.Stores, keep, nil); err != nil {
		return nil, err
	}
	return rk, nil
}

// rawBools reads in place the bool loads that feed only Any and All
// reductions: those test x != 0 themselves, so the load need not copy
// its bytes to normalize them to 0 and 1.
func (rk *redKernel) rawBools(k *fuse.Kernel) {
	rs := k.Reduce()
	used := make([]bool, len(rs.Body))
	for _, in := range rs.Body {
		for _, a := range in.Args {
			used[a] = true
		}
	}
	for _, r := range rs.Reductions {
		if r.Op != graph.OpAny && r.Op != graph.OpAll {
			used[r.Value] = true
		}
	}
	for i := range rk.pro.steps {
		if st := &rk.pro.steps[i]; st.norm && !used[i] {
			st.norm = false
		}
	}
}

// spaceOrder returns the executor's order of k's axes, outer kept axes,
// reduced axes, inner kept axes, and the number of inner kept axes: the
// kernel's own order (rows: none inside; columns: all), unless putting
// one kept axis alone inside (rows) or none (columns) gives more of the
// loads a unit stride on the innermost axis (the loads read at every
// point counted first, then those broadcast over a reduced axis). The kept axis that goes
// innermost (rows and columns) is the one with the most unit-stride
// loads, the last on ties; where it is not the last, the results are
// reordered before the epilogue (reduce_keep.go).
func spaceOrder(k *fuse.Kernel, keep, reduced []int, cols bool) ([]int, int) {
	rs := k.Reduce()
	// unit weighs the loads with a unit stride on axis: those read at
	// every point (not broadcast over a reduced axis) first, then all.
	unit := func(axis int) int {
		n := 0
		for _, in := range rs.Body {
			if in.Kind != fuse.InstrLoad || k.Operands[in.Operand].Strides[axis] != 1 {
				continue
			}
			n++
			full := true
			for _, a := range reduced {
				full = full && k.Operands[in.Operand].Strides[a] != 0
			}
			if full {
				n += 1 << 16
			}
		}
		return n
	}
	nk := len(keep)
	if nk == 0 {
		return reduced, 0
	}
	// The kept axis with the most unit-stride loads, the last on ties.
	in, inUnit := nk-1, unit(keep[nk-1])
	for i := nk - 2; i >= 0; i-- {
		if u := unit(keep[i]); u > inUnit {
			in, inUnit = i, u
		}
	}
	lastRed, lastKeep := unit(reduced[len(reduced)-1]), unit(keep[nk-1])
	rowsOrder := append(append([]int(nil), keep...), reduced...)
	if cols && lastRed > lastKeep && lastRed >= inUnit {
		return rowsOrder, 0
	}
	// keep with the chosen axis moved last.
	moved := append(append(append([]int(nil), keep[:in]...), keep[in+1:]...), keep[in])
	if cols {
		return append(append([]int(nil), reduced...), moved...), nk
	}
	if inUnit > lastRed {
		return append(append(append([]int(nil), moved[:nk-1]...), reduced...), keep[in]), 1
	}
	return rowsOrder, 0
}

// run reduces into result arrays (one per reduction, contiguous over the
// output points) and then runs the epilogue.
func (rk *redKernel) run(ctx context.Context, ex *runState, chunk, workers int) error {
	accs := ex.redAccs(rk)
	var err error
	switch {
	case rk.outer == 0:
	case rk.inner == 0:
		for j, r := range rk.reds {
			s := emptyAccum(r.Op, rk.vdt[j])
			for o := range rk.outer {
				finish(r.Op, r.DType, &s, at(accs[j], o, r.DType.Size()))
			}
		}
	case rk.spread != nil:
		err = rk.spreadRun(ctx, ex, accs, chunk, workers)
	case rk.o2 > 1:
		err = rk.columns(ctx, ex, accs, chunk, workers)
	case rk.inner <= chunk && !(rk.decides && !rk.direct && rk.inner >= 8*decideStep):
		err = rk.shortRows(ctx, ex, accs, chunk, workers)
	default:
		err = rk.longRows(ctx, ex, accs, chunk, workers)
	}
	if err != nil {
		return err
	}
	if rk.perm != nil {
		for j, r := range rk.reds {
			accs[j] = rk.perm.apply(accs[j], rk.outer, r.DType.Size())
		}
	}
	return runProg(ctx, rk.epi, ex, accs, epiChunk(chunk, rk.outer), workers)
}

// epiChunk is the chunk the epilogue of a kernel of outer output points
// runs in: the reduction's chunk, or less when the outputs are fewer,
// rounded up to a multiple of 64, so that the frame's constant registers
// (filled for a whole chunk whenever the frame changes programs) are no
// longer than the outputs: a full reduction of a chunk of 30000 points
// would otherwise fill 30000 divisors to divide one sum.
func epiChunk(chunk, outer int) int {
	return min(chunk, (max(outer, 1)+63)&^63)
}

// shortRows reduces whole rows, max(1, chunk/inner) per task, by the
// row-block loops.
func (rk *redKernel) shortRows(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	per := max(1, chunk/rk.inner)
	tasks := (rk.outer + per - 1) / per
	if tasks <= 1 || workers <= 1 {
		// Inline: no closure or goroutine for a small space.
		for t := range tasks {
			if err := ctx.Err(); err != nil {
				return err
			}
			rk.shortRowsTask(ex, accs, chunk, per, 0, t)
		}
		return nil
	}
	return parallel(ctx, workers, tasks, func(w, t int) { rk.shortRowsTask(ex, accs, chunk, per, w, t) })
}

// shortRowsTask is task t of shortRows on worker w: rows [t*per,
// (t+1)*per).
func (rk *redKernel) shortRowsTask(ex *runState, accs []unsafe.Pointer, chunk, per, w, t int) {
	R := rk.inner
	f := ex.frame(w, rk.pro, chunk)
	o0 := t * per
	o1 := min(rk.outer, o0+per)
	if rk.dot != nil {
		rk.dot.rows(rk.vdt[0], at(accs[0], o0, rk.vdt[0].Size()), rk.pro, ex.bases, o0*R, R, o1-o0)
		return
	}
	rk.pro.runChunk(f, ex.bases, nil, o0*R, (o1-o0)*R)
	for j, r := range rk.reds {
		rk.rows[j](at(accs[j], o0, r.DType.Size()), f.ptr[r.Value], R, o1-o0)
	}
}

// maxScratchAccWords is the most 8-byte words of reduction results a
// kernel takes from its evaluation's scratch (more are allocated).
const maxScratchAccWords = 512

// redAccs returns a zeroed result array for each of rk's reductions
// (contiguous over the output points): for small results from ex's
// scratch, which the next kernel reuses (they live until run returns).
func (ex *runState) redAccs(rk *redKernel) []unsafe.Pointer {
	n := len(rk.reds)
	total := 0
	for _, r := range rk.reds {
		total += max((rk.outer*r.DType.Size()+7)/8, 1)
	}
	var accs []unsafe.Pointer
	var mem []uint64
	if total <= maxScratchAccWords {
		if cap(ex.accs) < n {
			ex.accs = make([]unsafe.Pointer, n)
		}
		if cap(ex.accWords) < total {
			ex.accWords = make([]uint64, maxScratchAccWords)
		}
		accs, mem = ex.accs[:n], ex.accWords[:total]
		clear(mem)
	} else {
		accs, mem = make([]unsafe.Pointer, n), make([]uint64, total)
	}
	off := 0
	for j, r := range rk.reds {
		accs[j] = unsafe.Pointer(&mem[off])
		off += max((rk.outer*r.DType.Size()+7)/8, 1)
	}
	return accs
}

// rowPiece is the number of chunks one task of a long row folds.
const rowPiece = 16

// decideStep is the points an Any/All row of at most a chunk is first
// evaluated in before a check whether its result is decided; each later
// step is twice the one before (up to a chunk).
const decideStep = 256

// longRows splits each row into pieces of rowPiece chunks, each folded
// chunk by chunk into one state, and combines the pieces' states in range
// order. A kernel of Any and All only (rk.decides) stops evaluating a row
// once every result is decided (Any true, All false), in this piece and
// in the pieces not yet started; rows of at least 8*decideStep points
// and at most a chunk then take this path too, one per task, evaluated
// in growing steps, unless the prologue only loads in place (rk.direct:
// evaluating costs nothing, and the row scans stop at the deciding
// value).
func (rk *redKernel) longRows(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	R, nred := rk.inner, len(rk.reds)
	piece, step := rowPiece*chunk, chunk
	grow := false
	if rk.decides && R <= chunk {
		piece, step, grow = R, min(chunk, decideStep), true
	}
	nb := (R + piece - 1) / piece
	parts := make([]accum, rk.outer*nb*nred)
	var decided []atomic.Bool
	if rk.decides {
		decided = make([]atomic.Bool, rk.outer)
	}
	err := parallel(ctx, workers, rk.outer*nb, func(w, t int) {
		f := ex.frame(w, rk.pro, chunk)
		o, b := t/nb, t%nb
		for j, r := range rk.reds {
			parts[t*nred+j] = initAccum(r.Op, rk.vdt[j])
		}
		step := step
		for lo := b * piece; lo < min(R, (b+1)*piece); lo += step {
			if grow && lo > 0 {
				step = min(2*step, chunk)
			}
			if rk.decides && decided[o].Load() {
				return
			}
			n := min(step, R-lo)
			if rk.dot != nil {
				a, b := rk.dot.ptrs(rk.pro, ex.bases, o*R+lo)
				rk.dot.fold(&parts[t*nred], a, b, n)
				continue
			}
			rk.pro.runChunk(f, ex.bases, nil, o*R+lo, n)
			done := true
			for j := range rk.reds {
				s := &parts[t*nred+j]
				rk.fold[j](s, f.ptr[rk.reds[j].Value], n, int64(lo))
				done = done && (s.i != 0) == (rk.reds[j].Op == graph.OpAny)
			}
			if rk.decides && done {
				decided[o].Store(true)
				return
			}
		}
	})
	if err != nil {
		return err
	}
	for j, r := range rk.reds {
		float := rk.vdt[j].IsFloat()
		for o := range rk.outer {
			s := parts[o*nb*nred+j]
			for b := 1; b < nb; b++ {
				combine(r.Op, float, &s, parts[(o*nb+b)*nred+j])
			}
			finish(r.Op, r.DType, &s, at(accs[j], o, r.DType.Size()))
		}
	}
	return nil
}
