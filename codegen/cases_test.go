// Hand-built cases that cover every kernel kind and reduction strategy
// explicitly: long and short rows, columns (also split over blocks),
// two-pass full sums, ArgMax with NaN and ties, mean and variance in one
// kernel, softmax, GEMMs with fused epilogues, batched, transposed and
// with edges that are not multiples of the tiles.

package codegen_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// gcase is one graph to plan, interpret and compare.
type gcase struct {
	name    string
	build   func(t testing.TB) ([]*graph.Node, bindings)
	tol     tolerance
	kinds   []fuse.Kind        // kernel kinds the plan must contain (in order), when set
	strat   []codegen.Strategy // reduction strategies the plan must use, when set
	target  func() codegen.Target
	splitUp bool // force a split column geometry (see splitColumns)
}

func in(d graph.DType, s graph.Shape, label string) *graph.Node { return graph.Input(d, s, label) }

func wave(t testing.TB, d graph.DType, s graph.Shape, seed float64) *exec.Tensor {
	return tensorOf(t, d, s, func(i int) float64 { return math.Sin(float64(i)*0.7+seed) * 3 })
}

func bin(op graph.Op, a, b *graph.Node) *graph.Node { return graph.Binary(op, a, b) }
func un(op graph.Op, a *graph.Node) *graph.Node     { return graph.Unary(op, a) }
func red(op graph.Op, a *graph.Node, axes ...int) *graph.Node {
	return graph.Reduce(op, a, axes, false)
}
func f32(v float64) *graph.Node { return graph.FloatConst(graph.Float32, v) }

// single returns a build function for one output over one wave input.
func single(d graph.DType, s graph.Shape, f func(x *graph.Node) *graph.Node) func(t testing.TB) ([]*graph.Node, bindings) {
	return func(t testing.TB) ([]*graph.Node, bindings) {
		x := in(d, s, "x")
		return []*graph.Node{f(x)}, bindings{x: wave(t, d, s, 0.1)}
	}
}

var sumTol = tolerance{abs: 1e-9, rel: 1e-6}

