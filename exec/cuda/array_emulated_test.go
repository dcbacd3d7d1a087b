// The array package's compositions (rearranging views, Einsum, the
// constructors) on the emulated device: their generated kernels, assembled
// by ptxas and run on the interpreter, against the reference evaluator.

package cuda_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec/cuda"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/indexcases"
	"github.com/fuseflow/fuseflow/internal/ptxas"
)

// TestArrayCompositionsEmulated evaluates each expression on the
// emulated device and on the reference evaluator.
func TestArrayCompositionsEmulated(t *testing.T) {
	b := cuda.EmuBackendForTest(t)
	dev, err := array.NewContext(array.WithBackend(b))
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := array.NewContext(array.WithBackend(ref.New()))
	if err != nil {
		t.Fatal(err)
	}
	// held keeps the inputs reachable until their expressions are
	// evaluated (an input Array the program forgets frees its data).
	var held []*array.Array
	data := func(c *array.Context, n int, shape ...int) *array.Array {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32((i*7)%11) - 4.5
		}
		v[3] = float32(math.NaN())
		a := array.FromSlice(c, v, shape...)
		held = append(held, a)
		return a
	}
	tests := []struct {
		name string
		f    func(c *array.Context) *array.Array
	}{
		{"flip", func(c *array.Context) *array.Array { return data(c, 60, 3, 4, 5).Flip(0, 2).Mul(2) }},
		{"roll", func(c *array.Context) *array.Array { return data(c, 60, 3, 4, 5).Roll(-3, 2).Add(1) }},
		{"roll flat", func(c *array.Context) *array.Array { return data(c, 60, 3, 20).Roll(7) }},
		{"tile", func(c *array.Context) *array.Array { return data(c, 12, 3, 4).Tile(2, 1, 3).Sqrt() }},
		{"repeat", func(c *array.Context) *array.Array { return data(c, 12, 3, 4).Repeat(3, 1) }},
		{"repeat counts", func(c *array.Context) *array.Array { return data(c, 12, 3, 4).RepeatCounts([]int{2, 0, 1, 1}, 1) }},
		{"pad", func(c *array.Context) *array.Array { return data(c, 12, 3, 4).Pad([][2]int{{1, 2}, {3, 0}}, -1.5) }},
		{"pad edge", func(c *array.Context) *array.Array { return data(c, 12, 3, 4).PadEdge([][2]int{{2, 1}, {1, 2}}).Exp() }},
		{"diagonal", func(c *array.Context) *array.Array { return data(c, 60, 3, 4, 5).Diagonal(1, 0, 2) }},
		{"trace", func(c *array.Context) *array.Array { return data(c, 64, 4, 4, 4).Diagonal(0, 1, 2).Sum(-1) }},
		{"triu", func(c *array.Context) *array.Array { return data(c, 60, 3, 4, 5).Triu(1).Add(1) }},
		{"tril", func(c *array.Context) *array.Array { return data(c, 60, 3, 4, 5).AsType(array.Int32).Tril(-1) }},
		{"einsum batched", func(c *array.Context) *array.Array {
			return array.Einsum("bij,bjk->bik", data(c, 96, 4, 6, 4), data(c, 96, 4, 4, 6).Abs())
		}},
		{"einsum rowdot", func(c *array.Context) *array.Array {
			return array.Einsum("ij,ij->i", data(c, 60, 6, 10), data(c, 60, 6, 10))
		}},
		{"einsum chain", func(c *array.Context) *array.Array {
			return array.Einsum("ij,jk,kl->il", data(c, 20, 4, 5).Abs(), data(c, 30, 5, 6), data(c, 12, 6, 2))
		}},
		{"einsum trace", func(c *array.Context) *array.Array { return array.Einsum("ii", data(c, 25, 5, 5)) }},
		{"histogram weights density", func(c *array.Context) *array.Array {
			h, _ := data(c, 60, 6, 10).HistogramWith(array.HistogramOpts{Bins: 7, Range: []float64{-4, 5}, Weights: data(c, 60, 6, 10).Abs(), Density: true})
			return h
		}},
		{"histogram edges", func(c *array.Context) *array.Array {
			e := array.FromSlice(c, []float32{-4.5, -1, 0, 0, 2.5, 5.5})
			held = append(held, e)
			h, _ := data(c, 60, 6, 10).HistogramWith(array.HistogramOpts{Edges: e, Weights: data(c, 60, 6, 10).AsType(array.Int32)})
			return h
		}},
		{"linspace int", func(c *array.Context) *array.Array { return c.Linspace(array.Int64, -7, 5, 9) }},
		{"full int64", func(c *array.Context) *array.Array { return c.Full(array.Int64, int64(1<<62+1), 3) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, want := tc.f(dev), tc.f(oracle)
			// The plan's kernels as PTX, assembled for sm_80 and sm_90.
			n := got.Node()
			p, err := fuse.Build([]*graph.Node{n}, graph.InputLayouts(n))
			if err != nil {
				t.Fatal(err)
			}
			for _, major := range []int{8, 9} {
				tg := codegen.H100()
				tg.ComputeMajor = major
				mod, err := codegen.Compile(p, tg, codegen.Options{})
				if err != nil {
					t.Fatal(err)
				}
				ptxas.AssembleAll(t, mod.PTX, fmt.Sprintf("sm_%d0", major))
			}
			defer func() {
				for _, a := range append(held, got, want) {
					a.Release()
				}
				held = held[:0]
			}()
			gf, wf := got.AsType(array.Float64), want.AsType(array.Float64)
			held = append(held, gf, wf)
			g, err := array.ToSlice[float64](gf)
			if err != nil {
				t.Fatal(err)
			}
			w, err := array.ToSlice[float64](wf)
			if err != nil {
				t.Fatal(err)
			}
			if len(g) != len(w) || !got.Shape().Equal(want.Shape()) {
				t.Fatalf("got:%v %d want:%v %d", got.Shape(), len(g), want.Shape(), len(w))
			}
			for i := range w {
				same := g[i] == w[i] || math.IsNaN(g[i]) && math.IsNaN(w[i]) ||
					math.Abs(g[i]-w[i]) <= 1e-5*math.Max(1, math.Abs(w[i]))
				if !same {
					t.Errorf("[%d]: got:%v want:%v", i, g[i], w[i])
				}
			}
		})
	}
}

// TestIndexEveryDTypeEmulated runs the indexing cases of every dtype
// pairing on the emulated device against the reference evaluator.
func TestIndexEveryDTypeEmulated(t *testing.T) {
	indexcases.Check(t, ref.New(), cuda.EmuBackendForTest(t))
}
