// Short rows of 8-byte keys (int64, float64) sorted by a comparator
// network, netLanes64 rows at a time stored lane-wise, as sortnet.go
// does for 32-bit keys. The block holds each key with its sign bit
// flipped, so the vector loops order it as a signed integer (VPMINSQ
// and VPMAXSQ with AVX-512, VPCMPGTQ and VPBLENDVB with AVX2): an
// int64 is its own bits, a float64 its bits with the magnitude
// inverted when negative, and a descending sort inverts every bit. The
// same rules as the 32-bit network keep the result exactly the stable
// sort's: values alone, and float rows holding a zero or NaN left to
// the merge sort. Rows are walked in order, their offsets stepped
// rather than divided out; when a block's rows lie side by side in the
// input (the sorted axis not the last in memory: sort(a, 0) of a
// row-major matrix) element j of the block is one run of netLanes64
// elements, read and written without a gather.

package cpu

import (
	"context"
	"sync/atomic"
	"unsafe"
)

// netLanes64 is the number of rows of 8-byte keys a block holds.
const netLanes64 = 8

// netMax64 is the longest row of 8-byte keys sorted by a network: up
// to here it beats the merge sort and the radix passes (some 4x at 300
// to 2000 elements, 1.5x at 4000).
const netMax64 = 4096

// netRows64 counts the rows given to the network of 8-byte keys (tests
// read it to know the network ran).
var netRows64 atomic.Int64

// netPairs64 returns the comparators of the network of n elements as
// byte offsets into a block of netLanes64 8-byte lanes.
func netPairs64(n int) []uint32 {
	netCache.Lock()
	defer netCache.Unlock()
	if p, ok := netCache.pairs64[n]; ok {
		return p
	}
	if netCache.pairs64 == nil {
		netCache.pairs64 = map[int][]uint32{}
	}
	var p []uint32
	for _, c := range batcherPairs(n) {
		p = append(p, uint32(c[0]*8*netLanes64), uint32(c[1]*8*netLanes64))
	}
	netCache.pairs64[n] = p
	return p
}

// net64Sorts reports whether sk's rows go through the network of
// 8-byte keys: vector loops on, values alone, rows of 2 to netMax64
// elements, at least one block.
func (sk *sortKernel) net64Sorts() bool {
	return net64On && vecOn && sk.idxs == nil && sk.vals != nil && sk.row.size == 8 && (sk.row.kind == keySigned || sk.row.kind == keyFloat) &&
		sk.n >= 2 && sk.n <= netMax64 && sk.rows >= netLanes64
}

// netKey64 holds what maps an element's bits b to its block key and
// back: float is every bit for floats (the magnitude of a negative
// inverted), 0 for integers; desc every bit for a descending sort; lim
// the bound of a float zero or NaN, 2b-2 >= lim (wrapping), which no
// integer reaches (2b-2 is even, lim all ones).
type netKey64 struct {
	float, desc, lim uint64
}

func newNetKey64(sk *sortKernel) netKey64 {
	k := netKey64{lim: ^uint64(0)}
	if sk.row.kind == keyFloat {
		k.float, k.lim = ^uint64(0), sk.row.inf<<1
	}
	if sk.desc {
		k.desc = ^uint64(0)
	}
	return k
}

// key maps bits to a block key.
func (k netKey64) key(b uint64) uint64 {
	return b ^ (k.float & (uint64(int64(b)>>63) >> 1)) ^ k.desc
}

// val maps a block key back to bits.
func (k netKey64) val(s uint64) uint64 {
	s ^= k.desc
	return s ^ (k.float & (uint64(int64(s)>>63) >> 1))
}

// special reports whether bits b are a float zero or NaN.
func (k netKey64) special(b uint64) bool {
	return b<<1-2 >= k.lim
}

// rowWalk steps through a sort's rows in order, keeping the element
// offsets of the current row in the input, in the values' store and in
// the indices' store.
type rowWalk struct {
	outer, idx, inS, outS, ixS []int
	in, out, ix                int
}

// walkFrom returns a walk of sk's rows starting at row r (an output
// offset stays 0 when sk does not store that output).
func (sk *sortKernel) walkFrom(r int) *rowWalk {
	w := &rowWalk{outer: sk.outer, idx: make([]int, len(sk.outer)), inS: sk.in.Strides, outS: make([]int, len(sk.outer)), in: sk.in.Offset}
	w.ixS = w.outS
	if sk.vals != nil { // else the output offset stays 0
		w.outS, w.out = sk.vals.Strides, sk.vals.Offset
	}
	if sk.idxs != nil {
		w.ixS, w.ix = sk.idxs.Strides, sk.idxs.Offset
	}
	for a := len(sk.outer) - 1; a >= 0; a-- {
		e := sk.outer[a]
		w.idx[a] = r % e
		w.in += w.idx[a] * w.inS[a]
		w.out += w.idx[a] * w.outS[a]
		w.ix += w.idx[a] * w.ixS[a]
		r /= e
	}
	return w
}

// next steps to the following row.
func (w *rowWalk) next() {
	for a := len(w.outer) - 1; a >= 0; a-- {
		w.idx[a]++
		w.in += w.inS[a]
		w.out += w.outS[a]
		w.ix += w.ixS[a]
		if w.idx[a] < w.outer[a] {
			return
		}
		w.in -= w.outer[a] * w.inS[a]
		w.out -= w.outer[a] * w.outS[a]
		w.ix -= w.outer[a] * w.ixS[a]
		w.idx[a] = 0
	}
}

