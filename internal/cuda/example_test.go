// Runnable example of loading the driver and falling back when it is
// missing.

package cuda_test

import (
	"errors"
	"fmt"

	"github.com/fuseflow/fuseflow/internal/cuda"
)

// A program asks for the driver and runs on the CPU when there is none.
// Here the library path does not exist, so the outcome is the same on every
// machine; cuda.Load() does the same with libcuda.so.1 or FUSEFLOW_LIBCUDA.
func ExampleOpen() {
	d, err := cuda.Open("/nonexistent/libcuda.so.1")
	switch {
	case errors.Is(err, cuda.ErrNoDriver):
		fmt.Println("no CUDA driver: using the CPU")
	case err != nil:
		fmt.Println("CUDA driver present but unusable:", err)
	default:
		devs, err := d.Devices()
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, dev := range devs {
			fmt.Println(dev)
		}
	}
	// Output: no CUDA driver: using the CPU
}
