// Running a row group (sched.go): the group's kernels over blocks of
// rows, each block taken by one worker, which runs every kernel of the
// group over the block's rows in plan order while the block's data is in
// its cache.

package cpu

import (
	"context"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// groupScratch is one run's scratch of a row group: each worker's frames
// (one per program of the members) and the reduction results of the
// Reduce members (contiguous over their output points, as redAccs
// gives). It is reused by later runs of the group (its pool).
type groupScratch struct {
	frames []frame
	accs   [][]unsafe.Pointer // per member: one result array per reduction
	words  []uint64
	// bases are the evaluation's buffer addresses followed by those of
	// the group's extra buffers (held), during a run of a group that has
	// some.
	bases []unsafe.Pointer
	held  []*memory.Buffer
}

// getScratch returns a scratch for one run of g, pooled or new.
func (g *rowGroup) getScratch() *groupScratch {
	if s, _ := g.scratch.Get().(*groupScratch); s != nil {
		return s
	}
	s := &groupScratch{frames: make([]frame, g.workers*g.nprogs), accs: make([][]unsafe.Pointer, len(g.members))}
	words := func(rk *redKernel, j int) int { return max((rk.outer*rk.reds[j].DType.Size()+7)/8, 1) }
	total := 0
	for _, m := range g.members {
		if m.rd != nil {
			for j := range m.rd.reds {
				total += words(m.rd, j)
			}
		}
	}
	s.words = make([]uint64, total)
	off := 0
	for i, m := range g.members {
		if m.rd == nil {
			continue
		}
		s.accs[i] = make([]unsafe.Pointer, len(m.rd.reds))
		for j := range m.rd.reds {
			s.accs[i][j] = unsafe.Pointer(&s.words[off])
			off += words(m.rd, j)
		}
	}
	return s
}

// runRowGroup runs the kernels of g: it allocates the buffers whose
// first kernel is a later one of the group (the runner's Alloc of them
// then finds them allocated and does nothing), then runs the blocks of
// rows on the workers. The runner's Kernel calls of the group's later
// kernels do nothing.
func (e *evaluation) runRowGroup(ctx context.Context, g *rowGroup) error {
	for _, b := range g.allocs {
		if e.bufs[b] == nil {
			if err := e.Alloc(b); err != nil {
				return err
			}
		}
	}
	rowGroupRuns.Add(1)
	s := g.getScratch()
	defer g.scratch.Put(s)
	bases := e.ex.bases
	if len(g.extra) > 0 {
		defer s.releaseExtra()
		if err := s.allocExtra(e, g); err != nil {
			return err
		}
		bases = s.bases
	}
	tasks := (g.rows + g.block - 1) / g.block
	if rowGroupOrder != nil {
		for _, bm := range rowGroupOrder(tasks, len(g.members)) {
			r0 := bm[0] * g.block
			g.members[bm[1]].runRows(s.frames[:g.nprogs], bases, s.accs[bm[1]], r0, min(g.rows, r0+g.block))
		}
		return nil
	}
	return parallel(ctx, g.workers, tasks, func(w, t int) {
		r0 := t * g.block
		r1 := min(g.rows, r0+g.block)
		fr := s.frames[w*g.nprogs : (w+1)*g.nprogs]
		for i := range g.members {
			g.members[i].runRows(fr, bases, s.accs[i], r0, r1)
		}
	})
}

// runRows runs member m over rows [r0, r1) of the group's leading axis
// with the worker's group frames fr: a Map's points of those rows in
// steps, a Reduce's whole reduced rows (as shortRowsTask reduces them)
// and then its epilogue over their output points.
func (m *rowMember) runRows(fr []frame, bases, accs []unsafe.Pointer, r0, r1 int) {
	lo, hi := r0*m.per, r1*m.per
	if m.mp != nil {
		f := &fr[m.frame]
		f.prepare(m.mp, m.step)
		for ; lo < hi; lo += m.step {
			m.mp.runChunk(f, bases, nil, lo, min(m.step, hi-lo))
		}
		return
	}
	rk := m.rd
	R := rk.inner
	f := &fr[m.frame]
	if rk.dot == nil {
		f.prepare(rk.pro, m.step*R)
	}
	for o := lo; o < hi; o += m.step {
		n := min(m.step, hi-o)
		if rk.dot != nil {
			rk.dot.rows(rk.vdt[0], at(accs[0], o, rk.vdt[0].Size()), rk.pro, bases, o*R, R, n)
			continue
		}
		rk.pro.runChunk(f, bases, nil, o*R, n*R)
		for j, r := range rk.reds {
			rk.rows[j](at(accs[j], o, r.DType.Size()), f.ptr[r.Value], R, n)
		}
	}
	fe := &fr[m.frame+1]
	fe.prepare(rk.epi, m.epi)
	for o := lo; o < hi; o += m.epi {
		rk.epi.runChunk(fe, bases, accs, o, min(m.epi, hi-o))
	}
}
