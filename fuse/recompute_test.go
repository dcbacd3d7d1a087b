// The recompute-or-store rule with a target's exchange rate between op
// cost and bytes (Options.BytesPerCost): row softmax stores exp(x - max)
// with the CPU's options and recomputes it with none (GPUs); a cheap
// shared value is recomputed with both.

package fuse

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

// kernelsWith counts the kernels whose body computes op.
func kernelsWith(p *Plan, op graph.Op) int {
	n := 0
	for i := range p.Kernels {
		if countOp(&p.Kernels[i], op) > 0 {
			n++
		}
	}
	return n
}

// requirePlanComputes checks that p, planned from g, computes out's
// values over inputs drawn uniformly from [-2, 2) with the given seed.
func requirePlanComputes(t *testing.T, p *Plan, g *Walked, out *graph.Node, bound map[*graph.Node]graph.Layout, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	slots := g.Slots()
	raw := make([][]float64, len(slots))
	for i, n := range slots {
		raw[i] = make([]float64, p.Buffers[p.Inputs[i].Buffer].Elems)
		for j := range raw[i] {
			raw[i][j] = castTo(n.DType(), rng.Float64()*4-2)
		}
	}
	require.NoError(t, compareWithGraph(p, []*graph.Node{out}, bound, slots, raw), Explain(p))
}

func TestRecomputeExchangeRate(t *testing.T) {
	softmax := func(d graph.DType) *graph.Node {
		x := graph.Input(d, graph.Shape{64, 128}, "x")
		m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
		e := exp(sub(x, m))
		return div(e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	}
	twice := func(d graph.DType) *graph.Node { // x*2 read by a sum and a map
		x := graph.Input(d, graph.Shape{64, 128}, "x")
		y := graph.Binary(graph.OpMul, x, graph.FloatConst(d, 2))
		return sub(y, graph.Reduce(graph.OpSum, y, []int{1}, true))
	}
	tests := []struct {
		name string
		opts Options
		out  func(graph.DType) *graph.Node
		op   graph.Op
		want int // kernels computing op
	}{
		{"softmax cpu", CPUOptions(), softmax, graph.OpExp, 1},
		{"softmax bytes alone", Options{}, softmax, graph.OpExp, 2},
		{"cheap cpu", CPUOptions(), twice, graph.OpMul, 2},
		{"cheap bytes alone", Options{}, twice, graph.OpMul, 2},
	}
	for _, tt := range tests {
		for _, d := range []graph.DType{graph.Float32, graph.Float64} {
			out := tt.out(d)
			bound := bindAll(out)
			g, err := Walk([]*graph.Node{out}, bound)
			require.NoError(t, err)
			p, err := g.BuildWith(tt.opts)
			require.NoError(t, err)
			require.NoError(t, validPlan(p), Explain(p))
			if got := kernelsWith(p, tt.op); got != tt.want {
				t.Errorf("%s %v: kernels computing %v got:%d want:%d\n%s", tt.name, d, tt.op, got, tt.want, Explain(p))
			}
			requirePlanComputes(t, p, g, out, bound, 3)
		}
	}
}

// TestHoistBroadcast: a value read through a broadcast by a kernel that
// would compute it HoistFactor times per element or more, at HoistMin
// points or more, is computed at its own shape (in a reduction's
// epilogue when it follows one); smaller plans and small broadcast
// factors keep it fused.
func TestHoistBroadcast(t *testing.T) {
	standardize := func(r, c int) *graph.Node { // (x - mean) / std along rows
		x := graph.Input(graph.Float32, graph.Shape{r, c}, "x")
		n := f32(float64(c))
		mean := div(graph.Reduce(graph.OpSum, x, []int{1}, true), n)
		std := graph.Unary(graph.OpSqrt, div(graph.Reduce(graph.OpSum, mul(x, x), []int{1}, true), n))
		return div(sub(x, mean), std)
	}
	scaleCols := func(r, c int) *graph.Node { // x * exp(y), y one row
		x := graph.Input(graph.Float32, graph.Shape{r, c}, "x")
		y := graph.Input(graph.Float32, graph.Shape{1, c}, "y")
		return mul(x, exp(y))
	}
	tests := []struct {
		name string
		out  *graph.Node
		op   graph.Op
		want int // points at which the body computing op runs, per evaluation
	}{
		{"standardize 512x256", standardize(512, 256), graph.OpSqrt, 0},
		{"standardize 16x16 (small plan)", standardize(16, 16), graph.OpSqrt, 16 * 16},
		{"standardize 65536x4 (factor 4)", standardize(65536, 4), graph.OpSqrt, 65536 * 4},
		{"exp of a row over 1024x1024", scaleCols(1024, 1024), graph.OpExp, 1024},
		{"exp of a row over 4x1024", scaleCols(4, 1024), graph.OpExp, 4 * 1024},
	}
	for _, tt := range tests {
		bound := bindAll(tt.out)
		g, err := Walk([]*graph.Node{tt.out}, bound)
		require.NoError(t, err)
		p, err := g.BuildWith(CPUOptions())
		require.NoError(t, err)
		require.NoError(t, validPlan(p), Explain(p))
		got := 0
		for i := range p.Kernels {
			if countOp(&p.Kernels[i], tt.op) > 0 {
				got += graph.Shape(p.Kernels[i].Space).Size()
			}
		}
		if got != tt.want {
			t.Errorf("%s: points computing %v got:%d want:%d\n%s", tt.name, tt.op, got, tt.want, Explain(p))
		}
		requirePlanComputes(t, p, g, tt.out, bound, 5)
	}
}
