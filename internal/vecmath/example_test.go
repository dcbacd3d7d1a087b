package vecmath_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/internal/vecmath"
)

// Exp and Pow over slices; the destination may be an operand.
func Example() {
	x := []float32{0, 1, 2, -1}
	y := make([]float32, len(x))
	vecmath.ExpF32(y, x)
	fmt.Println(y)

	b := []float64{2, 3, 10}
	e := []float64{10, 2, -1}
	vecmath.PowF64(b, b, e) // in place
	fmt.Println(b)
	// Output:
	// [1 2.7182817 7.389056 0.36787945]
	// [1024 9 0.1]
}
