// Benchmarks: elementwise adds with strided operands (transposes of 2-d
// and 3-d arrays, skinny transposes, reversed and stepped slices, rows in
// reverse order, row and column broadcasts)
// and a transposed result, float32 at sizes beyond the caches. The NumPy
// peers are the same expressions (a + b.T, a + b[::-1], ...).

package cpu_test

import (
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// stridedCase builds one expression over inputs of the given shapes.
type stridedCase struct {
	name   string
	shapes []graph.Shape
	expr   func(x []*graph.Node) *graph.Node
}

var rev = graph.Range{Start: -1, Step: -1, NoStart: true, NoStop: true}

var stridedCases = []stridedCase{
	{"add_T", []graph.Shape{{2048, 2048}, {2048, 2048}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Permute(x[1], []int{1, 0}))
	}},
	{"add_T_odd", []graph.Shape{{1999, 2001}, {2001, 1999}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Permute(x[1], []int{1, 0}))
	}},
	{"T_plus_T", []graph.Shape{{2048, 2048}, {2048, 2048}}, func(x []*graph.Node) *graph.Node {
		return graph.Permute(graph.Binary(graph.OpAdd, x[0], x[1]), []int{1, 0})
	}},
	{"add_3d_201", []graph.Shape{{128, 128, 256}, {256, 128, 128}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Permute(x[1], []int{1, 2, 0}))
	}},
	{"add_3d_T", []graph.Shape{{16, 255, 715}, {715, 255, 16}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Permute(x[1], []int{2, 1, 0}))
	}},
	{"add_3d_021", []graph.Shape{{64, 128, 512}, {64, 512, 128}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Permute(x[1], []int{0, 2, 1}))
	}},
	{"add_skinny_T", []graph.Shape{{1 << 20, 3}, {3, 1 << 20}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Permute(x[1], []int{1, 0}))
	}},
	{"add_rows_rev", []graph.Shape{{16, 1 << 18}, {16, 1 << 18}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Slice(x[1], []graph.Range{rev}))
	}},
	{"add_rev", []graph.Shape{{1 << 22}, {1 << 22}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Slice(x[1], []graph.Range{rev}))
	}},
	{"add_step2", []graph.Shape{{1 << 22}, {1 << 23}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], graph.Slice(x[1], []graph.Range{{Step: 2, NoStart: true, NoStop: true}}))
	}},
	{"add_row", []graph.Shape{{2048, 2048}, {2048}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], x[1])
	}},
	{"add_col", []graph.Shape{{2048, 2048}, {2048, 1}}, func(x []*graph.Node) *graph.Node {
		return graph.Binary(graph.OpAdd, x[0], x[1])
	}},
}

// BenchmarkStrided evaluates each strided case; bytes count every input
// element read and the result written once.
func BenchmarkStrided(b *testing.B) {
	for _, tc := range stridedCases {
		for _, tiles := range []bool{true, false} {
			name := tc.name + "/tiles"
			if !tiles {
				name = tc.name + "/flat"
			}
			b.Run(name, func(b *testing.B) {
				defer cpu.SetTiles(cpu.SetTiles(tiles))
				alloc := benchAlloc()
				bound := map[*graph.Node]*exec.Tensor{}
				var xs []*graph.Node
				var bytes int64
				for i, s := range tc.shapes {
					n, t := benchInput(b, alloc, s, uint64(i+1), -1, 1)
					bound[n] = t
					xs = append(xs, n)
					bytes += int64(4 * s.Size())
				}
				defer func() {
					for _, t := range bound {
						t.Release()
					}
				}()
				out := tc.expr(xs)
				if out.Err() != nil {
					b.Fatal(out.Err())
				}
				bytes += int64(4 * out.Size())
				runBench(b, benchBackend(), alloc, []*graph.Node{graph.Copy(out)}, bound, bytes)
			})
		}
	}
}
