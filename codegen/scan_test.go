// Scan kernels on the IR interpreter against the reference evaluator
// (every op and dtype, lanes along rows and down columns, look-back over
// many tiles, views, fused prologues and epilogues), and their PTX
// assembled by ptxas for sm_80 and sm_90.

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

type scanCase struct {
	name     string
	op       graph.Op
	d        graph.DType
	shape    graph.Shape
	axis     int
	fused    bool
	strategy codegen.Strategy
}

func scanCases() []scanCase {
	var cs []scanCase
	ops := []graph.Op{graph.OpCumSum, graph.OpCumProd, graph.OpCumMax, graph.OpCumMin}
	for _, op := range ops {
		for _, d := range []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64, graph.Bool} {
			for _, l := range []struct {
				shape graph.Shape
				axis  int
				s     codegen.Strategy
			}{
				{graph.Shape{6, 37}, 1, codegen.StrategyScanWarp},
				{graph.Shape{50, 7}, 1, codegen.StrategyScanLane},
				{graph.Shape{40, 3, 5}, 0, codegen.StrategyScanLane},
				{graph.Shape{2, 5000}, 1, codegen.StrategyScanLookback},
			} {
				cs = append(cs, scanCase{fmt.Sprintf("%v/%v/%v/axis%d", op, d, l.shape, l.axis), op, d, l.shape, l.axis, false, l.s})
			}
		}
	}
	cs = append(cs,
		scanCase{"fused/rows", graph.OpCumSum, graph.Float32, graph.Shape{3, 4100}, -1, true, codegen.StrategyScanLookback},
		scanCase{"fused/columns", graph.OpCumMax, graph.Float64, graph.Shape{50, 20}, 0, true, codegen.StrategyScanLane},
	)
	return cs
}

// scanGraph builds the case over input x: x.T for 2-d column cases read
// through a view, exp(x/2) before and *2 after when fused.
func (c scanCase) graph(x *graph.Node) *graph.Node {
	v := x
	if c.fused {
		v = graph.Unary(graph.OpExp, graph.Binary(graph.OpMul, v, graph.FloatConst(c.d, 0.5)))
	}
	out := graph.Scan(c.op, v, c.axis)
	if c.fused {
		out = graph.Binary(graph.OpMul, out, graph.FloatConst(out.DType(), 2))
	}
	return out
}

// scanData gives values that keep products finite and sums exact enough:
// near 1 for CumProd, a NaN now and then in float max and min.
func (c scanCase) data(i int) float64 {
	v := math.Sin(float64(i)*0.37) * 3
	switch {
	case c.op == graph.OpCumProd:
		v = 1 + v/256
		if !c.d.IsFloat() {
			v = float64([]int{1, 1, -1, 1, 2, 1, 1}[i%7])
		}
	case c.d == graph.Bool:
		v = float64(i % 3 % 2)
	case c.d.IsFloat() && !c.fused && i%97 == 41:
		v = math.NaN()
	case !c.d.IsFloat():
		v = math.Round(v * 10)
	}
	return v
}

func TestScanInterpreted(t *testing.T) {
	tg := codegen.SmallGPU()
	for _, c := range scanCases() {
		t.Run(c.name, func(t *testing.T) {
			x := in(c.d, c.shape, "x")
			xt := tensorOf(t, c.d, c.shape, c.data)
			defer xt.Release()
			out := c.graph(x)
			require.NoError(t, out.Err())
			bound := bindings{x: xt}
			p, _ := planOf(t, []*graph.Node{out}, bound)
			require.Len(t, p.Kernels, 1, fuse.Explain(p))
			g, err := codegen.ChooseGeometry(&p.Kernels[0], tg)
			require.NoError(t, err)
			require.Equal(t, c.strategy, g.Strategy, "strategy got:%v want:%v", g.Strategy, c.strategy)
			// Float sums: the look-back adds tile totals (tree-added) to
			// the carry, n*eps of the magnitudes at most; exp differs by
			// a few ulps between the interpreter and Go.
			tol := tolerance{}
			if c.d.IsFloat() && (c.op == graph.OpCumSum || c.op == graph.OpCumProd || c.fused) {
				eps := 0x1p-52
				if c.d == graph.Float32 {
					eps = 0x1p-23
				}
				tol = tolerance{abs: 4 * float64(c.shape.Size()) * eps * 3, rel: 4 * float64(c.shape.Size()) * eps}
			}
			check(t, []*graph.Node{out}, bound, tg, tol)
		})
	}
}

func TestScanPTXAssembles(t *testing.T) {
	var graphs [][]*graph.Node
	for _, c := range scanCases() {
		graphs = append(graphs, []*graph.Node{c.graph(in(c.d, c.shape, "x"))})
	}
	assembleGraphs(t, codegen.SmallGPU(), graphs)
}
