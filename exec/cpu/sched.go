// Row groups: runs of consecutive kernels of a plan that are independent
// along their leading axis (the rows), found when the plan is prepared,
// so that the evaluation can run them row block by row block with a
// block's data kept in a worker's cache between the kernels
// (sched_run.go), rather than each kernel streaming the whole arrays.
//
// A run of kernels forms a group when every kernel of it
//
//   - is a Map (not tiled, without fused gathers) or a Reduce over
//     trailing axes whose rows the executor reduces whole (the short-row
//     path of reduce.go), never over the leading axis;
//   - has a space whose leading extent is the same (rows, at least 2);
//
// and when, for every buffer that a kernel of the run writes, every
// access to it by the run's kernels (reads and writes) steps through
// the buffer by one positive stride s along the leading axis and, at a
// given row r, stays within the same window [c+r*s, c+(r+1)*s): row r
// of any kernel touches only row r's elements of what the run writes,
// so rows may be run in any grouping as long as each row sees the
// kernels in plan order. A kernel that reads a buffer it writes itself
// ends the run. Buffers the run only reads (inputs, earlier results)
// may be read in any pattern, broadcast across rows included. A temp
// that holds successive values in different windows (the planner reuses
// it) is split: each value but the last gets a buffer of its own for
// the run (rowSplit, sched_extra.go).
//
// Buffers: the runner allocates each buffer before the first kernel
// that touches it and calls Kernel in plan order. A group runs whole
// when Kernel is called for its first kernel, so it allocates then the
// buffers whose first kernel is a later one of the group (the runner's
// Alloc of them later finds them allocated and does nothing), and the
// Kernel calls of its later kernels do nothing. Temps the runner frees
// after a kernel of the group are freed after the whole group ran. So
// more buffers may be live at once than kernel after kernel: those of
// the whole group.
//
// Each row's results are the same bits as the per-kernel schedule's:
// elementwise loops give the same bits whatever the chunk boundaries
// (the vector loops and their scalar tails agree, vector_test.go), and
// a short row is reduced whole from an empty state by the row-block
// loops whatever rows share the call (reduce_rows.go, reduce_dot.go).

package cpu

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fuseflow/fuseflow/fuse"
)

// rowGroupMin is the least traffic (fuse.Kernel BytesRead+BytesWritten
// summed over the kernels) for which a run of kernels is grouped: below
// it the kernels' data stays in the caches of the per-kernel schedule
// anyway. Tests lower it to 0 to exercise the path on small arrays.
var rowGroupMin int64 = cacheBytes

// noRowGroups turns the row-group schedule off for programs prepared
// while set (tests and benchmarks compare both schedules).
var noRowGroups bool

// rowBlockMax, when positive, caps the rows of a block (tests make many
// small blocks).
var rowBlockMax int

// rowGroupOrder, when set (tests), runs groups on the calling goroutine
// alone in the order it returns for blocks blocks of members kernels:
// (block, member) pairs, each block's members in plan order, blocks
// interleaved in any way, as concurrent workers may run them.
var rowGroupOrder func(blocks, members int) [][2]int

// rowGroupRuns counts the row groups run (tests check that a suite
// reaches the path).
var rowGroupRuns atomic.Int64

// rowGroup is a run of kernels [first, last] of a plan run row block
// by row block. It is immutable once prepared, except for its scratch
// pool, and safe for concurrent use.
type rowGroup struct {
	first, last int
	rows        int // extent of the kernels' leading axis
	block       int // rows per block
	workers     int
	members     []rowMember
	// allocs lists the buffers (temps and results) whose first kernel
	// is a later kernel of the group: the group allocates them before
	// it runs (see evaluation.runRowGroup).
	allocs []int
	// extra lists, for each buffer the group adds to the plan's (index
	// len(Plan.Buffers)+i), the temp whose earlier values it holds
	// instead (see rowSplit); the group allocates them for its run.
	extra   []int
	nprogs  int       // frames per worker: one per program of the members
	scratch sync.Pool // *groupScratch
}

