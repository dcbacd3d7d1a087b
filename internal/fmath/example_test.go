package fmath_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/internal/fmath"
)

func ExampleLog() {
	fmt.Printf("%.4f\n", fmath.Log(1e-310))
	// Output: -713.8014
}
