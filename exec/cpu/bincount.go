// Counting ScatterAdd (Bincount without weights): a ScatterAdd of an
// integer constant into a 1-d integer result with one update per index.
// Each worker counts the indices of its contiguous range into its own
// uint32 tables (half the bytes of int64 counts, so a wide range of bins
// misses the caches half as often), and the tables are then added into
// the result, bins split among the workers. The counting loop checks
// four indices with four unsigned compares (a negative index or one out
// of range sends the rest to a checked loop); where few bins take many
// increments in a row (each waiting on the store of the one before),
// consecutive indices go to two or four interleaved tables, summed at
// the end.

package cpu

import (
	"context"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

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
// (the counts are then partial). Indices in [0, n) are counted four at
// a time after one unsigned compare each; from the first group that
// holds another, the rest are counted one at a time.
func countRange[I int32 | int64](tab []uint32, k, n int, idx []I) int {
	_ = tab[k*n-1]
	p := unsafe.Pointer(unsafe.SliceData(tab))
	p1, p2, p3 := unsafe.Add(p, 1%k*n*4), unsafe.Add(p, 2%k*n*4), unsafe.Add(p, 3%k*n*4)
	un := uint64(n)
	j := 0
	for ; j+4 <= len(idx); j += 4 {
		w := idx[j : j+4 : j+4]
		i0, i1, i2, i3 := uint64(w[0]), uint64(w[1]), uint64(w[2]), uint64(w[3])
		if i0 >= un || i1 >= un || i2 >= un || i3 >= un {
			break
		}
		*(*uint32)(unsafe.Add(p, uintptr(i0)*4))++
		*(*uint32)(unsafe.Add(p1, uintptr(i1)*4))++
		*(*uint32)(unsafe.Add(p2, uintptr(i2)*4))++
		*(*uint32)(unsafe.Add(p3, uintptr(i3)*4))++
	}
	for ; j < len(idx); j++ {
		i := int(idx[j])
		if i < 0 {
			i += n
		}
		if uint(i) >= uint(n) {
			return j + 1
		}
		*(*uint32)(unsafe.Add(p, i*4))++
	}
	return 0
}
