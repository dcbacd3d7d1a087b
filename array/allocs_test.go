//go:build !race

// Allocation bounds of a warm Eval (not under the race detector, whose
// sync.Pool drops items at random).

package array_test

import (
	"context"
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
)

// TestEvalAllocs bounds the allocations of building, evaluating and
// releasing a+b of 1000 float32 once the plan is cached: a few per call
// (the Array, its result tensor and buffer, the request), none per
// element.
func TestEvalAllocs(t *testing.T) {
	c := array.MustContext(array.WithBackend(cpu.New(cpu.Options{})))
	x := array.FromSlice(c, make([]float32, 1000), 1000)
	y := array.FromSlice(c, make([]float32, 1000), 1000)
	defer x.Release()
	defer y.Release()
	ctx := context.Background()
	run := func() {
		z := x.Add(y)
		if err := array.Eval(ctx, z); err != nil {
			t.Fatal(err)
		}
		z.Release()
	}
	run()
	const limit = 20
	if n := testing.AllocsPerRun(50, run); n > limit {
		t.Errorf("allocs per warm Eval of a+b got:%v want:<= %d", n, limit)
	}
}
