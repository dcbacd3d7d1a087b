// Test helpers: graph construction shortcuts and planning with contiguous
// bound inputs, and the kernels of a plan by kind.

package fuse

import (
	"fmt"
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

// kindsOf returns the kinds of p's kernels in order.
func kindsOf(p *Plan) []Kind {
	var out []Kind
	for _, k := range p.Kernels {
		out = append(out, k.Kind())
	}
	return out
}

// onlyKernel returns the plan's only kernel of kind kind.
func onlyKernel(t *testing.T, kind Kind, p *Plan) *Kernel {
	t.Helper()
	var k *Kernel
	for i := range p.Kernels {
		if p.Kernels[i].Kind() == kind {
			require.Nil(t, k, "one %v kernel:\n%s", kind, Explain(p))
			k = &p.Kernels[i]
		}
	}
	require.NotNil(t, k, "a %v kernel:\n%s", kind, Explain(p))
	return k
}

// bindAll returns contiguous layouts for every Input leaf under outs.
func bindAll(outs ...*graph.Node) map[*graph.Node]graph.Layout {
	b := map[*graph.Node]graph.Layout{}
	for _, n := range graph.Topo(outs...) {
		if n.Op() == graph.OpInput {
			b[n] = graph.ContiguousLayout(n.DType(), n.Shape())
		}
	}
	return b
}

// mustPlan plans outs with contiguous inputs.
func mustPlan(t testing.TB, outs ...*graph.Node) *Plan {
	t.Helper()
	return mustPlanOn(t, bindAll(outs...), outs...)
}

func mustPlanOn(t testing.TB, bound map[*graph.Node]graph.Layout, outs ...*graph.Node) *Plan {
	t.Helper()
	p, err := Build(outs, bound)
	require.NoError(t, err)
	require.LessOrEqual(t, p.Bytes, p.UnfusedBytes, "fused plan moves more bytes than unfused:\n%s", Explain(p))
	return p
}

// check plans outs with inputs of the given layouts over raw buffers
// (contiguous when not in layouts) filled with random values, runs the
// plan on the test interpreter and compares with the naive graph
// evaluation.
func check(t *testing.T, layouts map[*graph.Node]graph.Layout, outs ...*graph.Node) *Plan {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	return checkValues(t, layouts, func(graph.DType) float64 { return float64(float32(rng.Float64()*4 - 2)) }, outs...)
}

// checkValues is check with the values of the raw input buffers drawn
// from fill.
func checkValues(t *testing.T, layouts map[*graph.Node]graph.Layout, fill func(graph.DType) float64, outs ...*graph.Node) *Plan {
	t.Helper()
	bound := bindAll(outs...)
	for n, l := range layouts {
		bound[n] = l
	}
	p := mustPlanOn(t, bound, outs...)
	require.NoError(t, validPlan(p), Explain(p))
	_, slots, err := Key(outs, bound)
	require.NoError(t, err)
	raw := make([][]float64, len(slots))
	for i, n := range slots {
		raw[i] = make([]float64, p.Buffers[p.Inputs[i].Buffer].Elems)
		for j := range raw[i] {
			raw[i][j] = castTo(n.DType(), fill(n.DType()))
		}
	}
	require.NoError(t, compareWithGraph(p, outs, bound, slots, raw))
	return p
}

// compareWithGraph runs p on the raw input buffers and compares every
// output with the naive evaluation of outs over the same inputs.
func compareWithGraph(p *Plan, outs []*graph.Node, bound map[*graph.Node]graph.Layout, slots []*graph.Node, raw [][]float64) error {
	vals := map[*graph.Node][]float64{}
	covered := make([][]bool, len(slots))
	for i, n := range slots {
		l := bound[n]
		covered[i] = make([]bool, len(raw[i]))
		logical := []float64{}
		forEach(l.Shape, func(pt []int) {
			e := at(l.Offset, l.Strides, pt)
			covered[i][e] = true
			logical = append(logical, raw[i][e])
		})
		vals[n] = logical
	}
	got, err := runPlan(p, raw, covered)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, Explain(p))
	}
	for i, o := range outs {
		want, err := evalGraph(o, vals)
		if err != nil {
			return err
		}
		if len(got[i]) != len(want) {
			return fmt.Errorf("output %d: %d elements, want %d\n%s", i, len(got[i]), len(want), Explain(p))
		}
		for j := range want {
			g, w := got[i][j], want[j]
			if g != w && !(math.IsNaN(g) && math.IsNaN(w)) && !(math.Abs(g-w) <= 1e-9*(1+math.Abs(w))) {
				return fmt.Errorf("output %d (%v %v) element %d got:%v want:%v\n%s", i, o.Op(), o.Shape(), j, g, w, Explain(p))
			}
		}
	}
	return nil
}
