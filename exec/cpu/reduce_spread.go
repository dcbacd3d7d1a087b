// Reductions spread around a kept axis: an order-free reduction (see
// reduce_order.go) over axes that lie both outside and inside the kept
// ones in the input's memory (max over axes 0 and 2 of a contiguous 3-D
// array) would gather each output's points as short runs far apart. It
// runs in memory order instead, outer reduced axes A, kept axes K, inner
// reduced axes B: each task evaluates a block of whole A slabs chunk by
// chunk, folds each run of B points into the partial state of its
// output, and the tasks' partial states are combined in task order. The
// tasks depend on the sizes and the chunk only.

package cpu

import (
	"context"
	"slices"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
)

// spreadDims are the points of the outer (nA) and inner (nB) reduced
// axes of a spread reduction.
type spreadDims struct{ nA, nB int }

// spreadMinRun is the fewest inner reduced points a spread reduction
// folds per run (below, a fold call per run costs more than the gather),
// and spreadMaxParts the most partial states (outer reduced points times
// outputs) it keeps.
const (
	spreadMinRun   = 64
	spreadMaxParts = 1 << 20
)

// spreadOrder returns the executor's order A, K, B of k's axes and the
// dims when every reduction is order-free and the guide operand (as
// memoryReduced's) has strides over the reduced axes (sorted by
// memoryReduced) split by the kept axes' into larger ones (A) and
// smaller ones (B), both present, B's innermost of unit stride.
func spreadOrder(k *fuse.Kernel, keep, reduced []int) ([]int, spreadDims, bool) {
	rs := k.Reduce()
	if len(keep) == 0 || len(reduced) < 2 {
		return nil, spreadDims{}, false
	}
	for _, r := range rs.Reductions {
		if !orderFree(r.Op) {
			return nil, spreadDims{}, false
		}
	}
	guide := -1
	for _, in := range rs.Body {
		if in.Kind != fuse.InstrLoad {
			continue
		}
		full := !slices.ContainsFunc(reduced, func(a int) bool { return k.Operands[in.Operand].Strides[a] == 0 })
		if full {
			guide = in.Operand
			break
		}
	}
	if guide < 0 {
		return nil, spreadDims{}, false
	}
	st := k.Operands[guide].Strides
	mag := func(a int) int { return max(st[a], -st[a]) }
	kmin, kmax := mag(keep[0]), mag(keep[0])
	for _, a := range keep {
		kmin, kmax = min(kmin, mag(a)), max(kmax, mag(a))
	}
	split := 0
	for split < len(reduced) && mag(reduced[split]) > kmax {
		split++
	}
	outer, inner := reduced[:split], reduced[split:]
	if len(outer) == 0 || len(inner) == 0 || st[inner[len(inner)-1]] != 1 ||
		slices.ContainsFunc(inner, func(a int) bool { return mag(a) >= kmin }) {
		return nil, spreadDims{}, false
	}
	d := spreadDims{nA: 1, nB: 1}
	for _, a := range outer {
		d.nA *= k.Space[a]
	}
	for _, a := range inner {
		d.nB *= k.Space[a]
	}
	nK := 1
	for _, a := range keep {
		nK *= k.Space[a]
	}
	if d.nB < spreadMinRun || d.nA*nK > spreadMaxParts {
		return nil, spreadDims{}, false
	}
	order := append(append(append([]int(nil), outer...), keep...), inner...)
	return order, d, true
}

// spreadRun reduces a spread kernel (rk.spread set, rk.outer outputs).
func (rk *redKernel) spreadRun(ctx context.Context, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	nA, nK, nB := rk.spread.nA, rk.outer, rk.spread.nB
	slab := nK * nB
	per := max(1, chunk/slab) // outer reduced points per task
	tasks := (nA + per - 1) / per
	nred := len(rk.reds)
	parts := make([]accum, tasks*nK*nred)
	err := parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, rk.pro, chunk)
		p := parts[t*nK*nred : (t+1)*nK*nred]
		for i := range nK {
			for j, r := range rk.reds {
				p[i*nred+j] = initAccum(r.Op, rk.vdt[j])
			}
		}
		lo, hi := t*per*slab, min(nA, (t+1)*per)*slab
		for c := lo; c < hi; c += chunk {
			n := min(chunk, hi-c)
			rk.pro.runChunk(f, ex.bases, nil, c, n)
			for q := c; q < c+n; {
				row := q / nB
				end := min(c+n, (row+1)*nB)
				o := row % nK
				for j, r := range rk.reds {
					rk.fold[j](&p[o*nred+j], at(f.ptr[r.Value], q-c, rk.vdt[j].Size()), end-q, 0)
				}
				q = end
			}
		}
	})
	if err != nil {
		return err
	}
	for j, r := range rk.reds {
		float := rk.vdt[j].IsFloat()
		for o := range nK {
			s := parts[o*nred+j]
			for t := 1; t < tasks; t++ {
				combine(r.Op, float, &s, parts[(t*nK+o)*nred+j])
			}
			finish(r.Op, r.DType, &s, at(accs[j], o, r.DType.Size()))
		}
	}
	return nil
}
