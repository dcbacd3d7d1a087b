// Short rows sorted by a comparator network: Batcher's odd-even merge
// sort for the row length (pruned of the comparators past its end),
// applied with vector min/max to netLanes32 rows at once, stored
// lane-wise (element j of every row of the block side by side), so one
// vector instruction does one comparator of every row. A network is not
// stable, so it serves only where equal keys cannot be told apart in
// the result: values alone (no indices), of integers and bools, and of
// floats in rows without zeros or NaN (whose keys map back to their
// bits exactly); any other row of the block is sorted by the merge sort.

package cpu

import (
	"context"
	"sync"
	"unsafe"
)

// netMax is the longest row sorted by a network: up to here it beats
// the merge sort and the radix passes (3x to 10x from 300 to 4000
// elements).
const netMax = 4096

// netTaskElems is about how many elements a task of a network sorts:
// as many blocks of rows as make that many, at least one.
const netTaskElems = 1 << 14

// batcherPairs returns the comparators (i < j: the smaller key to i) of
// Batcher's odd-even merge sort of n elements: the network of the next
// power of two without the comparators that touch an element past n
// (those would meet only elements above every key, and move nothing).
// With stage, only those of merges of runs of at most stage elements
// (p <= stage), else all of them; the first stages come first.
func batcherPairs(n int, stage ...int) [][2]int {
	p2 := 1
	for p2 < n {
		p2 <<= 1
	}
	last := p2
	if len(stage) > 0 {
		last = stage[0] * 2
	}
	var out [][2]int
	for p := 1; p < min(p2, last); p <<= 1 {
		for k := p; k >= 1; k >>= 1 {
			for j := k % p; j+k < p2; j += 2 * k {
				for i := range min(k, p2-j-k) {
					if (i+j)/(2*p) == (i+j+k)/(2*p) && i+j+k < n {
						out = append(out, [2]int{i + j, i + j + k})
					}
				}
			}
		}
	}
	return out
}

// netPlan is a network for a row length: groups of 16 whole elements
// sorted first in registers (netSort16, with 16 lanes), then the
// comparators left as byte offsets into a block (netCmp32).
type netPlan struct {
	groups int
	pairs  []uint32
}

// netCache holds the plan of each row length, and the comparators of
// each row length of 8-byte keys (netPairs64).
var netCache struct {
	sync.Mutex
	plans   map[int]*netPlan
	pairs64 map[int][]uint32
}

// netPlanOf returns the network of rows of n 32-bit keys for a block of
// netLanes32 lanes.
func netPlanOf(n int) *netPlan {
	netCache.Lock()
	defer netCache.Unlock()
	if p, ok := netCache.plans[n]; ok {
		return p
	}
	if netCache.plans == nil {
		netCache.plans = map[int]*netPlan{}
	}
	pl := &netPlan{}
	all := batcherPairs(n)
	if netLanes32 == 16 && n >= 16 {
		// The merges of runs of up to 8 stay within aligned groups of
		// 16 and come first: whole groups are netSort16's.
		pl.groups = n / 16
		first := len(batcherPairs(n, 8))
		for _, c := range all[:first] {
			if c[0] >= 16*pl.groups {
				pl.add(c)
			}
		}
		all = all[first:]
	}
	for _, c := range all {
		pl.add(c)
	}
	netCache.plans[n] = pl
	return pl
}

// add appends comparator c as byte offsets.
func (pl *netPlan) add(c [2]int) {
	row := uint32(4 * netLanes32)
	pl.pairs = append(pl.pairs, uint32(c[0])*row, uint32(c[1])*row)
}

// sort applies the network to a block.
func (pl *netPlan) sort(block []uint32) {
	if pl.groups > 0 {
		netSort16(block, pl.groups)
	}
	if len(pl.pairs) > 0 {
		netCmp32(block, pl.pairs)
	}
}

// netSorts reports whether sk's rows go through the network: vector
// loops on, values alone, 32-bit keys, rows of 2 to netMax elements, at
// least one block.
func (sk *sortKernel) netSorts() bool {
	return netLanes32 > 0 && vecOn && sk.idxs == nil && sk.vals != nil && sk.row.size <= 4 && sk.n >= 2 && sk.n <= netMax && sk.rows >= netLanes32
}