// net64Scratch is one worker's block and the merge sort's scratch.
type net64Scratch[P payload] struct {
	block []uint64
	ss    *sortScratch[uint64, P]
}

// runNet64 sorts sk's rows (see net64Sorts) a block of netLanes64 rows
// at a time; a float row holding a zero or NaN and the rows after a
// task's last whole block are sorted as runSort does, with the payload
// fill fl and the store.
func runNet64[P payload](ctx context.Context, sk *sortKernel, ex *runState, workers int, fl payloadFill[P], store rowStore[uint64, P]) error {
	const lanes = netLanes64
	n, kk := sk.n, sk.k
	pairs := netPairs64(n)
	kf := newNetKey64(sk)
	inBase, outBase := ex.bases[sk.in.Buffer], ex.bases[sk.vals.Buffer]
	is, os := sk.in.Strides[len(sk.in.Strides)-1], sk.vals.Strides[len(sk.vals.Strides)-1]
	bits := sk.row.bits()
	per := lanes * max(1, netTaskElems/(n*lanes))
	tasks := (sk.rows + per - 1) / per
	scratch := make([]*net64Scratch[P], max(1, min(workers, tasks)))
	return parallel(ctx, workers, tasks, func(w, t int) {
		s := scratch[w]
		if s == nil {
			s = &net64Scratch[P]{block: make([]uint64, n*lanes), ss: newSortScratch[uint64, P](n)}
			scratch[w] = s
		}
		slow := func(r int) {
			src := at(inBase, sk.rowOffset(r, sk.in.Offset, sk.in.Strides), 8)
			loadKeys[uint64, uint64](s.ss.keys, src, is, sk.row, sk.desc)
			fl(s.ss.pl, src, is, 0)
			keys, pl := radixSort(s.ss.keys, s.ss.pl, s.ss.tk, s.ss.tp, bits)
			store(sk, ex, r, keys, pl, 0, kk, src, is)
		}
		r, hi := t*per, min(sk.rows, (t+1)*per)
		netRows64.Add(int64((hi - r) / lanes * lanes))
		wk := sk.walkFrom(r)
		block := s.block
		for ; r+lanes <= hi; r += lanes {
			var ins, outs [lanes]int
			col := true
			for l := range lanes {
				ins[l], outs[l] = wk.in, wk.out
				col = col && wk.in == ins[0]+l && wk.out == outs[0]+l
				wk.next()
			}
			var slowLanes uint
			if col {
				slowLanes = netLoadCols64(block, at(inBase, ins[0], 8), n, is, kf)
			} else {
				for l := range lanes {
					if netLoadLane64(block[l:], at(inBase, ins[l], 8), n, is, kf) {
						slowLanes |= 1 << l
					}
				}
			}
			netCmp64(block, pairs)
			if col {
				netStoreCols64(at(outBase, outs[0], 8), block, kk, os, kf)
			} else {
				for l := range lanes {
					netStoreLane64(at(outBase, outs[l], 8), block[l:], kk, os, kf)
				}
			}
			for l := range lanes {
				if slowLanes>>l&1 != 0 {
					slow(r + l)
				}
			}
		}
		for ; r < hi; r++ {
			slow(r)
		}
	})
}

// netLoadCols64 reads n elements of netLanes64 rows lying side by side
// at src (element j of row l at src plus j*stride+l elements) into the
// block as keys and returns the lanes holding a float zero or NaN.
func netLoadCols64(block []uint64, src unsafe.Pointer, n, stride int, k netKey64) uint {
	var bad [netLanes64]bool
	step := stride * 8
	for j := range n {
		v := (*[netLanes64]uint64)(unsafe.Add(src, j*step))
		d := (*[netLanes64]uint64)(block[j*netLanes64:])
		for l, b := range v {
			bad[l] = bad[l] || k.special(b)
			d[l] = k.key(b)
		}
	}
	var m uint
	for l, b := range bad {
		if b {
			m |= 1 << l
		}
	}
	return m
}

// netStoreCols64 writes block vectors 0..k-1 back as values of
// netLanes64 rows lying side by side at dst (element j of row l at dst
// plus j*stride+l elements).
func netStoreCols64(dst unsafe.Pointer, block []uint64, kk, stride int, k netKey64) {
	step := stride * 8
	for j := range kk {
		v := (*[netLanes64]uint64)(unsafe.Add(dst, j*step))
		s := (*[netLanes64]uint64)(block[j*netLanes64:])
		for l, x := range s {
			v[l] = k.val(x)
		}
	}
}

// netLoadLane64 reads a row of n elements at src (stride in elements)
// into lane 0 of lane (the block from that lane on) as keys and reports
// whether it holds a float zero or NaN.
func netLoadLane64(lane []uint64, src unsafe.Pointer, n, stride int, k netKey64) bool {
	bad := false
	step := stride * 8
	for j := range n {
		b := *(*uint64)(unsafe.Add(src, j*step))
		bad = bad || k.special(b)
		lane[j*netLanes64] = k.key(b)
	}
	return bad
}

// netStoreLane64 writes the first kk keys of lane 0 of lane back as the
// values of a row at dst (stride in elements).
func netStoreLane64(dst unsafe.Pointer, lane []uint64, kk, stride int, k netKey64) {
	step := stride * 8
	for j := range kk {
		*(*uint64)(unsafe.Add(dst, j*step)) = k.val(lane[j*netLanes64])
	}
}
