// Package calls holds kernels with calls and statements outside the
// kernel subset.
package calls

import (
	"math"
	"math/bits"

	"github.com/fuseflow/fuseflow/kernel"
)

func fact(n int) int {
	if n <= 1 {
		return 1
	}
	return n * fact(n-1) // want "recursive call of fact is not supported in kernels \\(calls are inlined\\); write it as a loop"
}

func work(x []float32) { x[0]++ }

func apply(f func([]float32), x []float32) { f(x) }

//fuseflow:kernel
func Calls(t kernel.Thread, out []float32, n int) {
	i := t.Grid1()
	f := func() float32 { return float32(i) } // want "closures that capture variables are not supported in kernels"
	out[0] = f()
	go work(out)    // want "go statements are not supported in kernels"
	defer work(out) // want "defer is not supported in kernels"
	if n < 0 {
		panic("negative") // want "panic is not supported in kernels"
	}
	out[1] = float32(fact(n))
	out[2] = float32(bits.OnesCount(uint(n))) // want "call of bits.OnesCount: a kernel calls only functions of its own package"
	out[3] = float32(math.Asin(0.5))          // want "math.Asin is not supported in kernels; the math functions of kernels are"
	println(n)                                // want "println is not supported in kernels"
	kernel.D1(3)                              // want "kernel.D1 is not supported in kernels; it is for the host"
	apply(work, out)                          // want "function values are not supported in kernels"
}
