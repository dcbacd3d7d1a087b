// Vector loops of the fused product and row sum (reduce_dot_amd64.s) for
// amd64 CPUs with AVX2, registered in place of the portable ones of
// reduce_dot.go with the same results.

//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func dotLanesF64(lanes *[8]float64, a, b unsafe.Pointer, n int)

//go:noescape
func dotBlocksF32(acc float64, a, b unsafe.Pointer, blocks int) float64

// registerDotVector registers the loops; registerReduceVector calls it.
func registerDotVector() {
	vectorize("dot float64", &dotLanes64, dotLanesF64)
	vectorize("dot float32", &dotBlocks32, func(acc float64, a, b unsafe.Pointer, n int) float64 {
		return dotBlocksF32(acc, a, b, n/sumBlock32)
	})
}
