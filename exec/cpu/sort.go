// Sort kernels: each row's keys mapped to order-preserving unsigned
// integers (sortkeys.go), radix-sorted with their indices (radix.go),
// and the first K stored as values (read back from the input by index,
// so -0 and NaN payloads are kept) and int64 indices. Rows run in
// parallel, one per task; a row long enough to fill the workers alone
// is sorted by every worker (parallel radix passes). Rows of up to 4096
// elements, 8 or 16 at a time, go through comparator networks instead
// where the result is the same: values alone (sortnet.go for 4-byte
// keys, sortnet64.go for 8-byte keys) and argsorts (sortnet_arg.go).

package cpu

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"
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
	outer      []int    // extents of the outer axes of Space
	divs       []uint64 // per outer axis, ceil(2^64 / extent) (see rowOffset); nil past 2^32 rows
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
	sk.divs = rowDivisors(sk.outer, sk.rows)
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

// rowDivisors returns ceil(2^64 / e) for each outer extent e above 1
// (0 for 1), or nil for 2^32 rows or more (see rowOffset).
func rowDivisors(outer []int, rows int) []uint64 {
	if rows >= 1<<32 {
		return nil
	}
	divs := make([]uint64, len(outer))
	for a, e := range outer {
		if e > 1 {
			divs[a] = ^uint64(0)/uint64(e) + 1
		}
	}
	return divs
}

// rowOffset returns element offset off plus row r's coordinates over
// the outer axes times strides. Below 2^32 rows it divides by
// multiplying: the high word of r times ceil(2^64 / e) is r / e for
// every r and e below 2^32 (an extent of 1 leaves r whole).
func (sk *sortKernel) rowOffset(r, off int, strides []int) int {
	if sk.divs != nil {
		for a := len(sk.outer) - 1; a >= 0; a-- {
			if m := sk.divs[a]; m != 0 {
				q, _ := bits.Mul64(m, uint64(r))
				off += (r - int(q)*sk.outer[a]) * strides[a]
				r = int(q)
			}
		}
		return off
	}
	for a := len(sk.outer) - 1; a >= 0; a-- {
		e := sk.outer[a]
		off += (r % e) * strides[a]
		r /= e
	}
	return off
}

// run sorts every row. The payload moving with the keys is the index
// when indices are stored (the values then read back by index), the
// element's bits for floats (so -0 and NaN payloads are kept), and
// nothing for integers and bools, whose keys invert to their values.
func (sk *sortKernel) run(ctx context.Context, ex *runState, workers int) error {
	if sk.selects() {
		return sk.runSelect(ctx, ex, workers)
	}
	wide := sk.row.size > 4
	switch {
	case sk.netArgSorts() && wide:
		return runNetArg[uint64](ctx, sk, ex, workers)
	case sk.netArgSorts():
		return runNetArg[uint32](ctx, sk, ex, workers)
	case sk.idxs != nil && wide:
		return runSort[uint64](ctx, sk, ex, workers, indexFill, storeIndexed[uint64])
	case sk.idxs != nil:
		return runSort[uint32](ctx, sk, ex, workers, indexFill, storeIndexed[uint32])
	case sk.row.kind == keyFloat && !sk.netSorts() && !sk.net64Sorts() && sk.exactKeys(ctx, ex, workers):
		// No zero and no NaN: the keys alone give back the values. (A
		// network checks each row itself.)
		if wide {
			return runSort[uint64](ctx, sk, ex, workers, noFill, storeFloatKeysOf[uint64, struct{}](sk.row.size))
		}
		return runSort[uint32](ctx, sk, ex, workers, noFill, storeFloatKeysOf[uint32, struct{}](sk.row.size))
	case sk.row.kind == keyFloat && wide:
		return runSort[uint64](ctx, sk, ex, workers, bitsLoader[uint64](sk.row.size), storeBitsOf[uint64, uint64](sk.row.size))
	case sk.row.kind == keyFloat:
		return runSort[uint32](ctx, sk, ex, workers, bitsLoader[uint32](sk.row.size), storeBitsOf[uint32, uint32](sk.row.size))
	case wide:
		return runSort[uint64](ctx, sk, ex, workers, noFill, storeKeysOf[uint64, struct{}](sk.row.size))
	}
	return runSort[uint32](ctx, sk, ex, workers, noFill, storeKeysOf[uint32, struct{}](sk.row.size))
}

