//go:build !race

// Allocation bounds of a warm Eval (not under the race detector, whose
// sync.Pool drops items at random).

package array_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/fuseflow/fuseflow/array"
)

// TestEvalAllocs bounds the allocations of building, evaluating and
// releasing an expression over two inputs of 1000 float32 once its plan
// is cached (the latency benchmarks' loop): none per element, and per
// call only what the result needs. For a+b that is one: the Array (the
// registry entry, the result tensor and its arrow buffer's header are
// reused); each further op of an expression adds its Array. It bounds
// their bytes too (an Array is 48 bytes): they set how often the
// collector runs in a loop of small evaluations.
func TestEvalAllocs(t *testing.T) {
	c := cpuContext()
	x := array.FromSlice(c, make([]float32, 1000), 1000)
	y := array.FromSlice(c, make([]float32, 1000), 1000)
	defer x.Release()
	defer y.Release()
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		expr  func() *array.Array
		limit float64
		bytes float64
	}{
		{"a+b", func() *array.Array { return x.Add(y) }, 1, 48},
		{"exp(a)", func() *array.Array { return x.Exp() }, 1, 48},
		// A reduction's Array and the CPU row fold's state.
		{"sum(a)", func() *array.Array { return x.Sum() }, 2, 72},
		{"(a*b+1)/a", func() *array.Array { return x.Mul(y).Add(1).Div(x) }, 3, 144},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func() {
				z := tc.expr()
				if err := array.Eval(ctx, z); err != nil {
					t.Fatal(err)
				}
				z.Release()
			}
			run()
			// An Array of the same expression, never evaluated, keeps
			// its nodes from being collected between runs (a new node
			// would take the plan cache's keyed path, not the warm one).
			keep := tc.expr()
			defer keep.Release()
			if n := testing.AllocsPerRun(200, run); n > tc.limit {
				t.Errorf("allocs per warm Eval got:%v want:<= %v", n, tc.limit)
			}
			if got := bytesPerRun(1000, run); got > tc.bytes {
				t.Errorf("bytes per warm Eval got:%.1f want:<= %v", got, tc.bytes)
			}
		})
	}
}

// bytesPerRun returns the bytes one call of f allocates: the fewest over
// a few tries of runs calls each (a collection meanwhile empties the
// sync.Pools, whose scratch is then made again).
func bytesPerRun(runs int, f func()) float64 {
	best := math.Inf(1)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			f()
		}
		runtime.ReadMemStats(&after)
		best = min(best, float64(after.TotalAlloc-before.TotalAlloc)/float64(runs))
	}
	return best
}
