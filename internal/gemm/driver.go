// The loop nest (GotoBLAS/BLIS structure, with the roles of A and B
// swapped for a row-major C): for each block of NCbig columns and MCbig
// rows of C and each pass of KC over k, all workers pack their share of
// the block's A (strips of MR rows) and B (panels of NR columns) into
// shared buffers; then each task takes a rectangle of the block, and for
// each strip of A (in L1) runs the micro-kernel over the panels of its
// KC×NCs block of B (in L2). On the last pass over k a strip's row of
// tiles is final as soon as its micro-kernels return, and the epilogue
// runs on it then.
//
// Products whose A and B fit in a share of L3 (see directMax) skip
// packing: the strided kernels read A in place (either layout) and B's
// rows in place (only a transposed B, and the partial last panel of
// columns without masked kernels, are packed).
// Small products run on one worker; batches of them run in parallel, a
// point per task.
//
// None of these choices changes a result: each element of C is summed by
// one micro-kernel per pass, in increasing k, from zero, then added to C;
// the passes split k at multiples of KC, which depends on the kernel
// family alone, and packed and strided kernels sum in the same order.

package gemm

import (
	"fmt"
	"sync"
	"unsafe"
)

// parWork is the smallest product (m·n·k multiply-adds) worth a second
// worker; products get a worker per parWork of work, up to Workers.
const parWork = 1 << 18

// tuneBlocking, when set (by tests and benchmarks), replaces every
// product's block sizes.
var tuneBlocking func(*family) blocking

// job is one call of MulBatch, validated.
type job[T Float] struct {
	m, n, k int
	a, b    Matrix[T]
	c       []T
	ldc     int
	bt      Batch
	opt     Options[T]
	fam     *family
	blk     blocking
	size    int  // bytes per element
	asm     bool // assembly packing (with an assembly kernel family)
	direct  bool // operands read in place (see the file comment)
	ss      scratches[T]
}

func newJob[T Float](m, n, k int, a, b Matrix[T], c []T, ldc int, bt Batch, opt *Options[T]) *job[T] {
	var z T
	j := &job[T]{m: m, n: n, k: k, a: a, b: b, c: c, ldc: ldc, bt: bt, opt: *opt, size: int(unsafe.Sizeof(z))}
	j.fam = pickFamily(opt)
	j.asm = j.fam.name != goFamilyName
	j.blk = blockingFor(j.fam, j.size, cpuCaches)
	if tuneBlocking != nil {
		j.blk = tuneBlocking(j.fam)
	}
	j.direct = (m*k+k*n)*j.size <= directMax
	if tuneDirect != 0 {
		j.direct = tuneDirect > 0
	}
	j.ss.init(opt.Workers)
	return j
}

// run1 runs tasks on the caller's Runner, or the team.
func (j *job[T]) run1(tasks int, fn func(worker, task int)) error {
	if j.opt.Run != nil {
		return j.opt.Run(tasks, fn)
	}
	return teamRun(tasks, j.opt.Workers, fn, nil)
}

// directMax bounds the bytes of A and B of products read in place: an
// eighth of L3 (where they stay while strips of A pass over L2-sized
// blocks of B), at most four L2s. On Zen 4 (1 MiB L2, 32 MiB L3) reading
// in place is 10-25% faster than packing up to 4 MiB (float32 768²,
// float64 512²) and on par beyond.
var directMax = max(cpuCaches.l2/2, min(cpuCaches.l3/8, 4*cpuCaches.l2))

// tuneDirect, when not zero (tests and benchmarks), forces reading in
// place (> 0) or packing (< 0).
var tuneDirect int

// scratch is one worker's memory: the edge tile (families without
// masked kernels), and the packed blocks when the worker runs whole
// points on its own. Scratch is pooled across products.
type scratch[T Float] struct {
	tile   []T
	pa, pb *buffer[T]
}

var scratchPools [2]sync.Pool

func scratchPool[T Float]() *sync.Pool {
	var z T
	if _, ok := any(z).(float32); ok {
		return &scratchPools[0]
	}
	return &scratchPools[1]
}

// scratches hands out scratch per worker, taken from the pool on first
// use.
type scratches[T Float] struct {
	s   []*scratch[T]
	inl [4]*scratch[T] // s for up to four workers
}

