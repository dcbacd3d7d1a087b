package gokernel_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/gokernel"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/kernel"
)

// Example compiles the test kernels, prints what the compiler recorded
// about Saxpy, runs its IR on the interpreter and emits its PTX.
func Example() {
	p, err := gokernel.Compile(".", "./internal/testkernels", gokernel.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range p.Kernels {
		if k.Name != "Saxpy" {
			continue
		}
		fmt.Println(k.Params, k.Checks)
		x, y := []float32{1, 2, 3}, []float32{10, 20, 30}
		if err := k.Interpret(kernel.Launch1D(1, 32), float32(2), x, y); err != nil {
			fmt.Println(err)
		}
		fmt.Println(y)
		text, err := k.PTX(ptx.Options{})
		fmt.Println(err, len(text) > 0)
	}
	// Output:
	// [a float32 x []float32 y []float32] [basic.go:18:13: index out of range basic.go:18:20: index out of range]
	// [12 24 36]
	// <nil> true
}
