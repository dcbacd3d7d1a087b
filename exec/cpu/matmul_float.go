// float32 and float64 MatMul through internal/gemm: operands read in
// place in whichever of gemm's layouts their strides fit (row-major or
// transposed, batch points at any offsets, broadcast included), copied
// densely only when none does; the whole batch in one call on gemm's
// team of workers (TeamRunner: awake between products called in a row,
// the context checked between tasks), and the fused epilogue run on each tile of the
// product as gemm finishes it, while the tile is in cache.

package cpu

import (
	"context"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/internal/gemm"
)

// gemmPortable selects internal/gemm's portable Go kernels, set with the
// scalar loops (FUSEFLOW_NOASM, setVector).
var gemmPortable bool

// mulFloat computes every batch point's product into acc (dense, point
// after point) and, unless the kernel's epilogue only stores the
// accumulator, runs the epilogue on each finished tile.
func mulFloat[T gemm.Float](ctx context.Context, m *mmKernel, ex *runState, acc unsafe.Pointer, chunk, workers int) error {
	s := &m.spec
	nb, mn := m.batch.size, s.M*s.N
	a, offA := gemmOperand[T](m, ex, &s.A, s.M, s.K)
	b, offB := gemmOperand[T](m, ex, &s.B, s.K, s.N)
	c := view[T](acc, nb*mn)
	bt := gemm.Batch{Count: nb}
	if nb > 1 {
		bt.Offsets = func(i int) (int, int, int) { return offA(i), offB(i), i * mn }
	}
	opt := &gemm.Options[T]{
		Workers:  workers,
		Portable: gemmPortable,
		Run:      gemm.TeamRunner(ctx, workers),
	}
	if !m.trivial {
		accs := []unsafe.Pointer{acc}
		opt.Epilogue = func(t gemm.Tile[T]) {
			f := ex.frame(t.Worker, m.epi, chunk)
			lo := t.Batch*mn + t.Row*s.N + t.Col
			if t.Cols == s.N { // whole rows: one span of the space
				m.epilogueSpan(f, ex, accs, lo, t.Rows*s.N, chunk)
				return
			}
			for r := range t.Rows {
				m.epilogueSpan(f, ex, accs, lo+r*s.N, t.Cols, chunk)
			}
		}
	}
	return gemm.MulBatch(s.M, s.N, s.K, a, b, c, s.N, bt, opt)
}

// epilogueSpan runs the epilogue over points [lo, lo+n) of the kernel's
// space, at most chunk at a time (the size of f's registers).
func (m *mmKernel) epilogueSpan(f *frame, ex *runState, accs []unsafe.Pointer, lo, n, chunk int) {
	for n > 0 {
		c := min(n, chunk)
		m.epi.runChunk(f, ex.bases, accs, lo, c)
		lo, n = lo+c, n-c
	}
}

// gemmOperand returns operand o (rows×cols at each batch point) as a gemm
// matrix and the offset of each batch point's matrix in its Data. The
// buffer is read in place when the matrix strides fit a layout of gemm
// (rows or columns contiguous, the other stride covering them); otherwise
// every point's matrix is copied into a dense row-major buffer. Data
// starts at the lowest element the operand reaches, so negative batch
// strides (reversed slices) and stride 0 (broadcasts) read in place.
func gemmOperand[T gemm.Float](m *mmKernel, ex *runState, o *fuse.MatOperand, rows, cols int) (gemm.Matrix[T], func(int) int) {
	r := len(o.Strides)
	rs, cs := o.Strides[r-2], o.Strides[r-1]
	es := int(unsafe.Sizeof(T(0)))
	stride, trans, ok := gemmLayout(rows, cols, rs, cs)
	if !ok {
		return denseOperand[T](m, ex, o, rows, cols)
	}
	lo, hi := o.Offset, o.Offset
	for k, st := range o.Strides {
		e := rows
		switch {
		case k < r-2:
			e = m.batch.shape[k]
		case k == r-1:
			e = cols
		}
		if st < 0 {
			lo += st * (e - 1)
		} else {
			hi += st * (e - 1)
		}
	}
	data := view[T](at(ex.bases[o.Buffer], lo, es), hi-lo+1)
	base := o.Offset - lo
	return gemm.Matrix[T]{Data: data, Stride: stride, Trans: trans}, func(i int) int { return base + m.batchOffset(o, i) }
}

// gemmLayout returns the stride and transpose flag of the gemm matrix
// that reads a rows×cols matrix with row stride rs and column stride cs,
// and whether one does: row-major (unit column steps, rows apart by at least their
// length), transposed (unit row steps, columns apart by at least their
// length), a single row or column in either.
func gemmLayout(rows, cols, rs, cs int) (stride int, trans, ok bool) {
	switch {
	case rows == 1 && (cs == 1 || cols == 1):
		return max(1, cols), false, true
	case (cs == 1 || cols == 1) && rs >= max(1, cols):
		return rs, false, true
	case cols == 1 && rs == 1:
		return max(1, rows), true, true
	case (rs == 1 || rows == 1) && cs >= max(1, rows):
		return cs, true, true
	}
	return 0, false, false
}

// denseOperand copies every batch point's rows×cols matrix of o into a
// row-major buffer, point after point.
func denseOperand[T gemm.Float](m *mmKernel, ex *runState, o *fuse.MatOperand, rows, cols int) (gemm.Matrix[T], func(int) int) {
	nb, size := m.batch.size, rows*cols
	es := int(unsafe.Sizeof(T(0)))
	out := make([]T, nb*size)
	for b := range nb {
		x := m.mat(ex, o, b, rows, cols)
		dst := out[b*size:]
		for i := range rows {
			for j := range cols {
				dst[i*cols+j] = *(*T)(at(x.base, x.off+i*x.rs+j*x.cs, es))
			}
		}
	}
	return gemm.Matrix[T]{Data: out, Stride: max(1, cols)}, func(i int) int { return i * size }
}
