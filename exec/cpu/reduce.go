// Reduce kernels: the prologue evaluated chunk by chunk, its values
// folded into accumulators, then the epilogue over the output points.
//
// Rows (reduced axes last): an output point reduces R consecutive points.
// Rows of at most a chunk are reduced whole, several per task; longer rows
// are split into chunk-sized pieces whose partial states are combined in
// range order. Columns (reduced axes first): for at most a chunk of output
// points, the reduced range is split into at most maxColTasks fixed pieces,
// each folded row by row into a vector of states, the pieces combined in
// range order; for more output points each task owns a chunk of them and
// walks the whole reduced range. Every split depends on the chunk size
// only, never on the number of workers, so results are the same for any
// worker count.

package cpu

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// maxColTasks bounds the pieces a short column reduction is split into.
const maxColTasks = 64

// redKernel is a lowered Reduce kernel.
type redKernel struct {
	pro, epi *prog
	rows     bool
	outer    int // output points
	inner    int // points reduced into each
	reds     []fuse.Reduction
	vdt      []graph.DType // dtype of each reduced value
	fold     []foldFn
	foldCol  []foldColFn
}

func lowerReduce(k *fuse.Kernel) (*redKernel, error) {
	if len(k.ReduceAxes) == 0 || len(k.Reductions) == 0 {
		return nil, fmt.Errorf("cpu: reduce kernel %s without reduced axes or reductions", k.Name)
	}
	rank := len(k.Space)
	red := make([]bool, rank)
	for _, a := range k.ReduceAxes {
		if a < 0 || a >= rank {
			return nil, fmt.Errorf("cpu: reduce kernel %s: axis %d out of range", k.Name, a)
		}
		red[a] = true
	}
	n := len(k.ReduceAxes)
	rows := k.ReduceAxes[0] == rank-n && k.ReduceAxes[n-1] == rank-1
	cols := k.ReduceAxes[0] == 0 && k.ReduceAxes[n-1] == n-1
	if !rows && !cols {
		return nil, fmt.Errorf("cpu: reduce kernel %s: reduced axes %v are neither leading nor trailing", k.Name, k.ReduceAxes)
	}
	rk := &redKernel{rows: rows, outer: 1, inner: 1, reds: k.Reductions}
	var keep []int
	var outShape []int
	for a, e := range k.Space {
		if red[a] {
			rk.inner *= e
		} else {
			rk.outer *= e
			keep = append(keep, a)
			outShape = append(outShape, e)
		}
	}
	live := make([]int, len(k.Reductions))
	for j, r := range k.Reductions {
		live[j] = r.Value
	}
	var err error
	if rk.pro, err = compile(newSpace(k.Space), k.Operands, k.Body, nil, nil, live); err != nil {
		return nil, err
	}
	for _, r := range k.Reductions {
		d := rk.pro.steps[r.Value].dt
		f, fc := foldTab[r.Op][d], foldColTab[r.Op][d]
		if f == nil || fc == nil {
			return nil, fmt.Errorf("cpu: reduce kernel %s: %v of %v is not supported", k.Name, r.Op, d)
		}
		rk.vdt = append(rk.vdt, d)
		rk.fold = append(rk.fold, f)
		rk.foldCol = append(rk.foldCol, fc)
	}
	if keep == nil {
		keep = []int{}
	}
	if rk.epi, err = compile(newSpace(outShape), k.Operands, k.Epilogue, k.Stores, keep, nil); err != nil {
		return nil, err
	}
	return rk, nil
}

// run reduces into result arrays (one per reduction, contiguous over the
// output points) and then runs the epilogue.
func (rk *redKernel) run(ctx context.Context, ex *runState, chunk, workers int) error {
	nred := len(rk.reds)
	accs := make([]unsafe.Pointer, nred)
	for j := range accs {
		mem := make([]uint64, max(rk.outer, 1))
		accs[j] = unsafe.Pointer(&mem[0])
	}
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
	case rk.rows && rk.inner <= chunk:
		err = rk.shortRows(ctx, ex, accs, chunk, workers)
	case rk.rows:
		err = rk.longRows(ctx, ex, accs, chunk, workers)
	case rk.outer <= chunk:
		err = rk.shortCols(ctx, ex, accs, chunk, workers)
	default:
		err = rk.longCols(ctx, ex, accs, chunk, workers)
	}
	if err != nil {
		return err
	}
	return runProg(ctx, rk.epi, ex, accs, chunk, workers)
}

