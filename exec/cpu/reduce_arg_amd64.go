// One-pass vector ArgMax and ArgMin of float chunks for amd64 CPUs with
// AVX2 (reduce_arg_amd64.s), registered in place of the two passes of
// reduce_arg.go (the extreme, then the first element equal to it) with
// the same indices.

//go:build amd64 && !purego

package cpu

import "unsafe"

// The loops take n >= 1 blocks of 128 bytes at p and return the first
// index of their extreme, or nan true and the first index of the block
// that holds the first NaN.
//
//go:noescape
func argMaxF64(p unsafe.Pointer, n int) (k int, nan bool)

//go:noescape
func argMinF64(p unsafe.Pointer, n int) (k int, nan bool)

//go:noescape
func argMaxF32(p unsafe.Pointer, n int) (k int, nan bool)

//go:noescape
func argMinF32(p unsafe.Pointer, n int) (k int, nan bool)

// registerArgVector registers the loops, and the integer Max and Min
// folds (reduce_intext_amd64.go); registerReduceVector calls it.
func registerArgVector() {
	registerIntExtremeVector()
	vectorize("argmax float32", &argIndex32[0], argIndexVec[float32](argMaxF32, true))
	vectorize("argmin float32", &argIndex32[1], argIndexVec[float32](argMinF32, false))
	vectorize("argmax float64", &argIndex64[0], argIndexVec[float64](argMaxF64, true))
	vectorize("argmin float64", &argIndex64[1], argIndexVec[float64](argMinF64, false))
}

// argIndexVec returns the first index of the extreme of a row of at
// least one block: the whole blocks by the loop v, the rest by argTail;
// ok is false when the row holds a NaN.
func argIndexVec[T floats](v func(unsafe.Pointer, int) (int, bool), isMax bool) func([]T) (int, bool) {
	per := 128 / int(unsafe.Sizeof(T(0)))
	return func(r []T) (int, bool) {
		blocks := len(r) / per
		k, nan := v(unsafe.Pointer(unsafe.SliceData(r)), blocks)
		if nan {
			return 0, false
		}
		return argTail(isMax, r, blocks*per, r[k], k)
	}
}
