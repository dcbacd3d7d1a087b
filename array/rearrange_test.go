// Tests of the rearranging views beyond the NumPy cases: bad input,
// empty arrays, and how many kernels each becomes.

package array_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

func TestRearrangeErrors(t *testing.T) {
	e := newEnv(t)
	x := e.keep(e.floats([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	s := e.keep(e.floats([]float64{1}))
	em := e.keep(e.floats(nil, 0, 3))
	tests := []errCase{
		{"flip axis", x.Flip(2), "Flip((2, 3) float64): axis 2 is out of bounds for array of dimension 2"},
		{"flip repeated", x.Flip(0, -2), "Flip((2, 3) float64): repeated axis -2 in [0 -2]"},
		{"roll axis", x.Roll(1, -3), "Roll((2, 3) float64): axis -3 is out of bounds"},
		{"tile negative", x.Tile(2, -1), "Tile((2, 3) float64): negative repetition -1 in [2 -1]"},
		{"tile overflow", x.Tile(1<<62, 1<<62), "Tile((2, 3) float64): repetitions [4611686018427387904 4611686018427387904] overflow the extents"},
		{"tile too big", x.Tile(1<<40, 1<<20), "Tile((2, 3) float64): shape (2199023255552, 3145728) of float64 needs more than"},
		{"repeat overflow", x.Repeat(1<<62, 0), "Repeat((2, 3) float64): count 4611686018427387904 overflows the extent 2"},
		{"counts overflow", x.RepeatCounts([]int{1 << 62, 1 << 62}, 0), "RepeatCounts((2, 3) float64): counts [4611686018427387904 4611686018427387904] overflow the extent"},
		{"pad too big", x.Pad([][2]int{{1 << 62, 0}, {1, 1}}, 0), "Pad((2, 3) float64): shape (4611686018427387906, 5) of float64 needs more than"},
		{"pad overflow", x.Pad([][2]int{{1 << 62, 1 << 62}, {0, 0}}, 0), "Pad((2, 3) float64): pad width [4611686018427387904 4611686018427387904] on axis 0 overflows its extent"},
		{"padedge too big", x.PadEdge([][2]int{{1 << 62, 0}, {1, 1}}), "PadEdge((2, 3) float64): shape (4611686018427387906, 5) of float64 needs more than"},
		{"repeat negative", x.Repeat(-1, 0), "Repeat((2, 3) float64): negative count -1"},
		{"repeat two axes", x.Repeat(2, 0, 1), "Repeat((2, 3) float64): one axis at most, got [0 1]"},
		{"repeat axis", x.Repeat(2, 5), "Repeat((2, 3) float64): axis 5 is out of bounds"},
		{"counts length", x.RepeatCounts([]int{1, 2}, 1), "RepeatCounts((2, 3) float64): 2 counts for an axis of extent 3"},
		{"counts negative", x.RepeatCounts([]int{1, -2}, 0), "RepeatCounts((2, 3) float64): negative count -2"},
		{"pad pairs", x.Pad([][2]int{{1, 1}, {1, 1}, {1, 1}}, 0), "Pad((2, 3) float64): 3 (before, after) pairs for an array of dimension 2"},
		{"pad negative", x.Pad([][2]int{{1, -1}}, 0), "Pad((2, 3) float64): negative pad width [1 -1] on axis 0"},
		{"pad value", x.Pad([][2]int{{1, 1}}, "0"), "Pad((2, 3) float64): unsupported value type string"},
		{"pad int32 range", x.AsType(array.Int32).Pad([][2]int{{1, 1}}, 1<<40), "Pad((2, 3) int32): Go int 1099511627776 is out of range for int32"},
		{"padedge empty", em.PadEdge([][2]int{{1, 0}, {0, 0}}), "PadEdge((0, 3) float64): cannot extend empty axis 0 with edge values"},
		{"diagonal 1-d", s.Diagonal(0, 0, 1), "Diagonal((1,) float64): diag requires an array of at least two dimensions"},
		{"diagonal same", x.Diagonal(0, 1, -1), "Diagonal((2, 3) float64): axis1 and axis2 cannot be the same"},
		{"diagonal axis", x.Diagonal(0, 0, 2), "Diagonal((2, 3) float64): axis2: axis 2 is out of bounds"},
		{"triu 0-d", s.Reshape().Triu(0), "Triu(() float64): a 0-d array has no diagonal"},
		{"nil", (*array.Array)(nil).Flip(), "Flip: nil *Array"},
	}
	checkErrs(t, tests)
}

func TestRearrangeEmpty(t *testing.T) {
	e := newEnv(t)
	em := e.keep(e.floats(nil, 0, 3))
	tests := []struct {
		name  string
		a     *array.Array
		shape array.Shape
		want  []float64
	}{
		{"flip", em.Flip(), array.Shape{0, 3}, []float64{}},
		{"roll", em.Roll(2, 0), array.Shape{0, 3}, []float64{}},
		{"roll flat", em.Roll(2), array.Shape{0, 3}, []float64{}},
		{"tile", em.Tile(2, 2), array.Shape{0, 6}, []float64{}},
		{"repeat", em.Repeat(3, 1), array.Shape{0, 9}, []float64{}},
		{"pad", em.Pad([][2]int{{1, 0}, {0, 1}}, 5), array.Shape{1, 4}, []float64{5, 5, 5, 5}},
		{"padedge other axis", em.PadEdge([][2]int{{0, 0}, {1, 1}}), array.Shape{0, 5}, []float64{}},
		{"diagonal", em.Diagonal(0, 0, 1), array.Shape{0}, []float64{}},
		{"triu", em.Triu(0), array.Shape{0, 3}, []float64{}},
	}
	for _, tc := range tests {
		a := e.keep(tc.a)
		require.NoError(t, a.Err(), tc.name)
		require.Equal(t, tc.shape, a.Shape(), tc.name)
		if got := e.f64(a); !approx(got, tc.want) {
			t.Errorf("%s: got:%v want:%v", tc.name, got, tc.want)
		}
	}
}

// TestRearrangeKernels states how many kernels each view becomes when
// an elementwise op reads it: views and the Where of Triu/Tril fuse into
// that op's kernel; Tile and Repeat (a reshape of a broadcast, which no
// strides express) are written by one copy kernel that the op reads; a
// Concat writes one kernel per piece (PadEdge's two edge pieces share one).
func TestRearrangeKernels(t *testing.T) {
	e := newEnv(t)
	x := e.keep(array.FromSlice(e.c, make([]float32, 64*48), 64, 48))
	sq := e.keep(array.FromSlice(e.c, make([]float32, 8*16*16), 8, 16, 16))
	tests := []struct {
		name    string
		a       *array.Array
		kernels int
	}{
		{"flip", x.Flip().Mul(2), 1},
		{"flip sum", x.Flip(0).Exp().Sum(1), 1},
		{"triu", x.Triu(1).Mul(2).Add(1), 1},
		{"tril sum", x.Tril(-2).Sum(), 1},
		{"tile", x.Tile(2, 3).Add(1), 2},
		{"repeat", x.Repeat(3, 1).Add(1), 2},
		{"trace", sq.Diagonal(0, 1, 2).Sum(-1), 1},
		{"diagonal", sq.Diagonal(2, -2, -1).Mul(3), 1},
		{"roll", x.Roll(5, 1).Add(1), 3},
		{"pad", x.Pad([][2]int{{0, 0}, {2, 3}}, 0).Mul(2), 4},
		{"padedge", x.PadEdge([][2]int{{1, 1}, {0, 0}}).Mul(2), 3},
	}
	for _, tc := range tests {
		n := tc.a.Node()
		require.NoError(t, n.Err(), tc.name)
		p, err := fuse.Build([]*graph.Node{n}, layoutsOf(n))
		require.NoError(t, err, tc.name)
		if len(p.Kernels) != tc.kernels {
			t.Errorf("%s: got:%d kernels want:%d\n%s", tc.name, len(p.Kernels), tc.kernels, fuse.Explain(p))
		}
	}
}

// layoutsOf returns contiguous layouts for the inputs under n.
func layoutsOf(n *graph.Node) map[*graph.Node]graph.Layout {
	out := map[*graph.Node]graph.Layout{}
	var walk func(x *graph.Node)
	walk = func(x *graph.Node) {
		if x.Op() == graph.OpInput {
			out[x] = graph.ContiguousLayout(x.DType(), x.Shape())
		}
		for _, in := range x.Inputs() {
			walk(in)
		}
	}
	walk(n)
	return out
}
