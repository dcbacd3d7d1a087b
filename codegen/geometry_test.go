// Tests of the launch geometry chosen from the target's properties: the
// reduction strategies, vector widths, GEMM tiles, scratch memory for
// split reductions, the limits that make a target refuse a kernel, and
// the geometry Explain shows; and the geometry-limit errors: kernels
// whose geometry a target cannot run are refused by LowerGeometry before
// any launch, with the limit named, and Compile chooses a geometry within
// the target's limits or names the limit no geometry fits.

package codegen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// inF32 returns a float32 input of shape s.
func inF32(s ...int) *graph.Node { return graph.Input(graph.Float32, graph.Shape(s), "x") }

// geometryOf returns the geometry of the first kernel of out's plan on tg.
func geometryOf(t *testing.T, out *graph.Node, tg codegen.Target) (*fuse.Plan, codegen.Geometry) {
	t.Helper()
	p := planned(t, out)
	g, err := codegen.ChooseGeometry(&p.Kernels[0], tg)
	require.NoError(t, err)
	return p, g
}

func TestGPUReduceStrategies(t *testing.T) {
	tests := []struct {
		name  string
		shape graph.Shape
		axes  []int
		want  codegen.Strategy
	}{
		{"short rows", graph.Shape{4096, 128}, []int{1}, codegen.StrategyWarpPerRow},
		{"long rows", graph.Shape{64, 8192}, []int{1}, codegen.StrategyBlockPerRow},
		{"columns", graph.Shape{8192, 256}, []int{0}, codegen.StrategyColumn},
		{"full", graph.Shape{1 << 20}, nil, codegen.StrategyTwoPass},
	}
	h := codegen.H100()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := graph.Input(graph.Float32, tt.shape, "x")
			p, g := geometryOf(t, graph.Reduce(graph.OpSum, x, tt.axes, false), h)
			require.Equal(t, tt.want, g.Strategy, "got:%v want:%v", g.Strategy, tt.want)
			require.LessOrEqual(t, g.Block, h.MaxThreadsPerBlock)
			require.LessOrEqual(t, g.SharedBytes, h.SharedPerBlock)
			_, sig, err := codegen.Lower(&p.Kernels[0], h)
			require.NoError(t, err)
			if tt.want == codegen.StrategyTwoPass {
				require.Greater(t, g.Grid, 1)
				require.Equal(t, int64(g.Grid*8), g.ScratchBytes, "one 8-byte partial per block")
			}
			if tt.want == codegen.StrategyColumn {
				require.Greater(t, g.Split, 1, "a long column with few outputs is split over blocks")
				require.Equal(t, int64(g.Split*256*8), g.ScratchBytes, "one 8-byte partial per column and part")
			}
			if g.ScratchBytes == 0 {
				require.Empty(t, sig.Scratch)
				require.Len(t, sig.Launches, 1)
				return
			}
			require.Equal(t, []codegen.Scratch{{Bytes: g.ScratchBytes}}, sig.Scratch, "the signature asks for the partials")
			require.Len(t, sig.Launches, 2)
			last := sig.Params[len(sig.Params)-2]
			require.Equal(t, codegen.Param{Kind: codegen.ParamScratch, Name: "s0", Buffer: 0}, last)
		})
	}
}

func TestGPUSplitColumnScratch(t *testing.T) {
	x := inF32(1<<16, 4)
	p, g := geometryOf(t, graph.Reduce(graph.OpArgMax, x, []int{0}, false), codegen.H100())
	require.Equal(t, codegen.StrategyColumn, g.Strategy)
	require.Greater(t, g.Split, 1)
	require.Equal(t, int64(g.Split*4*16), g.ScratchBytes, "value and index partials per column and part")
	_, sig, err := codegen.Lower(&p.Kernels[0], codegen.H100())
	require.NoError(t, err)
	require.Equal(t, []codegen.Scratch{{Bytes: g.ScratchBytes}}, sig.Scratch)
	for _, b := range p.Buffers {
		require.NotContains(t, strings.Join(b.Values, " "), "partials", "partials are no plan buffer")
	}
}

func TestGPUMapVectorWidth(t *testing.T) {
	h := codegen.H100()
	a, b := inF32(1024, 256), inF32(1024, 256)
	p, g := geometryOf(t, graph.Binary(graph.OpAdd, a, b), h)
	require.Equal(t, 4, g.VectorWidth)
	require.Equal(t, []int{1024 * 256}, p.Kernels[0].Space)
	tr := graph.Binary(graph.OpAdd, graph.Permute(a, []int{1, 0}), inF32(256, 1024))
	_, g = geometryOf(t, tr, h)
	require.Equal(t, 1, g.VectorWidth)
	d := graph.Input(graph.Float64, graph.Shape{1024}, "d")
	_, g = geometryOf(t, graph.Unary(graph.OpExp, d), h)
	require.Equal(t, 2, g.VectorWidth)
}

