// Argsorts of short rows by the network of 8-byte keys. A key of 32
// bits or less above its index in the row makes one 64-bit key,
// distinct within the row, so the network's order is exactly the
// stable sort's (equal keys by index) whatever it does with ties; the
// indices are the low words. 64-bit keys move with their indices in a
// second block, each comparator ordering the pairs by key, then index,
// to the same effect. Values, when stored too, are read back from the
// input by index (zeros' signs and NaN payloads kept), as the merge
// sort's store does; the keys are the merge sort's (one for both zeros,
// one for every NaN).

package cpu

import (
	"context"
	"unsafe"
)

// netArgSorts reports whether sk's rows are argsorted by the network:
// the network of 8-byte keys on, indices stored, rows of 2 to netMax64
// elements, at least one block.
func (sk *sortKernel) netArgSorts() bool {
	return net64On && vecOn && sk.idxs != nil && sk.n >= 2 && sk.n <= netMax64 && sk.rows >= netLanes64
}

// netArgScratch is one worker's block (keys, then for 64-bit keys their
// indices) and rows of keys and indices.
type netArgScratch[K uint32 | uint64] struct {
	block []uint64
	keys  []K
	idx   []uint32
}

// runNetArg argsorts sk's rows (see netArgSorts) a block of netLanes64
// rows at a time; the rows after a task's last whole block go through
// the merge sort.
func runNetArg[K uint32 | uint64](ctx context.Context, sk *sortKernel, ex *runState, workers int) error {
	const lanes = netLanes64
	const sign = uint64(1) << 63
	n, kk := sk.n, sk.k
	pairs := netPairs64(n)
	load := loader[K](sk.row.size)
	wide := sk.row.size == 8
	es := sk.row.size
	base := ex.bases[sk.in.Buffer]
	stride := sk.in.Strides[len(sk.in.Strides)-1]
	bits := sk.row.bits()
	idxBase, ids := ex.bases[sk.idxs.Buffer], 8*sk.idxs.Strides[len(sk.idxs.Strides)-1]
	var valBase unsafe.Pointer
	vds := 0
	if sk.vals != nil {
		valBase, vds = ex.bases[sk.vals.Buffer], sk.vals.Strides[len(sk.vals.Strides)-1]
	}
	gather := map[int]func(unsafe.Pointer, int, unsafe.Pointer, int, []uint32, int){1: gatherRow[uint8], 2: gatherRow[uint16], 4: gatherRow[uint32], 8: gatherRow[uint64]}[es]
	per := lanes * max(1, netTaskElems/(n*lanes))
	tasks := (sk.rows + per - 1) / per
	scratch := make([]*netArgScratch[K], max(1, min(workers, tasks)))
	slowScratch := make([]*sortScratch[K, uint32], len(scratch))
	blockLen := n * lanes
	if wide {
		blockLen *= 2
	}
	return parallel(ctx, workers, tasks, func(w, t int) {
		s := scratch[w]
		if s == nil {
			s = &netArgScratch[K]{block: make([]uint64, blockLen), keys: make([]K, max(n, lanes)), idx: make([]uint32, n)}
			if wide { // the indices' block: element j's is j
				for j := range n {
					for l := range lanes {
						s.block[(n+j)*lanes+l] = uint64(j)
					}
				}
			}
			scratch[w] = s
		}
		r, hi := t*per, min(sk.rows, (t+1)*per)
		netRows64.Add(int64((hi - r) / lanes * lanes))
		wk := sk.walkFrom(r)
		block := s.block
		for ; r+lanes <= hi; r += lanes {
			var ins, outs, ixs [lanes]int
			for l := range lanes {
				ins[l], outs[l], ixs[l] = wk.in, wk.out, wk.ix
				wk.next()
			}
			d := ins[1] - ins[0]
			uniform := true
			for l := range lanes {
				uniform = uniform && ins[l] == ins[0]+l*d
			}
			if uniform { // element j of the block's rows: lanes elements d apart
				for j := range n {
					load(s.keys[:lanes], at(base, ins[0]+j*stride, es), d, sk.row, sk.desc)
					v := (*[lanes]uint64)(block[j*lanes:])
					if wide {
						for l, k := range s.keys[:lanes] {
							v[l] = uint64(k) ^ sign
						}
						continue
					}
					for l, k := range s.keys[:lanes] {
						v[l] = (uint64(k)<<32 | uint64(j)) ^ sign
					}
				}
			} else {
				for l := range lanes {
					load(s.keys[:n], at(base, ins[l], es), stride, sk.row, sk.desc)
					if wide {
						for j, k := range s.keys[:n] {
							block[j*lanes+l] = uint64(k) ^ sign
						}
						continue
					}
					for j, k := range s.keys[:n] {
						block[j*lanes+l] = (uint64(k)<<32 | uint64(j)) ^ sign
					}
				}
			}
			idx := block
			if wide {
				idx = block[n*lanes:]
				netCmpArg64(block[:n*lanes], idx, pairs)
			} else {
				netCmp64(block, pairs)
			}
			for l := range lanes {
				dst := at(idxBase, ixs[l], 8)
				for j := range kk {
					x := uint32(idx[j*lanes+l])
					s.idx[j] = x
					*(*int64)(unsafe.Add(dst, j*ids)) = int64(x)
				}
				if sk.vals != nil {
					gather(at(valBase, outs[l], es), vds, at(base, ins[l], es), stride, s.idx[:kk], 0)
				}
				if wide { // the indices' block back to j at element j
					for j := range n {
						idx[j*lanes+l] = uint64(j)
					}
				}
			}
		}
		if r < hi {
			ss := slowScratch[w]
			if ss == nil {
				ss = newSortScratch[K, uint32](n)
				slowScratch[w] = ss
			}
			for ; r < hi; r++ {
				src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
				load(ss.keys, src, stride, sk.row, sk.desc)
				indexFill(ss.pl, src, stride, 0)
				keys, pl := radixSort(ss.keys, ss.pl, ss.tk, ss.tp, bits)
				storeIndexed(sk, ex, r, keys, pl, 0, kk, src, stride)
			}
		}
	})
}
