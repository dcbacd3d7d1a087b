// Tiled evaluation of map programs with a transposed access: when an
// operand or a store steps through memory along some other axis more
// closely than along the last one (a + b.T, a 3-d permutation), the
// space is run in 2-d tiles over that axis and the last axis, so that
// every access reads and writes whole runs of cache lines: the transposed
// one along the tile's columns, the others along its rows.

package cpu

import (
	"context"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
)

// Tiling thresholds: a tile's row axis is at least tileMinRows long, and
// tiles are tileCols points wide (or the whole last axis where it is
// shorter: a skinny space such as the transpose of a 3 x n matrix runs
// in tiles of many short rows, which flat chunks would walk a run of
// three at a time) and at most tileMaxPoints large: 128 x 128, whose
// transposed runs are 512 or 1024 bytes long, moves a transpose of a
// 4096 x 4096 matrix faster than 64 x 64 (BenchmarkSuite's copy_T,
// add_TT and exp_T rows).
const (
	tileMinRows   = 8
	tileCols      = 128
	tileMaxPoints = 16384
	// flatSpan bounds the bytes one row of a transposed access spans
	// where the row axis is the one before the last (in 3 or more
	// dimensions) and flat chunks serve instead of tiles: its lines and
	// pages stay cached from one row to the next.
	flatSpan = 256 << 10
)

// foldMinStep is the least step in bytes along the last axis of the
// access that chooses the tiling for which rows fold: where its columns
// lie closer, a tile of the short rows reads one stretch of memory
// already, and folding would only add streams to the store (f32(T(a))
// of an int32 133053 x 3 x 8 took 1.4 ms of CPU unfolded, 2.9 folded).
// A variable for tests.
var foldMinStep = 4096

// noTiles turns tiling off (tests and benchmarks compare both ways).
var noTiles bool

// tiling says how a program runs in tiles: the tile's rows go along axis
// ax, its columns along the last axis of the space. Where ax is short and
// the access that chose it continues along axis ax2 where ax ends (the
// 3-d transpose, whose operand holds ax and ax2 in one run), a tile's
// rows take all of ax for several points of ax2 (folded rows), so that
// the access reads runs of many points instead of a few.
type tiling struct {
	ax, ax2 int // ax2 is -1 where rows do not fold
}