func TestGPUMatMulTile(t *testing.T) {
	x, w := inF32(1024, 512), inF32(512, 1024)
	_, g := geometryOf(t, graph.MatMul(x, w), codegen.H100())
	require.Equal(t, codegen.Tile{BM: 128, BN: 128, BK: 8, TM: 8, TN: 8}, g.Tile)
	require.Equal(t, 256, g.Block)
	require.Equal(t, 64, g.Grid)
}

func TestChooseGeometryLimits(t *testing.T) {
	tiny := codegen.H100()
	tiny.Name = "tiny"
	tiny.SharedPerBlock = 16
	x := inF32(1 << 16)
	choose := func(out *graph.Node, tg codegen.Target) error {
		p := planned(t, out)
		_, err := codegen.ChooseGeometry(&p.Kernels[0], tg)
		return err
	}
	require.ErrorContains(t, choose(graph.Reduce(graph.OpSum, x, nil, false), tiny), "shared memory")
	require.ErrorContains(t, choose(graph.MatMul(inF32(64, 64), inF32(64, 64)), tiny), "no GEMM tile fits")
	// A Map needs no shared memory.
	require.NoError(t, choose(graph.Unary(graph.OpExp, x), tiny))

	few := codegen.H100()
	few.RegistersPerBlock = 16
	require.ErrorContains(t, choose(graph.Unary(graph.OpExp, x), few), "registers")
}

// TestAnnotate shows the geometry codegen chooses in a plan's Explain.
func TestAnnotate(t *testing.T) {
	x := inF32(8, 16)
	m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m))
	out := graph.Binary(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	p := planned(t, out)
	a, err := codegen.Annotate(p, codegen.H100())
	require.NoError(t, err)
	s := fuse.ExplainFor(p, a)
	for _, want := range []string{"plan for H100: 3 kernels", "H100: block 256 grid", "strategy warp-per-row", "launch grid"} {
		require.Contains(t, s, want)
	}
	_, err = codegen.Annotate(p, codegen.Target{Name: "broken"})
	require.ErrorContains(t, err, "broken")
}

func TestGeometryLimits(t *testing.T) {
	x := graph.Input(graph.Float32, graph.Shape{64, 4096}, "x")
	mapK := graph.Unary(graph.OpExp, x)
	rowSum := graph.Reduce(graph.OpSum, x, []int{1}, false)
	fullSum := graph.Reduce(graph.OpSum, x, nil, false)
	colSum := graph.Reduce(graph.OpSum, x, []int{0}, false)
	a, b := graph.Input(graph.Float32, graph.Shape{256, 256}, "a"), graph.Input(graph.Float32, graph.Shape{256, 256}, "b")
	mm := graph.MatMul(a, b)
	tests := []struct {
		name   string
		out    *graph.Node
		target func(codegen.Target) codegen.Target
		geom   func(*codegen.Geometry)
		want   string
	}{
		{"threads per block", mapK, nil, func(g *codegen.Geometry) { g.Block = 2048 }, "threads per block"},
		{"grid", mapK, func(t codegen.Target) codegen.Target { t.MaxGrid.X = 1; return t }, nil, "grid"},
		{"within the limits", mapK, nil, nil, ""},
		{"warp size", mapK, func(t codegen.Target) codegen.Target { t.WarpSize = 64; return t }, nil, "warp size 64"},
		{"partial warp", rowSum, nil, func(g *codegen.Geometry) { g.Block = 100 }, "whole number of warps"},
		{"two-pass without scratch", fullSum, nil, func(g *codegen.Geometry) { g.ScratchBytes = 0 }, "scratch memory"},
		{"two-pass with too little scratch", fullSum, nil, func(g *codegen.Geometry) { g.ScratchBytes -= 8 }, "scratch memory"},
		{"split column without scratch", colSum, nil, func(g *codegen.Geometry) { g.Split, g.Grid = 4, 64 }, "scratch memory"},
		{"reduction shared memory", rowSum, func(t codegen.Target) codegen.Target { t.SharedPerBlock = 16; return t }, nil, "shared memory"},
		{"gemm shared memory", mm, func(t codegen.Target) codegen.Target { t.SharedPerBlock = 1024; return t }, nil, "shared memory"},
		{"gemm tile threads", mm, nil, func(g *codegen.Geometry) { g.Tile.TM = 2 }, "threads per block"},
		{"gemm tile registers", mm, func(t codegen.Target) codegen.Target { t.RegistersPerBlock = 8192; return t }, nil, "registers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := planned(t, tt.out)
			k := &p.Kernels[len(p.Kernels)-1]
			g, err := codegen.ChooseGeometry(k, codegen.H100())
			require.NoError(t, err)
			tg := codegen.H100()
			if tt.target != nil {
				tg = tt.target(tg)
			}
			if tt.geom != nil {
				tt.geom(&g)
			}
			_, _, err = codegen.LowerGeometry(k, tg, g)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got:%v want:an error mentioning %q", err, tt.want)
			}
			// Compile chooses the geometry for tg itself: one within its
			// limits, or an error naming the limit none fits.
			if _, err = codegen.Compile(p, tg, codegen.Options{}); err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Compile got:%v want:success or an error mentioning %q", err, tt.want)
			}
		})
	}
}
