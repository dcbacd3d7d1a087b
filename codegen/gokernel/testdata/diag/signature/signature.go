// Package signature holds functions marked as kernels whose signatures
// are not kernels'.
package signature

import "github.com/fuseflow/fuseflow/kernel"

//fuseflow:kernel
func NoThread(out []float32) { // want "the first parameter of a kernel must be a kernel.Thread"
}

//fuseflow:kernel
func Result(t kernel.Thread) int { // want "a kernel returns nothing; write its results into slice parameters"
	return 1
}

//fuseflow:kernel
func Generic[T float32 | float64](t kernel.Thread, x []T) { // want "generic kernels are not supported"
}

type vec []float32

//fuseflow:kernel
func (v vec) Method(t kernel.Thread) { // want "kernel Method is a method"
}
