package fuse

import (
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

// BenchmarkPlanCold plans a 10-op fused expression from scratch (no
// cache): the planner's share of a cold evaluation.
func BenchmarkPlanCold(b *testing.B) {
	x, y, z := input(1024, 1024), input(1024, 1024), input(1024)
	out := exp(graph.Unary(graph.OpNeg, mul(x, x)))
	out = add(mul(out, y), graph.Unary(graph.OpSqrt, graph.Unary(graph.OpAbs, z)))
	out = sub(div(out, f32(3)), mul(y, f32(2)))
	out = graph.Binary(graph.OpMax, out, f32(0))
	bound := bindAll(out)
	outs := []*graph.Node{out}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build(outs, bound); err != nil {
			b.Fatal(err)
		}
	}
}
