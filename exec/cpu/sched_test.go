// Tests of the row-group schedule: which plans are grouped, and grouped
// evaluations against the per-kernel schedule (the same bits) and the
// reference evaluator, over shapes, dtypes, layouts and chunkings.

package cpu_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/bench/suite"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// rowExprs are the row-normalizing workloads of bench/workloads.txt and
// a few more; grouped says whether their plan forms a row group (on more
// than one row).
var rowExprs = []struct {
	name, expr string
	grouped    bool
}{
	{"softmax", "m = maxk(x, 1); e = exp(sub(x, m)); div(e, sumk(e, 1))", true},
	{"logsumexp", "m = maxk(x, 1); add(log(sumk(exp(sub(x, m)), 1)), m)", true},
	{"standardize", "div(sub(x, meank(x, 1)), stdk(x, 1))", true},
	{"rownorm", "div(x, sqrt(sumk(mul(x, x), 1)))", true},
	{"argmax_minus", "sub(x, maxk(x, 1))", true},
	{"center_cols", "sub(x, meank(x, 0))", false},
}

// rowLayouts make the input x of r x c values from data (r*c*2 values):
// contiguous, every other column of an r x 2c array, and rows reversed.
var rowLayouts = []struct {
	name string
	make func(c *array.Context, d graph.DType, data []float64, r, cols int) *array.Array
}{
	{"contiguous", func(c *array.Context, d graph.DType, data []float64, r, cols int) *array.Array {
		return fromData(c, d, data[:r*cols], r, cols)
	}},
	{"stepped", func(c *array.Context, d graph.DType, data []float64, r, cols int) *array.Array {
		return fromData(c, d, data, r, 2*cols).Slice(array.All, array.RS(0, 2*cols, 2))
	}},
	{"reversed", func(c *array.Context, d graph.DType, data []float64, r, cols int) *array.Array {
		return fromData(c, d, data[:r*cols], r, cols).Slice(array.RS(r-1, -r-1, -1))
	}},
}

func fromData(c *array.Context, d graph.DType, data []float64, r, cols int) *array.Array {
	if d == graph.Float32 {
		v := make([]float32, len(data))
		for i, x := range data {
			v[i] = float32(x)
		}
		return array.FromSlice(c, v, r, cols)
	}
	return array.FromSlice(c, data, r, cols)
}

// rowResult evaluates expr over x (made by mk) on backend be and returns
// the result's elements as float64 and their bits.
func rowResult(t *testing.T, be exec.Backend, expr string, d graph.DType, mk func(*array.Context, graph.DType, []float64, int, int) *array.Array, data []float64, r, cols int) ([]float64, []uint64) {
	t.Helper()
	c, err := array.NewContext(array.WithBackend(be))
	require.NoError(t, err)
	x := mk(c, d, data, r, cols)
	defer x.Release()
	stmts, err := suite.ParseExpr(expr)
	require.NoError(t, err)
	y, err := suite.Build(stmts, map[string]*array.Array{"x": x})
	require.NoError(t, err)
	defer y.Release()
	require.NoError(t, y.Eval())
	if d == graph.Float32 {
		v, err := array.ToSlice[float32](y)
		require.NoError(t, err)
		f, b := make([]float64, len(v)), make([]uint64, len(v))
		for i, x := range v {
			f[i], b[i] = float64(x), uint64(math.Float32bits(x))
		}
		return f, b
	}
	v, err := array.ToSlice[float64](y)
	require.NoError(t, err)
	b := make([]uint64, len(v))
	for i, x := range v {
		b[i] = math.Float64bits(x)
	}
	return v, b
}

