// TopK by partial selection: when a Sort kernel keeps only its first K
// of N (K much smaller than N), each row's keys are scanned once
// against a max-heap of the K smallest (key, index) pairs so far, and
// only those K are sorted, instead of sorting the whole row. The order
// is the full sort's: keys ascending (the loader inverts them for a
// descending TopK), equal keys by index. One long row with fewer rows
// than workers is cut into one chunk per worker; each selects its K and
// the chunks' winners are selected once more.

package cpu

import (
	"context"
	"unsafe"
)

// selectMin and selectRatio decide when a row is selected rather than
// sorted: at least selectMin elements and K at most N/selectRatio.
const (
	selectMin   = 64
	selectRatio = 8
)

// selectBlock is how many keys a chunk of a long row loads at a time.
const selectBlock = 4096

// selects reports whether sk takes the selection path.
func (sk *sortKernel) selects() bool {
	return sk.k > 0 && sk.n >= selectMin && sk.k <= sk.n/selectRatio
}

// topHeap is a max-heap of (key, index) pairs ordered by key, then index.
type topHeap[K uint32 | uint64] struct {
	keys []K
	idx  []uint32
}

// above reports whether pair i orders after pair j.
func (h *topHeap[K]) above(i, j int) bool {
	return h.keys[i] > h.keys[j] || h.keys[i] == h.keys[j] && h.idx[i] > h.idx[j]
}

func (h *topHeap[K]) swap(i, j int) {
	h.keys[i], h.keys[j] = h.keys[j], h.keys[i]
	h.idx[i], h.idx[j] = h.idx[j], h.idx[i]
}

// down restores the heap below i among the first n pairs.
func (h *topHeap[K]) down(i, n int) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.above(c+1, c) {
			c++
		}
		if !h.above(c, i) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

// selectK leaves in h.keys[:k] and h.idx[:k] the k smallest (key,
// index) pairs of keys (whose indices are idx, or the positions plus
// base when idx is nil), sorted ascending. h has room for k pairs; k
// must not exceed len(keys).
func selectK[K uint32 | uint64](h *topHeap[K], keys []K, idx []uint32, base uint32, k int) {
	h.fill(keys[:k], idx, base)
	if idx != nil {
		idx = idx[k:]
	}
	h.push(keys[k:], idx, base+uint32(k))
	h.sort()
}

