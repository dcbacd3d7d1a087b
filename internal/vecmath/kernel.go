// This file implements the kernels behind the exported functions: the
// choice between the AVX-512, AVX2 and portable code, and the loop that
// runs the assembly over a slice and the portable code over each vector
// the assembly leaves to it.

package vecmath

import (
	"fmt"
	"unsafe"
)

// path is a code path.
type path int

const (
	pathPORTABLE path = iota
	pathAVX2
	pathAVX512
	numPaths
)

var pathNames = [numPaths]string{"portable", "avx2", "avx512"}

func (p path) String() string { return pathNames[p] }

// active is the path the kernels take (see dispatch.go).
var active = pathPORTABLE

// floats are the element types.
type floats interface{ ~float32 | ~float64 }

// asmFn is an assembly function: it computes n > 0 elements and returns
// n, or the index of the first vector (a multiple of the lane count)
// that holds a lane the portable code must compute, having stored
// nothing of that vector.
type asmFn1[T floats] func(d, a *T, n int) int
type asmFn2[T floats] func(d, a, b *T, n int) int

// kernel1 is a function of one operand.
type kernel1[T floats] struct {
	name  string
	port  func(dst, x []T)
	asm   [numPaths]asmFn1[T]
	lanes [numPaths]int
}

// kernel2 is a function of two operands.
type kernel2[T floats] struct {
	name  string
	port  func(dst, x, y []T)
	asm   [numPaths]asmFn2[T]
	lanes [numPaths]int
}

// checkDst panics unless dst is long enough and either starts where src
// does or does not overlap it.
func checkDst[T floats](name string, dst, src []T, what string) {
	if len(dst) < len(src) {
		panic(fmt.Sprintf("vecmath.%s: len(dst) = %d is less than len(%s) = %d", name, len(dst), what, len(src)))
	}
	if len(src) == 0 {
		return
	}
	var z T
	size := uintptr(unsafe.Sizeof(z))
	d, s := uintptr(unsafe.Pointer(&dst[0])), uintptr(unsafe.Pointer(&src[0]))
	n := uintptr(len(src)) * size
	if d != s && d < s+n && s < d+n {
		panic(fmt.Sprintf("vecmath.%s: dst overlaps %s without starting where it does", name, what))
	}
}

func (k *kernel1[T]) run(dst, x []T) { k.runOn(active, dst, x) }

func (k *kernel1[T]) runOn(p path, dst, x []T) {
	checkDst(k.name, dst, x, "x")
	n := len(x)
	f := k.asm[p]
	if f == nil || n == 0 {
		k.port(dst[:n], x)
		return
	}
	for i := 0; i < n; {
		i += f(&dst[i], &x[i], n-i)
		if i < n { // a vector for the portable code
			m := min(i+k.lanes[p], n)
			k.port(dst[i:m], x[i:m])
			i = m
		}
	}
}

func (k *kernel2[T]) run(dst, x, y []T) { k.runOn(active, dst, x, y) }

func (k *kernel2[T]) runOn(p path, dst, x, y []T) {
	if len(y) != len(x) {
		panic(fmt.Sprintf("vecmath.%s: operands of lengths %d and %d", k.name, len(x), len(y)))
	}
	checkDst(k.name, dst, x, "the first operand")
	checkDst(k.name, dst, y, "the second operand")
	n := len(x)
	f := k.asm[p]
	if f == nil || n == 0 {
		k.port(dst[:n], x, y)
		return
	}
	for i := 0; i < n; {
		i += f(&dst[i], &x[i], &y[i], n-i)
		if i < n {
			m := min(i+k.lanes[p], n)
			k.port(dst[i:m], x[i:m], y[i:m])
			i = m
		}
	}
}

// kernelEntry is one kernel of the table kernels: one of the four fields
// is set.
type kernelEntry struct {
	fn    string // the IR name of the math function ("exp", "atan2")
	k1f32 *kernel1[float32]
	k1f64 *kernel1[float64]
	k2f32 *kernel2[float32]
	k2f64 *kernel2[float64]
}
