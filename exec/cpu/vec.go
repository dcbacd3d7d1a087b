// Chunk vectors: raw element storage viewed as typed slices, and the
// function types of the per-op inner loops.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/internal/fmath"
)

// numDTypes bounds graph.DType values used as table indices.
const numDTypes = 14

// The Go element types of the loops: bool is a byte holding 0 or 1.
type (
	ints   = fmath.Int
	floats = fmath.Float
	nums   = fmath.Number
	elems  interface{ nums | ~uint8 }
)

// view returns n elements of type T starting at p.
func view[T any](p unsafe.Pointer, n int) []T { return unsafe.Slice((*T)(p), n) }

// Inner loops over one chunk of n elements. Pointers address the first
// element of each operand; operands and destination have the same length
// in elements. The destination may be any operand (dst == src, the
// element sizes may differ): every loop reads an element before a store
// covers it, with no second pass over its operands (alias_test.go checks
// each table entry). Partial overlaps at other addresses never occur.
type (
	unaryFn  func(dst, a unsafe.Pointer, n int)
	binaryFn func(dst, a, b unsafe.Pointer, n int)
	whereFn  func(dst, c, a, b unsafe.Pointer, n int)
)

// unary wraps a typed loop as a unaryFn.
func unary[T, R any](f func(d []R, a []T)) unaryFn {
	return func(d, a unsafe.Pointer, n int) { f(view[R](d, n), view[T](a, n)) }
}

// binary wraps a typed loop as a binaryFn.
func binary[T, R any](f func(d []R, a, b []T)) binaryFn {
	return func(d, a, b unsafe.Pointer, n int) { f(view[R](d, n), view[T](a, n), view[T](b, n)) }
}

// map1 stores f of each element of a in d, front to back: f's result may
// be at most as wide as its operand (see the loop types). Called with a
// function the caller names, it inlines together with f.
func map1[T, R any](d []R, a []T, f func(T) R) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = f(x)
	}
}

// map1Back is map1 back to front, for results wider than the operand.
func map1Back[T, R any](d []R, a []T, f func(T) R) {
	d = d[:len(a)]
	for i := len(a) - 1; i >= 0; i-- {
		d[i] = f(a[i])
	}
}

// map2 stores f of each pair of elements of a and b in d.
func map2[T, R any](d []R, a, b []T, f func(T, T) R) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = f(x, b[i])
	}
}

// b2u converts a Go bool to the byte fuseflow stores for it.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