// netScratch is one worker's block, a row of keys and the merge sort's
// scratch for the rows the network does not take.
type netScratch[P payload] struct {
	block, tmp []uint32 // the block lane-wise, and its rows one after another
	slow       []bool   // the rows left to the merge sort
	ss         *sortScratch[uint32, P]
}

// runNet sorts sk's rows (see netSorts) a block of netLanes32 rows at a
// time, walking the rows' offsets rather than dividing them out; a row
// the network cannot take (floats with a zero or NaN) and the rows after
// the last whole block are sorted as runSort does, with the payload fill
// fl and the store.
func runNet[P payload](ctx context.Context, sk *sortKernel, ex *runState, workers int, fl payloadFill[P], store rowStore[uint32, P]) error {
	load := loader[uint32](sk.row.size)
	base := ex.bases[sk.in.Buffer]
	es := sk.row.size
	stride := sk.in.Strides[len(sk.in.Strides)-1]
	bits := sk.row.bits()
	n, lanes := sk.n, netLanes32
	net := netPlanOf(n)
	float := sk.row.kind == keyFloat
	// The keys of zeros and NaN: the sign bit, and every bit.
	flip := keyFlip[uint32](sk.row, sk.desc)
	zero, nan := uint32(1)<<(bits-1)^flip, uint32(1)<<(bits-1)<<1-1^flip
	per := lanes * max(1, netTaskElems/(n*lanes))
	tasks := (sk.rows + per - 1) / per
	scratch := make([]*netScratch[P], max(1, min(workers, tasks)))
	valStoreAt := keyStoreAt[uint32](sk)
	outBase, outStride := ex.bases[sk.vals.Buffer], sk.vals.Strides[len(sk.vals.Strides)-1]
	inRun := rowsContiguous(sk.outer, sk.in.Strides, n)
	outRun := rowsContiguous(sk.outer, sk.vals.Strides, sk.k)
	// With AVX-512, 4-byte elements in rows one after another are
	// gathered, mapped to keys and scattered back in vector code: the
	// byte offsets of the block's rows, and what keys are xored with
	// (the sign bit of signed integers, the flip of a descending sort).
	gather := netGather && inRun && outRun && es == 4 && (float || sk.row.kind == keySigned || sk.row.kind == keyUnsigned)
	var inIdx, outIdx [16]uint32
	for l := range inIdx {
		inIdx[l], outIdx[l] = uint32(l*n*es), uint32(l*sk.k*es)
	}
	xor := flip
	if sk.row.kind == keySigned {
		xor ^= 1 << 31
	}
	return parallel(ctx, workers, tasks, func(w, t int) {
		s := scratch[w]
		if s == nil {
			s = &netScratch[P]{block: make([]uint32, n*lanes), tmp: make([]uint32, n*lanes), slow: make([]bool, lanes), ss: newSortScratch[uint32, P](n)}
			scratch[w] = s
		}
		slow := func(r int) {
			src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
			load(s.ss.keys, src, stride, sk.row, sk.desc)
			fl(s.ss.pl, src, stride, 0)
			keys, pl := radixSort(s.ss.keys, s.ss.pl, s.ss.tk, s.ss.tp, bits)
			store(sk, ex, r, keys, pl, 0, sk.k, src, stride)
		}
		hi := min(sk.rows, (t+1)*per)
		r := t * per
		if gather {
			for ; r+lanes <= hi; r += lanes {
				src := at(base, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), es)
				var slowLanes uint16
				if n%16 == 0 { // whole tiles of 16 by 16: transposed in registers
					slowLanes = netLoadT32(s.block, src, n, n*es, float, xor)
				} else {
					slowLanes = netLoad32(s.block, src, n, &inIdx, float, xor)
				}
				net.sort(s.block)
				dst, _ := sk.dst(ex, sk.vals, r)
				if sk.k%16 == 0 {
					netStoreT32(dst, s.block, sk.k, sk.k*es, float, xor)
				} else {
					netStore32(dst, s.block, sk.k, &outIdx, float, xor)
				}
				for l := range lanes {
					if slowLanes>>l&1 != 0 {
						slow(r + l)
					}
				}
			}
		}
		var wk *rowWalk
		if r+lanes <= hi {
			wk = sk.walkFrom(r)
		}
		for ; r+lanes <= hi; r += lanes {
			var ins, outs [16]int
			for l := range lanes {
				ins[l], outs[l] = wk.in, wk.out
				wk.next()
			}
			// Rows a constant step apart in the input and in the output
			// (side by side when the sorted axis is not the last in
			// memory): element j of the block's rows is lanes elements
			// din apart, loaded as block vector j; else row by row.
			din, dout := ins[1]-ins[0], outs[1]-outs[0]
			uniform := true
			for l := range lanes {
				uniform = uniform && ins[l] == ins[0]+l*din && outs[l] == outs[0]+l*dout
			}
			if uniform {
				for j := range n {
					load(s.block[j*lanes:(j+1)*lanes], at(base, ins[0]+j*stride, es), din, sk.row, sk.desc)
				}
				clear(s.slow)
				if float {
					for j := range n {
						for l, k := range s.block[j*lanes : (j+1)*lanes] {
							s.slow[l] = s.slow[l] || k == zero || k == nan
						}
					}
				}
				net.sort(s.block)
				for j := range sk.k {
					valStoreAt(at(outBase, outs[0]+j*outStride, es), dout, s.block[j*lanes:(j+1)*lanes])
				}
			} else {
				for l := range lanes {
					row := s.tmp[l*n : (l+1)*n]
					load(row, at(base, ins[l], es), stride, sk.row, sk.desc)
					special := false
					if float {
						for _, k := range row {
							special = special || k == zero || k == nan
						}
					}
					s.slow[l] = special
					for j, k := range row {
						s.block[j*lanes+l] = k
					}
				}
				net.sort(s.block)
				kk := sk.k
				for l := range lanes {
					row := s.tmp[l*kk : (l+1)*kk]
					for j := range row {
						row[j] = s.block[j*lanes+l]
					}
					valStoreAt(at(outBase, outs[l], es), outStride, row)
				}
			}
			for l := range lanes {
				if s.slow[l] {
					slow(r + l)
				}
			}
		}
		for ; r < hi; r++ {
			slow(r)
		}
	})
}

