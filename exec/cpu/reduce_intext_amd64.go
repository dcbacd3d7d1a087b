// Vector Max and Min folds of int32 and int64 chunks for amd64 CPUs with
// AVX2 (reduce_intext_amd64.s), registered in place of the eight scalar
// chains of extremeInt (reduce_ops.go) with the same results: Bincount's
// range pass and every integer Max and Min reduction.

//go:build amd64 && !purego

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// The loops take n >= 1 blocks of 128 bytes at p and write the lane-wise
// extremes of the blocks to out.
//
//go:noescape
func maxBlocksI64(p unsafe.Pointer, n int, out *[4]int64)

//go:noescape
func minBlocksI64(p unsafe.Pointer, n int, out *[4]int64)

//go:noescape
func maxBlocksI32(p unsafe.Pointer, n int, out *[8]int32)

//go:noescape
func minBlocksI32(p unsafe.Pointer, n int, out *[8]int32)

// registerIntExtremeVector registers the folds; registerArgVector calls
// it.
func registerIntExtremeVector() {
	vectorize("max int64", &foldTab[graph.OpReduceMax][graph.Int64], extremeVec[int64](maxBlocksI64, true))
	vectorize("min int64", &foldTab[graph.OpReduceMin][graph.Int64], extremeVec[int64](minBlocksI64, false))
	vectorize("max int32", &foldTab[graph.OpReduceMax][graph.Int32], extremeVec[int32](maxBlocksI32, true))
	vectorize("min int32", &foldTab[graph.OpReduceMin][graph.Int32], extremeVec[int32](minBlocksI32, false))
}

// extremeVec returns the Max (isMax) or Min fold of chunks of T by the
// block loop v, the lanes and the tail by extremeInt.
func extremeVec[T int32 | int64, L [4]int64 | [8]int32](v func(unsafe.Pointer, int, *L), isMax bool) foldFn {
	per := 128 / int(unsafe.Sizeof(T(0)))
	return func(s *accum, p unsafe.Pointer, n int, _ int64) {
		x := view[T](p, n)
		a := s.i
		if blocks := n / per; blocks > 0 {
			var lanes L
			v(p, blocks, &lanes)
			a = extremeInt(isMax, a, lanesOf[T](&lanes))
			x = x[blocks*per:]
		}
		s.i = extremeInt(isMax, a, x)
	}
}

// lanesOf views the lanes written by a block loop as values of T.
func lanesOf[T int32 | int64, L [4]int64 | [8]int32](l *L) []T {
	return view[T](unsafe.Pointer(l), int(unsafe.Sizeof(*l)/unsafe.Sizeof(T(0))))
}