// fill makes the heap of the pairs of keys (see selectK for idx and base).
func (h *topHeap[K]) fill(keys []K, idx []uint32, base uint32) {
	k := len(keys)
	copy(h.keys, keys)
	for j := range k {
		if idx != nil {
			h.idx[j] = idx[j]
		} else {
			h.idx[j] = base + uint32(j)
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		h.down(i, k)
	}
}

// push offers the pairs of keys to the full heap: a pair below its top
// replaces it. Indices increase along keys when idx is nil, so a key
// equal to the top's never enters.
func (h *topHeap[K]) push(keys []K, idx []uint32, base uint32) {
	k := len(h.keys)
	top := h.keys[0]
	for j, kj := range keys {
		if kj > top {
			continue
		}
		x := base + uint32(j)
		if idx != nil {
			x = idx[j]
		}
		if kj == top && x > h.idx[0] {
			continue
		}
		h.keys[0], h.idx[0] = kj, x
		h.down(0, k)
		top = h.keys[0]
	}
}

// sort turns the heap into its pairs ascending: the largest to the end,
// k-1 times.
func (h *topHeap[K]) sort() {
	for n := len(h.keys) - 1; n > 0; n-- {
		h.swap(0, n)
		h.down(0, n)
	}
}

// topScratch is one worker's row of keys and its heap.
type topScratch[K uint32 | uint64] struct {
	keys []K
	heap topHeap[K]
}

func newTopScratch[K uint32 | uint64](n, k int) *topScratch[K] {
	return &topScratch[K]{keys: make([]K, n), heap: topHeap[K]{keys: make([]K, k), idx: make([]uint32, k)}}
}

// runSelect runs sk (see selects) with keys of type K.
func (sk *sortKernel) runSelect(ctx context.Context, ex *runState, workers int) error {
	if sk.row.size > 4 {
		return runSelect[uint64](ctx, sk, ex, workers)
	}
	return runSelect[uint32](ctx, sk, ex, workers)
}

func runSelect[K uint32 | uint64](ctx context.Context, sk *sortKernel, ex *runState, workers int) error {
	load := loader[K](sk.row.size)
	base := ex.bases[sk.in.Buffer]
	es := sk.row.size
	stride := sk.in.Strides[len(sk.in.Strides)-1]
	chunks := min(workers, sk.n/max(1, 4*sk.k))
	if sk.rows < workers && sk.n >= parallelRowMin && chunks > 1 && sk.n/chunks >= 2*sk.k+chunks {
		// Each chunk loads its keys a block at a time into its scratch.
		size := (sk.n + chunks - 1) / chunks
		block := max(sk.k, selectBlock)
		parts := make([]*topScratch[K], chunks)
		for c := range parts {
			parts[c] = newTopScratch[K](block, sk.k)
		}
		all := newTopScratch[K](chunks*sk.k, sk.k)
		allIdx := make([]uint32, chunks*sk.k)
		for r := range sk.rows {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
			err := parallel(ctx, workers, chunks, func(_, c int) {
				lo, hi := c*size, min(sk.n, (c+1)*size)
				p := parts[c]
				for b := lo; b < hi; b += block {
					m := min(block, hi-b)
					load(p.keys[:m], at(src, b*stride, es), stride, sk.row, sk.desc)
					if b == lo {
						p.heap.fill(p.keys[:sk.k], nil, uint32(b))
						p.heap.push(p.keys[sk.k:m], nil, uint32(b+sk.k))
					} else {
						p.heap.push(p.keys[:m], nil, uint32(b))
					}
				}
				p.heap.sort()
			})
			if err != nil {
				return err
			}
			for c, p := range parts {
				copy(all.keys[c*sk.k:], p.heap.keys)
				copy(allIdx[c*sk.k:], p.heap.idx)
			}
			selectK(&all.heap, all.keys, allIdx, 0, sk.k)
			sk.storeSelected(ex, r, all.heap.idx, src, stride)
		}
		return nil
	}
	scratch := make([]*topScratch[K], max(1, min(workers, sk.rows)))
	per := max(1, min(sk.rows/max(1, workers*4), (1<<14)/max(1, sk.n)))
	tasks := (sk.rows + per - 1) / per
	return parallel(ctx, workers, tasks, func(w, t int) {
		s := scratch[w]
		if s == nil {
			s = newTopScratch[K](sk.n, sk.k)
			scratch[w] = s
		}
		for r := t * per; r < min(sk.rows, (t+1)*per); r++ {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
			load(s.keys, src, stride, sk.row, sk.desc)
			selectK(&s.heap, s.keys, nil, 0, sk.k)
			sk.storeSelected(ex, r, s.heap.idx, src, stride)
		}
	})
}

// storeSelected writes row r's selected indices (when stored) and the
// values read back from the input row at src by index.
func (sk *sortKernel) storeSelected(ex *runState, r int, idx []uint32, src unsafe.Pointer, stride int) {
	if sk.idxs != nil {
		dst, ds := sk.dst(ex, sk.idxs, r)
		for j, x := range idx {
			*(*int64)(at(dst, j*ds, 8)) = int64(x)
		}
	}
	if sk.vals == nil {
		return
	}
	dst, ds := sk.dst(ex, sk.vals, r)
	switch sk.row.size {
	case 1:
		gatherRow[uint8](dst, ds, src, stride, idx, 0)
	case 2:
		gatherRow[uint16](dst, ds, src, stride, idx, 0)
	case 4:
		gatherRow[uint32](dst, ds, src, stride, idx, 0)
	default:
		gatherRow[uint64](dst, ds, src, stride, idx, 0)
	}
}
