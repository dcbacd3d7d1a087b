// Sort kernels: each row's keys mapped to order-preserving unsigned
// integers (sortkeys.go), radix-sorted with their indices (radix.go),
// and the first K stored as values (read back from the input by index,
// so -0 and NaN payloads are kept) and int64 indices. Rows run in
// parallel, one per task; a row long enough to fill the workers alone
// is sorted by every worker (parallel radix passes).

package cpu

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
)

// parallelRowMin is the shortest row sorted by every worker when there
// are fewer rows than workers.
const parallelRowMin = 1 << 16

// sortKernel is a Sort kernel lowered for the CPU.
type sortKernel struct {
	row        sortKeyRow
	n, k, rows int
	desc       bool
	outer      []int // extents of the outer axes of Space
	in         fuse.Operand
	vals, idxs *fuse.Store // nil when not stored
}

// lowerSort checks a Sort kernel: a dtype with a key row, rows of fewer
// than 2^32 elements (the index payload is 32-bit).
func lowerSort(k *fuse.Kernel) (*sortKernel, error) {
	s := k.Sort()
	if s == nil || len(k.Operands) != 1 || len(k.Space) == 0 {
		return nil, fmt.Errorf("cpu: sort kernel %s without a SortSpec and one operand", k.Name)
	}
	d := k.Operands[0].DType
	row, ok := sortKeyTable[d]
	if !ok {
		return nil, fmt.Errorf("cpu: sort kernel %s: dtype %v is not supported", k.Name, d)
	}
	if s.N > math.MaxUint32 {
		return nil, fmt.Errorf("cpu: sort kernel %s: rows of %d elements (at most 2^32-1)", k.Name, s.N)
	}
	sk := &sortKernel{row: row, n: s.N, k: s.K, desc: s.Desc, in: k.Operands[0], outer: k.Space[:len(k.Space)-1], rows: 1}
	for _, e := range sk.outer {
		sk.rows *= e
	}
	for i := range k.Stores {
		switch st := &k.Stores[i]; st.Value {
		case fuse.SortValues:
			sk.vals = st
		case fuse.SortIndices:
			sk.idxs = st
		default:
			return nil, fmt.Errorf("cpu: sort kernel %s: store of value %d", k.Name, st.Value)
		}
	}
	return sk, nil
}

// rowOffset returns element offset off plus row r's coordinates over
// the outer axes times strides.
func (sk *sortKernel) rowOffset(r, off int, strides []int) int {
	for a := len(sk.outer) - 1; a >= 0; a-- {
		e := sk.outer[a]
		off += (r % e) * strides[a]
		r /= e
	}
	return off
}

func (sk *sortKernel) run(ctx context.Context, ex *runState, workers int) error {
	if sk.row.size <= 4 {
		return runSort[uint32](ctx, sk, ex, workers)
	}
	return runSort[uint64](ctx, sk, ex, workers)
}

// sortScratch is one worker's key and index arrays, two of each.
type sortScratch[K uint32 | uint64] struct {
	keys, tk []K
	idx, ti  []uint32
}

func newSortScratch[K uint32 | uint64](n int) *sortScratch[K] {
	return &sortScratch[K]{keys: make([]K, n), tk: make([]K, n), idx: make([]uint32, n), ti: make([]uint32, n)}
}

// loaders reads keys of elements of each size.
func loader[K uint32 | uint64](size int) func([]K, []uint32, unsafe.Pointer, int, sortKeyRow, bool) {
	switch size {
	case 1:
		return loadKeys[uint8, K]
	case 2:
		return loadKeys[uint16, K]
	case 4:
		return loadKeys[uint32, K]
	}
	return loadKeys[uint64, K]
}

func runSort[K uint32 | uint64](ctx context.Context, sk *sortKernel, ex *runState, workers int) error {
	load := loader[K](sk.row.size)
	base := ex.bases[sk.in.Buffer]
	es := sk.row.size
	stride := sk.in.Strides[len(sk.in.Strides)-1]
	bits := sk.row.bits()
	if sk.rows < workers && sk.n >= parallelRowMin && workers > 1 {
		s := newSortScratch[K](sk.n)
		for r := range sk.rows {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
			size := (sk.n + workers - 1) / workers
			err := parallel(ctx, workers, workers, func(_, c int) {
				lo, hi := c*size, min(sk.n, (c+1)*size)
				if lo < hi {
					load(s.keys[lo:hi], s.idx[lo:hi], at(src, lo*stride, es), stride, sk.row, sk.desc)
					for j := lo; j < hi; j++ {
						s.idx[j] += uint32(lo)
					}
				}
			})
			if err != nil {
				return err
			}
			_, idx, err := parallelRadixSort(ctx, workers, s.keys, s.idx, s.tk, s.ti, bits)
			if err != nil {
				return err
			}
			size = (sk.k + workers - 1) / workers
			err = parallel(ctx, workers, workers, func(_, c int) {
				lo, hi := c*size, min(sk.k, (c+1)*size)
				if lo < hi {
					sk.store(ex, r, idx, lo, hi, src, stride)
				}
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	scratch := make([]*sortScratch[K], max(1, min(workers, sk.rows)))
	// Rows per task: enough elements to pay for a task.
	per := max(1, min(sk.rows/max(1, workers*4), (1<<14)/max(1, sk.n)))
	tasks := (sk.rows + per - 1) / per
	return parallel(ctx, workers, tasks, func(w, t int) {
		s := scratch[w]
		if s == nil {
			s = newSortScratch[K](sk.n)
			scratch[w] = s
		}
		for r := t * per; r < min(sk.rows, (t+1)*per); r++ {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
			load(s.keys, s.idx, src, stride, sk.row, sk.desc)
			_, idx := radixSort(s.keys, s.idx, s.tk, s.ti, bits)
			sk.store(ex, r, idx, 0, sk.k, src, stride)
		}
	})
}

// store writes ranks lo..hi-1 of row r: the input element at each index
// (src with stride, in elements) and the index as int64.
func (sk *sortKernel) store(ex *runState, r int, idx []uint32, lo, hi int, src unsafe.Pointer, stride int) {
	if st := sk.idxs; st != nil {
		dst := at(ex.bases[st.Buffer], sk.rowOffset(r, st.Offset, st.Strides), 8)
		ds := st.Strides[len(st.Strides)-1]
		for j := lo; j < hi; j++ {
			*(*int64)(at(dst, j*ds, 8)) = int64(idx[j])
		}
	}
	st := sk.vals
	if st == nil {
		return
	}
	es := sk.row.size
	dst := at(ex.bases[st.Buffer], sk.rowOffset(r, st.Offset, st.Strides), es)
	ds := st.Strides[len(st.Strides)-1]
	switch es {
	case 1:
		gatherRow[uint8](dst, ds, src, stride, idx[lo:hi], lo)
	case 2:
		gatherRow[uint16](dst, ds, src, stride, idx[lo:hi], lo)
	case 4:
		gatherRow[uint32](dst, ds, src, stride, idx[lo:hi], lo)
	default:
		gatherRow[uint64](dst, ds, src, stride, idx[lo:hi], lo)
	}
}

// gatherRow writes element idx[j] of src (stride ss) to rank lo+j of dst
// (stride ds).
func gatherRow[T uint8 | uint16 | uint32 | uint64](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, idx []uint32, lo int) {
	var z T
	es := int(unsafe.Sizeof(z))
	for j, x := range idx {
		*(*T)(at(dst, (lo+j)*ds, es)) = *(*T)(at(src, int(x)*ss, es))
	}
}
