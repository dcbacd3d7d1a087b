// Vector loads in Reduce kernels: every reduction op and dtype over row
// lengths with and without a tail, for the row strategies and the
// two-pass full reduction, aligned (vector path) and at odd offsets
// (scalar path), compared with the reference; and the IR of a contiguous
// float32 full sum must read 4 elements per load; the vector kernels of
// every op and dtype assemble with ptxas.

package codegen_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

var reduceOps = []graph.Op{graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin,
	graph.OpArgMax, graph.OpArgMin, graph.OpAny, graph.OpAll}

// reduceFill returns element i of the data reduced by op: products stay
// small (mostly ones), extrema have ties and, with nan, NaNs.
func reduceFill(op graph.Op, nan bool) func(i int) float64 {
	return func(i int) float64 {
		switch {
		case op == graph.OpProd && i%97 == 3:
			return 2
		case op == graph.OpProd && i%7 == 2:
			return -1
		case op == graph.OpProd:
			return 1
		case op == graph.OpAll && i%23 != 22:
			return 1 + float64(i%3)
		case nan && i%19 == 13:
			return math.NaN()
		}
		return math.Floor(math.Sin(float64(i)*0.7) * 4)
	}
}

// maxWidth returns the widest load of fn.
func maxWidth(fn *ir.Func) int {
	w := 0
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpLoad {
				w = max(w, in.Width)
			}
		}
	}
	return w
}

// vecCase reduces op over the last axis of a view of a rows x (off+n+3)
// input: columns off to off+n (rows 1: a full reduction of that range).
type vecCase struct {
	op       graph.Op
	d        graph.DType
	rows, n  int
	off      int
	nan      bool
	wantWide bool // the reduction kernel must use vector loads
}

func (c vecCase) String() string {
	return fmt.Sprintf("%v/%v/%dx%d+%d/nan=%v", c.op, c.d, c.rows, c.n, c.off, c.nan)
}

func (c vecCase) run(t *testing.T) {
	t.Helper()
	cols := c.off + c.n + 3
	if c.rows > 1 {
		cols = (cols + 3) / 4 * 4 // row starts stay aligned
	}
	shape := graph.Shape{c.rows, cols}
	x := in(c.d, shape, "x")
	v := graph.Slice(x, []graph.Range{{Start: 0, Stop: c.rows, Step: 1}, {Start: c.off, Stop: c.off + c.n, Step: 1}})
	var out *graph.Node
	if c.rows == 1 {
		out = graph.Reduce(c.op, v, nil, false)
	} else {
		out = graph.Reduce(c.op, v, []int{1}, false)
	}
	if err := out.Err(); err != nil {
		t.Fatalf("%v: %v", c, err) // every reduction takes every dtype
	}
	xt := tensorOf(t, c.d, shape, reduceFill(c.op, c.nan))
	defer xt.Release()
	tol := tolerance{abs: 1e-9, rel: 1e-6}
	r := check(t, []*graph.Node{out}, bindings{x: xt}, codegen.SmallGPU(), tol)
	wide := 0
	for ki, k := range r.plan.Kernels {
		if k.Kind() == fuse.KindReduce {
			wide = max(wide, maxWidth(r.fns[ki]))
		}
	}
	if got := wide > 1; got != c.wantWide {
		t.Fatalf("%v: vector loads got:%v want:%v (widest load %d)\n%s", c, got, c.wantWide, wide, fuse.Explain(r.plan))
	}
}

// TestReduceVectorRowLengths sweeps row lengths 1 to 40 (tails of every
// size) for sums and ArgMax in every strategy, aligned and not.
func TestReduceVectorRowLengths(t *testing.T) {
	for _, d := range []graph.DType{graph.Float32, graph.Float64, graph.Int32} {
		w := min(4, 16/d.Size())
		for n := 1; n <= 40; n++ {
			for _, rows := range []int{1, 3} {
				for _, op := range []graph.Op{graph.OpSum, graph.OpArgMax} {
					vecCase{op: op, d: d, rows: rows, n: n, nan: op == graph.OpArgMax, wantWide: n >= 2*w}.run(t)
					if n%5 == 0 {
						vecCase{op: op, d: d, rows: rows, n: n, off: 1}.run(t)
					}
				}
			}
		}
	}
}

// TestReduceVectorOps runs every reduction op and dtype over short and
// long rows, a warp or a block per row and full reductions, vector and
// scalar.
func TestReduceVectorOps(t *testing.T) {
	lengths := []int{9, 37, 300, 2051}
	if testing.Short() {
		lengths = []int{37, 2051}
	}
	for _, d := range graph.DTypes() {
		for _, op := range reduceOps {
			for _, n := range lengths {
				for _, rows := range []int{1, 2} {
					for _, nan := range []bool{false, true} {
						if nan && !d.IsFloat() {
							continue
						}
						vecCase{op: op, d: d, rows: rows, n: n, nan: nan, wantWide: true}.run(t)
					}
					vecCase{op: op, d: d, rows: rows, n: n, off: 1}.run(t)
				}
			}
		}
	}
}

// TestReduceVectorFullSum asserts that a contiguous float32 full sum reads
// 4 elements per load, and a view at an odd offset 1.
func TestReduceVectorFullSum(t *testing.T) {
	tg := codegen.H100()
	for _, c := range []struct {
		off, want int
	}{{0, 4}, {1, 1}} {
		x := graph.Input(graph.Float32, graph.Shape{1 << 20}, "x")
		v := graph.Slice(x, []graph.Range{{Start: c.off, Stop: 1<<20 - 4 + c.off, Step: 1}})
		out := graph.Reduce(graph.OpSum, v, nil, false)
		p := planned(t, out)
		require.Len(t, p.Kernels, 1)
		g, err := codegen.ChooseGeometry(&p.Kernels[0], tg)
		require.NoError(t, err)
		require.Equal(t, codegen.StrategyTwoPass, g.Strategy)
		fn, _, err := codegen.Lower(&p.Kernels[0], tg)
		require.NoError(t, err)
		if got := maxWidth(fn); got != c.want {
			t.Fatalf("offset %d: widest load got:%d want:%d\n%s", c.off, got, c.want, fn)
		}
	}
}

// TestReduceVectorPTXAssembles assembles the vector-path kernels of every
// reduction op and dtype, row and full, with ptxas.
func TestReduceVectorPTXAssembles(t *testing.T) {
	var graphs [][]*graph.Node
	for _, d := range graph.DTypes() {
		x := graph.Input(d, graph.Shape{4, 300}, "x")
		for _, op := range reduceOps {
			for _, axes := range [][]int{{1}, nil} {
				if n := graph.Reduce(op, x, axes, false); n.Err() == nil {
					graphs = append(graphs, []*graph.Node{n})
				}
			}
		}
	}
	for _, fn := range assembleGraphs(t, codegen.SmallGPU(), graphs) {
		require.Greater(t, maxWidth(fn), 1, "kernel %s", fn.Name)
	}
}