// shortRows reduces whole rows, max(1, chunk/inner) per task.
func (rk *redKernel) shortRows(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	R := rk.inner
	per := max(1, chunk/R)
	tasks := (rk.outer + per - 1) / per
	return parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, rk.pro, chunk)
		o0 := t * per
		o1 := min(rk.outer, o0+per)
		rk.pro.runChunk(f, ex.bases, nil, o0*R, (o1-o0)*R)
		for j, r := range rk.reds {
			p, es, rs := f.ptr[r.Value], rk.vdt[j].Size(), r.DType.Size()
			for o := o0; o < o1; o++ {
				s := initAccum(r.Op, rk.vdt[j])
				rk.fold[j](&s, at(p, (o-o0)*R, es), R, 0)
				finish(r.Op, r.DType, &s, at(accs[j], o, rs))
			}
		}
	})
}

// longRows splits each row into chunk-sized pieces and combines their
// partial states in range order.
func (rk *redKernel) longRows(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	R, nred := rk.inner, len(rk.reds)
	nb := (R + chunk - 1) / chunk
	parts := make([]accum, rk.outer*nb*nred)
	err := parallel(ctx, workers, rk.outer*nb, func(w, t int) {
		f := ex.frame(w, rk.pro, chunk)
		o, b := t/nb, t%nb
		n := min(chunk, R-b*chunk)
		rk.pro.runChunk(f, ex.bases, nil, o*R+b*chunk, n)
		for j, r := range rk.reds {
			s := initAccum(r.Op, rk.vdt[j])
			rk.fold[j](&s, f.ptr[r.Value], n, int64(b*chunk))
			parts[t*nred+j] = s
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

// shortCols handles at most a chunk of output points: the reduced range
// is split into at most maxColTasks pieces, each folded a few rows per
// evaluation into its own vector of states.
func (rk *redKernel) shortCols(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	O, R, nred := rk.outer, rk.inner, len(rk.reds)
	perEval := max(1, chunk/O)
	tasks := min(maxColTasks, (R+perEval-1)/perEval)
	perTask := (R + tasks - 1) / tasks
	tasks = (R + perTask - 1) / perTask
	parts := make([]accum, tasks*nred*O)
	err := parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, rk.pro, chunk)
		r0, r1 := t*perTask, min(R, (t+1)*perTask)
		for j, r := range rk.reds {
			s := parts[(t*nred+j)*O:][:O]
			init := initAccum(r.Op, rk.vdt[j])
			for o := range s {
				s[o] = init
			}
		}
		for a := r0; a < r1; a += perEval {
			b := min(r1, a+perEval)
			rk.pro.runChunk(f, ex.bases, nil, a*O, (b-a)*O)
			for j, r := range rk.reds {
				s := parts[(t*nred+j)*O:][:O]
				p, es := f.ptr[r.Value], rk.vdt[j].Size()
				for row := a; row < b; row++ {
					rk.foldCol[j](s, at(p, (row-a)*O, es), int64(row))
				}
			}
		}
	})
	if err != nil {
		return err
	}
	for j, r := range rk.reds {
		float := rk.vdt[j].IsFloat()
		for o := range O {
			s := parts[j*O+o]
			for t := 1; t < tasks; t++ {
				combine(r.Op, float, &s, parts[(t*nred+j)*O+o])
			}
			finish(r.Op, r.DType, &s, at(accs[j], o, r.DType.Size()))
		}
	}
	return nil
}

// longCols gives each task a chunk of output points and walks the whole
// reduced range for them.
func (rk *redKernel) longCols(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	O, R, nred := rk.outer, rk.inner, len(rk.reds)
	tasks := (O + chunk - 1) / chunk
	states := make([][]accum, max(1, min(workers, tasks)))
	for w := range states {
		states[w] = make([]accum, nred*chunk)
	}
	return parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, rk.pro, chunk)
		o0, o1 := t*chunk, min(O, (t+1)*chunk)
		n := o1 - o0
		st := states[w]
		for j, r := range rk.reds {
			init := initAccum(r.Op, rk.vdt[j])
			for o := range n {
				st[j*chunk+o] = init
			}
		}
		for row := range R {
			rk.pro.runChunk(f, ex.bases, nil, row*O+o0, n)
			for j, r := range rk.reds {
				rk.foldCol[j](st[j*chunk:][:n], f.ptr[r.Value], int64(row))
			}
		}
		for j, r := range rk.reds {
			rs := r.DType.Size()
			for o := range n {
				finish(r.Op, r.DType, &st[j*chunk+o], at(accs[j], o0+o, rs))
			}
		}
	})
}
