// Tests of fused gathers: which plans a Take or TakeAlong becomes, the
// values the planned kernels compute (on the plan interpreter, against
// the naive evaluation of the graph), and the index errors they raise.

package fuse

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func idxOf(d graph.DType, s ...int) *graph.Node { return graph.Input(d, graph.Shape(s), "idx") }

// gatherFill draws index values in [-n, n) ([0, n) for unsigned dtypes)
// and floats in [-2, 2).
func gatherFill(n int) func(graph.DType) float64 {
	rng := rand.New(rand.NewPCG(3, 4))
	return func(d graph.DType) float64 {
		switch {
		case d.IsInt() && d.Unsigned():
			return float64(rng.IntN(n))
		case d.IsInt():
			return float64(rng.IntN(2*n) - n)
		}
		return float64(float32(rng.Float64()*4 - 2))
	}
}

func TestGatherPlans(t *testing.T) {
	x, y := input(6, 5), input(4, 5)
	tests := []struct {
		name    string
		out     func() *graph.Node
		n       int // the gathered axis' extent
		kinds   []Kind
		gathers int // InstrGathers in the plan
	}{
		{"x.Take(idx, 0)*2 + y is one map", func() *graph.Node {
			return add(mul(graph.Take(x, idxOf(graph.Int64, 4), 0), f32(2)), y)
		}, 6, []Kind{KindMap}, 1},
		{"exp(x) is stored, the take fuses with its epilogue", func() *graph.Node {
			return add(graph.Take(exp(x), idxOf(graph.Int32, 4), 0), f32(1))
		}, 6, []Kind{KindMap, KindMap}, 1},
		{"take along then a row sum is one reduce", func() *graph.Node {
			return graph.Reduce(graph.OpSum, graph.TakeAlong(x, idxOf(graph.Int16, 6, 3), 1), []int{1}, false)
		}, 5, []Kind{KindReduce}, 1},
		{"take then a column sum is one reduce", func() *graph.Node {
			return graph.Reduce(graph.OpSum, graph.Take(x, idxOf(graph.Uint8, 7), 1), []int{0}, false)
		}, 5, []Kind{KindReduce}, 1},
		{"a middle-axis max of a 3-d take", func() *graph.Node {
			return graph.Reduce(graph.OpReduceMax, graph.Take(x, idxOf(graph.Int64, 2, 3), 0), []int{1}, false)
		}, 6, []Kind{KindReduce}, 1},
		{"a transposed operand is read through its strides", func() *graph.Node {
			return graph.Take(graph.Permute(x, []int{1, 0}), idxOf(graph.Int8, 3), 1)
		}, 6, []Kind{KindMap}, 1},
		{"a transposed result", func() *graph.Node {
			return add(graph.Permute(graph.Take(x, idxOf(graph.Uint16, 3), 1), []int{1, 0}), input(3, 6))
		}, 5, []Kind{KindMap}, 1},
		{"a broadcast result", func() *graph.Node {
			return mul(graph.Take(input(9), idxOf(graph.Int64, 5), 0), y)
		}, 9, []Kind{KindMap}, 1},
		{"a scalar index", func() *graph.Node {
			return add(graph.Take(x, idxOf(graph.Int32), 1), input(6))
		}, 5, []Kind{KindMap}, 1},
		{"take along with a broadcast index and array", func() *graph.Node {
			return graph.TakeAlong(input(1, 5), idxOf(graph.Uint32, 4, 2), 1)
		}, 5, []Kind{KindMap}, 1},
		{"an index computed first is stored", func() *graph.Node {
			idx := graph.Binary(graph.OpSub, idxOf(graph.Int64, 4), graph.Const(graph.ScalarOf(graph.Int64, 1)))
			return graph.Take(x, idx, 0)
		}, 5, []Kind{KindMap, KindMap}, 1},
		{"a sliced result stores the gather", func() *graph.Node {
			g := graph.Take(x, idxOf(graph.Int64, 4), 0)
			return add(graph.Slice(g, []graph.Range{{Start: 1, Stop: 3, Step: 1}, {Start: 0, Stop: 5, Step: 2}}), f32(1))
		}, 6, []Kind{KindMap, KindMap}, 1},
		{"a scan stores the gather", func() *graph.Node {
			return graph.Scan(graph.OpCumSum, graph.Take(x, idxOf(graph.Int64, 4), 0), 1)
		}, 6, []Kind{KindMap, KindScan}, 1},
		{"no gather in a reduce epilogue", func() *graph.Node {
			return add(graph.Reduce(graph.OpSum, y, []int{1}, false), graph.Take(input(7), idxOf(graph.Int64, 4), 0))
		}, 7, []Kind{KindReduce, KindMap}, 1},
		{"an empty take plans no kernel", func() *graph.Node {
			return graph.Take(input(0, 4), idxOf(graph.Uint8, 3), 1)
		}, 4, nil, 0},
		{"a take of a take", func() *graph.Node {
			return graph.Take(graph.Take(x, idxOf(graph.Int64, 8), 0), idxOf(graph.Int64, 3), 0)
		}, 6, []Kind{KindMap, KindMap}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out()
			require.NoError(t, out.Err())
			p := checkValues(t, nil, gatherFill(tt.n), out)
			var kinds []Kind
			n := 0
			for _, k := range p.Kernels {
				kinds = append(kinds, k.Kind())
				body, _ := k.Bodies()
				for _, in := range body {
					if in.Kind == InstrGather {
						n++
					}
				}
			}
			require.Equal(t, tt.kinds, kinds, Explain(p))
			require.Equal(t, tt.gathers, n, Explain(p))
			if n > 0 {
				require.Contains(t, Explain(p), "take")
			}
		})
	}
}

