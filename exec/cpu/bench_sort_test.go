// Sorting benchmarks: Sort, ArgSort and TopK of one long row (2^24
// elements, as bench/workloads.txt gives NumPy), of many short rows and
// of the columns of a matrix, in float32 and int32 (and float64 for the
// long row); the bytes are the input's.

package cpu_test

import (
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

func BenchmarkSort(b *testing.B) {
	sorts := []struct {
		name string
		f    func(x *graph.Node, axis int) *graph.Node
	}{
		{"Sort", graph.Sort},
		{"ArgSort", graph.ArgSort},
		{"TopK16", func(x *graph.Node, axis int) *graph.Node { _, i := graph.TopK(x, axis, 16); return i }},
	}
	shapes := []struct {
		name  string
		shape graph.Shape
		axis  int
	}{
		{"1x16M", graph.Shape{1 << 24}, 0},
		{"131072x128", graph.Shape{1 << 17, 128}, 1},
		{"1Mx8", graph.Shape{1 << 20, 8}, 1},
		{"4096x4096.ax0", graph.Shape{4096, 4096}, 0},
	}
	for _, d := range []graph.DType{graph.Float32, graph.Int32, graph.Float64} {
		for _, s := range shapes {
			if d == graph.Float64 && s.name != "1x16M" {
				continue
			}
			for _, f := range sorts {
				if f.name == "TopK16" && s.shape[s.axis] < 16 {
					continue // no 16 largest of fewer
				}
				b.Run(f.name+"/"+s.name+"/"+d.String(), func(b *testing.B) {
					alloc := benchAlloc()
					x, t := reduceInput(b, alloc, d, s.shape, 13)
					defer t.Release()
					runBench(b, benchBackend(), alloc, []*graph.Node{f.f(x, s.axis)}, map[*graph.Node]*exec.Tensor{x: t},
						int64(s.shape.Size()*d.Size()))
				})
			}
		}
	}
}
