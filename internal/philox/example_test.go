package philox_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/internal/philox"
)

// Element i of a random array depends only on the seed and i, so any
// backend, in any order, draws the same value.
func Example() {
	a := philox.Float64(42, 1000)
	b := philox.Float64(42, 1000)
	fmt.Println(a == b, a >= 0 && a < 1)
	// Output: true true
}
