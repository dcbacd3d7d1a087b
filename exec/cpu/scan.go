// Scan kernels: the prologue evaluated chunk by chunk and combined into
// running values along the scanned axis, then the epilogue over every
// point.
//
// The kernel's space is O1 x N x O2 (outer points, the scanned axis,
// inner points; see fuse.ScanSpec). Each O1 slab is a block of N rows of
// O2 values, and the scan runs down its columns with a contiguous row of
// O2 accumulators (O2 = 1 is a scan along rows): a row of values is
// evaluated, combined into the accumulators and the accumulators stored
// as the result's row, so every load and store is a contiguous run.
//
//   - Slabs of at most a chunk are scanned whole, several per task.
//   - Larger slabs split their columns into blocks of at most a chunk
//     and their rows into pieces of about rowPiece chunks. With more than
//     one piece per column block the scan takes two passes on every
//     core: the first folds each piece into its totals, a serial
//     exclusive scan of the totals gives each piece its carry-in, and the
//     second pass scans each piece from its carry, storing. (The
//     prologue is evaluated twice, which reads the input twice and
//     writes the result once, less traffic than scanning pieces and then
//     adding carries to the stored result.)
//
// A running sum or product of int32 or bool values, which the graph
// widens to int64 first, scans the narrow values into int64
// accumulators (scan_widen.go): the prologue reads them in place.
//
// Splits depend on the sizes and the chunk only, never on the number of
// workers, so results are the same for any worker count. Within a piece
// values are combined one after another; a float32 running sum is then
// NumPy's except across pieces, where the carry-in is a sum of piece
// totals (the totals themselves are added four-way): the difference is a
// few units of float32 rounding of the running sum's magnitude.

package cpu

import (
	"context"
	"fmt"
	"slices"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// scanKernel is a lowered Scan kernel.
type scanKernel struct {
	pro, epi  *prog
	o1, n, o2 int
	value     int
	dt        graph.DType
	es        int // bytes of an accumulator and a result
	ses       int // bytes of a scanned value (less than es when narrow)
	loops     scanLoops
	comb      foldFnS // combines accumulators (loops.fold of the result dtype)
	// direct is the store that takes the running values in place (a
	// contiguous store of the accumulator), or -1; skipEpi is set when
	// that store is all the epilogue does.
	direct  int
	skipEpi bool
}

func lowerScan(k *fuse.Kernel) (*scanKernel, error) {
	s := k.Scan()
	if s == nil || s.Axis < 0 || s.Axis >= len(k.Space) {
		return nil, fmt.Errorf("cpu: scan kernel %s without a scanned axis in its space", k.Name)
	}
	loops, ok := scanTab[s.Op][s.DType]
	if !ok {
		return nil, fmt.Errorf("cpu: scan kernel %s: %v of %v is not supported", k.Name, s.Op, s.DType)
	}
	sk := &scanKernel{o1: 1, n: k.Space[s.Axis], o2: 1, value: s.Value, dt: s.DType, es: s.DType.Size(), loops: loops, direct: -1}
	sk.ses, sk.comb = sk.es, loops.fold
	for _, e := range k.Space[:s.Axis] {
		sk.o1 *= e
	}
	for _, e := range k.Space[s.Axis+1:] {
		sk.o2 *= e
	}
	if s.Value < 0 || s.Value >= len(s.Body) || s.Body[s.Value].DType != s.DType {
		return nil, fmt.Errorf("cpu: scan kernel %s: scanned value %d is not a %v of its body", k.Name, s.Value, s.DType)
	}
	pro := s
	if ns, nl, d, ok := narrowScan(s); ok {
		pro, sk.loops, sk.value, sk.ses = ns, nl, ns.Value, d.Size()
	}
	var err error
	if sk.pro, err = compile(newSpace(k.Space), k.Operands, pro.Body, nil, nil, []int{pro.Value}); err != nil {
		return nil, err
	}
	all := make([]int, len(k.Space))
	for i := range all {
		all[i] = i
	}
	// keep (all axes) keeps the epilogue out of tiling: it reads the
	// running values by flat point.
	if sk.epi, err = compile(newSpace(k.Space), k.Operands, s.Epilogue, k.Stores, all, nil); err != nil {
		return nil, err
	}
	cs := graph.Shape(k.Space).ContiguousStrides()
	only := true
	for j, st := range k.Stores {
		in := s.Epilogue[st.Value]
		if in.Kind == fuse.InstrAcc && st.DType == s.DType && sk.direct < 0 && slices.Equal(st.Strides, cs) {
			sk.direct = j
			continue
		}
		only = false
	}
	sk.skipEpi = sk.direct >= 0 && only && len(s.Epilogue) == 1
	return sk, nil
}

// run scans into the running values (the direct store's buffer, or an
// array of its own) and runs the epilogue.
func (sk *scanKernel) run(ctx context.Context, ex *runState, chunk, workers int) error {
	total := sk.o1 * sk.n * sk.o2
	if total == 0 {
		return nil
	}
	var acc unsafe.Pointer
	if sk.direct >= 0 {
		s := &sk.epi.stores[sk.direct]
		acc = at(ex.bases[s.buf], s.lay.Offset, s.es)
	} else {
		mem := make([]uint64, (total*sk.es+7)/8)
		acc = unsafe.Pointer(&mem[0])
	}
	var err error
	if slab := sk.n * sk.o2; slab <= chunk {
		err = sk.slabs(ctx, ex, acc, chunk, workers)
	} else {
		err = sk.pieces(ctx, ex, acc, chunk, workers)
	}
	if err != nil || sk.skipEpi {
		return err
	}
	return runProg(ctx, sk.epi, ex, []unsafe.Pointer{acc}, chunk, workers)
}

// newAccs returns w accumulators holding the identity.
func (sk *scanKernel) newAccs(w int) unsafe.Pointer {
	mem := make([]uint64, (w*sk.es+7)/8)
	p := unsafe.Pointer(&mem[0])
	fill(p, sk.es, sk.loops.ident, w)
	return p
}

// slabs scans whole slabs, max(1, chunk/slab) per task: one evaluation
// of the prologue, then each slab from the identity.
func (sk *scanKernel) slabs(ctx context.Context, ex *runState, acc unsafe.Pointer, chunk, workers int) error {
	slab := sk.n * sk.o2
	per := max(1, chunk/slab)
	tasks := (sk.o1 + per - 1) / per
	return parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, sk.pro, chunk)
		o0, o1 := t*per, min(sk.o1, (t+1)*per)
		sk.pro.runChunk(f, ex.bases, nil, o0*slab, (o1-o0)*slab)
		src := f.ptr[sk.value]
		a := sk.newAccs(sk.o2)
		for o := o0; o < o1; o++ {
			fill(a, sk.es, sk.loops.ident, sk.o2)
			off := (o - o0) * slab
			sk.loops.scan(a, at(src, off, sk.ses), at(acc, o*slab, sk.es), sk.n, sk.o2, sk.o2)
		}
	})
}

