// Strided operands through the whole backend: transposes of odd 2-d and
// 3-d shapes, reversed and stepped slices, row and column broadcasts and
// transposed results, compared with the reference evaluator, with tiles
// on and off.

package cpu_test

import (
	"fmt"
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

func TestStridedVsRef(t *testing.T) {
	step2 := graph.Range{Start: 1, Step: 2, NoStop: true}
	perm := func(p ...int) func(*graph.Node) *graph.Node {
		return func(x *graph.Node) *graph.Node { return graph.Permute(x, p) }
	}
	tests := []struct {
		name   string
		shapes []graph.Shape
		expr   func(x []*graph.Node) *graph.Node
	}{
		{"a+b.T", []graph.Shape{{37, 91}, {91, 37}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], perm(1, 0)(x[1]))
		}},
		{"a.T*b.T", []graph.Shape{{130, 67}, {130, 67}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpMul, perm(1, 0)(x[0]), perm(1, 0)(x[1]))
		}},
		{"(a+b).T", []graph.Shape{{33, 129}, {33, 129}}, func(x []*graph.Node) *graph.Node {
			return perm(1, 0)(graph.Binary(graph.OpAdd, x[0], x[1]))
		}},
		{"3d 120", []graph.Shape{{9, 21, 35}, {35, 9, 21}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpSub, x[0], perm(1, 2, 0)(x[1]))
		}},
		{"3d 021", []graph.Shape{{5, 40, 17}, {5, 17, 40}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], perm(0, 2, 1)(x[1]))
		}},
		{"3d 210", []graph.Shape{{19, 6, 33}, {33, 6, 19}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpMax, x[0], perm(2, 1, 0)(x[1]))
		}},
		{"rev 2d", []graph.Shape{{45, 77}, {45, 77}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], graph.Slice(x[1], []graph.Range{rev, rev}))
		}},
		{"rev T", []graph.Shape{{45, 77}, {77, 45}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], perm(1, 0)(graph.Slice(x[1], []graph.Range{graph.All, rev})))
		}},
		{"step 2d", []graph.Shape{{45, 77}, {90, 154}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], graph.Slice(x[1], []graph.Range{step2, step2}))
		}},
		{"step T", []graph.Shape{{45, 77}, {154, 45}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], perm(1, 0)(graph.Slice(x[1], []graph.Range{step2})))
		}},
		{"rows rev", []graph.Shape{{5, 1500}, {5, 1500}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpSub, x[0], graph.Slice(x[1], []graph.Range{rev}))
		}},
		{"rows step", []graph.Shape{{4, 1300}, {8, 1300}}, func(x []*graph.Node) *graph.Node {
			return graph.Unary(graph.OpAbs, graph.Binary(graph.OpAdd, x[0], graph.Slice(x[1], []graph.Range{step2})))
		}},
		{"rows rev 3d", []graph.Shape{{3, 2, 1200}}, func(x []*graph.Node) *graph.Node {
			return graph.Unary(graph.OpNeg, graph.Slice(x[0], []graph.Range{rev, rev}))
		}},
		{"row", []graph.Shape{{45, 77}, {77}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], x[1])
		}},
		{"col", []graph.Shape{{45, 77}, {45, 1}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], x[1])
		}},
		{"row+col", []graph.Shape{{1, 77}, {45, 1}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], x[1])
		}},
		{"col+T", []graph.Shape{{45, 1}, {77, 45}}, func(x []*graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, x[0], perm(1, 0)(x[1]))
		}},
	}
	for _, tc := range tests {
		for _, tiles := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/tiles=%v", tc.name, tiles), func(t *testing.T) {
				defer cpu.SetTiles(cpu.SetTiles(tiles))
				alloc := checkedAlloc(t)
				bound := map[*graph.Node]*exec.Tensor{}
				var xs []*graph.Node
				for i, s := range tc.shapes {
					n, x := benchInputT(t, alloc, s, uint64(i+7), -4, 4)
					bound[n] = x
					xs = append(xs, n)
				}
				defer releaseBound(bound)
				out := graph.Copy(tc.expr(xs))
				want := evalOn(t, ref.New(), []*graph.Node{out}, bound, alloc)
				defer release(want)
				for _, chunk := range []int{0, 100} {
					got := evalOn(t, cpu.New(cpu.Options{Chunk: chunk}), []*graph.Node{out}, bound, alloc)
					g, w := exec.Elems[float32](got[0]), exec.Elems[float32](want[0])
					for i := range w {
						if g[i] != w[i] {
							t.Fatalf("chunk %d: element %d of %v got:%v want:%v", chunk, i, out.Shape(), g[i], w[i])
						}
					}
					release(got)
				}
			})
		}
	}
}
