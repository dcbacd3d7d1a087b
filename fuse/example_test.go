package fuse_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// ExampleBuild plans exp(-a*a)*b + sqrt(c): one Map kernel over a rank-1
// space reading each input once and writing one output.
func ExampleBuild() {
	shape := graph.Shape{1024, 1024}
	a := graph.Input(graph.Float32, shape, "a")
	b := graph.Input(graph.Float32, shape, "b")
	c := graph.Input(graph.Float32, shape, "c")
	na := graph.Unary(graph.OpNeg, a)
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpMul, na, a))
	out := graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, e, b), graph.Unary(graph.OpSqrt, c))
	bound := map[*graph.Node]graph.Layout{}
	for _, in := range []*graph.Node{a, b, c} {
		bound[in] = graph.ContiguousLayout(graph.Float32, shape)
	}
	p, err := fuse.Build([]*graph.Node{out}, bound)
	if err != nil {
		panic(err)
	}
	k := p.Kernels[0]
	fmt.Println(len(p.Kernels), k.Kind(), k.Space, len(k.Operands), len(k.Stores))
	fmt.Println(p.Bytes, "bytes fused,", p.UnfusedBytes, "unfused")
	// Output:
	// 1 map [1048576] 3 1
	// 16777216 bytes fused, 62914560 unfused
}
