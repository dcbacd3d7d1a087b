// The package example.

package codegen_test

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// Example compiles the plan of sum(x*x, axis 1) for an H100 and shows
// what an executor launches.
func Example() {
	x := graph.Input(graph.Float32, graph.Shape{1000, 5000}, "x")
	y := graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, x), []int{1}, false)
	bound := map[*graph.Node]graph.Layout{x: graph.ContiguousLayout(graph.Float32, x.Shape())}
	plan, err := fuse.Build([]*graph.Node{y}, bound)
	if err != nil {
		fmt.Println(err)
		return
	}
	mod, err := codegen.Compile(plan, codegen.H100(), codegen.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range mod.Kernels {
		fmt.Println("entry", k.Entry, "shared bytes", k.SharedBytes)
		for _, p := range k.Params {
			fmt.Printf("  param %s: %v buffer %d read-only %v\n", p.Name, p.Kind, p.Buffer, p.ReadOnly)
		}
		for _, l := range k.Launches {
			fmt.Printf("  launch grid %v block %v\n", l.Grid, l.Block)
		}
	}
	fmt.Println(strings.Contains(mod.PTX, ".entry "+mod.Kernels[0].Entry))
	// Output:
	// entry k0_reduce shared bytes 64
	//   param b0: buffer buffer 0 read-only true
	//   param b1: buffer buffer 1 read-only false
	//   launch grid 1000 block 256
	// true
}