// chooseTiling returns the tiling of a map program over sp with the
// given accesses, or nil when flat chunks serve (no access is
// transposed, the space is too small for tiles, or the body reads
// reduction results, which are laid out flat).
func chooseTiling(sp space, opds, stores []access, body []fuse.Instr) *tiling {
	r := len(sp.shape)
	if noTiles || r < 2 || sp.shape[r-1] < 2 {
		return nil
	}
	for _, in := range body {
		if in.Kind == fuse.InstrAcc || in.Kind == fuse.InstrGather {
			return nil
		}
	}
	used := make([]bool, len(opds))
	for _, in := range body {
		if in.Kind == fuse.InstrLoad && in.Operand >= 0 && in.Operand < len(opds) {
			used[in.Operand] = true
		}
	}
	pick := func(a access) *tiling {
		last := abs(a.lay.Strides[r-1])
		ax, best := -1, last
		for k := range r - 1 {
			if s := abs(a.lay.Strides[k]); s != 0 && s < best && sp.shape[k] >= tileMinRows {
				ax, best = k, s
			}
		}
		if ax < 0 {
			return nil
		}
		if r >= 3 && ax == r-2 && last*sp.shape[r-1]*a.es <= flatSpan {
			// A batch of transposes whose rows read a few lines each
			// (a.transpose(0, 2, 1) of a 64 x 512 x 128): flat chunks
			// read a's lines again, row after row, from the cache, and
			// every other access in place.
			return nil
		}
		tl := &tiling{ax: ax, ax2: -1}
		if sp.shape[ax] < tileCols && last*a.es >= foldMinStep {
			next := a.lay.Strides[ax] * sp.shape[ax]
			for k := range r - 1 {
				if k != ax && sp.shape[k] > 1 && a.lay.Strides[k] == next {
					tl.ax2 = k
					break
				}
			}
		}
		return tl
	}
	for i, a := range opds {
		if used[i] && a.buf != fuse.NoBuffer {
			if tl := pick(a); tl != nil {
				return tl
			}
		}
	}
	for _, a := range stores {
		if tl := pick(a); tl != nil {
			return tl
		}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// tileGrid is the tiling of one run: the tile's extent along ax (rows)
// and the last axis (cols), and how many tiles cover each. With folded
// rows (ax2 >= 0), a tile's rows are all extR points of ax for n2
// points of ax2 (ax fastest), and nr counts the tiles along ax2.
type tileGrid struct {
	ax, rows, cols   int
	nr, nc, outer    int
	extR, extC, rank int
	ax2, n2, ext2    int
}

func newTileGrid(sp space, tl *tiling, chunk int) tileGrid {
	r := len(sp.shape)
	g := tileGrid{ax: tl.ax, ax2: -1, rank: r, extR: sp.shape[tl.ax], extC: sp.shape[r-1]}
	g.cols = min(g.extC, tileCols)
	if tl.ax2 >= 0 && g.extR > 0 && g.extC > 0 {
		// Fold when at least two points of ax2 fit a tile.
		if n2 := min(sp.shape[tl.ax2], min(chunk, tileMaxPoints)/g.cols/g.extR); n2 >= 2 {
			g.ax2, g.n2, g.ext2 = tl.ax2, n2, sp.shape[tl.ax2]
			g.rows = g.extR * n2
			g.nr = (g.ext2 + n2 - 1) / n2
			g.nc = (g.extC + g.cols - 1) / g.cols
			g.outer = sp.size / (g.extR * g.ext2 * g.extC)
			return g
		}
	}
	g.rows = max(1, min(g.extR, min(chunk, tileMaxPoints)/g.cols))
	g.cols = max(1, min(g.cols, chunk/g.rows))
	g.nr = (g.extR + g.rows - 1) / g.rows
	g.nc = (g.extC + g.cols - 1) / g.cols
	g.outer = 1
	if g.extR > 0 && g.extC > 0 {
		g.outer = sp.size / (g.extR * g.extC)
	}
	return g
}

// runTiled evaluates p (which has a tiling) over its whole space, tile by
// tile on the workers.
func runTiled(ctx context.Context, p *prog, ex *runState, chunk, workers int) error {
	if p.sp.size == 0 {
		return ctx.Err()
	}
	g := newTileGrid(p.sp, p.tile, chunk)
	tasks := g.outer * g.nr * g.nc
	return parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, p, chunk)
		p.runTile(f, ex.bases, &g, t)
	})
}

// origin sets f.idx to the multi-index of tile t's first point and
// returns the tile's extents. Consecutive tiles go down the rows, so
// that the transposed side's runs continue where the last tile left
// them.
func (g *tileGrid) origin(sp space, idx []int, t int) (rows, cols int) {
	tr := t % g.nr
	t /= g.nr
	tc := t % g.nc
	t /= g.nc
	for k := g.rank - 1; k >= 0; k-- {
		switch k {
		case g.rank - 1:
			idx[k] = tc * g.cols
		case g.ax:
			if g.ax2 < 0 {
				idx[k] = tr * g.rows
			} else {
				idx[k] = 0
			}
		case g.ax2:
			idx[k] = tr * g.n2
		default:
			idx[k] = t % sp.shape[k]
			t /= sp.shape[k]
		}
	}
	cols = min(g.cols, g.extC-idx[g.rank-1])
	if g.ax2 >= 0 {
		return g.extR * min(g.n2, g.ext2-idx[g.ax2]), cols
	}
	return min(g.rows, g.extR-idx[g.ax]), cols
}

// tileOf returns the offset of the tile's first point in a's buffer and
// a's strides along the tile's rows and columns, and how the rows go in
// blocks of blk rows, each sb from the last: one block of all rows
// (folded rows of an access that holds ax and ax2 in one run, or no
// folding), or one per point of ax2.
func (g *tileGrid) tileOf(a *access, idx []int) (off, sr, sc, blk, sb int) {
	off = a.lay.Offset
	for k, i := range idx[:g.rank] {
		off += i * a.lay.Strides[k]
	}
	sr, sc, blk = a.lay.Strides[g.ax], a.lay.Strides[g.rank-1], 1<<62
	if g.ax2 >= 0 {
		if sb = a.lay.Strides[g.ax2]; sb != sr*g.extR {
			blk = g.extR
		}
	}
	return off, sr, sc, blk, sb
}

// blocks calls fn for each block of blk rows (tileOf) of a tile of rows
// rows: its first row and its offset in the buffer.
func blocks(off, rows, blk, sb int, fn func(r0, off, n int)) {
	if blk >= rows {
		fn(0, off, rows)
		return
	}
	for r0 := 0; r0 < rows; r0 += blk {
		fn(r0, off+r0/blk*sb, min(blk, rows-r0))
	}
}

