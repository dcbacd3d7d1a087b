package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// OutOfRange reads x[i+off]: out of range for the last threads when off
// is positive.
//
//fuseflow:kernel
func OutOfRange(t kernel.Thread, x []float32, off int, out []float32) {
	i := t.Grid1()
	if i < len(out) {
		out[i] = x[i+off]
	}
}

// Divide divides by d[i]: a zero divisor fails.
//
//fuseflow:kernel
func Divide(t kernel.Thread, n, d []int32) {
	i := t.Grid1()
	if i < len(n) {
		n[i] /= d[i]
	}
}

// Unchecked is Saxpy without bounds checks on the GPU.
//
//fuseflow:kernel
//fuseflow:nobounds
func Unchecked(t kernel.Thread, a float32, x, y []float32) {
	i := t.Grid1()
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}