// exactKeys reports whether every key of a float sort's input maps back
// to its value's bits (storeFloatKeys): no -0 or +0 (one key for both)
// and no NaN (one key for every payload). It reads the input once, on
// every worker.
func (sk *sortKernel) exactKeys(ctx context.Context, ex *runState, workers int) bool {
	if sk.row.size != 4 && sk.row.size != 8 {
		return false
	}
	base := ex.bases[sk.in.Buffer]
	stride := sk.in.Strides[len(sk.in.Strides)-1]
	var special atomic.Bool
	per := max(1, (1<<16)/max(1, sk.n))
	tasks := (sk.rows + per - 1) / per
	err := parallel(ctx, workers, tasks, func(_, t int) {
		for r := t * per; r < min(sk.rows, (t+1)*per) && !special.Load(); r++ {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), sk.row.size)
			var bad bool
			if sk.row.size == 4 {
				bad = hasZeroOrNaN[uint32](src, stride, sk.n, sk.row.inf)
			} else {
				bad = hasZeroOrNaN[uint64](src, stride, sk.n, sk.row.inf)
			}
			if bad {
				special.Store(true)
			}
		}
	})
	return err == nil && !special.Load()
}

// sortScratch is one worker's key and payload arrays, two of each.
type sortScratch[K uint32 | uint64, P payload] struct {
	keys, tk []K
	pl, tp   []P
}

func newSortScratch[K uint32 | uint64, P payload](n int) *sortScratch[K, P] {
	return &sortScratch[K, P]{keys: make([]K, n), tk: make([]K, n), pl: make([]P, n), tp: make([]P, n)}
}

