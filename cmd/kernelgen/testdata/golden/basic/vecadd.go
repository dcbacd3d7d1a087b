// Package basic is a golden test of kernelgen: a vector add.
package basic

import "github.com/fuseflow/fuseflow/kernel"

// VecAdd writes x + y into out.
//
//fuseflow:kernel
func VecAdd(t kernel.Thread, x, y, out []float32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = x[i] + y[i]
	}
}

// scale is unexported; its handle is too.
//
//fuseflow:kernel
//fuseflow:nobounds
func scale(t kernel.Thread, a float64, x []float64) {
	if i := t.Grid1(); i < len(x) {
		x[i] *= a
	}
}