// rowMember is one kernel of a group as the block loop runs it.
type rowMember struct {
	mp *prog      // a Map's program, or nil
	rd *redKernel // a Reduce, or nil
	// per is the number of points (Map) or output points (Reduce) per
	// row of the leading axis.
	per int
	// step is the most points (Map) or output points (Reduce: whole
	// reduced rows for the prologue, and the epilogue's points) one
	// runChunk call takes: the kernel's own chunk, or less when a block
	// is smaller.
	step  int
	epi   int // the most epilogue points one call takes (Reduce)
	frame int // index of its first frame among a worker's group frames
}

// rowCandidate reports whether kernel k, lowered as lk with chunk, may be
// part of a row group, and its leading extent and points (or output
// points) per row.
func rowCandidate(k *fuse.Kernel, lk *lowKernel) (rows, per int, ok bool) {
	if len(k.Space) == 0 {
		return 0, 0, false
	}
	rows, total := k.Space[0], 1
	for _, e := range k.Space {
		total *= e
	}
	if rows < 2 || total == 0 {
		return 0, 0, false
	}
	switch {
	case lk.mp != nil:
		return rows, total / rows, lk.mp.tile == nil && lk.mp.gathers == 0
	case lk.rd != nil:
		rk := lk.rd
		for _, a := range k.Reduce().Axes {
			if a == 0 {
				return 0, 0, false
			}
		}
		// The path of redKernel.run that reduces whole rows: o2 == 1,
		// rows of at most a chunk, not the growing steps of a long
		// Any/All row.
		short := rk.o2 == 1 && rk.inner > 0 && rk.inner <= lk.chunk &&
			!(rk.decides && !rk.direct && rk.inner >= 8*decideStep)
		return rows, rk.outer / rows, short && rk.pro.gathers == 0 && rk.epi.gathers == 0
	}
	return 0, 0, false
}

// rowWindow is where the accesses of a group to one buffer it writes
// lie: row r within elements [(q+r)*stride, (q+r+1)*stride).
type rowWindow struct{ stride, q int }

// rowSlot names one access of a kernel: operand (store false) or store
// slot of kernel k.
type rowSlot struct {
	k, slot int
	store   bool
}

// rowIndependent reports whether the kernels ks of p may run row by row
// as they are (see the file comment): every access to a buffer they
// write stays in one window of rows, and no kernel reads a buffer it
// writes itself.
func rowIndependent(p *fuse.Plan, ks []int) bool {
	moves, _, ok := rowSplit(p, ks)
	return ok && len(moves) == 0
}

// rowSplit reports whether the kernels ks of p may run row by row, and
// which of their accesses must then go to a buffer of their own: a temp
// that holds, one after the other, values laid out in different windows
// of rows (a pair of values per row, later one value per row) is split
// by value, every value but the last moving to a new buffer of the
// temp's size. A value moves only if the group writes it before any
// kernel of the group reads it (it is born in the group) and its
// accesses all come before the next value's; the moved accesses map to
// the number of their new buffer, and from[n] is the temp that new
// buffer n takes values from. Buffers are visited in index order, so the
// numbering is deterministic.
func rowSplit(p *fuse.Plan, ks []int) (moves map[rowSlot]int, from []int, ok bool) {
	written := map[int]bool{}
	for _, i := range ks {
		for _, s := range p.Kernels[i].Stores {
			written[s.Buffer] = true
		}
	}
	// phase is a run of accesses to one buffer in one window, in plan
	// order.
	type phase struct {
		win         rowWindow
		first, last int  // kernels
		born        bool // its first access is a store
		slots       []rowSlot
	}
	phases := map[int][]phase{}
	add := func(k int, sl rowSlot, space []int, buf, off int, strides []int) bool {
		if !written[buf] {
			return true
		}
		w, fits := rowWindowOf(space, off, strides)
		if !fits {
			return false
		}
		ph := phases[buf]
		if n := len(ph); n > 0 && ph[n-1].win == w {
			ph[n-1].last = k
			ph[n-1].slots = append(ph[n-1].slots, sl)
			return true
		}
		if n := len(ph); n > 0 && ph[n-1].last == k {
			return false // two windows in one kernel
		}
		phases[buf] = append(ph, phase{win: w, first: k, last: k, born: sl.store, slots: []rowSlot{sl}})
		return true
	}
	for _, i := range ks {
		k := &p.Kernels[i]
		own := map[int]bool{}
		// Stores first: a kernel's stores and loads of one buffer would
		// be rejected below, and a value's first kernel writes it.
		for j, s := range k.Stores {
			own[s.Buffer] = true
			if !add(i, rowSlot{i, j, true}, k.Space, s.Buffer, s.Offset, s.Strides) {
				return nil, nil, false
			}
		}
		for j, o := range k.Operands {
			if o.Buffer == fuse.NoBuffer {
				continue
			}
			if own[o.Buffer] || !add(i, rowSlot{i, j, false}, k.Space, o.Buffer, o.Offset, o.Strides) {
				return nil, nil, false
			}
		}
	}
	bufs := make([]int, 0, len(phases))
	for buf := range phases {
		bufs = append(bufs, buf)
	}
	slices.Sort(bufs)
	for _, buf := range bufs {
		ph := phases[buf]
		if len(ph) == 1 {
			continue
		}
		if p.Buffers[buf].Kind != fuse.BufTemp {
			return nil, nil, false
		}
		for _, f := range ph {
			if !f.born || !rowCovers(&p.Kernels[f.first], buf, f.win) {
				return nil, nil, false
			}
		}
		for _, f := range ph[:len(ph)-1] {
			if moves == nil {
				moves = map[rowSlot]int{}
			}
			for _, sl := range f.slots {
				moves[sl] = len(from)
			}
			from = append(from, buf)
		}
	}
	return moves, from, true
}

