// Row-group benchmarks: softmax, logsumexp and a row standardization
// (kernels independent along the rows) with the row-group schedule and
// with one kernel after the other over the whole arrays, in the same
// binary, at sizes beyond the caches and within them.

package cpu_test

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// rowBenchGraphs build the benchmarked expressions over x.
var rowBenchGraphs = []struct {
	name string
	f    func(x *graph.Node) *graph.Node
}{
	{"softmax", func(x *graph.Node) *graph.Node {
		e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, graph.Reduce(graph.OpReduceMax, x, []int{1}, true)))
		return graph.Binary(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	}},
	{"logsumexp", func(x *graph.Node) *graph.Node {
		m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
		s := graph.Reduce(graph.OpSum, graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m)), []int{1}, true)
		return graph.Binary(graph.OpAdd, graph.Unary(graph.OpLog, s), m)
	}},
	{"center_rows", func(x *graph.Node) *graph.Node {
		n := graph.FloatConst(x.DType(), float64(x.Shape()[1]))
		return graph.Binary(graph.OpSub, x, graph.Binary(graph.OpDiv, graph.Reduce(graph.OpSum, x, []int{1}, true), n))
	}},
}

// BenchmarkRowGroups evaluates each expression over float32 and float64
// inputs of 4096 x 4096 and 256 x 1024 (fixed seed) on the default
// backend, grouped and per kernel (the schedule is chosen when the plan
// is prepared, so each sub-benchmark has its own backend). Bytes are
// the input's and the result's.
func BenchmarkRowGroups(b *testing.B) {
	for _, g := range rowBenchGraphs {
		for _, d := range []graph.DType{graph.Float32, graph.Float64} {
			for _, s := range []graph.Shape{{4096, 4096}, {256, 1024}} {
				for _, grouped := range []bool{true, false} {
					sched := "perkernel"
					if grouped {
						sched = "grouped"
					}
					name := g.name + "/" + d.String() + "/" + strconv.Itoa(s[0]) + "x" + strconv.Itoa(s[1]) + "/" + sched
					b.Run(name, func(b *testing.B) {
						benchRowGroup(b, g.f, d, s, grouped)
					})
				}
			}
		}
	}
}

func benchRowGroup(b *testing.B, f func(*graph.Node) *graph.Node, d graph.DType, s graph.Shape, grouped bool) {
	restore := cpu.SetRowGroups(grouped, 1<<20)
	defer restore()
	alloc := memory.NewGoAllocator()
	x, xt := reduceInput(b, alloc, d, s, 18)
	defer xt.Release()
	bound := map[*graph.Node]*exec.Tensor{x: xt}
	runBench(b, cpu.New(cpu.Options{}), alloc, []*graph.Node{f(x)}, bound, int64(2*s.Size()*d.Size()))
}
