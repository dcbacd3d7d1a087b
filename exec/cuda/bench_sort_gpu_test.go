// GPU sort benchmarks, run with FUSEFLOW_DEVICE=cuda (skipped otherwise):
// Sort and ArgSort of one float32 input (one kernel, the radix sort)
// over one long row, square and many short rows, and TopK.

package cuda

import (
	"fmt"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

// benchSorts are the (rows, columns) shapes of the sort benchmarks.
var benchSorts = [][2]int{{1, 1 << 20}, {1024, 1024}, {1 << 16, 16}}

// BenchmarkGPUSort: Sort and ArgSort along the last axis; bytes are the
// keys read and the values and indices written.
func BenchmarkGPUSort(b *testing.B) {
	for _, s := range benchSorts {
		b.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(b *testing.B) {
			be := benchBackend(b)
			x := graph.Input(graph.Float32, graph.Shape{s[0], s[1]}, "x")
			n := int64(s[0] * s[1])
			benchEval(b, be, n*(4+4+8), []*graph.Node{graph.Sort(x, 1), graph.ArgSort(x, 1)},
				bindings{x: benchInput(b, be, "x", s[0], s[1])})
		})
	}
}

// BenchmarkGPUTopK: the 16 largest of each row of a 1024x1024 float32
// input; bytes are the keys read.
func BenchmarkGPUTopK(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{1024, 1024}, "x")
	v, i := graph.TopK(x, 1, 16)
	benchEval(b, be, 4*1024*1024, []*graph.Node{v, i}, bindings{x: benchInput(b, be, "x", 1024, 1024)})
}
