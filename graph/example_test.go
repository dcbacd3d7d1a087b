package graph_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

func Example() {
	x := graph.Input(graph.Float32, graph.Shape{3, 4}, "x")
	y := graph.BinaryWeak(graph.OpMul, x, graph.Weak{Kind: graph.KindInt, Int: 2}, false)
	s := graph.Reduce(graph.OpSum, graph.Unary(graph.OpExp, y), []int{1}, false)
	fmt.Println(s.Shape(), s.DType(), graph.Verify(s))

	bad := graph.Binary(graph.OpAdd, x, graph.Input(graph.Float32, graph.Shape{5}, "z"))
	fmt.Println(graph.Unary(graph.OpSqrt, bad).Err())
	// Output:
	// (3,) float32 <nil>
	// Add((3, 4) float32, (5,) float32): shapes (3, 4) (5,) cannot be broadcast together
}
