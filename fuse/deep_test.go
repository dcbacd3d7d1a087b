// Deep and wide graphs: builders of long chains of every kind (views,
// reductions, elementwise ops, products, concatenations, mixtures, wide
// DAGs with sharing, diamonds) for the planning-scale benchmark and the
// tests that bound the planner's work by the graph's size.

package fuse

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

// deepKind builds a graph of about n ops and returns its outputs.
type deepKind struct {
	name  string
	build func(n int) []*graph.Node
}

func one(v float64) graph.Weak { return graph.Weak{Kind: graph.KindFloat, Float: v} }

func addW(x *graph.Node, v float64) *graph.Node {
	return graph.BinaryWeak(graph.OpAdd, x, one(v), false)
}

func transpose(x *graph.Node) *graph.Node { return graph.Permute(x, []int{1, 0}) }

// deepKinds are the graph families of BenchmarkPlanDeep and
// TestPlanDeepLinear.
var deepKinds = []deepKind{
	// Reshapes of transposes: each is a copy (NumPy's reshape copies too).
	{"reshape-transpose", func(n int) []*graph.Node {
		x := input(8, 16)
		for range n / 2 {
			t := transpose(x)
			x = graph.Reshape(t, graph.Shape{t.Shape()[1], t.Shape()[0]})
		}
		return []*graph.Node{addW(x, 1)}
	}},
	// Views that fold into strides: one kernel at the end.
	{"views", func(n int) []*graph.Node {
		x := input(8, 16)
		for i := range n / 3 {
			x = transpose(x)
			x = graph.Reshape(x, graph.Shape{x.Shape()[0], 1, x.Shape()[1]})
			if i%2 == 0 {
				x = graph.Slice(x, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
			} else {
				x = graph.BroadcastTo(x, graph.Shape{2, x.Shape()[0], 1, x.Shape()[2]})
				x = graph.Slice(x, []graph.Range{{Start: 1, Stop: 2, Step: 1}})
				x = graph.Reshape(x, x.Shape()[1:])
			}
			x = graph.Reshape(x, graph.Shape{x.Shape()[0], x.Shape()[2]})
		}
		return []*graph.Node{addW(x, 1)}
	}},
	{"sum-keepdims", func(n int) []*graph.Node {
		x := input(8, 16)
		for range n {
			x = graph.Reduce(graph.OpSum, x, []int{1}, true)
		}
		return []*graph.Node{x}
	}},
	{"add", func(n int) []*graph.Node {
		x := input(8, 16)
		for range n {
			x = addW(x, 1)
		}
		return []*graph.Node{x}
	}},
	// A transpose and a fresh input at every level, in one kernel.
	{"transpose-add-input", func(n int) []*graph.Node {
		x := input(16, 16)
		for range n / 2 {
			x = add(transpose(x), input(16, 16))
		}
		return []*graph.Node{x}
	}},
	// A reshape (folded into strides) and a fresh input at every level.
	{"reshape-add-input", func(n int) []*graph.Node {
		x := input(8, 16)
		for range n / 2 {
			s := x.Shape()
			x = add(graph.Reshape(x, graph.Shape{s[1], s[0]}), input(s[1], s[0]))
		}
		return []*graph.Node{x}
	}},
	{"matmul", func(n int) []*graph.Node {
		x, w := input(8, 16), input(16, 16)
		for i := range n {
			if i%2 == 0 {
				x = graph.MatMul(x, w)
			} else {
				x = graph.MatMul(x, transpose(w))
			}
		}
		return []*graph.Node{x}
	}},
	// Many products reading one weight through a long chain of views,
	// reversed at the end (so BLAS needs a copy of it) or not.
	{"matmul-shared-views", func(n int) []*graph.Node {
		w := input(16, 16)
		for i := range n / 3 {
			if i%2 == 0 {
				w = transpose(w)
			} else {
				w = graph.Slice(w, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
			}
		}
		rw := graph.Slice(w, []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}})
		var outs []*graph.Node
		for i := range n / 3 {
			if i%2 == 0 {
				outs = append(outs, graph.MatMul(input(4, 16), w))
			} else {
				outs = append(outs, graph.MatMul(input(4, 16), rw))
			}
		}
		return outs
	}},
	// A rotation by concatenating two slices.
	{"concat", func(n int) []*graph.Node {
		x := input(8, 16)
		for range n {
			a := graph.Slice(x, []graph.Range{graph.All, {Start: 0, Stop: 5, Step: 1}})
			b := graph.Slice(x, []graph.Range{graph.All, {Start: 5, Stop: 16, Step: 1}})
			x = graph.Concat([]*graph.Node{b, a}, 1)
		}
		return []*graph.Node{x}
	}},
	// Softmax-like blocks: transpose, add an input, exp, subtract a row
	// maximum, divide by a row sum, a matrix product now and then.
	{"mixed", func(n int) []*graph.Node {
		x, w := input(16, 16), input(16, 16)
		for i := range n / 8 {
			x = exp(add(transpose(x), input(16, 16)))
			x = sub(x, graph.Reduce(graph.OpReduceMax, x, []int{1}, true))
			x = div(x, graph.Reduce(graph.OpSum, x, []int{1}, true))
			if i%4 == 3 {
				x = graph.MatMul(x, w)
			}
		}
		return []*graph.Node{x}
	}},
	// Every value reads the previous one and one far below (sharing), and
	// every 64th value is also an output.
	{"wide-shared", func(n int) []*graph.Node {
		vs := []*graph.Node{input(16, 16)}
		var outs []*graph.Node
		for i := 1; i < n; i++ {
			a, b := vs[i-1], vs[i/2]
			var v *graph.Node
			switch i % 3 {
			case 0:
				v = add(a, b)
			case 1:
				v = mul(a, transpose(b))
			default:
				v = sub(a, graph.Reduce(graph.OpSum, b, []int{0}, true))
			}
			vs = append(vs, v)
			if i%64 == 0 {
				outs = append(outs, v)
			}
		}
		return append(outs, vs[len(vs)-1])
	}},
	// One value read by many kernels of different shapes.
	{"fan-out", func(n int) []*graph.Node {
		x := graph.Unary(graph.OpNeg, input(1, 16))
		var outs []*graph.Node
		for i := range n / 2 {
			outs = append(outs, add(x, input(i%64+2, 16)))
		}
		return outs
	}},
	// Diamonds: each value is read twice, directly and transposed.
	{"diamond", func(n int) []*graph.Node {
		x := input(16, 16)
		for i := range n / 3 {
			if i%2 == 0 {
				x = mul(graph.Unary(graph.OpSin, x), graph.Unary(graph.OpCos, x))
			} else {
				x = add(x, transpose(x))
			}
		}
		return []*graph.Node{x}
	}},
}