func (ss *scratches[T]) init(workers int) {
	if workers <= len(ss.inl) {
		ss.s = ss.inl[:workers]
	} else {
		ss.s = make([]*scratch[T], workers)
	}
}

func (ss *scratches[T]) get(w int) (*scratch[T], error) {
	if w < 0 || w >= len(ss.s) {
		return nil, fmt.Errorf("gemm: Options.Run gave worker %d, want [0, %d)", w, len(ss.s))
	}
	if ss.s[w] == nil {
		s, _ := scratchPool[T]().Get().(*scratch[T])
		if s == nil {
			s = new(scratch[T])
		}
		ss.s[w] = s
	}
	return ss.s[w], nil
}

// release returns the scratch and the packed blocks it holds to their
// pools.
func (ss *scratches[T]) release() {
	for _, s := range ss.s {
		if s != nil {
			putBuf(s.pa)
			putBuf(s.pb)
			s.pa, s.pb = nil, nil
			scratchPool[T]().Put(s)
		}
	}
}

// firstErr keeps the first error set from any goroutine.
type firstErr struct {
	mu  sync.Mutex
	err error
}

func (e *firstErr) set(err error) {
	e.mu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.mu.Unlock()
}

func (e *firstErr) get() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// workersFor returns the workers a single point's product gets: one per
// parWork of work, at most one per micro-tile of C (k is never split).
func (j *job[T]) workersFor() int {
	w := j.m * j.n * j.k / parWork
	tiles := ((j.m + j.fam.mr - 1) / j.fam.mr) * ((j.n + j.fam.nr - 1) / j.fam.nr)
	return max(1, min(w, tiles, j.opt.Workers))
}

func (j *job[T]) run() error {
	if j.k == 0 {
		return j.zero()
	}
	ss := &j.ss
	defer ss.release()
	wp := j.workersFor()
	nb := j.bt.Count
	if nb > 1 && (wp < j.opt.Workers || nb >= 2*j.opt.Workers) {
		// Points in parallel, each on one worker with its own buffers,
		// in runs of points (about eight tasks per worker).
		per := max(1, nb/(8*j.opt.Workers))
		var ferr firstErr
		err := j.run1((nb+per-1)/per, func(w, t int) {
			s, err := ss.get(w)
			if err != nil {
				ferr.set(err)
				return
			}
			if s.pa == nil {
				s.pa = getBuf[T](j.packASize())
				s.pb = getBuf[T](j.packBSize())
			}
			if err := j.points(t*per, min(nb, (t+1)*per), s, w, ss); err != nil {
				ferr.set(err)
			}
		})
		if err != nil {
			return err
		}
		return ferr.get()
	}
	pa, pb := getBuf[T](j.packASize()), getBuf[T](j.packBSize())
	defer putBuf(pa)
	defer putBuf(pb)
	for p := range nb {
		if err := j.point(p, wp, pa.data, pb.data, 0, ss); err != nil {
			return err
		}
	}
	return nil
}

// packASize and packBSize are the elements of the packed blocks.
func (j *job[T]) packASize() int {
	if j.direct {
		return 0
	}
	mr := j.fam.mr
	return (min(j.m, j.blk.mcBig) + mr - 1) / mr * mr * min(j.k, j.blk.kc)
}

func (j *job[T]) packBSize() int {
	nr := j.fam.nr
	cols := min(j.n, j.blk.ncBig)
	if j.direct {
		cols = j.n
		if !j.b.Trans {
			cols = nr // the partial last panel (without masked kernels)
		}
	}
	return (cols + nr - 1) / nr * nr * min(j.k, j.blk.kc)
}

// pass is one block of C and one pass over k: rows [ic, ic+mc), columns
// [jc, jc+nc), k in [pc, pc+kc), and where the kernels read its operands.
type pass[T Float] struct {
	p, ic, mc, jc, nc, pc, kc int
	offA, offB, offC          int
	acc                       int  // kernels add to C
	last                      bool // the last pass over k
	// aPacked: A's strips are packed in pa, else read in place with
	// strides ars, acs (bytes). bPacked: B's panels are packed in pb,
	// else read in place but for a partial last panel, packed at pb[0].
	aPacked, bPacked bool
	ars, acs         int // bytes
	arsE, acsE       int // the same in elements
	full             int // columns of whole panels: nc rounded down to NR
	pa, pb           []T
}

