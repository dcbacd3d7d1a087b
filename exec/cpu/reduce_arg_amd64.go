// One-pass vector ArgMax and ArgMin of float chunks for amd64 CPUs with
// AVX2 (reduce_arg_amd64.s), registered in place of the two passes of
// reduce_arg.go (the extreme, then the first element equal to it) with
// the same indices.

//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func argMinLanesF64(p unsafe.Pointer, n int, best *[16]float64, idx *[16]int64) int

//go:noescape
func argMaxLanesF64(p unsafe.Pointer, n int, best *[16]float64, idx *[16]int64) int

//go:noescape
func argMinLanesF32(p unsafe.Pointer, n int, best *[32]float32, idx *[32]int32) int

//go:noescape
func argMaxLanesF32(p unsafe.Pointer, n int, best *[32]float32, idx *[32]int32) int

// registerArgVector registers the loops; registerReduceVector calls it.
func registerArgVector() {
	vectorize("argmax float32", &argIndex32[0], argIndexVec32(argMaxLanesF32, true))
	vectorize("argmin float32", &argIndex32[1], argIndexVec32(argMinLanesF32, false))
	vectorize("argmax float64", &argIndex64[0], argIndexVec64(argMaxLanesF64, true))
	vectorize("argmin float64", &argIndex64[1], argIndexVec64(argMinLanesF64, false))
}

// argIndexVec64 returns the first index of the extreme of a row of
// whole iterations by the lane loop v, the rest by argTail; ok is false
// when the row holds a NaN.
func argIndexVec64(v func(unsafe.Pointer, int, *[16]float64, *[16]int64) int, isMax bool) func([]float64) (int, bool) {
	return func(r []float64) (int, bool) {
		var best [16]float64
		var idx [16]int64
		it := len(r) / 16
		if v(unsafe.Pointer(unsafe.SliceData(r)), it, &best, &idx) != 0 {
			return 0, false
		}
		// Lane 4j+l of iteration i is element 16i+4j+l.
		b, k := best[0], int(idx[0])*16
		for l := 1; l < 16; l++ {
			x, e := best[l], int(idx[l])*16+l
			if (isMax && x > b) || (!isMax && x < b) || (x == b && e < k) {
				b, k = x, e
			}
		}
		return argTail(isMax, r, 16*it, b, k)
	}
}

// argIndexVec32 is argIndexVec64 for float32 rows.
func argIndexVec32(v func(unsafe.Pointer, int, *[32]float32, *[32]int32) int, isMax bool) func([]float32) (int, bool) {
	return func(r []float32) (int, bool) {
		var best [32]float32
		var idx [32]int32
		it := len(r) / 32
		if v(unsafe.Pointer(unsafe.SliceData(r)), it, &best, &idx) != 0 {
			return 0, false
		}
		b, k := best[0], int(idx[0])*32
		for l := 1; l < 32; l++ {
			x, e := best[l], int(idx[l])*32+l
			if (isMax && x > b) || (!isMax && x < b) || (x == b && e < k) {
				b, k = x, e
			}
		}
		return argTail(isMax, r, 32*it, b, k)
	}
}
