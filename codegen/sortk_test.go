// Sort kernels on the IR interpreter against the reference evaluator
// (every dtype; NaN, -0, ties, rows of 1, several rows, views, TopK),
// and their PTX assembled by ptxas for sm_80 and sm_90.

package codegen_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

type sortCase struct {
	name  string
	d     graph.DType
	shape graph.Shape
	axis  int
	k     int // TopK's count; -1: Sort and ArgSort
	trans bool
}

func sortCases() []sortCase {
	var cs []sortCase
	for _, d := range []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64} {
		for _, l := range []struct {
			shape graph.Shape
			axis  int
			k     int
			trans bool
		}{
			{graph.Shape{300}, 0, -1, false},      // one row over many threads
			{graph.Shape{5, 41}, 1, -1, false},    // several rows
			{graph.Shape{23, 1}, 1, -1, false},    // rows of 1
			{graph.Shape{18, 3, 2}, 0, -1, false}, // sorted axis first: 6 rows, strided keys
			{graph.Shape{7, 19}, -1, -1, true},    // the keys through a transpose
			{graph.Shape{6, 33}, 1, 5, false},     // TopK
			{graph.Shape{40}, 0, 40, false},       // TopK of the whole row
		} {
			cs = append(cs, sortCase{fmt.Sprintf("%v/%v/axis%d/k%d/t%v", d, l.shape, l.axis, l.k, l.trans), d, l.shape, l.axis, l.k, l.trans})
		}
	}
	return cs
}

// outputs builds the case's nodes over input x.
func (c sortCase) outputs(x *graph.Node) []*graph.Node {
	v := x
	if c.trans {
		v = graph.Permute(x, []int{1, 0})
	}
	if c.k >= 0 {
		vals, idx := graph.TopK(v, c.axis, c.k)
		return []*graph.Node{vals, idx}
	}
	return []*graph.Node{graph.Sort(v, c.axis), graph.ArgSort(v, c.axis)}
}

// sortData has many ties, NaNs, -0 beside +0 and infinities in floats,
// and the extremes of the integers.
func sortData(d graph.DType) func(i int) float64 {
	return func(i int) float64 {
		v := math.Round(math.Sin(float64(i)*0.61) * 6)
		switch {
		case d == graph.Bool:
			return float64(i * 7 % 5 % 2)
		case d.IsFloat() && i%11 == 3:
			return math.NaN()
		case d.IsFloat() && i%13 == 5:
			return math.Copysign(0, -1)
		case d.IsFloat() && i%17 == 7:
			return math.Inf(1 - 2*(i%2))
		case d.IsFloat():
			return v + float64(i%3)/4
		case d == graph.Int32 && i%19 == 4:
			return float64(math.MinInt32 + i%2*(math.MaxInt32-math.MinInt32))
		case d == graph.Int64 && i%19 == 4:
			return float64(int64(-1) << 62 * int64(1-2*(i%2)))
		}
		return v
	}
}

func TestSortInterpreted(t *testing.T) {
	tg := codegen.SmallGPU()
	for _, c := range sortCases() {
		t.Run(c.name, func(t *testing.T) {
			shape := c.shape
			if c.trans {
				shape = graph.Shape{c.shape[1], c.shape[0]}
			}
			x := in(c.d, shape, "x")
			xt := tensorOf(t, c.d, shape, sortData(c.d))
			defer xt.Release()
			outs := c.outputs(x)
			for _, o := range outs {
				require.NoError(t, o.Err())
			}
			bound := bindings{x: xt}
			p, _ := planOf(t, outs, bound)
			var sorts int
			for i := range p.Kernels {
				if k := &p.Kernels[i]; k.Kind() == fuse.KindSort {
					sorts++
					g, err := codegen.ChooseGeometry(k, tg)
					require.NoError(t, err)
					require.Equal(t, codegen.StrategyRadixSort, g.Strategy, "strategy got:%v want:%v", g.Strategy, codegen.StrategyRadixSort)
				}
			}
			require.Equal(t, 1, sorts, fuse.Explain(p))
			r := check(t, outs, bound, tg, tolerance{})
			// -0 and +0 are equal keys, kept in their input order: the
			// values must match bit for bit, sign of zero included.
			want := reference(t, outs, bound)
			for i, w := range want {
				for j := range w.f {
					got := r.outputs[i].f[j]
					require.Equal(t, math.Signbit(w.f[j]), math.Signbit(got), "output %d element %d got:%v want:%v", i, j, got, w.f[j])
				}
			}
		})
	}
}