// newPass returns the pass of point p (matrices at offs) over block
// (ic, jc) and k from pc, and the strips of A and panels of B it packs.
func (j *job[T]) newPass(p, ic, mcBig, jc, ncBig, pc int, offs [3]int, pa, pb []T) (ps pass[T], strips, panels int) {
	mr, nr := j.fam.mr, j.fam.nr
	ps = pass[T]{p: p, ic: ic, mc: min(mcBig, j.m-ic), jc: jc, nc: min(ncBig, j.n-jc),
		pc: pc, kc: min(j.blk.kc, j.k-pc), offA: offs[0], offB: offs[1], offC: offs[2],
		aPacked: !j.direct, bPacked: !j.direct || j.b.Trans, pa: pa, pb: pb}
	if pc > 0 || j.opt.Accumulate {
		ps.acc = 1
	}
	ps.last = pc+ps.kc == j.k
	// Divisions are kept out of the way of small products: masks where
	// NR is a power of two.
	ps.full = ps.nc - ps.nc%nr
	if nr&(nr-1) == 0 {
		ps.full = ps.nc &^ (nr - 1)
	}
	if ps.aPacked {
		strips = (ps.mc + mr - 1) / mr
	} else {
		ps.arsE, ps.acsE = j.a.Stride, 1
		if j.a.Trans {
			ps.arsE, ps.acsE = 1, j.a.Stride
		}
		ps.ars, ps.acs = ps.arsE*j.size, ps.acsE*j.size
	}
	if ps.bPacked {
		panels = (ps.nc + nr - 1) / nr
	}
	return ps, strips, panels
}

// packEdge packs the partial last panel of B at pb[0] where the kernels
// read B in place and have no masked variants.
func (j *job[T]) packEdge(ps *pass[T]) {
	if !ps.bPacked && ps.full < ps.nc && j.fam.masked == nil {
		copyRows(ps.pb, j.fam.nr, j.b.Data[ps.offB+ps.pc*j.b.Stride+ps.jc+ps.full:], j.b.Stride, ps.nc-ps.full, ps.kc, j.asm)
	}
}

// points computes batch points [p0, p1) on worker w alone, with its
// scratch s. Small products read in place in one pass share one pass
// description, only the offsets changing from point to point.
func (j *job[T]) points(p0, p1 int, s *scratch[T], w int, ss *scratches[T]) error {
	if !j.direct || j.k > j.blk.kc || j.b.Trans {
		for p := p0; p < p1; p++ {
			if err := j.point(p, 1, s.pa.data, s.pb.data, w, ss); err != nil {
				return err
			}
		}
		return nil
	}
	ps, _, _ := j.newPass(p0, 0, j.m, 0, j.n, 0, j.bt.offsets(p0), s.pa.data, s.pb.data)
	for p := p0; p < p1; p++ {
		offs := j.bt.offsets(p)
		ps.p, ps.offA, ps.offB, ps.offC = p, offs[0], offs[1], offs[2]
		j.packEdge(&ps)
		for c0 := 0; c0 < ps.nc; c0 += j.blk.ncs {
			j.compute(&ps, s, w, 0, c0, ps.mc, j.blk.ncs)
		}
	}
	return nil
}

