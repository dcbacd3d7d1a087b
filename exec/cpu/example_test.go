package cpu_test

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// Example evaluates sum(a*a + 1) over the rows of a 2x3 array in one
// fused kernel.
func Example() {
	alloc := memory.NewGoAllocator()
	a := graph.Input(graph.Float32, graph.Shape{2, 3}, "a")
	x, _ := exec.NewTensor(alloc, graph.Float32, graph.Shape{2, 3})
	copy(exec.Elems[float32](x), []float32{1, 2, 3, 4, 5, 6})
	defer x.Release()

	sq := graph.Binary(graph.OpMul, a, a)
	y := graph.Reduce(graph.OpSum, graph.Binary(graph.OpAdd, sq, graph.FloatConst(graph.Float32, 1)), []int{1}, false)

	be := cpu.New(cpu.Options{})
	res, err := be.Eval(context.Background(), &exec.Request{
		Outputs: []*graph.Node{y}, Bound: map[*graph.Node]*exec.Tensor{a: x}, Alloc: alloc})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res[0].Release()
	fmt.Println(be.Name(), res[0].Shape, exec.Elems[float32](res[0])[:2])
	// Output: cpu (2,) [17 80]
}