// rowsContiguous reports whether rows of n elements over the outer
// extents with these strides (in elements, the row's axis last) follow
// one another without gaps: row r+1 starts where row r ends.
func rowsContiguous(outer, strides []int, n int) bool {
	want := 1
	for a := len(outer); a >= 0; a-- {
		e := n
		if a < len(outer) {
			e = outer[a]
		}
		if e != 1 && strides[a] != want {
			return false
		}
		want *= e
	}
	return true
}

// keyStoreAt returns the store of sorted keys as sk's values at dst
// (stride ds in elements): inverted to integers and bools, or to
// floats (exact for every key but those of zeros and NaN, which the
// network leaves to the merge sort).
func keyStoreAt[K uint32 | uint64](sk *sortKernel) func(dst unsafe.Pointer, ds int, keys []K) {
	size, row, desc := sk.row.size, sk.row, sk.desc
	var f func(unsafe.Pointer, int, []K, sortKeyRow, bool)
	if sk.row.kind == keyFloat {
		f = map[int]func(unsafe.Pointer, int, []K, sortKeyRow, bool){4: storeFloatKeys[uint32, K], 8: storeFloatKeys[uint64, K]}[size]
	} else {
		f = map[int]func(unsafe.Pointer, int, []K, sortKeyRow, bool){1: storeKeys[uint8, K], 2: storeKeys[uint16, K], 4: storeKeys[uint32, K], 8: storeKeys[uint64, K]}[size]
	}
	return func(dst unsafe.Pointer, ds int, keys []K) { f(dst, ds, keys, row, desc) }
}