// loader returns the key loader of elements of each size.
func loader[K uint32 | uint64](size int) func([]K, unsafe.Pointer, int, sortKeyRow, bool) {
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

// A payloadFill sets the payloads of elements lo.. of a row at src (stride in
// elements); a rowStore writes ranks lo..hi-1 of sorted row r, whose
// keys and payloads are keys and pl, reading the input row at src.
type (
	payloadFill[P payload]                 func(pl []P, src unsafe.Pointer, stride, lo int)
	rowStore[K uint32 | uint64, P payload] func(sk *sortKernel, ex *runState, r int, keys []K, pl []P, lo, hi int, src unsafe.Pointer, stride int)
)

func indexFill(pl []uint32, _ unsafe.Pointer, _, lo int) {
	for j := range pl {
		pl[j] = uint32(lo + j)
	}
}

func noFill(_ []struct{}, _ unsafe.Pointer, _, _ int) {}

// bitsLoader fills payloads with the raw bits of elements of size bytes.
func bitsLoader[P uint32 | uint64](size int) payloadFill[P] {
	f := map[int]func([]P, unsafe.Pointer, int){1: loadBits[uint8, P], 2: loadBits[uint16, P], 4: loadBits[uint32, P], 8: loadBits[uint64, P]}[size]
	return func(pl []P, src unsafe.Pointer, stride, _ int) { f(pl, src, stride) }
}

// storeBitsOf stores the payloads (raw bits) as the values.
func storeBitsOf[K uint32 | uint64, P uint32 | uint64](size int) rowStore[K, P] {
	f := map[int]func(unsafe.Pointer, int, []P){1: storeBits[uint8, P], 2: storeBits[uint16, P], 4: storeBits[uint32, P], 8: storeBits[uint64, P]}[size]
	return func(sk *sortKernel, ex *runState, r int, _ []K, pl []P, lo, hi int, _ unsafe.Pointer, _ int) {
		dst, ds := sk.dst(ex, sk.vals, r)
		f(at(dst, lo*ds, size), ds, pl[lo:hi])
	}
}

// storeKeysOf stores the keys inverted to the values (integers, bools).
func storeKeysOf[K uint32 | uint64, P payload](size int) rowStore[K, P] {
	f := map[int]func(unsafe.Pointer, int, []K, sortKeyRow, bool){1: storeKeys[uint8, K], 2: storeKeys[uint16, K], 4: storeKeys[uint32, K], 8: storeKeys[uint64, K]}[size]
	return func(sk *sortKernel, ex *runState, r int, keys []K, _ []P, lo, hi int, _ unsafe.Pointer, _ int) {
		dst, ds := sk.dst(ex, sk.vals, r)
		f(at(dst, lo*ds, size), ds, keys[lo:hi], sk.row, sk.desc)
	}
}

// storeIndexed stores the indices and, when asked, the values read back
// from the input by index.
func storeIndexed[K uint32 | uint64](sk *sortKernel, ex *runState, r int, _ []K, idx []uint32, lo, hi int, src unsafe.Pointer, stride int) {
	dst, ds := sk.dst(ex, sk.idxs, r)
	for j := lo; j < hi; j++ {
		*(*int64)(at(dst, j*ds, 8)) = int64(idx[j])
	}
	if sk.vals == nil {
		return
	}
	es := sk.row.size
	dst, ds = sk.dst(ex, sk.vals, r)
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

// dst returns the address of row r of store st and its stride along
// the sorted axis.
func (sk *sortKernel) dst(ex *runState, st *fuse.Store, r int) (unsafe.Pointer, int) {
	return at(ex.bases[st.Buffer], sk.rowOffset(r, st.Offset, st.Strides), st.DType.Size()), st.Strides[len(st.Strides)-1]
}

func runSort[K uint32 | uint64, P payload](ctx context.Context, sk *sortKernel, ex *runState, workers int, fl payloadFill[P], store rowStore[K, P]) error {
	load := loader[K](sk.row.size)
	base := ex.bases[sk.in.Buffer]
	es := sk.row.size
	stride := sk.in.Strides[len(sk.in.Strides)-1]
	bits := sk.row.bits()
	if sk.netSorts() {
		if st, ok := any(store).(rowStore[uint32, P]); ok {
			return runNet(ctx, sk, ex, workers, fl, st)
		}
	}
	if sk.net64Sorts() {
		if st, ok := any(store).(rowStore[uint64, P]); ok {
			return runNet64(ctx, sk, ex, workers, fl, st)
		}
	}
	if sk.rows < workers && sk.n >= parallelRowMin && workers > 1 {
		s := newSortScratch[K, P](sk.n)
		for r := range sk.rows {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
			size := (sk.n + workers - 1) / workers
			err := parallel(ctx, workers, workers, func(_, c int) {
				lo, hi := c*size, min(sk.n, (c+1)*size)
				if lo < hi {
					load(s.keys[lo:hi], at(src, lo*stride, es), stride, sk.row, sk.desc)
					fl(s.pl[lo:hi], at(src, lo*stride, es), stride, lo)
				}
			})
			if err != nil {
				return err
			}
			keys, pl, err := parallelRadixSort(ctx, workers, s.keys, s.pl, s.tk, s.tp, bits)
			if err != nil {
				return err
			}
			size = (sk.k + workers - 1) / workers
			err = parallel(ctx, workers, workers, func(_, c int) {
				lo, hi := c*size, min(sk.k, (c+1)*size)
				if lo < hi {
					store(sk, ex, r, keys, pl, lo, hi, src, stride)
				}
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	scratch := make([]*sortScratch[K, P], max(1, min(workers, sk.rows)))
	// Rows per task: enough elements to pay for a task.
	per := max(1, min(sk.rows/max(1, workers*4), (1<<14)/max(1, sk.n)))
	tasks := (sk.rows + per - 1) / per
	return parallel(ctx, workers, tasks, func(w, t int) {
		s := scratch[w]
		if s == nil {
			s = newSortScratch[K, P](sk.n)
			scratch[w] = s
		}
		for r := t * per; r < min(sk.rows, (t+1)*per); r++ {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
			load(s.keys, src, stride, sk.row, sk.desc)
			fl(s.pl, src, stride, 0)
			keys, pl := radixSort(s.keys, s.pl, s.tk, s.tp, bits)
			store(sk, ex, r, keys, pl, 0, sk.k, src, stride)
		}
	})
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
