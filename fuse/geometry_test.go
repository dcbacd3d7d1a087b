// Tests of launch geometry and device limits.

package fuse

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func TestGPUReduceStrategies(t *testing.T) {
	tests := []struct {
		name  string
		shape graph.Shape
		axes  []int
		want  Strategy
	}{
		{"short rows", graph.Shape{4096, 128}, []int{1}, StrategyWarpPerRow},
		{"long rows", graph.Shape{64, 8192}, []int{1}, StrategyBlockPerRow},
		{"columns", graph.Shape{8192, 256}, []int{0}, StrategyColumn},
		{"full", graph.Shape{1 << 20}, nil, StrategyTwoPass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := graph.Input(graph.Float32, tt.shape, "x")
			r := graph.Reduce(graph.OpSum, x, tt.axes, false)
			p := mustPlanOn(t, H100(), bindAll(r), r)
			g := p.Kernels[0].Geometry
			require.Equal(t, tt.want, g.Strategy, "got:%v want:%v", g.Strategy, tt.want)
			require.LessOrEqual(t, g.Block, H100().MaxThreadsPerBlock)
			require.LessOrEqual(t, g.SharedBytes, H100().SharedPerBlock)
			if tt.want == StrategyTwoPass {
				require.Greater(t, g.Grid, 1)
				require.GreaterOrEqual(t, g.Scratch, 0)
				require.Equal(t, g.ScratchBytes, p.Buffers[g.Scratch].Bytes)
			}
		})
	}
}

func TestGPUMapVectorWidth(t *testing.T) {
	a, b := input(1024, 256), input(1024, 256)
	p := mustPlanOn(t, H100(), bindAll(a, b), add(a, b))
	require.Equal(t, 4, p.Kernels[0].Geometry.VectorWidth)
	require.Equal(t, []int{1024 * 256}, p.Kernels[0].Space)
	tr := add(graph.Permute(a, []int{1, 0}), input(256, 1024))
	p = mustPlanOn(t, H100(), bindAll(tr), tr)
	require.Equal(t, 1, p.Kernels[0].Geometry.VectorWidth)
	d := graph.Input(graph.Float64, graph.Shape{1024}, "d")
	p = mustPlanOn(t, H100(), bindAll(d), exp(d))
	require.Equal(t, 2, p.Kernels[0].Geometry.VectorWidth)
}

func TestGPUMatMulTile(t *testing.T) {
	x, w := input(1024, 512), input(512, 1024)
	p := mustPlanOn(t, H100(), bindAll(x, w), graph.MatMul(x, w))
	g := p.Kernels[0].Geometry
	require.Equal(t, Tile{128, 128, 8, 8, 8}, g.Tile)
	require.Equal(t, 256, g.Block)
	require.Equal(t, 64, g.Grid)
}

func TestGeometryLimits(t *testing.T) {
	tiny := H100()
	tiny.Name = "tiny"
	tiny.SharedPerBlock = 16
	x := input(1 << 16)
	sum := graph.Reduce(graph.OpSum, x, nil, false)
	_, err := Build([]*graph.Node{sum}, bindAll(sum), tiny)
	require.ErrorContains(t, err, "shared memory")

	m, w := input(64, 64), input(64, 64)
	_, err = Build([]*graph.Node{graph.MatMul(m, w)}, bindAll(m, w), tiny)
	require.ErrorContains(t, err, "no GEMM tile fits")

	// A Map needs no shared memory.
	_, err = Build([]*graph.Node{exp(x)}, bindAll(x), tiny)
	require.NoError(t, err)

	few := H100()
	few.RegistersPerBlock = 16
	_, err = Build([]*graph.Node{exp(x)}, bindAll(x), few)
	require.ErrorContains(t, err, "registers")
}

func TestCPUChunk(t *testing.T) {
	a, b := input(1<<20), input(1<<20)
	p := mustPlan(t, add(a, b))
	g := p.Kernels[0].Geometry
	// 12 bytes per point, half of 1 MiB.
	require.Equal(t, (1<<19)/12/64*64, g.Chunk)
	require.Equal(t, 2, g.Workers)
	require.Equal(t, 2, DefaultCPU().CacheBytes>>19)
}
