// Geometry-limit errors: kernels whose geometry a target cannot run are
// refused by Lower (and Compile) before any launch, with the limit named.

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

// planned returns the plan of one output over contiguous inputs for tg.
func planned(t *testing.T, out *graph.Node, tg fuse.Target) *fuse.Plan {
	bound := map[*graph.Node]*exec.Tensor{}
	collectInputs([]*graph.Node{out}, bound)
	p, _ := planOf(t, []*graph.Node{out}, bound, tg)
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
		target func(fuse.Target) fuse.Target
		geom   func(*fuse.Geometry)
		want   string
	}{
		{"threads per block", mapK, nil, func(g *fuse.Geometry) { g.Block = 2048 }, "threads per block"},
		{"grid", mapK, func(t fuse.Target) fuse.Target { t.MaxGridX = 1; return t }, nil, "grid"},
		{"within the limits", mapK, nil, nil, ""},
		{"cpu target", mapK, func(fuse.Target) fuse.Target { return fuse.DefaultCPU() }, nil, "not a GPU"},
		{"warp size", mapK, func(t fuse.Target) fuse.Target { t.WarpSize = 64; return t }, nil, "warp size 64"},
		{"partial warp", rowSum, nil, func(g *fuse.Geometry) { g.Block = 100 }, "whole number of warps"},
		{"two-pass without scratch", fullSum, nil, func(g *fuse.Geometry) { g.Scratch = -1 }, "scratch buffer"},
		{"split column without scratch", colSum, nil, func(g *fuse.Geometry) { g.Split, g.Grid = 4, 64 }, "scratch buffer"},
		{"reduction shared memory", rowSum, func(t fuse.Target) fuse.Target { t.SharedPerBlock = 16; return t }, nil, "shared memory"},
		{"gemm shared memory", mm, func(t fuse.Target) fuse.Target { t.SharedPerBlock = 1024; return t }, nil, "shared memory"},
		{"gemm tile threads", mm, nil, func(g *fuse.Geometry) { g.Tile.TM = 2 }, "threads per block"},
		{"gemm tile registers", mm, func(t fuse.Target) fuse.Target { t.RegistersPerBlock = 8192; return t }, nil, "registers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := planned(t, tt.out, fuse.H100())
			k := &p.Kernels[len(p.Kernels)-1]
			tg := fuse.H100()
			if tt.target != nil {
				tg = tt.target(tg)
			}
			if tt.geom != nil {
				tt.geom(&k.Geometry)
			}
			_, _, err := codegen.Lower(k, tg)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got:%v want:an error mentioning %q", err, tt.want)
			}
			_, err = codegen.Compile(p, tg, codegen.Options{})
			require.Error(t, err)
		})
	}
}
