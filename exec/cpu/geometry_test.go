// Tests of the chunk sizes and worker counts chosen per kernel.

package cpu

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

func TestChunking(t *testing.T) {
	in := func(s ...int) *graph.Node { return graph.Input(graph.Float32, graph.Shape(s), "x") }
	plan := func(out *graph.Node) *fuse.Kernel {
		bound := map[*graph.Node]graph.Layout{}
		for _, n := range graph.Topo(out) {
			if n.Op() == graph.OpInput {
				bound[n] = graph.ContiguousLayout(n.DType(), n.Shape())
			}
		}
		p, err := fuse.Build([]*graph.Node{out}, bound)
		require.NoError(t, err)
		return &p.Kernels[0]
	}
	tests := []struct {
		name          string
		k             *fuse.Kernel
		workers       int
		chunk, worker int
	}{
		// 12 bytes per point, half of 1 MiB.
		{"add", plan(graph.Binary(graph.OpAdd, in(1<<20), in(1<<20))), 2, (1 << 19) / 12 / 64 * 64, 2},
		{"add on 8 workers", plan(graph.Binary(graph.OpAdd, in(1<<20), in(1<<20))), 8, (1 << 19) / 12 / 64 * 64, 8},
		{"small", plan(graph.Unary(graph.OpExp, in(100))), 4, 100, 1},
		{"generated only", plan(graph.Iota(graph.Float32, 10, 0, 1, false, 0)), 4, 10, 1},
		// the product counts its two operands' elements per point too
		{"matmul", plan(graph.MatMul(in(512, 512), in(512, 512))), 2, (1 << 19) / 12 / 64 * 64, 2},
	}
	for _, tt := range tests {
		chunk, workers := chunking(tt.k, tt.workers)
		if chunk != tt.chunk || workers != tt.worker {
			t.Errorf("%s: chunking got:%d,%d want:%d,%d", tt.name, chunk, workers, tt.chunk, tt.worker)
		}
	}
}
