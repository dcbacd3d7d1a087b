// Vector reduction loops for amd64 CPUs with AVX2 (reduce_amd64.s),
// registered in place of the portable ones: the float32 column sum's
// widening add, the float32 column product's widening multiply, the
// float column ArgMax and ArgMin folds and the first-equal scans of row
// ArgMax and ArgMin. They give the portable loops' results exactly.

//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func addWidenF32(a *float64, x *float32, n int)

//go:noescape
func mulWidenF32(a *float64, x *float32, n int)

//go:noescape
func argMaxFoldF32(best *float32, idx *int64, x *float32, n int, row int64)

//go:noescape
func argMinFoldF32(best *float32, idx *int64, x *float32, n int, row int64)

//go:noescape
func argMaxFoldF64(best *float64, idx *int64, x *float64, n int, row int64)

//go:noescape
func argMinFoldF64(best *float64, idx *int64, x *float64, n int, row int64)

//go:noescape
func eqIndexF32(p *float32, n int, v float32) int

//go:noescape
func eqIndexF64(p *float64, n int, v float64) int

// registerReduceVector registers the loops; registerVector calls it when
// the CPU has AVX2 and FMA.
func registerReduceVector() {
	vectorize("column sum float32", &addWiden32, addWidenVec32)
	vectorize("column product float32", &mulWiden32, mulWidenVec32)
	vectorize("column argmax float32", &argFold32[0], argFoldVec(argMaxFoldF32, argFold32[0]))
	vectorize("column argmin float32", &argFold32[1], argFoldVec(argMinFoldF32, argFold32[1]))
	vectorize("column argmax float64", &argFold64[0], argFoldVec(argMaxFoldF64, argFold64[0]))
	vectorize("column argmin float64", &argFold64[1], argFoldVec(argMinFoldF64, argFold64[1]))
	vectorize("first equal float32", &eqIndex32, eqIndexVec(eqIndexF32))
	vectorize("first equal float64", &eqIndex64, eqIndexVec(eqIndexF64))
	registerBoolVector()
	registerColRows()
	registerDotVector()
	registerArgVector()
}

func addWidenVec32(a []float64, x []float32) {
	a = a[:len(x)]
	m := len(x) &^ 7
	if m > 0 {
		addWidenF32(unsafe.SliceData(a), unsafe.SliceData(x), m)
	}
	addWiden32Go(a[m:], x[m:])
}

func mulWidenVec32(a []float64, x []float32) {
	a = a[:len(x)]
	m := len(x) &^ 7
	if m > 0 {
		mulWidenF32(unsafe.SliceData(a), unsafe.SliceData(x), m)
	}
	mulWiden32Go(a[m:], x[m:])
}

// argFoldVec runs the vector column fold v over the whole vectors of a
// row and the portable fold s over the rest.
func argFoldVec[T floats](v func(best *T, idx *int64, x *T, n int, row int64), s func([]T, []int64, []T, int64)) func([]T, []int64, []T, int64) {
	lanes := int(32 / unsafe.Sizeof(T(0)))
	return func(best []T, idx []int64, x []T, row int64) {
		m := len(x) &^ (lanes - 1)
		if m > 0 {
			best, idx = best[:len(x)], idx[:len(x)]
			v(unsafe.SliceData(best), unsafe.SliceData(idx), unsafe.SliceData(x), m, row)
		}
		s(best[m:], idx[m:], x[m:], row)
	}
}

// eqIndexVec runs the vector scan v over the whole vectors of a row and
// the portable one over the rest.
func eqIndexVec[T floats](v func(p *T, n int, x T) int) func([]T, T) int {
	lanes := int(32 / unsafe.Sizeof(T(0)))
	return func(r []T, x T) int {
		m := len(r) &^ (lanes - 1)
		if m > 0 {
			if k := v(unsafe.SliceData(r), m, x); k < m {
				return k
			}
		}
		return m + eqIndexGo(r[m:], x)
	}
}
