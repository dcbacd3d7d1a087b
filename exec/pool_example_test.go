package exec_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// A Pool hands a released buffer back to the next allocation of its size
// class; Trim returns the cached memory to the base allocator.
func ExamplePool() {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	pool := exec.NewPool(checked)
	for range 3 {
		t, err := exec.NewTensorUninit(pool, graph.Float32, graph.Shape{1024, 1024})
		if err != nil {
			panic(err)
		}
		t.Release()
	}
	s := pool.Stats()
	fmt.Println("misses:", s.Misses, "hits:", s.Hits, "cached MiB:", s.Cached>>20)
	pool.Trim()
	fmt.Println("bytes left:", checked.CurrentAlloc())
	// Output:
	// misses: 1 hits: 2 cached MiB: 4
	// bytes left: 0
}