func cases() []gcase {
	R, M := fuse.KindReduce, fuse.KindMatMul
	return []gcase{
		{name: "row sum long rows", build: single(graph.Float32, graph.Shape{3, 5000}, func(x *graph.Node) *graph.Node {
			return red(graph.OpSum, bin(graph.OpMul, x, x), 1)
		}), tol: sumTol, kinds: []fuse.Kind{R}, strat: []codegen.Strategy{codegen.StrategyBlockPerRow}},
		{name: "row max short rows", build: single(graph.Float64, graph.Shape{70, 45}, func(x *graph.Node) *graph.Node {
			return red(graph.OpReduceMax, x, 1)
		}), tol: sumTol, strat: []codegen.Strategy{codegen.StrategyWarpPerRow}},
		{name: "row prod int32", build: single(graph.Int32, graph.Shape{40, 9}, func(x *graph.Node) *graph.Node {
			return red(graph.OpProd, x, 1)
		}), strat: []codegen.Strategy{codegen.StrategyWarpPerRow}},
		{name: "column sum", build: single(graph.Float32, graph.Shape{300, 37}, func(x *graph.Node) *graph.Node {
			return red(graph.OpSum, x, 0)
		}), tol: sumTol, strat: []codegen.Strategy{codegen.StrategyColumn}},
		{name: "column min int64 of permuted", build: single(graph.Int64, graph.Shape{30, 200}, func(x *graph.Node) *graph.Node {
			return red(graph.OpReduceMin, graph.Permute(x, []int{1, 0}), 1)
		})},
		{name: "column sum split", build: single(graph.Float32, graph.Shape{400, 70}, func(x *graph.Node) *graph.Node {
			return bin(graph.OpMul, red(graph.OpSum, x, 0), f32(0.5))
		}), tol: sumTol, strat: []codegen.Strategy{codegen.StrategyColumn}, splitUp: true},
		{name: "column argmax split", build: single(graph.Float32, graph.Shape{300, 20}, func(x *graph.Node) *graph.Node {
			return red(graph.OpArgMax, bin(graph.OpMul, graph.Unary(graph.OpFloor, x), f32(1)), 0)
		}), strat: []codegen.Strategy{codegen.StrategyColumn}, splitUp: true},
		{name: "full sum two-pass", build: single(graph.Float32, graph.Shape{9000}, func(x *graph.Node) *graph.Node {
			return red(graph.OpSum, un(graph.OpExp, x))
		}), tol: sumTol, strat: []codegen.Strategy{codegen.StrategyTwoPass}},
		{name: "full any all two-pass", build: func(t testing.TB) ([]*graph.Node, bindings) {
			x := in(graph.Float64, graph.Shape{3000}, "x")
			gt := bin(graph.OpGt, x, graph.FloatConst(graph.Float64, 2.99))
			return []*graph.Node{red(graph.OpAny, gt), red(graph.OpAll, x), red(graph.OpSum, graph.Cast(gt, graph.Int32))},
				bindings{x: wave(t, graph.Float64, graph.Shape{3000}, 0.3)}
		}},
		{name: "argmax argmin NaN and ties", build: func(t testing.TB) ([]*graph.Node, bindings) {
			x := in(graph.Float32, graph.Shape{6, 300}, "x")
			vals := func(i int) float64 {
				r, c := i/300, i%300
				switch {
				case r == 1 && (c == 17 || c == 250):
					return math.NaN()
				case r == 2 && c == 299:
					return math.NaN()
				case r == 3:
					return 5 // all ties
				case r == 4 && (c == 40 || c == 41 || c == 290):
					return 100
				case r == 4 && (c == 3 || c == 200):
					return -100
				}
				return math.Floor(math.Sin(float64(i)) * 4)
			}
			return []*graph.Node{red(graph.OpArgMax, x, 1), red(graph.OpArgMin, x, 1), graph.Reduce(graph.OpArgMax, x, nil, false)},
				bindings{x: tensorOf(t, graph.Float32, graph.Shape{6, 300}, vals)}
		}},
		{name: "mean and variance one kernel", build: single(graph.Float64, graph.Shape{50, 130}, func(x *graph.Node) *graph.Node {
			n := graph.FloatConst(graph.Float64, 130)
			mean := bin(graph.OpDiv, red(graph.OpSum, x, 1), n)
			meanSq := bin(graph.OpDiv, red(graph.OpSum, bin(graph.OpMul, x, x), 1), n)
			return bin(graph.OpSub, meanSq, bin(graph.OpMul, mean, mean))
		}), tol: tolerance{abs: 1e-12, rel: 1e-9}, kinds: []fuse.Kind{R}},
		{name: "softmax", build: single(graph.Float32, graph.Shape{33, 70}, func(x *graph.Node) *graph.Node {
			mx := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
			e := un(graph.OpExp, bin(graph.OpSub, x, mx))
			return bin(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
		}), tol: sumTol},
		{name: "reduce middle axis", build: single(graph.Float32, graph.Shape{4, 50, 6}, func(x *graph.Node) *graph.Node {
			return red(graph.OpSum, x, 1)
		}), tol: sumTol},
		{name: "matmul bias relu", build: func(t testing.TB) ([]*graph.Node, bindings) {
			a, b, c := in(graph.Float32, graph.Shape{70, 33}, "a"), in(graph.Float32, graph.Shape{33, 90}, "b"), in(graph.Float32, graph.Shape{90}, "bias")
			y := bin(graph.OpMax, bin(graph.OpAdd, graph.MatMul(a, b), c), f32(0))
			return []*graph.Node{y}, bindings{a: wave(t, graph.Float32, graph.Shape{70, 33}, 0),
				b: wave(t, graph.Float32, graph.Shape{33, 90}, 1), c: wave(t, graph.Float32, graph.Shape{90}, 2)}
		}, tol: tolerance{abs: 1e-4, rel: 1e-5}, kinds: []fuse.Kind{M}},
		{name: "matmul batched broadcast transposed", build: func(t testing.TB) ([]*graph.Node, bindings) {
			a, b := in(graph.Float64, graph.Shape{3, 17, 40}, "a"), in(graph.Float64, graph.Shape{29, 40}, "b")
			y := graph.MatMul(a, graph.Permute(b, []int{1, 0}))
			return []*graph.Node{y}, bindings{a: wave(t, graph.Float64, graph.Shape{3, 17, 40}, 0),
				b: wave(t, graph.Float64, graph.Shape{29, 40}, 1)}
		}, tol: tolerance{abs: 1e-12, rel: 1e-12}, kinds: []fuse.Kind{M}},
		{name: "matmul transposed a int32", build: func(t testing.TB) ([]*graph.Node, bindings) {
			a, b := in(graph.Int32, graph.Shape{23, 19}, "a"), in(graph.Int32, graph.Shape{23, 31}, "b")
			y := graph.MatMul(graph.Permute(a, []int{1, 0}), b)
			return []*graph.Node{y}, bindings{a: wave(t, graph.Int32, graph.Shape{23, 19}, 0),
				b: wave(t, graph.Int32, graph.Shape{23, 31}, 1)}
		}, kinds: []fuse.Kind{M}},
		{name: "matmul large tile edges", build: func(t testing.TB) ([]*graph.Node, bindings) {
			a, b := in(graph.Float32, graph.Shape{130, 20}, "a"), in(graph.Float32, graph.Shape{20, 129}, "b")
			y := un(graph.OpTanh, graph.MatMul(a, b))
			return []*graph.Node{y}, bindings{a: wave(t, graph.Float32, graph.Shape{130, 20}, 0),
				b: wave(t, graph.Float32, graph.Shape{20, 129}, 1)}
		}, tol: tolerance{abs: 1e-4, rel: 1e-5}, kinds: []fuse.Kind{M}},
		{name: "map strided broadcast views", build: func(t testing.TB) ([]*graph.Node, bindings) {
			x, y := in(graph.Float32, graph.Shape{12, 10, 7}, "x"), in(graph.Int32, graph.Shape{7, 1}, "y")
			v := graph.Slice(graph.Permute(x, []int{2, 0, 1}), []graph.Range{{Start: 0, Stop: 7, Step: 1}, {Start: 11, Stop: -13, Step: -2}, {Start: 1, Stop: 9, Step: 3}})
			z := bin(graph.OpMul, v, graph.Cast(graph.Reshape(y, graph.Shape{7, 1, 1}), graph.Float32))
			return []*graph.Node{z, graph.Copy(graph.Permute(x, []int{1, 0, 2}))}, bindings{
				x: wave(t, graph.Float32, graph.Shape{12, 10, 7}, 0), y: wave(t, graph.Int32, graph.Shape{7, 1}, 1)}
		}, tol: floatTol},
		{name: "concat and bool store", build: func(t testing.TB) ([]*graph.Node, bindings) {
			x, y := in(graph.Float64, graph.Shape{5, 8}, "x"), in(graph.Float64, graph.Shape{3, 8}, "y")
			c := graph.Concat([]*graph.Node{x, y}, 0)
			return []*graph.Node{bin(graph.OpGt, c, graph.FloatConst(graph.Float64, 0))}, bindings{
				x: wave(t, graph.Float64, graph.Shape{5, 8}, 0), y: wave(t, graph.Float64, graph.Shape{3, 8}, 1)}
		}},
		{name: "vectorized map H100", build: single(graph.Float32, graph.Shape{64, 256}, func(x *graph.Node) *graph.Node {
			return bin(graph.OpAdd, un(graph.OpSqrt, un(graph.OpAbs, x)), graph.Iota(graph.Float32, 256, 0, 1, false, 0))
		}), tol: floatTol, target: codegen.H100},
	}
}

// splitColumns rewrites the geometry of column reductions to split their
// reduced range over several blocks with scratch memory for the partials
// (ChooseGeometry splits only very long columns).
func splitColumns(k *fuse.Kernel, g *codegen.Geometry) {
	if k.Kind() != fuse.KindReduce || g.Strategy != codegen.StrategyColumn {
		return
	}
	part := 0
	for _, r := range k.Reduce().Reductions {
		part += 8
		if r.Op == graph.OpArgMax || r.Op == graph.OpArgMin {
			part += 8
		}
	}
	g.Split = 3
	tiles := (g.Rows + g.Block - 1) / g.Block
	g.Grid = tiles * g.Split
	g.ScratchBytes = int64(g.Split * g.Rows * part)
}

func (c gcase) targetOf() codegen.Target {
	if c.target != nil {
		return c.target()
	}
	return codegen.SmallGPU()
}

func TestCases(t *testing.T) {
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			outs, bound := c.build(t)
			tg := c.targetOf()
			p, slots := planOf(t, outs, bound)
			var adjust func(*fuse.Kernel, *codegen.Geometry)
			if c.splitUp {
				adjust = splitColumns
			}
			var kinds []fuse.Kind
			var strat []codegen.Strategy
			for i := range p.Kernels {
				k := &p.Kernels[i]
				kinds = append(kinds, k.Kind())
				if k.Kind() == fuse.KindReduce {
					g, err := codegen.ChooseGeometry(k, tg)
					require.NoError(t, err)
					strat = append(strat, g.Strategy)
				}
			}
			if c.kinds != nil && !slices.Equal(kinds, c.kinds) {
				t.Fatalf("kernel kinds got:%v want:%v\n%s", kinds, c.kinds, fuse.Explain(p))
			}
			if c.strat != nil && !slices.Equal(strat, c.strat) {
				t.Fatalf("strategies got:%v want:%v\n%s", strat, c.strat, fuse.Explain(p))
			}
			r := interpretWith(t, p, slots, bound, tg, adjust)
			want := reference(t, outs, bound)
			for i := range want {
				if err := compare(r.outputs[i], want[i], c.tol); err != nil {
					t.Fatalf("output %d: %v\n%s", i, err, fuse.Explain(p))
				}
			}
		})
	}
}
