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
		// 12 bytes and one add (8) per point: a worker per 3 MiB of that
		{"add on 8 workers", plan(graph.Binary(graph.OpAdd, in(1<<20), in(1<<20))), 8, (1 << 19) / 12 / 64 * 64, 6},
		{"add of 100000", plan(graph.Binary(graph.OpAdd, in(100000), in(100000))), 2, (1 << 19) / 12 / 64 * 64, 1},
		{"add of 400000", plan(graph.Binary(graph.OpAdd, in(400000), in(400000))), 2, (1 << 19) / 12 / 64 * 64, 2},
		// 8 bytes and an exp (4 units, 32) per point
		{"exp of 80000", plan(graph.Unary(graph.OpExp, in(80000))), 2, (1 << 19) / 8 / 64 * 64, 1},
		{"exp of 200000", plan(graph.Unary(graph.OpExp, in(200000))), 2, (1 << 19) / 8 / 64 * 64, 2},
		// 8 bytes (the load and the store) and the sum per point
		{"sum of 200000", plan(graph.Reduce(graph.OpSum, in(200000), nil, false)), 2, (1 << 19) / 8 / 64 * 64, 1},
		{"sum of 1000000", plan(graph.Reduce(graph.OpSum, in(1000000), nil, false)), 2, (1 << 19) / 8 / 64 * 64, 2},
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