// TestRowGroupsSameBits evaluates each row workload with the row-group
// schedule (forced on every size) and with the per-kernel one, on
// backends of several worker counts and chunks, and requires the same
// bits (any NaN for a NaN) and agreement with the reference evaluator.
func TestRowGroupsSameBits(t *testing.T) {
	shapes := [][2]int{{1, 7}, {2, 3}, {3, 1000}, {5, 4099}, {37, 129}, {64, 64}, {257, 33}, {1000, 17}, {130, 1}}
	if testing.Short() || cpu.RaceEnabled {
		shapes = [][2]int{{1, 7}, {2, 3}, {5, 4099}, {37, 129}, {257, 33}}
	}
	opts := []cpu.Options{{}, {Workers: 1}, {Chunk: 64}, {Workers: 3, Chunk: 200}}
	rng := rand.New(rand.NewPCG(18, 18))
	for _, sh := range shapes {
		r, cols := sh[0], sh[1]
		data := make([]float64, 2*r*cols)
		for i := range data {
			data[i] = rng.Float64()*8 - 4
		}
		for _, d := range []graph.DType{graph.Float32, graph.Float64} {
			for _, lay := range rowLayouts {
				for _, w := range rowExprs {
					name := fmt.Sprintf("%s %v %dx%d %s", w.name, d, r, cols, lay.name)
					want, _ := rowResult(t, ref.New(), w.expr, d, lay.make, data, r, cols)
					tol := 1e-9
					if d == graph.Float32 {
						tol = 2e-4
					}
					for oi, o := range opts {
						restore := cpu.SetRowGroups(false, 0)
						_, base := rowResult(t, cpu.New(o), w.expr, d, lay.make, data, r, cols)
						restore()
						restore = cpu.SetRowGroups(true, 0)
						runs := cpu.RowGroupRuns()
						got, bits := rowResult(t, cpu.New(o), w.expr, d, lay.make, data, r, cols)
						ran := cpu.RowGroupRuns() > runs
						restore()
						// Contiguous rows of at most a chunk are grouped; a
						// stepped x may make the executor reduce in column
						// order (its per-row values are the loads of unit
						// stride), which is not grouped, and rows of one
						// value reduce to nothing.
						sure := lay.name != "stepped" && cols > 1 && (o.Chunk == 0 || cols <= o.Chunk)
						if wantRan := w.grouped && r > 1; (sure || !wantRan) && ran != wantRan {
							t.Errorf("%s options %d: row group run got:%v want:%v", name, oi, ran, wantRan)
						}
						for i := range bits {
							g := got[i]
							if bits[i] != base[i] && !(g != g && isNaNBits(base[i], d)) {
								t.Fatalf("%s options %d: element %d got:%x want:%x (per-kernel schedule)", name, oi, i, bits[i], base[i])
							}
							if diff := math.Abs(g - want[i]); !(diff <= tol*(1+math.Abs(want[i]))) && !(g != g && want[i] != want[i]) {
								t.Fatalf("%s options %d: element %d got:%v want:%v (reference)", name, oi, i, g, want[i])
							}
						}
					}
				}
			}
		}
	}
}

func isNaNBits(b uint64, d graph.DType) bool {
	if d == graph.Float32 {
		return math.IsNaN(float64(math.Float32frombits(uint32(b))))
	}
	return math.IsNaN(math.Float64frombits(b))
}

