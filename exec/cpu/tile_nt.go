// Non-temporal stores of tiles: when a tiled program writes a result far
// larger than the caches (the row-major result of a transpose), each
// tile row it stores is a run of whole cache lines that nothing reads
// again soon, so it goes to memory with non-temporal stores, which skip
// reading the lines in first (a third of the traffic of a copy) and
// leave the caches to the transposed operand's runs.

package cpu

import "unsafe"

// ntMinBytes is the smallest stored buffer whose tiles take non-temporal
// stores: beyond a core's share of the last-level cache (16 MiB of the
// 32 MiB a 2-core EPYC shows), so that a result another kernel reads
// soon stays cached where it can. At 8 MiB rather than 32, the int32
// 172^3 transpose plus a constant ran 3.02 -> 2.19 ms, the float32 to
// float64 cast of a 1560 x 1559 transpose 1.39 -> 1.10 ms, and the int32
// to float32 cast of a 133053 x 3 x 8 transpose 1.80 -> 1.24 ms
// (BenchmarkSuite, 2 threads, quiet machine). A variable for tests.
var ntMinBytes = 8 << 20

// ntStoreFns copies n bytes (a positive multiple of 64) to a 64-byte
// aligned dst with non-temporal stores (copy), and orders those stores
// before what follows (fence).
type ntStoreFns struct {
	copy  func(dst, src unsafe.Pointer, n int)
	fence func()
}

// ntStore is set where the CPU has such stores (tile_amd64.go) and not
// under FUSEFLOW_NOASM.
var ntStore ntStoreFns

// ntTiles reports whether store s of a program over sp takes
// non-temporal stores.
func ntTiles(sp space, s *access) bool {
	return ntStore.copy != nil && sp.size*s.es >= ntMinBytes
}

// scatterRowsNT stores a rows x cols row-major tile src whose rows are
// unit-stride runs of dst (element (r, c) at off + r*sr + c), each run
// by copyNT, then fences.
func scatterRowsNT(dst, src unsafe.Pointer, es, off, sr, rows, cols int) {
	n := cols * es
	for r := range rows {
		copyNT(unsafe.Add(dst, (off+r*sr)*es), unsafe.Add(src, r*n), n)
	}
	ntStore.fence()
}

// copyNT copies n bytes from src to dst (which do not overlap): the whole
// cache lines of dst with non-temporal stores, its ends with ordinary
// ones. The caller fences.
func copyNT(p, q unsafe.Pointer, n int) {
	head := min(n, int(-uintptr(p)&63))
	mid := (n - head) &^ 63
	if head > 0 {
		copy(unsafe.Slice((*byte)(p), head), unsafe.Slice((*byte)(q), head))
	}
	if mid > 0 {
		ntStore.copy(unsafe.Add(p, head), unsafe.Add(q, head), mid)
	}
	if tail := n - head - mid; tail > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(p, head+mid)), tail), unsafe.Slice((*byte)(unsafe.Add(q, head+mid)), tail))
	}
}
