// Examples of the CUDA executor.

package cuda_test

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cuda"
	"github.com/fuseflow/fuseflow/graph"
)

// The device memory pool rounds requests up to size classes, so that a
// freed block serves the next request of its class.
func ExampleSizeClass() {
	for _, n := range []int64{100, 3000, 1 << 20, 5 << 20} {
		fmt.Println(n, "->", cuda.SizeClass(n))
	}
	// Output:
	// 100 -> 512
	// 3000 -> 4096
	// 1048576 -> 1048576
	// 5242880 -> 6291456
}

// Evaluating x*2 + 1 on GPU 0 and copying the result to the host. On a
// machine without a GPU, New says why.
func ExampleNew() {
	if ok, why := cuda.Available(); !ok {
		fmt.Println("no GPU:", why)
		return
	}
	be, err := cuda.New(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer be.Close()
	ctx := context.Background()
	x := graph.Input(graph.Float32, graph.Shape{4}, "x")
	y := graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, x, graph.FloatConst(graph.Float32, 2)), graph.FloatConst(graph.Float32, 1))
	hx, _ := exec.NewTensor(be.HostAllocator(), graph.Float32, graph.Shape{4})
	copy(exec.Elems[float32](hx), []float32{1, 2, 3, 4})
	defer hx.Release()
	res, err := be.Eval(ctx, &exec.Request{Outputs: []*graph.Node{y}, Bound: map[*graph.Node]*exec.Tensor{x: hx}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res[0].Release()
	host, err := be.ToHost(ctx, res[0], memory.DefaultAllocator)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer host.Release()
	fmt.Println(exec.Elems[float32](host))
}
