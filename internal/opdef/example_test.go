package opdef_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// Example looks up the definition of FloorDiv and applies its int64 and
// float64 scalar functions.
func Example() {
	d := opdef.Lookup(graph.OpFloorDiv)
	fi := d.Fns.Get(graph.Int64).(func(a, b int64) int64)
	ff := d.Fns.Get(graph.Float64).(func(a, b float64) float64)
	fmt.Println(fi(-7, 2), fi(7, 0), ff(-7, 2), ff(1, 0), d.Result(graph.Int32))
	// Output: -4 0 -4 +Inf int32
}