// rowCovers reports whether the stores of kernel k to buffer buf in
// window w write every element of each row's window (so that what a
// later access in that window reads is what the group wrote there);
// windows wider than 1<<16 elements are not checked and fail.
func rowCovers(k *fuse.Kernel, buf int, w rowWindow) bool {
	if w.stride > 1<<16 {
		return false
	}
	seen := make([]bool, w.stride)
	for _, s := range k.Stores {
		if sw, ok := rowWindowOf(k.Space, s.Offset, s.Strides); s.Buffer != buf || !ok || sw != w {
			continue
		}
		n := 1
		for _, e := range k.Space[1:] {
			n *= e
		}
		if n > 1<<20 {
			return false
		}
		for i := range n {
			e, rest := s.Offset-w.q*w.stride, i
			for a := len(k.Space) - 1; a >= 1; a-- {
				e += rest % k.Space[a] * s.Strides[a]
				rest /= k.Space[a]
			}
			seen[e] = true
		}
	}
	for _, v := range seen {
		if !v {
			return false
		}
	}
	return true
}

// rowWindowOf returns the window of rows of an access over space at
// offset off with strides, and whether it has one: a positive stride
// along the leading axis, and each row's elements within one window of
// that stride.
func rowWindowOf(space []int, off int, strides []int) (rowWindow, bool) {
	s := strides[0]
	if s <= 0 {
		return rowWindow{}, false
	}
	lo, hi := off, off
	for a := 1; a < len(space); a++ {
		if d := (space[a] - 1) * strides[a]; d < 0 {
			lo += d
		} else {
			hi += d
		}
	}
	q := floorDiv(lo, s)
	return rowWindow{s, q}, floorDiv(hi, s) == q
}

// floorDiv returns a/b rounded down (b > 0).
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// rowBytes returns the bytes the kernels ks of p touch per row of
// their leading axis, each buffer counted once: the widest row
// footprint of its accesses, at most its row stride. Accesses that do
// not move with the rows (stride 0) are not counted.
func rowBytes(p *fuse.Plan, ks []int) int {
	per := map[int]int{}
	see := func(space []int, buf int, es, strides0 int, strides []int) {
		if buf == fuse.NoBuffer || strides0 == 0 {
			return
		}
		span := 1
		for a := 1; a < len(space); a++ {
			d := (space[a] - 1) * strides[a]
			span += max(d, -d)
		}
		span = min(span, max(strides0, -strides0))
		per[buf] = max(per[buf], span*es)
	}
	for _, i := range ks {
		k := &p.Kernels[i]
		for _, o := range k.Operands {
			see(k.Space, o.Buffer, o.DType.Size(), o.Strides[0], o.Strides)
		}
		for _, s := range k.Stores {
			see(k.Space, s.Buffer, s.DType.Size(), s.Strides[0], s.Strides)
		}
	}
	n := 0
	for _, b := range per {
		n += b
	}
	return n
}

