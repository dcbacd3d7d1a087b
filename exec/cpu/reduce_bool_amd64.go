// AVX2 byte loops of bool Any and All (reduce_bool_amd64.s), registered
// in place of the word loops of reduce_bool.go with the same results.

//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func anyNonzeroAVX(p *byte, n int) bool

//go:noescape
func orColsAVX(a, x *byte, n int)

//go:noescape
func andNonzeroColsAVX(a, x *byte, n int)

// registerBoolVector registers the loops; registerReduceVector calls it.
func registerBoolVector() {
	vectorize("any bool", &anyByte, func(v []byte) bool {
		if m := len(v) &^ 127; m > 0 {
			if anyNonzeroAVX(unsafe.SliceData(v), m) {
				return true
			}
			v = v[m:]
		}
		return anyByteGo(v)
	})
	vectorize("column or bool", &orCols, func(a, x []byte) {
		a = a[:len(x)]
		if m := len(x) &^ 31; m > 0 {
			orColsAVX(unsafe.SliceData(a), unsafe.SliceData(x), m)
			a, x = a[m:], x[m:]
		}
		orColsGo(a, x)
	})
	vectorize("column and bool", &andNonzeroCols, func(a, x []byte) {
		a = a[:len(x)]
		if m := len(x) &^ 31; m > 0 {
			andNonzeroColsAVX(unsafe.SliceData(a), unsafe.SliceData(x), m)
			a, x = a[m:], x[m:]
		}
		andNonzeroColsGo(a, x)
	})
}