// runTile evaluates tile t of p with f's registers: every load is
// gathered into its register and every store scattered from it.
func (p *prog) runTile(f *frame, bases []unsafe.Pointer, g *tileGrid, t int) {
	rows, cols := g.origin(p.sp, f.idx, t)
	n := rows * cols
	for i := range p.steps {
		st := &p.steps[i]
		var dst unsafe.Pointer
		if st.reg >= 0 {
			dst = f.reg(st.reg)
		}
		if st.runStore >= 0 {
			// A tile that is one run of the store (the short rows of a
			// skinny space) is computed in place, as a chunk is.
			s := &p.stores[st.runStore]
			if off, sr, sc, blk, _ := g.tileOf(s, f.idx); sc == 1 && blk >= rows && (sr == cols || rows == 1) {
				dst = at(bases[s.buf], off, s.es)
			}
		}
		switch st.kind {
		case fuse.InstrLoad:
			o := &p.opds[st.opd]
			off, sr, sc, blk, sb := g.tileOf(o, f.idx)
			base := bases[o.buf]
			blocks(off, rows, blk, sb, func(r0, off, n int) {
				gatherTile(unsafe.Add(dst, r0*cols*o.es), base, o.es, off, sr, sc, n, cols)
			})
			if st.norm {
				normLoop(dst, dst, n)
			}
		case fuse.InstrGen:
			o := &p.opds[st.opd]
			off, sr, sc, blk, sb := g.tileOf(o, f.idx)
			offs := f.offs[:n]
			blocks(off, rows, blk, sb, func(r0, off, n int) {
				for r := range n {
					for c := range cols {
						offs[(r0+r)*cols+c] = off + r*sr + c*sc
					}
				}
			})
			genTab[st.op](dst, st.dt, &st.gen, offs)
		case fuse.InstrOp:
			a := st.args
			switch {
			case st.wh != nil:
				st.wh(dst, f.ptr[a[0]], f.ptr[a[1]], f.ptr[a[2]], n)
			case st.un != nil:
				st.un(dst, f.ptr[a[0]], n)
			default:
				st.bin(dst, f.ptr[a[0]], f.ptr[a[1]], n)
			}
		}
		f.ptr[i] = dst
	}
	for k := range p.stores {
		s := &p.stores[k]
		off, sr, sc, blk, sb := g.tileOf(s, f.idx)
		base, val, nt := bases[s.buf], f.ptr[p.vals[k]], ntTiles(p.sp, s)
		blocks(off, rows, blk, sb, func(r0, off, rows int) {
			src := unsafe.Add(val, r0*cols*s.es)
			switch {
			case src == at(base, off, s.es):
				// Computed in place (runStore).
			case nt && sc == 1 && sr == cols:
				scatterRowsNT(base, src, s.es, off, 0, 1, rows*cols)
			case nt && sc == 1 && sr != 0:
				scatterRowsNT(base, src, s.es, off, sr, rows, cols)
			default:
				scatterTile(base, src, s.es, off, sr, sc, rows, cols)
			}
		})
	}
}

// gatherTile copies a rows x cols tile of elements of size es, element
// (r, c) at off + r*sr + c*sc of src, to dst in row-major order. When
// the tile's columns are closer together in memory than its rows are
// not, it goes column by column so that src is read along its lines.
func gatherTile(dst, src unsafe.Pointer, es, off, sr, sc, rows, cols int) {
	moveTile(dst, src, es, off, sr, sc, rows, cols, false)
}

// scatterTile is gatherTile the other way: the tile in src (row-major)
// goes to dst at off + r*sr + c*sc.
func scatterTile(dst, src unsafe.Pointer, es, off, sr, sc, rows, cols int) {
	moveTile(src, dst, es, off, sr, sc, rows, cols, true)
}

