// Chunk vectors: raw element storage viewed as typed slices, the Go
// element type behind each dtype, and the function types of the per-op
// inner loops.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// numDTypes bounds graph.DType values used as table indices.
const numDTypes = 8

// view returns n elements of type T starting at p.
func view[T any](p unsafe.Pointer, n int) []T { return unsafe.Slice((*T)(p), n) }

// The Go element types: bool is one byte holding 0 or 1.
type (
	boolT = uint8
)

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

// elemSize returns the size in bytes of one element of d.
func elemSize(d graph.DType) int { return d.Size() }