// findRowGroups returns the row groups of lp's plan, longest runs first
// from the front: a run grows while the next kernel is a candidate of
// the same leading extent that keeps the run independent along it. A
// run of one kernel, or of less traffic than rowGroupMin, is no group.
func findRowGroups(lp *lowPlan, workers int) []*rowGroup {
	if noRowGroups {
		return nil
	}
	p := lp.plan
	var groups []*rowGroup
	for i := 0; i < len(p.Kernels); {
		rows, _, ok := rowCandidate(&p.Kernels[i], &lp.kernels[i])
		if !ok {
			i++
			continue
		}
		ks := []int{i}
		j := i + 1
		for ; j < len(p.Kernels); j++ {
			r, _, ok := rowCandidate(&p.Kernels[j], &lp.kernels[j])
			if _, _, split := rowSplit(p, append(ks, j)); !ok || r != rows || !split {
				break
			}
			ks = append(ks, j)
		}
		var traffic int64
		for _, k := range ks {
			traffic += p.Kernels[k].BytesRead + p.Kernels[k].BytesWritten
		}
		if len(ks) >= 2 && traffic >= rowGroupMin {
			groups = append(groups, newRowGroup(lp, ks, rows, workers))
		}
		i = j
	}
	return groups
}

// newRowGroup returns the group of kernels ks (consecutive) of lp, of
// leading extent rows: blocks of rows whose bytes (rowBytes) take about
// half of a worker's cache, at least one block per worker, and the
// kernels' steps within a block.
func newRowGroup(lp *lowPlan, ks []int, rows, workers int) *rowGroup {
	p := lp.plan
	g := &rowGroup{first: ks[0], last: ks[len(ks)-1], rows: rows, workers: 1}
	g.block = max(1, (cacheBytes/2)/max(1, rowBytes(p, ks)))
	g.block = min(g.block, (rows+workers-1)/workers)
	if rowBlockMax > 0 {
		g.block = min(g.block, rowBlockMax)
	}
	for _, i := range ks {
		lk := &lp.kernels[i]
		_, per, _ := rowCandidate(&p.Kernels[i], lk)
		g.workers = max(g.workers, lk.workers)
		m := rowMember{mp: lk.mp, rd: lk.rd, per: per, frame: g.nprogs}
		if lk.rd != nil {
			// Whole reduced rows per prologue call, as shortRows takes.
			m.step = min(max(1, lk.chunk/lk.rd.inner), g.block*per)
			m.epi = min(lk.chunk, g.block*per)
			g.nprogs += 2
		} else {
			m.step = min(lk.chunk, g.block*per)
			g.nprogs++
		}
		g.members = append(g.members, m)
	}
	g.workers = min(g.workers, (rows+g.block-1)/g.block)
	moves, from, _ := rowSplit(p, ks)
	g.extra = from
	for sl, n := range moves {
		g.redirect(&lp.kernels[sl.k], sl, len(p.Buffers)+n)
	}
	for b := range p.Buffers {
		bf := &p.Buffers[b]
		if bf.Kind != fuse.BufInput && bf.First > g.first && bf.First <= g.last {
			g.allocs = append(g.allocs, b)
		}
	}
	return g
}

// redirect points access sl of lk (an operand or a store of its
// programs) at buffer buf. Only the group runs lk's programs.
func (g *rowGroup) redirect(lk *lowKernel, sl rowSlot, buf int) {
	var progs []*prog
	switch {
	case lk.mp != nil:
		progs = []*prog{lk.mp}
	case sl.store:
		progs = []*prog{lk.rd.epi}
	default:
		progs = []*prog{lk.rd.pro, lk.rd.epi}
	}
	for _, p := range progs {
		if sl.store {
			p.stores[sl.slot].buf = buf
		} else {
			p.opds[sl.slot].buf = buf
		}
	}
}

// markRowGroups finds lp's row groups and points their kernels at them.
func markRowGroups(lp *lowPlan, workers int) {
	for _, g := range findRowGroups(lp, workers) {
		for k := g.first; k <= g.last; k++ {
			lp.kernels[k].group = g
		}
	}
}