// TestRowGroupsFound checks which plans the CPU backend groups.
func TestRowGroupsFound(t *testing.T) {
	restore := cpu.SetRowGroups(true, 0)
	defer restore()
	const R, C = 64, 100
	x := graph.Input(graph.Float32, graph.Shape{R, C}, "x")
	idx := graph.Input(graph.Int64, graph.Shape{C}, "idx")
	exp := func(a *graph.Node) *graph.Node { return graph.Unary(graph.OpExp, a) }
	sub := func(a, b *graph.Node) *graph.Node { return graph.Binary(graph.OpSub, a, b) }
	div := func(a, b *graph.Node) *graph.Node { return graph.Binary(graph.OpDiv, a, b) }
	rmax := func(a *graph.Node, ax int) *graph.Node { return graph.Reduce(graph.OpReduceMax, a, []int{ax}, true) }
	rsum := func(a *graph.Node, ax int) *graph.Node { return graph.Reduce(graph.OpSum, a, []int{ax}, true) }
	softmax := func(a *graph.Node) *graph.Node {
		e := exp(sub(a, rmax(a, 1)))
		return div(e, rsum(e, 1))
	}
	taken := graph.Take(x, idx, 1)
	for _, c := range []struct {
		name string
		out  *graph.Node
		want []cpu.RowGroupSpan // kernels and rows (Block not compared)
	}{
		{"softmax", softmax(x), []cpu.RowGroupSpan{{First: 0, Last: 3, Rows: R}}},
		{"reduction over the rows", sub(x, rsum(x, 0)), nil},
		{"row 0's maximum broadcast to every row", sub(x, graph.Slice(rmax(x, 1), []graph.Range{{Start: 0, Stop: 1, Step: 1}})), nil},
		// The maximum over the rows of x^T reads down x's columns and the
		// exponential runs in transposed tiles: neither is grouped; the
		// sum and the division are.
		{"rows of a transposed operand", softmax(graph.Permute(x, []int{1, 0})), []cpu.RowGroupSpan{{First: 2, Last: 3, Rows: C}}},
		{"gathered columns", sub(taken, rmax(taken, 1)), nil},
	} {
		bound := map[*graph.Node]graph.Layout{x: graph.ContiguousLayout(x.DType(), x.Shape()), idx: graph.ContiguousLayout(idx.DType(), idx.Shape())}
		require.NoError(t, c.out.Err(), c.name)
		p, err := fuse.BuildWith([]*graph.Node{c.out}, bound, fuse.CPUOptions())
		require.NoError(t, err, c.name)
		got, err := cpu.RowGroupsOf(cpu.New(cpu.Options{}), p)
		require.NoError(t, err, c.name)
		for i := range got {
			got[i].Block = 0
		}
		require.Equal(t, c.want, got, "%s:\n%s", c.name, fuse.Explain(p))
	}

	// Standardize's plan keeps a pair of values per row and later one
	// value per row in the same temp: the group gives the pair a buffer
	// of its own and takes all five kernels.
	ac, err := array.NewContext(array.WithBackend(cpu.New(cpu.Options{})))
	require.NoError(t, err)
	xa := array.FromSlice(ac, make([]float32, R*C), R, C)
	defer xa.Release()
	y := xa.Sub(xa.MeanKeepDims(1)).Div(xa.StdKeepDims(1))
	defer y.Release()
	p, err := fuse.BuildWith([]*graph.Node{y.Node()}, map[*graph.Node]graph.Layout{xa.Node(): graph.ContiguousLayout(graph.Float32, graph.Shape{R, C})}, fuse.CPUOptions())
	require.NoError(t, err)
	got, err := cpu.RowGroupsOf(cpu.New(cpu.Options{}), p)
	require.NoError(t, err)
	require.Len(t, got, 1, fuse.Explain(p))
	require.Equal(t, cpu.RowGroupSpan{First: 0, Last: len(p.Kernels) - 1, Rows: R}, cpu.RowGroupSpan{First: got[0].First, Last: got[0].Last, Rows: got[0].Rows}, fuse.Explain(p))
}

// TestRowGroupsAllocations runs a grouped softmax whose stored
// exponential and result are first written by later kernels of the
// group (so the group allocates them before the runner would): every
// byte is given back, and an allocation the memory limit refuses ends
// the evaluation with a memory error and nothing leaked.
func TestRowGroupsAllocations(t *testing.T) {
	alloc := forceRowGroups(t)
	const R, C = 64, 100
	xt := floatTensor(t, alloc, graph.Float32, graph.Shape{R, C}, ramp(R*C, 13))
	defer xt.Release()
	x := graph.Input(graph.Float32, graph.Shape{R, C}, "x")
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, graph.Reduce(graph.OpReduceMax, x, []int{1}, true)))
	out := graph.Binary(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	bound := map[*graph.Node]*exec.Tensor{x: xt}
	runs := cpu.RowGroupRuns()
	sameAsRefWithin(t, out, bound, alloc)
	require.Greater(t, cpu.RowGroupRuns(), runs, "the softmax ran as a row group")

	// The temps of the max and the sum (R floats), the stored
	// exponential (R*C) and not the result: the group's allocation of
	// the result fails.
	limited := exec.NewLimitedAllocator(alloc, exec.Limits{MemoryLimit: int64(R*4 + R*C*4 + 256)})
	_, err := cpu.New(cpu.Options{}).Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{out}, Bound: bound, Alloc: limited})
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
}

