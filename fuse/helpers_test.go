// Test helpers: graph construction shortcuts and planning with contiguous
// bound inputs.

package fuse

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func input(s ...int) *graph.Node { return graph.Input(graph.Float32, graph.Shape(s), "x") }

func f32(v float64) *graph.Node { return graph.FloatConst(graph.Float32, v) }

func add(a, b *graph.Node) *graph.Node { return graph.Binary(graph.OpAdd, a, b) }
func sub(a, b *graph.Node) *graph.Node { return graph.Binary(graph.OpSub, a, b) }
func mul(a, b *graph.Node) *graph.Node { return graph.Binary(graph.OpMul, a, b) }
func div(a, b *graph.Node) *graph.Node { return graph.Binary(graph.OpDiv, a, b) }
func exp(a *graph.Node) *graph.Node    { return graph.Unary(graph.OpExp, a) }

// bindAll returns contiguous layouts for every Input leaf under outs.
func bindAll(outs ...*graph.Node) map[*graph.Node]Layout {
	b := map[*graph.Node]Layout{}
	for _, n := range graph.Topo(outs...) {
		if n.Op() == graph.OpInput {
			b[n] = ContiguousLayout(n.DType(), n.Shape())
		}
	}
	return b
}

// mustPlan plans outs on the CPU target with contiguous inputs.
func mustPlan(t testing.TB, outs ...*graph.Node) *Plan {
	t.Helper()
	return mustPlanOn(t, testCPU(), bindAll(outs...), outs...)
}

func mustPlanOn(t testing.TB, tg Target, bound map[*graph.Node]Layout, outs ...*graph.Node) *Plan {
	t.Helper()
	p, err := Build(outs, bound, tg)
	require.NoError(t, err)
	require.LessOrEqual(t, p.Bytes, p.UnfusedBytes, "fused plan moves more bytes than unfused:\n%s", Explain(p))
	return p
}

func testCPU() Target { return Target{Kind: TargetCPU, Name: "cpu", Cores: 2, CacheBytes: 1 << 20} }

// check plans outs with inputs of the given layouts over raw buffers
// (contiguous when not in layouts), runs the plan on the test
// interpreter and compares with the naive graph evaluation.
func check(t *testing.T, tg Target, layouts map[*graph.Node]Layout, outs ...*graph.Node) *Plan {
	t.Helper()
	bound := bindAll(outs...)
	for n, l := range layouts {
		bound[n] = l
	}
	p := mustPlanOn(t, tg, bound, outs...)
	_, slots, err := Key(outs, bound, tg)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	raw := make([][]float64, len(slots))
	vals := map[*graph.Node][]float64{}
	for i, n := range slots {
		l := bound[n]
		raw[i] = make([]float64, p.Buffers[p.Inputs[i].Buffer].Elems)
		for j := range raw[i] {
			raw[i][j] = float64(float32(rng.Float64()*4 - 2))
		}
		var logical []float64
		forEach(l.Shape, func(pt []int) { logical = append(logical, raw[i][at(l.Offset, l.Strides, pt)]) })
		vals[n] = logical
	}
	got := runPlan(p, raw)
	for i, o := range outs {
		want := evalGraph(o, vals)
		require.Len(t, got[i], len(want), "output %d", i)
		for j := range want {
			if math.Abs(got[i][j]-want[j]) > 1e-5*(1+math.Abs(want[j])) {
				t.Fatalf("output %d element %d got:%v want:%v\n%s", i, j, got[i][j], want[j], Explain(p))
			}
		}
	}
	return p
}