// TestGatherErrors checks that a fused gather fails with the error of
// the first bad index in row-major order of its result, as the naive
// evaluation does, wherever that index lies in the kernel's space.
func TestGatherErrors(t *testing.T) {
	tests := []struct {
		name string
		out  func(idx *graph.Node) *graph.Node
		idx  *graph.Node
		bad  map[int]float64 // index array position -> value
		want string
	}{
		{"the first of two", func(idx *graph.Node) *graph.Node {
			return add(graph.Take(input(6, 5), idx, 0), f32(1))
		}, idxOf(graph.Int64, 4), map[int]float64{3: 6, 1: -7}, "Take: index -7 is out of bounds for axis 0 with size 6"},
		{"through a transpose", func(idx *graph.Node) *graph.Node {
			return graph.Permute(graph.TakeAlong(input(6, 5), idx, 1), []int{1, 0})
		}, idxOf(graph.Int32, 6, 3), map[int]float64{4: 9, 7: 5}, "TakeAlongAxis: index 9 is out of bounds for axis 1 with size 5"},
		{"in a column reduce", func(idx *graph.Node) *graph.Node {
			return graph.Reduce(graph.OpSum, graph.Take(input(3, 4, 5), idx, 2), []int{0, 1}, false)
		}, idxOf(graph.Int8, 2), map[int]float64{1: -6, 0: 5}, "Take: index 5 is out of bounds for axis 2 with size 5"},
		{"unsigned", func(idx *graph.Node) *graph.Node {
			return graph.Take(input(6), idx, 0)
		}, idxOf(graph.Uint8, 4), map[int]float64{2: 200}, "Take: index 200 is out of bounds for axis 0 with size 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out(tt.idx)
			require.NoError(t, out.Err())
			bound := bindAll(out)
			p := mustPlanOn(t, bound, out)
			require.NoError(t, validPlan(p), Explain(p))
			require.Contains(t, Explain(p), "take")
			_, slots, err := Key([]*graph.Node{out}, bound)
			require.NoError(t, err)
			raw := make([][]float64, len(slots))
			for i, n := range slots {
				raw[i] = make([]float64, n.Size())
				for j := range raw[i] {
					if n == tt.idx {
						raw[i][j] = float64(j % 2)
						if v, ok := tt.bad[j]; ok {
							raw[i][j] = v
						}
					} else {
						raw[i][j] = float64(j)
					}
				}
			}
			err = compareWithGraph(p, []*graph.Node{out}, bound, slots, raw)
			require.Error(t, err)
			require.True(t, strings.HasPrefix(err.Error(), tt.want), "got:%v want:%v", err, tt.want)
			vals := map[*graph.Node][]float64{}
			for i, n := range slots {
				vals[n] = raw[i]
			}
			_, err = evalGraph(out, vals)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

// TestGatherStridedIndexError checks that the bad index of a gather
// whose index array is a strided view (a bound layout and a reversing
// slice) is read back through that layout.
func TestGatherStridedIndexError(t *testing.T) {
	x, idx := input(8), idxOf(graph.Int32, 5)
	rev := graph.Slice(idx, []graph.Range{{Start: 4, Stop: -1, Step: -1, NoStop: true}})
	out := mul(graph.Take(x, rev, 0), f32(3))
	require.NoError(t, out.Err())
	bound := bindAll(out)
	bound[idx] = graph.Layout{DType: graph.Int32, Shape: graph.Shape{5}, Strides: []int{3}, Offset: 2}
	p := mustPlanOn(t, bound, out)
	require.NoError(t, validPlan(p), Explain(p))
	require.Len(t, p.Kernels, 1, Explain(p))
	_, slots, err := Key([]*graph.Node{out}, bound)
	require.NoError(t, err)
	raw := make([][]float64, len(slots))
	for i, n := range slots {
		if n == idx {
			raw[i] = make([]float64, 15)
			for k := range raw[i] {
				raw[i][k] = float64(k % 8)
			}
			raw[i][2+3*3] = 8  // idx[3]: rev[1], the first bad one
			raw[i][2+3*0] = -9 // idx[0]: rev[4]
		} else {
			raw[i] = make([]float64, 8)
		}
	}
	err = compareWithGraph(p, []*graph.Node{out}, bound, slots, raw)
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "Take: index 8 is out of bounds for axis 0 with size 8"), "got:%v", err)
}