// BenchmarkPlanDeep plans each graph family at depths 1e3, 1e4 and 1e5
// (about that many ops) and reports the time per graph node: flat across
// depths when planning is linear in the size of the graph.
func BenchmarkPlanDeep(b *testing.B) {
	for _, k := range deepKinds {
		for _, n := range []int{1e3, 1e4, 1e5} {
			b.Run(fmt.Sprintf("%s/%d", k.name, n), func(b *testing.B) {
				outs := k.build(n)
				bound := bindAll(outs...)
				var nodes int
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					p, err := Build(outs, bound)
					if err != nil {
						b.Fatal(err)
					}
					nodes = p.Nodes
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
			})
		}
	}
}

// planCost is what planning outs costs: the planner's count of
// elementary steps (see planner.work), allocations and bytes allocated.
type planCost struct {
	work, allocs, bytes, nodes int
}

func measurePlan(t *testing.T, outs []*graph.Node) planCost {
	t.Helper()
	bound := bindAll(outs...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var c planCost
	w, err := walkGraph(outs, bound)
	if err == nil {
		_, err = buildCounted(w, bound, Options{}, &c.work)
	}
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	c.allocs, c.bytes, c.nodes = int(after.Mallocs-before.Mallocs), int(after.TotalAlloc-before.TotalAlloc), len(w.nodes)
	return c
}

// TestPlanDeepLinear bounds the work of planning by the size of the
// graph: for every family, planning a graph four times as deep takes at
// most six times the steps, allocations and bytes (a quadratic planner
// takes sixteen times), and at most a few hundred steps and a few
// kilobytes per node.
func TestPlanDeepLinear(t *testing.T) {
	n := 500
	if testing.Short() {
		n = 250
	}
	for _, k := range deepKinds {
		t.Run(k.name, func(t *testing.T) {
			c1, c4 := measurePlan(t, k.build(n)), measurePlan(t, k.build(4*n))
			t.Logf("%+v; %+v", c1, c4)
			for _, m := range []struct {
				name   string
				c1, c4 int
			}{{"steps", c1.work, c4.work}, {"allocations", c1.allocs, c4.allocs}, {"bytes", c1.bytes, c4.bytes}} {
				if m.c4 > 6*m.c1 {
					t.Errorf("%s for %d nodes: %d, for %d nodes: %d, got:%.1fx want:<=6x",
						m.name, c1.nodes, m.c1, c4.nodes, m.c4, float64(m.c4)/float64(m.c1))
				}
			}
			if per := c4.work / c4.nodes; per > 400 {
				t.Errorf("steps per node got:%d want:<=400", per)
			}
			if per := c4.bytes / c4.nodes; per > 8<<10 {
				t.Errorf("bytes allocated per node got:%d want:<=%d", per, 8<<10)
			}
		})
	}
}
