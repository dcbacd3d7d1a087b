// Package types holds kernels using types and values outside the kernel
// subset; each line with a diagnostic says which in a want comment.
package types

import "github.com/fuseflow/fuseflow/kernel"

type pair struct{ a, b int }

type shape interface{ Area() float64 }

//fuseflow:kernel
func Types(t kernel.Thread, out []float64, s shape) { // want "parameter s: interfaces are not supported in kernels"
}

//fuseflow:kernel
func Values(t kernel.Thread, out []float64, n int) {
	m := map[int]float64{}    // want "maps are not supported in kernels; use a slice indexed by an integer key"
	m[n] = 2                  // want "maps are not supported in kernels"
	var x any = n             // want "interfaces are not supported in kernels"
	if v, ok := x.(int); ok { // want "interfaces are not supported in kernels"
		out[0] = float64(v)
	}
	str := "kernel"
	out[1] = float64(len(str)) // want "strings are not supported in kernels"
	var p pair                 // want "variable p: struct types are not supported in kernels"
	p.a = n                    // want "struct types are not supported in kernels"
	out[2] = float64(p.a)      // want "struct types are not supported in kernels"
	ch := make(chan int, 1)    // want "channels are not supported in kernels"
	ch <- 1                    // want "channels are not supported in kernels"
	var b int8 = 3
	out[3] = float64(b) // want "int8 is not supported in kernels; use int32 or uint32"
	c := complex(1, 2)
	out[4] = real(c) // want "complex numbers are not supported in kernels"
}

//fuseflow:kernel
func Pointer(t kernel.Thread, p *float32) { // want "pointer parameter p is not supported in kernels; pass a slice"
}