// sameAsRefWithin evaluates out on a CPU backend and checks it against
// the reference within randgraph's bounds (checkWithinRef).
func sameAsRefWithin(t *testing.T, out *graph.Node, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator) {
	t.Helper()
	checkWithinRef(t, "softmax", []*cpu.Backend{cpu.New(cpu.Options{}), cpu.New(cpu.Options{Workers: 1, Chunk: 256})}, []*graph.Node{out}, bound, alloc)
}

// TestRowGroupsInterleaved runs row groups of blocks of 3 rows serially
// in random interleavings of their blocks (each block's kernels in plan
// order), as concurrent workers may run them, and requires the bits of
// the per-kernel schedule: standardize's plan reuses a temp for a pair
// of values per row and then one value per row, which an interleaving
// overwrites unless the group splits that temp.
func TestRowGroupsInterleaved(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 18))
	order := func(blocks, members int) [][2]int {
		next := make([]int, blocks)
		var open []int
		for b := range blocks {
			open = append(open, b)
		}
		var seq [][2]int
		for len(open) > 0 {
			i := rng.IntN(len(open))
			b := open[i]
			seq = append(seq, [2]int{b, next[b]})
			if next[b]++; next[b] == members {
				open = append(open[:i], open[i+1:]...)
			}
		}
		return seq
	}
	const R, C = 40, 37
	data := make([]float64, 2*R*C)
	for i := range data {
		data[i] = rng.Float64()*8 - 4
	}
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		for _, w := range rowExprs {
			restore := cpu.SetRowGroups(false, 0)
			_, want := rowResult(t, cpu.New(cpu.Options{}), w.expr, d, rowLayouts[0].make, data, R, C)
			restore()
			restore = cpu.SetRowGroups(true, 0)
			restoreOrder := cpu.SetRowGroupOrder(order, 3)
			for round := range 5 {
				_, got := rowResult(t, cpu.New(cpu.Options{}), w.expr, d, rowLayouts[0].make, data, R, C)
				for i := range want {
					if got[i] != want[i] && !(isNaNBits(got[i], d) && isNaNBits(want[i], d)) {
						t.Fatalf("%s %v round %d: element %d got:%x want:%x", w.name, d, round, i, got[i], want[i])
					}
				}
			}
			restoreOrder()
			restore()
		}
	}
}

// TestRowGroupsExtraBuffers runs standardize, whose group moves a value
// off a temp into a buffer of its own, on a checked allocator: the
// extra buffer is given back after every run, and a memory limit too
// small for it ends the evaluation with a memory error.
func TestRowGroupsExtraBuffers(t *testing.T) {
	alloc := forceRowGroups(t)
	const R, C = 50, 70
	run := func(opts ...array.Option) error {
		c, err := array.NewContext(append([]array.Option{array.WithBackend(cpu.New(cpu.Options{})), array.WithAllocator(alloc)}, opts...)...)
		require.NoError(t, err)
		x := fromData(c, graph.Float32, ramp(R*C, 17), R, C)
		defer x.Release()
		y := x.Sub(x.MeanKeepDims(1)).Div(x.StdKeepDims(1))
		defer y.Release()
		return y.Eval()
	}
	runs := cpu.RowGroupRuns()
	for range 3 {
		require.NoError(t, run())
	}
	require.Equal(t, int64(3), cpu.RowGroupRuns()-runs)
	// The input and the result (R*C float32, 14016 bytes as allocated,
	// in 64-byte units), the temps (three of R and one of 2R float32:
	// 3*256 + 448) fit; the extra buffer (2R float32, 448) does not.
	err := run(array.WithMemoryLimit(2*14016 + 3*256 + 448 + 200))
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	require.Contains(t, err.Error(), "448 bytes", "the extra buffer is refused")
}

// forceRowGroups forms row groups of every size until the test ends and
// returns a checked allocator (which must hold nothing at the end).
func forceRowGroups(t *testing.T) *memory.CheckedAllocator {
	t.Cleanup(cpu.SetRowGroups(true, 0))
	return checkedAlloc(t)
}

// ramp returns n values i%m - m/2.
func ramp(n, m int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i%m - m/2)
	}
	return v
}