// pieces scans slabs larger than a chunk: columns in blocks of at most a
// chunk, rows in pieces, two passes when a column block has more than
// one piece.
func (sk *scanKernel) pieces(ctx context.Context, ex *runState, acc unsafe.Pointer, chunk, workers int) error {
	W := min(sk.o2, chunk)                             // columns per block
	nc := (sk.o2 + W - 1) / W                          // column blocks
	batch := max(1, chunk/W)                           // rows evaluated at a time
	rp := max(batch, rowPiece*chunk/W) / batch * batch // rows per piece
	nb := (sk.n + rp - 1) / rp                         // pieces per column block
	tasks := sk.o1 * nc * nb
	es := sk.es
	// each runs fn over the rows of task t's piece, batch by batch, with
	// the prologue's values at src and their flat point lo.
	each := func(f *frame, t int, fn func(src unsafe.Pointer, lo, rows, w int)) {
		o, c, b := t/(nc*nb), t/nb%nc, t%nb
		c0 := c * W
		w := min(W, sk.o2-c0)
		for i := b * rp; i < min(sk.n, (b+1)*rp); i += batch {
			rows := min(batch, sk.n-i, (b+1)*rp-i)
			lo := (o*sk.n+i)*sk.o2 + c0
			sk.pro.runChunk(f, ex.bases, nil, lo, rows*w)
			fn(f.ptr[sk.value], lo, rows, w)
		}
	}
	var carry []uint64 // per task: W accumulators (exclusive prefix of the totals)
	slot := (W*es + 7) / 8
	if nb > 1 {
		carry = make([]uint64, tasks*slot)
		err := parallel(ctx, workers, tasks, func(w, t int) {
			f := ex.frame(w, sk.pro, chunk)
			a := unsafe.Pointer(&carry[t*slot])
			fill(a, es, sk.loops.ident, W)
			each(f, t, func(src unsafe.Pointer, _, rows, w int) {
				sk.loops.fold(a, src, rows, w)
			})
		})
		if err != nil {
			return err
		}
		// Exclusive scan of the totals along the pieces of each column
		// block: carry[b] = total[0] op ... op total[b-1].
		run := sk.newAccs(W)
		tmp := sk.newAccs(W)
		for g := range sk.o1 * nc {
			fill(run, es, sk.loops.ident, W)
			for b := range nb {
				a := unsafe.Pointer(&carry[(g*nb+b)*slot])
				copyBytes(tmp, a, W*es)
				copyBytes(a, run, W*es)
				sk.comb(run, tmp, 1, W)
			}
		}
	}
	return parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, sk.pro, chunk)
		a := sk.newAccs(W)
		if carry != nil {
			copyBytes(a, unsafe.Pointer(&carry[t*slot]), W*es)
		}
		each(f, t, func(src unsafe.Pointer, lo, rows, w int) {
			sk.loops.scan(a, src, at(acc, lo, es), rows, w, sk.o2)
		})
	})
}
