// Package memory holds kernels with memory uses outside the kernel
// subset.
package memory

import "github.com/fuseflow/fuseflow/kernel"

var counter = 3

var weights = [3]float32{1, 2, 3}

var scratch = [2]float32{1, 2}

func init() { scratch[0] = 5 }

//fuseflow:kernel
func Memory(t kernel.Thread, out []float32, n int) {
	buf := make([]float32, 4) // want "make is not supported in kernels"
	out[0] = buf[0]
	p := new(int) // want "new is not supported in kernels; declare a local variable"
	out[1] = float32(*p)
	out = append(out, 1)              // want "append is not supported in kernels"
	s := kernel.Shared[float32](t, n) // want "kernel.Shared needs a constant size"
	out[2] = s[0]
	var loc [4]uint32
	kernel.AtomicAdd(loc[:], 0, 1) // want "atomics on local arrays are not supported"
	out[3] = float32(counter)      // want "package-level variable counter is not supported in kernels"
	weights[1] = 5                 // want "package-level array weights is written or its address escapes at memory.go:27"
	out[4] = scratch[1]            // want "package-level array scratch is written or its address escapes at memory.go:13"
	lit := []int32{1, 2, 3}        // want "slice literals are not supported in kernels"
	out[5] = float32(lit[0])
	prev := out[:0]
	for k := 0; k < 2; k++ {
		var w [2]float32 // want "the address of variable w is kept from one iteration of a loop to the next"
		if len(prev) > 0 {
			out[6] = prev[0]
		}
		prev = w[:]
	}
}
