// Short rows against the reference evaluator: many rows of 1 to 33
// values, an odd number of them, reduced by the row-block loops, with
// random values, ties and signed zeros, infinities, and one NaN at each
// position of a row.

package cpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// TestReduceShortRows compares every reduction of rows of r values, 37
// rows (and 1001 for r = 8), with the reference. Mode "nanpos" puts one
// NaN in row i at position i mod r (none in every fourth row).
func TestReduceShortRows(t *testing.T) {
	type tc struct{ rows, r int }
	var cases []tc
	for r := 1; r <= 17; r++ {
		cases = append(cases, tc{37, r})
	}
	cases = append(cases, tc{1001, 8}, tc{37, 31}, tc{37, 32}, tc{37, 33})
	modes := map[graph.DType][]string{graph.Float32: {"rand", "ties", "inf", "nanpos"},
		graph.Float64: {"rand", "ties", "nanpos"}, graph.Bool: {"ties"}}
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 7}), cpu.New(cpu.Options{Chunk: 64, Workers: 3}),
		cpu.New(cpu.Options{})}
	r := rand.New(rand.NewPCG(21, 22))
	for _, c := range cases {
		for _, d := range []graph.DType{graph.Float32, graph.Float64, graph.Bool} {
			for _, mode := range modes[d] {
				alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
				shape := graph.Shape{c.rows, c.r}
				in := graph.Input(d, shape, "x")
				tn, err := exec.NewTensor(alloc, d, shape)
				if err != nil {
					t.Fatal(err)
				}
				if mode == "nanpos" {
					fillReduceInput(tn, "ties", r)
					for i := range c.rows {
						if i%4 == 3 {
							continue
						}
						k := i*c.r + i%c.r
						if d == graph.Float32 {
							exec.Elems[float32](tn)[k] = float32(math.NaN())
						} else {
							exec.Elems[float64](tn)[k] = math.NaN()
						}
					}
				} else {
					fillReduceInput(tn, mode, r)
				}
				var outs []*graph.Node
				for _, op := range reduceOps {
					outs = append(outs, graph.Reduce(op, in, []int{1}, false))
				}
				name := fmt.Sprintf("%v %v %s", shape, d, mode)
				checkReduce(t, name, backends, outs, map[*graph.Node]*exec.Tensor{in: tn}, alloc)
				tn.Release()
				alloc.AssertSize(t, 0)
			}
		}
	}
}
