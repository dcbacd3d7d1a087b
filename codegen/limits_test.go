// Geometry-limit errors: kernels whose geometry a target cannot run are
// refused by LowerGeometry before any launch, with the limit named, and
// Compile chooses a geometry within the target's limits or names the
// limit no geometry fits.

package codegen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// planned returns the plan of one output over contiguous inputs.
func planned(t *testing.T, out *graph.Node) *fuse.Plan {
	bound := map[*graph.Node]*exec.Tensor{}
	collectInputs([]*graph.Node{out}, bound)
	p, _ := planOf(t, []*graph.Node{out}, bound)
	return p
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
