// A target that plans with options of its own (PlanOptioner) gets plans
// built with them: row softmax stores exp(x - max) with the CPU's
// options and recomputes it without.

package runner

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// optTarget is a fakeTarget planning with opts.
type optTarget struct {
	*fakeTarget
	opts fuse.Options
}

func (t optTarget) PlanOptions() fuse.Options { return t.opts }

func TestPlanOptions(t *testing.T) {
	x := graph.Input(graph.Float32, graph.Shape{64, 128}, "x")
	m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m))
	out := graph.Binary(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	for _, tc := range []struct {
		name   string
		target Target
		want   int // kernels computing Exp
	}{
		{"cpu options", optTarget{&fakeTarget{failAt: -1}, fuse.CPUOptions()}, 1},
		{"no options", &fakeTarget{failAt: -1}, 2},
	} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		r := New(tc.target, 4)
		res, err := r.Eval(context.Background(), request(t, mem, out, x))
		require.NoError(t, err, tc.name)
		for _, v := range res {
			v.Release()
		}
		var plan *fuse.Plan
		for el := r.cache.lru.Front(); el != nil; el = el.Next() {
			plan = el.Value.(*entry).plan
		}
		require.NotNil(t, plan)
		got := 0
		for _, k := range plan.Kernels {
			body, _ := k.Bodies()
			for _, in := range body {
				if in.Kind == fuse.InstrOp && in.Op == graph.OpExp {
					got++
					break
				}
			}
		}
		if got != tc.want {
			t.Errorf("%s: kernels computing Exp got:%d want:%d\n%s", tc.name, got, tc.want, fuse.Explain(plan))
		}
	}
}
