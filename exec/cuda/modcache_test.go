// Tests of the module cache's bound: modules of plans that left the cache
// are unloaded, but not while an evaluation still uses them.

package cuda

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func TestModuleEvictionUnloads(t *testing.T) {
	f := fake
	b := emuBackend(t, emuSmall, Options{CacheSize: 2})
	base := f.ModuleCount()
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	x := graph.Input(graph.Float64, graph.Shape{300}, "x")
	hx := hostF64(t, alloc, 300, 0.5)
	defer hx.Release()
	bound := bindings{x: hx}
	// scaled returns a new plan, and new PTX, for each k.
	scaled := func(k int) []*graph.Node {
		return []*graph.Node{graph.Binary(graph.OpMul, x, graph.FloatConst(graph.Float64, float64(k)+0.5))}
	}
	check := func(k int) {
		t.Helper()
		errs, _ := diffOutputs(b, fmt.Sprintf("x*%d.5", k), scaled(k), []bool{true}, bound, nil, alloc)
		for _, err := range errs {
			t.Error(err)
		}
	}
	for k := range 6 {
		check(k)
		st := b.Stats()
		require.Equal(t, int64(k+1), st.ModuleLoads, "plan %d", k)
		require.Equal(t, int64(max(k-1, 0)), st.ModuleUnloads, "plan %d", k)
		require.Equal(t, min(int64(k+1), 2), f.ModuleCount()-base, "modules loaded after plan %d", k)
	}

	// An evicted plan is compiled and loaded again, and computes.
	check(0)
	require.Equal(t, int64(7), b.Stats().ModuleLoads)
	require.Equal(t, int64(2), f.ModuleCount()-base)

	// A program in use keeps its module loaded past its eviction, until
	// it is given back.
	plan, _, err := b.planOf(scaled(0), map[*graph.Node]graph.Layout{x: graph.ContiguousLayout(graph.Float64, x.Shape())})
	require.NoError(t, err)
	held, err := b.buildProgram(plan)
	require.NoError(t, err)
	check(10)
	check(11)
	require.Equal(t, int64(3), f.ModuleCount()-base, "two cached and the held one")
	held.Release()
	require.Equal(t, int64(2), f.ModuleCount()-base, "the held module goes when given back")

	require.NoError(t, b.Close())
	require.Equal(t, base, f.ModuleCount(), "Close unloads every module")
}

// Two plans with the same PTX share one module: it stays loaded while
// either program holds it.
func TestModuleSharedByPrograms(t *testing.T) {
	f, b := fakeBackend(t, Options{Compile: stubCompile, CacheSize: 4})
	base := f.ModuleCount()
	x := graph.Input(graph.Float32, graph.Shape{64}, "x")
	layout := map[*graph.Node]graph.Layout{x: graph.ContiguousLayout(graph.Float32, x.Shape())}
	var progs []*program
	for _, op := range []graph.Op{graph.OpExp, graph.OpLog} { // stubCompile writes the same entries for both
		plan, _, err := b.planOf([]*graph.Node{graph.Unary(op, x)}, layout)
		require.NoError(t, err)
		pr, err := b.buildProgram(plan)
		require.NoError(t, err)
		progs = append(progs, pr)
	}
	require.Same(t, progs[0].mod, progs[1].mod)
	require.Equal(t, int64(1), f.ModuleCount()-base)
	b.runner.Forget()
	progs[0].Release()
	require.Equal(t, int64(1), f.ModuleCount()-base, "the module cache and the second program hold it")
	progs[1].Release()
	require.Equal(t, int64(1), f.ModuleCount()-base, "the module cache holds it")
	require.Equal(t, int64(0), b.Stats().ModuleUnloads)
}
