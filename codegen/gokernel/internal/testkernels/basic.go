// Package testkernels holds the kernels the compiler's tests run two
// ways, natively on the CPU device and as IR on the interpreter, and
// whose PTX the generated files record (and ptxas assembles).
package testkernels

import (
	"github.com/fuseflow/fuseflow/kernel"
)

//go:generate go run github.com/fuseflow/fuseflow/cmd/kernelgen

// Saxpy computes y = a*x + y.
//
//fuseflow:kernel
func Saxpy(t kernel.Thread, a float32, x, y []float32) {
	i := t.Grid1()
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

// Daxpy computes y = a*x + y in a grid-stride loop.
//
//fuseflow:kernel
func Daxpy(t kernel.Thread, a float64, x, y []float64) {
	for i := t.Grid1(); i < len(y); i += t.GridSize1() {
		y[i] += a * x[i]
	}
}

// Indices writes, for each thread of a 3-D grid, its indices and the
// grid's dimensions into 12 consecutive ints at its linear position.
//
//fuseflow:kernel
func Indices(t kernel.Thread, out []int) {
	x, y, z := t.Grid3()
	sx, sy, _ := t.GridSize3()
	i := 12 * (x + sx*(y+sy*z))
	tid, bid, bd, gd := t.ThreadIdx(), t.BlockIdx(), t.BlockDim(), t.GridDim()
	x2, y2 := t.Grid2()
	w2, h2 := t.GridSize2()
	out[i] = tid.X + 10*tid.Y + 100*tid.Z
	out[i+1] = bid.X + 10*bid.Y + 100*bid.Z
	out[i+2] = bd.X + 10*bd.Y + 100*bd.Z
	out[i+3] = gd.X + 10*gd.Y + 100*gd.Z
	out[i+4] = x
	out[i+5] = y
	out[i+6] = z
	out[i+7] = t.Grid1() - x2 + y2
	out[i+8] = t.GridSize1() + w2*h2
	out[i+9] = t.LaneID()
	out[i+10] = t.WarpSize()
	out[i+11] = kernel.WarpSize
}

// Bools exercises bool parameters, bool slices and the logical operators.
//
//fuseflow:kernel
func Bools(t kernel.Thread, flip bool, in []bool, n int, out []bool, count []int32) {
	i := t.Grid1()
	if i >= n {
		return
	}
	v := in[i]
	w := v != flip
	if w && i%2 == 0 || !w && i%3 == 0 {
		out[i] = true
	} else {
		out[i] = v == (i > 5)
	}
	if out[i] {
		kernel.AtomicAdd(count, 0, 1)
	}
}
