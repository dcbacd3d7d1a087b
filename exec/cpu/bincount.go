// Counting ScatterAdd (Bincount without weights): a ScatterAdd of an
// integer constant into a 1-d integer result with one update per index.
// Each worker counts the indices of its contiguous range into its own
// uint32 tables (half the bytes of int64 counts, so a wide range of bins
// misses the caches half as often), and the tables are then added into
// the result, bins split among the workers. A range of indices is
// checked a block at a time before it is counted, so the counting loop
// has no branch; where few bins take many increments in a row (each
// waiting on the store of the one before), consecutive indices go to
// two or four interleaved tables, summed at the end.

package cpu

import (
	"context"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// countBlock is the number of indices checked before they are counted.
const countBlock = 1024

// isIntNumber reports whether E is an integer type.
func isIntNumber[E number]() bool {
	switch any(E(0)).(type) {
	case uint8, int32, int64:
		return true
	}
	return false
}

// countScatter runs the ScatterAdd s of the integer constant c into out
// by index counts, and reports true, where s is a counting ScatterAdd
// (one outer row, one value per index, integer result) with at least two
// indices per bin and worker; otherwise it does nothing and reports
// false. Integer sums wrap, so adding count*c is adding c count times.
func countScatter[E number, I int32 | int64](ctx context.Context, s *fuse.IndexSpec, out []E, idx []I, c E, workers int) (bool, error) {
	n, m := s.Len, s.Count
	if s.Outer != 1 || s.Inner != 1 || !isIntNumber[E]() || n == 0 {
		return false, nil
	}
	workers = max(1, min(workers, m/indexTask))
	if n*workers > m/2 || m/workers >= 1<<31 {
		return false, nil
	}
	k := 1 // interleaved tables per worker
	switch {
	case n <= 1024:
		k = 4
	case n <= 4096:
		k = 2
	}
	tabs := make([]uint32, workers*k*n)
	bad := make([]int, workers)
	err := parallel(ctx, workers, workers, func(_, t int) {
		lo, hi := t*m/workers, (t+1)*m/workers
		if b := countRange(tabs[t*k*n:(t+1)*k*n], k, n, idx[lo:hi]); b > 0 {
			bad[t] = lo + b
		}
	})
	if err != nil {
		return true, err
	}
	for _, b := range bad {
		if b > 0 {
			return true, graph.IndexError(s.Op, int64(idx[b-1]), s.Axis, s.Len)
		}
	}
	tasks := (n + indexTask - 1) / indexTask
	return true, parallel(ctx, workers, tasks, func(_, t int) {
		lo, hi := t*indexTask, min((t+1)*indexTask, n)
		for i := lo; i < hi; i++ {
			var sum uint64
			for u := range workers * k {
				sum += uint64(tabs[u*n+i])
			}
			out[i] += E(sum) * c
		}
	})
}

// countRange adds one to tab[u*n+i] for each index i of idx (negative
// ones count from n), u cycling through the k tables of n counts in tab,
// and returns 0, or 1 + the position of the first index outside [-n, n)
// (the counts are then partial).
func countRange[I int32 | int64](tab []uint32, k, n int, idx []I) int {
	_ = tab[k*n-1]
	p := unsafe.Pointer(unsafe.SliceData(tab))
	for b0 := 0; b0 < len(idx); b0 += countBlock {
		blk := idx[b0:min(b0+countBlock, len(idx))]
		if inRange(blk, n) {
			countIn(p, k, n, blk)
			continue
		}
		for j, x := range blk {
			i := int(x)
			if i < 0 {
				i += n
			}
			if uint(i) >= uint(n) {
				return b0 + j + 1
			}
			*(*uint32)(unsafe.Add(p, i*4))++
		}
	}
	return 0
}

// inRange reports whether every index of blk is in [0, n).
func inRange[I int32 | int64](blk []I, n int) bool {
	for _, x := range blk {
		if uint64(x) >= uint64(n) {
			return false
		}
	}
	return true
}

// countIn is countRange for indices in [0, n): no checks.
func countIn[I int32 | int64](p unsafe.Pointer, k, n int, blk []I) {
	p1, p2, p3 := unsafe.Add(p, 1%k*n*4), unsafe.Add(p, 2%k*n*4), unsafe.Add(p, 3%k*n*4)
	j := 0
	for ; j+4 <= len(blk); j += 4 {
		w := blk[j : j+4 : j+4]
		*(*uint32)(unsafe.Add(p, uintptr(w[0])*4))++
		*(*uint32)(unsafe.Add(p1, uintptr(w[1])*4))++
		*(*uint32)(unsafe.Add(p2, uintptr(w[2])*4))++
		*(*uint32)(unsafe.Add(p3, uintptr(w[3])*4))++
	}
	for _, x := range blk[j:] {
		*(*uint32)(unsafe.Add(p, uintptr(x)*4))++
	}
}
