// Benchmarks: cold code generation (plan, IR, PTX text) of a 10-op fused
// expression, without and with an accurate transcendental, and the
// interpreter-independent lowering alone.

package codegen_test

import (
	"testing"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// tenOps builds a 10-op elementwise expression of three inputs; with exp
// one of the ops is Exp (expanded by the math library).
func tenOps(exp bool) ([]*graph.Node, map[*graph.Node]graph.Layout) {
	s := graph.Shape{1 << 20}
	x, y, z := graph.Input(graph.Float32, s, "x"), graph.Input(graph.Float32, s, "y"), graph.Input(graph.Float32, s, "z")
	c := graph.FloatConst(graph.Float32, 0.5)
	e := graph.Binary(graph.OpMul, x, c)                              // 1
	e = graph.Binary(graph.OpAdd, e, y)                               // 2
	e = graph.Binary(graph.OpSub, e, z)                               // 3
	e = graph.Binary(graph.OpMax, e, graph.Unary(graph.OpNeg, x))     // 4, 5
	e = graph.Unary(graph.OpAbs, e)                                   // 6
	e = graph.Unary(graph.OpSqrt, e)                                  // 7
	e = graph.Binary(graph.OpMul, e, y)                               // 8
	e = graph.Binary(graph.OpDiv, e, graph.Binary(graph.OpAdd, z, c)) // 9, 10
	if exp {
		e = graph.Unary(graph.OpExp, graph.Unary(graph.OpNeg, e))
	}
	b := map[*graph.Node]graph.Layout{}
	for _, n := range []*graph.Node{x, y, z} {
		b[n] = graph.ContiguousLayout(graph.Float32, s)
	}
	return []*graph.Node{e}, b
}

func BenchmarkColdCodegen(b *testing.B) {
	for _, bc := range []struct {
		name string
		exp  bool
	}{{"10ops", false}, {"10ops+exp", true}} {
		b.Run(bc.name, func(b *testing.B) {
			outs, bound := tenOps(bc.exp)
			tg := codegen.H100()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p, err := fuse.Build(outs, bound)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := codegen.Compile(p, tg, codegen.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
