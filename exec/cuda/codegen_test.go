// Tests that every workload of the GPU suite goes through planning, code
// generation, module loading and launching against the fake driver. The
// fake runs none of the generated kernels, so no result is checked here:
// this catches what would otherwise fail only on a GPU before a kernel
// runs (a plan codegen rejects, PTX the loader cannot parse, a launch
// with bad geometry or arguments).

package cuda

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

func TestSuiteLaunchesOnFake(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	ctx := context.Background()
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	run := func(what string, outs []*graph.Node, bound bindings) {
		res, err := b.Eval(ctx, &exec.Request{Outputs: outs, Bound: bound})
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		releaseAll(res)
	}
	cases := gpuCases()
	step := 1
	if testing.Short() || raceEnabled {
		step = 10 // a sample: the full list takes a while on two cores
	}
	for i := 0; i < len(cases); i += step {
		c := cases[i]
		outs, _, shapes := c.build()
		if err := graph.Verify(outs...); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		bound := fillRandom(t, alloc, shapes, uint64(i))
		run(c.name, outs, bound)
		for _, x := range bound {
			x.Release()
		}
	}
	n := 150
	if testing.Short() || raceEnabled {
		n = 25
	}
	for seed := range uint64(n) {
		// One graph in three draws every dtype.
		c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, randgraph.Config{AllDTypes: seed%3 == 2})
		require.NoError(t, err)
		run("random graph", c.Outputs, c.Bound)
		c.Release()
	}
	st := b.Stats()
	require.Positive(t, st.Launches)
	t.Logf("%d evaluations, %d plans compiled, %d modules loaded, %d launches", st.Evals, st.Compiles, st.ModuleLoads, st.Launches)
}
