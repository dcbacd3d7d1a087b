// Radix sort: stable LSD passes over 8-bit digits of unsigned keys
// carrying a uint32 payload (the element's index in its row), on one
// goroutine for a row of a many-row sort, or on every worker for one
// long row (per pass: chunk histograms, then a stable scatter of each
// chunk to its offsets).

package cpu

import (
	"context"
)

// Row lengths: runs of insertionRun elements are sorted by insertion,
// and rows of up to mergeMax elements by merging those runs (256
// counters per radix pass cost more than a merge sort of so few).
const (
	insertionRun = 16
	mergeMax     = 1024
)

// payload is what moves with a key: an index, the element's bits, or
// nothing (keys that invert to their elements).
type payload interface {
	uint32 | uint64 | struct{}
}

// radixSort sorts keys ascending, stably, moving idx alongside; tk and
// ti are scratch of the same length. Only the low bits of each key are
// sorted on (the others are 0). It returns the slices holding the
// result (the arguments or the scratch).
func radixSort[K uint32 | uint64, P payload](keys []K, idx []P, tk []K, ti []P, bits int) ([]K, []P) {
	n := len(keys)
	if n <= mergeMax {
		return mergeSort(keys, idx, tk, ti)
	}
	tk, ti = tk[:n], ti[:n]
	passes := (bits + 7) / 8
	var counts [8][256]int
	for _, k := range keys {
		for p := range passes {
			counts[p][uint8(k>>(8*p))]++
		}
	}
	for p := range passes {
		c := &counts[p]
		shift := 8 * p
		if c[uint8(keys[0]>>shift)] == n {
			continue // one digit value: the pass moves nothing
		}
		sum := 0
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		for j, k := range keys {
			d := uint8(k >> shift)
			o := c[d]
			c[d]++
			tk[o] = k
			ti[o] = idx[j]
		}
		keys, tk = tk, keys
		idx, ti = ti, idx
	}
	return keys, idx
}

// mergeSort sorts a short row stably: runs of insertionRun by
// insertion, then merges of neighbouring runs back and forth between
// the row and the scratch. It returns the slices holding the result.
func mergeSort[K uint32 | uint64, P payload](keys []K, idx []P, tk []K, ti []P) ([]K, []P) {
	n := len(keys)
	for lo := 0; lo < n; lo += insertionRun {
		hi := min(n, lo+insertionRun)
		insertionSort(keys[lo:hi], idx[lo:hi])
	}
	tk, ti = tk[:n], ti[:n]
	for w := insertionRun; w < n; w *= 2 {
		for lo := 0; lo < n; lo += 2 * w {
			mid, hi := min(n, lo+w), min(n, lo+2*w)
			i, j, o := lo, mid, lo
			for i < mid && j < hi {
				if keys[j] < keys[i] {
					tk[o], ti[o] = keys[j], idx[j]
					j++
				} else {
					tk[o], ti[o] = keys[i], idx[i]
					i++
				}
				o++
			}
			o += copy(tk[o:], keys[i:mid])
			copy(ti[o-(mid-i):], idx[i:mid])
			copy(tk[o:hi], keys[j:hi])
			copy(ti[o:hi], idx[j:hi])
		}
		keys, tk = tk, keys
		idx, ti = ti, idx
	}
	return keys, idx
}

// insertionSort sorts a short row stably.
func insertionSort[K uint32 | uint64, P payload](keys []K, idx []P) {
	for i := 1; i < len(keys); i++ {
		k, x := keys[i], idx[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j], idx[j] = keys[j-1], idx[j-1]
		}
		keys[j], idx[j] = k, x
	}
}

// parallelRadixSort is radixSort of one long row on up to workers
// goroutines: the row is cut into one chunk per worker; each pass counts
// the digits of every chunk, gives chunk c of digit d the offset after
// all smaller digits and after digit d of the chunks before c, and each
// chunk scatters its elements in order, so the pass is stable.
func parallelRadixSort[K uint32 | uint64, P payload](ctx context.Context, workers int, keys []K, idx []P, tk []K, ti []P, bits int) ([]K, []P, error) {
	n := len(keys)
	chunks := max(1, min(workers, n/4096))
	size := (n + chunks - 1) / chunks
	counts := make([][256]int, chunks)
	for p := range (bits + 7) / 8 {
		shift := 8 * p
		src := keys
		err := parallel(ctx, workers, chunks, func(_, c int) {
			h := &counts[c]
			*h = [256]int{}
			for _, k := range src[c*size : min(n, (c+1)*size)] {
				h[uint8(k>>shift)]++
			}
		})
		if err != nil {
			return nil, nil, err
		}
		sum, single := 0, false
		for d := range 256 {
			tot := 0
			for c := range counts {
				v := counts[c][d]
				counts[c][d] = sum
				sum += v
				tot += v
			}
			single = single || tot == n
		}
		if single {
			continue
		}
		dk, di, sk, si := tk[:n], ti[:n], keys, idx
		err = parallel(ctx, workers, chunks, func(_, c int) {
			o := &counts[c]
			lo, hi := c*size, min(n, (c+1)*size)
			for j := lo; j < hi; j++ {
				k := sk[j]
				d := uint8(k >> shift)
				dk[o[d]] = k
				di[o[d]] = si[j]
				o[d]++
			}
		})
		if err != nil {
			return nil, nil, err
		}
		keys, tk = tk, keys
		idx, ti = ti, idx
	}
	return keys, idx, nil
}