// moveTile copies the row-major tile at tile from (or, with scatter, to)
// the elements at off + r*sr + c*sc of mem.
func moveTile(tile, mem unsafe.Pointer, es, off, sr, sc, rows, cols int, scatter bool) {
	if sc == 1 && (sr == cols || rows == 1) {
		// The tile is one run of mem (a row-major store, or the short
		// rows of a skinny space back to back).
		p := unsafe.Add(mem, off*es)
		if scatter {
			copyBytes(p, tile, rows*cols*es)
		} else {
			copyBytes(tile, p, rows*cols*es)
		}
		return
	}
	if blockTile(tile, mem, es, off, sr, sc, rows, cols, scatter) {
		return
	}
	switch es {
	case 1:
		tileT(view[uint8](tile, rows*cols), (*uint8)(mem), off, sr, sc, rows, cols, scatter)
	case 2:
		tileT(view[uint16](tile, rows*cols), (*uint16)(mem), off, sr, sc, rows, cols, scatter)
	case 4:
		tileT(view[uint32](tile, rows*cols), (*uint32)(mem), off, sr, sc, rows, cols, scatter)
	case 8:
		tileT(view[uint64](tile, rows*cols), (*uint64)(mem), off, sr, sc, rows, cols, scatter)
	default:
		panic("cpu: unsupported element size")
	}
}

// tileT moves a tile between the dense row-major t and the strided
// buffer at base (to it when store, from it otherwise).
func tileT[T uint8 | uint16 | uint32 | uint64](t []T, base *T, off, sr, sc, rows, cols int, store bool) {
	if abs(sc) <= abs(sr) || sr == 0 || sc == 0 {
		// Row by row: each row is a run along the last axis.
		for r := range rows {
			row := t[r*cols : (r+1)*cols]
			if store {
				scatterT(base, row, off+r*sr, sc)
			} else {
				gatherT(row, base, off+r*sr, sc)
			}
		}
		return
	}
	if sr == 1 && cols <= 3 && interleaveT(t, base, off, sc, rows, cols, store) {
		return
	}
	// Column by column, four at a time: each column is a run along the
	// tile's rows (the closer steps in memory), and the four runs fill
	// adjacent elements of each row of t.
	sz := int(unsafe.Sizeof(*base))
	p0 := unsafe.Pointer(base)
	c := 0
	for ; c+4 <= cols; c += 4 {
		p := unsafe.Add(p0, (off+c*sc)*sz)
		s1, s2, s3 := sc*sz, 2*sc*sz, 3*sc*sz
		for r := range rows {
			q := unsafe.Add(p, r*sr*sz)
			d := t[r*cols+c : r*cols+c+4 : r*cols+c+4]
			if store {
				*(*T)(q) = d[0]
				*(*T)(unsafe.Add(q, s1)) = d[1]
				*(*T)(unsafe.Add(q, s2)) = d[2]
				*(*T)(unsafe.Add(q, s3)) = d[3]
			} else {
				d[0] = *(*T)(q)
				d[1] = *(*T)(unsafe.Add(q, s1))
				d[2] = *(*T)(unsafe.Add(q, s2))
				d[3] = *(*T)(unsafe.Add(q, s3))
			}
		}
	}
	for ; c < cols; c++ {
		p := unsafe.Add(p0, (off+c*sc)*sz)
		for r := range rows {
			q := unsafe.Add(p, r*sr*sz)
			if store {
				*(*T)(q) = t[r*cols+c]
			} else {
				t[r*cols+c] = *(*T)(q)
			}
		}
	}
}

// interleaveT moves a tile of two or three columns whose columns are
// unit-stride runs of base (the rows of a 2 x n or 3 x n matrix read
// as its transpose), all columns a round, and reports whether it did.
func interleaveT[T uint8 | uint16 | uint32 | uint64](t []T, base *T, off, sc, rows, cols int, store bool) bool {
	col := func(c int) []T {
		return unsafe.Slice((*T)(unsafe.Add(unsafe.Pointer(base), (off+c*sc)*int(unsafe.Sizeof(*base)))), rows)
	}
	switch cols {
	case 2:
		c0, c1 := col(0), col(1)
		t = t[:2*rows]
		if store {
			for r := range c0 {
				d := t[2*r : 2*r+2 : 2*r+2]
				c0[r], c1[r] = d[0], d[1]
			}
		} else {
			for r := range c0 {
				d := t[2*r : 2*r+2 : 2*r+2]
				d[0], d[1] = c0[r], c1[r]
			}
		}
	case 3:
		c0, c1, c2 := col(0), col(1), col(2)
		t = t[:3*rows]
		if store {
			for r := range c0 {
				d := t[3*r : 3*r+3 : 3*r+3]
				c0[r], c1[r], c2[r] = d[0], d[1], d[2]
			}
		} else {
			for r := range c0 {
				d := t[3*r : 3*r+3 : 3*r+3]
				d[0], d[1], d[2] = c0[r], c1[r], c2[r]
			}
		}
	default:
		return false
	}
	return true
}
