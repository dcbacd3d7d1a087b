// The package example and benchmarks.

package ref_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

// Example evaluates sum(2 * arange(12).reshape(3, 4).T, axis 0) with a
// bound input.
func Example() {
	x := graph.Input(graph.Float32, graph.Shape{12}, "x")
	t := graph.Permute(graph.Reshape(x, graph.Shape{3, 4}), []int{1, 0})
	two := graph.FloatConst(graph.Float32, 2)
	y := graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, t, two), []int{0}, false)

	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	in, _ := exec.NewTensor(alloc, graph.Float32, graph.Shape{12})
	for i := range 12 {
		exec.Elems[float32](in)[i] = float32(i)
	}
	res, err := ref.New().Eval(context.Background(), &exec.Request{
		Outputs: []*graph.Node{y},
		Bound:   map[*graph.Node]*exec.Tensor{x: in},
		Alloc:   alloc,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res[0].Shape, res[0].DType, exec.Elems[float32](res[0]))
	res[0].Release()
	in.Release()
	fmt.Println("bytes left:", alloc.CurrentAlloc())
	// Output:
	// (3,) float32 [12 44 76]
	// bytes left: 0
}

// BenchmarkEval measures a chain of elementwise ops, a broadcast, a
// reduction and a view per size; ns/op divided by elements*ops gives the
// cost per element per op.
func BenchmarkEval(b *testing.B) {
	for _, n := range []int{1 << 12, 1 << 16} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x := graph.Input(graph.Float32, graph.Shape{n / 64, 64}, "x")
			row := graph.Iota(graph.Float32, 64, 0, 1, false, 0)
			y := graph.Binary(graph.OpAdd, graph.Unary(graph.OpExp, x), row)
			y = graph.Binary(graph.OpMul, y, graph.Unary(graph.OpSin, x))
			y = graph.Permute(graph.Unary(graph.OpSqrt, y), []int{1, 0})
			z := graph.Reduce(graph.OpSum, y, []int{1}, false)
			const ops = 8
			in, err := exec.NewTensor(memory.DefaultAllocator, graph.Float32, x.Shape())
			if err != nil {
				b.Fatal(err)
			}
			defer in.Release()
			req := &exec.Request{Outputs: []*graph.Node{z}, Bound: map[*graph.Node]*exec.Tensor{x: in}}
			ev := ref.New()
			b.SetBytes(int64(4 * n))
			b.ResetTimer()
			for b.Loop() {
				res, err := ev.Eval(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				res[0].Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*ops), "ns/elem/op")
		})
	}
}
