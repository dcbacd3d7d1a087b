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
			// The plan computes the graph's values.
			rng := rand.New(rand.NewPCG(3, 4))
			slots := g.Slots()
			raw := make([][]float64, len(slots))
			for i, n := range slots {
				raw[i] = make([]float64, p.Buffers[p.Inputs[i].Buffer].Elems)
				for j := range raw[i] {
					raw[i][j] = castTo(n.DType(), rng.Float64()*4-2)
				}
			}
			require.NoError(t, compareWithGraph(p, []*graph.Node{out}, bound, slots, raw))
		}
	}
}
