package exec_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// A Tensor is a strided view of an Arrow buffer: a transposed view shares
// the buffer and only changes strides.
func Example() {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t, err := exec.NewTensor(alloc, graph.Float32, graph.Shape{2, 3})
	if err != nil {
		panic(err)
	}
	data := exec.Elems[float32](t)
	for i := range data {
		data[i] = float32(i)
	}
	tr := t.View(graph.Shape{3, 2}, []int{1, 3}, 0)
	fmt.Println(t.Contiguous(), tr.Contiguous(), data[tr.Index([]int{2, 1})])
	tr.Release()
	t.Release()
	fmt.Println("bytes left:", alloc.CurrentAlloc())
	// Output:
	// true false 5
	// bytes left: 0
}