// point computes batch point p on workers workers (with 1, inline on
// worker w) with the packed blocks pa and pb.
func (j *job[T]) point(p, workers int, pa, pb []T, w int, ss *scratches[T]) error {
	offs := j.bt.offsets(p)
	mcBig, ncBig := j.blk.mcBig, j.blk.ncBig
	if j.direct {
		mcBig, ncBig = j.m, j.n
	}
	for jc := 0; jc < j.n; jc += ncBig {
		for ic := 0; ic < j.m; ic += mcBig {
			for pc := 0; pc < j.k; pc += j.blk.kc {
				ps, strips, panels := j.newPass(p, ic, mcBig, jc, ncBig, pc, offs, pa, pb)
				j.packEdge(&ps)
				var err error
				if workers == 1 {
					s, _ := ss.get(w)
					j.passInline(&ps, s, w, strips, panels)
				} else {
					err = j.passParallel(ps, ss, workers, strips, panels)
				}
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// passInline packs and computes pass ps on the calling goroutine as
// worker w.
func (j *job[T]) passInline(ps *pass[T], s *scratch[T], w, strips, panels int) {
	mr, nr := j.fam.mr, j.fam.nr
	if strips > 0 {
		packA(ps.pa, j.a, ps.offA, ps.ic, ps.mc, ps.pc, ps.kc, mr, 0, strips, j.asm)
	}
	if panels > 0 {
		packB(ps.pb, j.b, ps.offB, ps.jc, ps.nc, ps.pc, ps.kc, nr, 0, panels, j.asm)
	}
	// Blocks of NCs columns (B's block in L2), all rows.
	for c0 := 0; c0 < ps.nc; c0 += j.blk.ncs {
		j.compute(ps, s, w, 0, c0, ps.mc, j.blk.ncs)
	}
}

// passParallel packs and computes pass ps on workers workers: packing
// tasks (groups of strips and panels), then compute tasks.
func (j *job[T]) passParallel(ps pass[T], ss *scratches[T], workers, strips, panels int) error {
	mr, nr := j.fam.mr, j.fam.nr
	if strips+panels > 0 {
		ga := max(1, strips/(2*workers))
		gb := max(1, panels/(2*workers))
		ta, tb := (strips+ga-1)/ga, (panels+gb-1)/gb
		err := j.run1(ta+tb, func(_, t int) {
			if t < ta {
				packA(ps.pa, j.a, ps.offA, ps.ic, ps.mc, ps.pc, ps.kc, mr, t*ga, min(strips, (t+1)*ga), j.asm)
				return
			}
			t -= ta
			packB(ps.pb, j.b, ps.offB, ps.jc, ps.nc, ps.pc, ps.kc, nr, t*gb, min(panels, (t+1)*gb), j.asm)
		})
		if err != nil {
			return err
		}
	}
	rowStep, colStep := j.grid(ps.mc, ps.nc, workers)
	nRow := (ps.mc + rowStep - 1) / rowStep
	nCol := (ps.nc + colStep - 1) / colStep
	var ferr firstErr
	err := j.run1(nRow*nCol, func(w, t int) {
		s, err := ss.get(w)
		if err != nil {
			ferr.set(err)
			return
		}
		j.compute(&ps, s, w, t/nCol*rowStep, t%nCol*colStep, rowStep, colStep)
	})
	if err != nil {
		return err
	}
	return ferr.get()
}

// grid returns the rows and columns of a compute task of an mc×nc block
// (multiples of MR and NR): columns of at most NCs (B's block in L2),
// more column blocks if fewer than workers, all of about the same width,
// and rows split so that there are about four tasks per worker, their
// count a multiple of the workers where the rows allow (equal tasks,
// none left to one worker at the end).
func (j *job[T]) grid(mc, nc, workers int) (rowStep, colStep int) {
	mr, nr := j.fam.mr, j.fam.nr
	strips, panels := (mc+mr-1)/mr, (nc+nr-1)/nr
	nCol := (nc + j.blk.ncs - 1) / j.blk.ncs
	nCol = min(max(nCol, workers), panels)
	perCol := (panels + nCol - 1) / nCol
	colStep = perCol * nr
	nCol = (panels + perCol - 1) / perCol
	nRow := (4*workers + nCol - 1) / nCol
	for nRow < strips && nCol*nRow%workers != 0 {
		nRow++
	}
	nRow = min(nRow, strips)
	perRow := (strips + nRow - 1) / nRow
	return perRow * mr, colStep
}

// compute runs the micro-kernels of the task at rows [r0, r0+rows) and
// columns [c0, c0+cols) of pass ps's block (clipped to the block) and,
// on the last pass, the epilogue on each finished strip.
func (j *job[T]) compute(ps *pass[T], s *scratch[T], w, r0, c0, rows, cols int) {
	mr, nr, kc, sz := j.fam.mr, j.fam.nr, ps.kc, j.size
	r1, c1 := min(ps.mc, r0+rows), min(ps.nc, c0+cols)
	ldc := j.ldc * sz
	full := ps.full
	for i := r0; i < r1; i += mr {
		h := min(mr, r1-i)
		kern, skern := j.fam.rows[h-1], j.fam.strided[h-1]
		var ap unsafe.Pointer
		ars, acs := sz, mr*sz
		if ps.aPacked {
			ap = unsafe.Pointer(&ps.pa[i*kc])
		} else {
			ars, acs = ps.ars, ps.acs
			ap = unsafe.Pointer(&j.a.Data[ps.offA+(ps.ic+i)*ps.arsE+ps.pc*ps.acsE])
		}
		crow := ps.offC + (ps.ic+i)*j.ldc + ps.jc
		for q := c0; q < c1; q += nr {
			var bp unsafe.Pointer
			ldb := nr * sz
			switch {
			case ps.bPacked:
				bp = unsafe.Pointer(&ps.pb[q*kc])
			case q >= full && j.fam.masked == nil:
				bp = unsafe.Pointer(&ps.pb[0])
			default:
				bp = unsafe.Pointer(&j.b.Data[ps.offB+ps.pc*j.b.Stride+ps.jc+q])
				ldb = j.b.Stride * sz
			}
			packed := ps.aPacked && ldb == nr*sz
			if wd := c1 - q; wd < nr && j.fam.masked != nil {
				// A partial tile, its columns masked: B read and C
				// written up to the last column only.
				nv := 1
				for wd > nv*j.fam.lanes {
					nv++
				}
				cp := unsafe.Pointer(&j.c[crow+q])
				if packed {
					j.fam.masked[nv-1][h-1](kc, ap, bp, cp, ldc, ps.acc, 1<<wd-1)
				} else {
					j.fam.stridedMasked[nv-1][h-1](kc, ap, ars, acs, bp, ldb, cp, ldc, ps.acc, 1<<wd-1)
				}
				continue
			}
			if q+nr <= c1 {
				cp := unsafe.Pointer(&j.c[crow+q])
				if packed {
					kern(kc, ap, bp, cp, ldc, ps.acc)
				} else {
					skern(kc, ap, ars, acs, bp, ldb, cp, ldc, ps.acc)
				}
				continue
			}
			// A partial tile: computed into scratch, then stored.
			if len(s.tile) < mr*nr {
				s.tile = make([]T, mr*nr)
			}
			tp := unsafe.Pointer(&s.tile[0])
			if packed {
				kern(kc, ap, bp, tp, nr*sz, 0)
			} else {
				skern(kc, ap, ars, acs, bp, ldb, tp, nr*sz, 0)
			}
			wd := c1 - q
			for r := range h {
				dst := j.c[crow+r*j.ldc+q:][:wd]
				src := s.tile[r*nr:][:wd]
				if ps.acc != 0 {
					for x, v := range src {
						dst[x] += v
					}
				} else {
					copy(dst, src)
				}
			}
		}
		if ps.last && j.opt.Epilogue != nil {
			j.epilogue(w, ps.p, ps.offC, ps.ic+i, ps.jc+c0, h, c1-c0)
		}
	}
}

// epilogue hands rows [row, row+rows) and columns [col, col+cols) of
// point p's C to the epilogue.
func (j *job[T]) epilogue(w, p, offC, row, col, rows, cols int) {
	start := offC + row*j.ldc + col
	end := start + (rows-1)*j.ldc + cols
	j.opt.Epilogue(Tile[T]{Worker: w, Batch: p, Row: row, Col: col, Rows: rows, Cols: cols,
		Data: j.c[start:end:end], Stride: j.ldc})
}

// zero handles k == 0: C is zero (or unchanged with Accumulate), then the
// epilogue runs on it.
func (j *job[T]) zero() error {
	const rowStep = 64
	colStep := j.blk.ncs
	nRow := (j.m + rowStep - 1) / rowStep
	tasks := j.bt.Count * nRow
	fn := func(w, t int) {
		p, i := t/nRow, t%nRow*rowStep
		h := min(rowStep, j.m-i)
		off := j.bt.offsets(p)[2]
		if !j.opt.Accumulate {
			for r := range h {
				clear(j.c[off+(i+r)*j.ldc:][:j.n])
			}
		}
		if j.opt.Epilogue != nil {
			for c := 0; c < j.n; c += colStep {
				j.epilogue(w, p, off, i, c, h, min(colStep, j.n-c))
			}
		}
	}
	if j.m*j.n*j.bt.Count < parWork/8 {
		for t := range tasks {
			fn(0, t)
		}
		return nil
	}
	return j.run1(tasks, fn)
}
