package kernel_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/kernel"
)

// scale doubles the elements of x: an explicit kernel.
//
//fuseflow:kernel
func scale(t kernel.Thread, a float32, x []float32) {
	if i := t.Grid1(); i < len(x) {
		x[i] *= a
	}
}

// Example launches a kernel on the CPU device. kernelgen writes the Spec
// of each //fuseflow:kernel function (with its PTX) in the generated
// file; here it is written by hand.
func Example() {
	scaleKernel := kernel.New(kernel.Spec{
		Name: "scale",
		Params: []kernel.Param{
			{Name: "a", Type: kernel.Float32},
			{Name: "x", Type: kernel.Float32, Slice: true, Written: true},
		},
		Bind: kernel.Bind2(scale),
	})
	x := []float32{1, 2, 3, 4, 5}
	if err := scaleKernel.Launch(kernel.Launch1D(1, 32), 2, x); err != nil {
		fmt.Println(err)
	}
	fmt.Println(x)
	// A wrong argument names the parameter.
	fmt.Println(scaleKernel.Launch(kernel.Launch1D(1, 32), 2, []float64{1}))
	// Output:
	// [2 4 6 8 10]
	// kernel scale: argument 2 for parameter x []float32: got []float64, want []float32 or a device array of float32
}