// TestSortManyThreads sorts rows over more threads than the keys of a
// row, so that ranges of one digit cross rows and threads: a block of 32
// threads and a grid of 4 over 3 rows of 150, with 32- and 64-bit
// indices.
func TestSortManyThreads(t *testing.T) {
	tg := codegen.SmallGPU()
	for _, c := range []struct {
		d       graph.DType
		index32 bool
	}{{graph.Float32, true}, {graph.Int64, true}, {graph.Float64, false}, {graph.Bool, false}} {
		d := c.d
		t.Run(fmt.Sprintf("%v/index32_%v", d, c.index32), func(t *testing.T) {
			shape := graph.Shape{3, 150}
			x := in(d, shape, "x")
			xt := tensorOf(t, d, shape, sortData(d))
			defer xt.Release()
			outs := []*graph.Node{graph.Sort(x, 1), graph.ArgSort(x, 1)}
			bound := bindings{x: xt}
			p, slots := planOf(t, outs, bound)
			r := interpretWith(t, p, slots, bound, tg, func(k *fuse.Kernel, g *codegen.Geometry) {
				if k.Kind() == fuse.KindSort {
					g.Block, g.Grid, g.Index32 = 32, 4, c.index32
				}
			})
			want := reference(t, outs, bound)
			for i := range want {
				require.NoError(t, compare(r.outputs[i], want[i], tolerance{}), "output %d", i)
			}
		})
	}
}

func TestSortPTXAssembles(t *testing.T) {
	var graphs [][]*graph.Node
	for _, c := range sortCases() {
		if c.shape.Size() > 100 {
			continue // the same code as a smaller case of its dtype
		}
		shape := c.shape
		if c.trans {
			shape = graph.Shape{c.shape[1], c.shape[0]}
		}
		graphs = append(graphs, c.outputs(in(c.d, shape, "x")))
	}
	assembleGraphs(t, codegen.SmallGPU(), graphs)
}

// TestSortViews sorts keys read through a reversed slice (negative
// strides, a non-zero offset) and a broadcast (rows of stride 0).
func TestSortViews(t *testing.T) {
	tg := codegen.SmallGPU()
	rev := graph.Range{Step: -1, NoStart: true, NoStop: true}
	for _, d := range []graph.DType{graph.Float32, graph.Int64} {
		for _, v := range []struct {
			name  string
			shape graph.Shape
			view  func(x *graph.Node) *graph.Node
		}{
			{"reversed", graph.Shape{4, 37}, func(x *graph.Node) *graph.Node { return graph.Slice(x, []graph.Range{rev, rev}) }},
			{"broadcast", graph.Shape{29}, func(x *graph.Node) *graph.Node { return graph.BroadcastTo(x, graph.Shape{3, 29}) }},
		} {
			t.Run(fmt.Sprintf("%v/%s", d, v.name), func(t *testing.T) {
				x := in(d, v.shape, "x")
				xt := tensorOf(t, d, v.shape, sortData(d))
				defer xt.Release()
				y := v.view(x)
				vals, idx := graph.TopK(y, 1, 7)
				outs := []*graph.Node{graph.Sort(y, 1), graph.ArgSort(y, 1), vals, idx}
				check(t, outs, bindings{x: xt}, tg, tolerance{})
			})
		}
	}
}

// TestSortGeometryChecked: a geometry or a spec the sort cannot run is
// an error naming the kernel, not a panic or a wrong kernel.
func TestSortGeometryChecked(t *testing.T) {
	tg := codegen.SmallGPU()
	x := in(graph.Float32, graph.Shape{4, 8}, "x")
	p := planned(t, graph.ArgSort(x, -1))
	require.Len(t, p.Kernels, 1)
	k := p.Kernels[0]
	g, err := codegen.ChooseGeometry(&k, tg)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		edit func(k *fuse.Kernel, g *codegen.Geometry)
		want string
	}{
		{"strategy", func(_ *fuse.Kernel, g *codegen.Geometry) { g.Strategy = codegen.StrategyScanLane }, "scan-lane is not a sort strategy"},
		{"k", func(k *fuse.Kernel, _ *codegen.Geometry) {
			s := *k.Sort()
			s.K = 9
			k.Spec = &s
		}, "keeping 9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			kc, gc := k, g
			c.edit(&kc, &gc)
			_, _, err := codegen.LowerGeometry(&kc, tg, gc)
			require.Error(t, err)
			require.Contains(t, err.Error(), "kernel "+k.Name)
			require.Contains(t, err.Error(), c.want)
		})
	}
}
