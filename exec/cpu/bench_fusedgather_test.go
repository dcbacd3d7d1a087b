// Benchmarks of gathers fused with their consumers (x.Take(i)*2 + y, a
// row sum of x.Take(i, 1)) against the unfused plan, which stores the
// gathered array in one evaluation and reads it back in a second.

package cpu_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// gatherIndices returns a bound int64 index input of shape s with
// values in [0, n) from a fixed seed.
func gatherIndices(b *testing.B, alloc memory.Allocator, s graph.Shape, n int) (*graph.Node, *exec.Tensor) {
	x, t := newInput(b, alloc, graph.Int64, s, "i")
	r := rand.New(rand.NewPCG(7, 1))
	for k := range exec.Elems[int64](t) {
		exec.Elems[int64](t)[k] = int64(r.IntN(n))
	}
	return x, t
}

func BenchmarkFusedGather(b *testing.B) {
	for _, n := range []int{1 << 16, 1 << 22} {
		for _, kind := range []string{"take_mul_add", "take_sum_rows"} {
			for _, fused := range []bool{true, false} {
				mode := map[bool]string{true: "fused", false: "unfused"}[fused]
				b.Run(fmt.Sprintf("%s/n=%d/%s", kind, n, mode), func(b *testing.B) { benchFusedGather(b, kind, n, fused) })
			}
		}
	}
}

// benchFusedGather runs one case: n gathered float32 elements.
func benchFusedGather(b *testing.B, kind string, n int, fused bool) {
	be, alloc := benchBackend(), benchAlloc()
	bound := map[*graph.Node]*exec.Tensor{}
	var gather *graph.Node
	rest := func(g *graph.Node) *graph.Node { return g }
	var bytes int64
	switch kind {
	case "take_mul_add":
		x, xt := benchInput(b, alloc, graph.Shape{n}, 1, -1, 1)
		y, yt := benchInput(b, alloc, graph.Shape{n}, 2, -1, 1)
		i, it := gatherIndices(b, alloc, graph.Shape{n}, n)
		bound[x], bound[y], bound[i] = xt, yt, it
		gather = graph.Take(x, i, 0)
		rest = func(g *graph.Node) *graph.Node {
			return graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, g, graph.FloatConst(graph.Float32, 2)), y)
		}
		bytes = int64(n) * (4 + 8 + 4 + 4) // x, i, y read; the result written
	default:
		cols := 1024
		x, xt := benchInput(b, alloc, graph.Shape{n / cols, cols}, 1, -1, 1)
		i, it := gatherIndices(b, alloc, graph.Shape{cols}, cols)
		bound[x], bound[i] = xt, it
		gather = graph.Take(x, i, 1)
		rest = func(g *graph.Node) *graph.Node { return graph.Reduce(graph.OpSum, g, []int{1}, false) }
		bytes = int64(n)*4 + int64(cols)*8 + int64(n/cols)*4
	}
	if fused {
		runBench(b, be, alloc, []*graph.Node{rest(gather)}, bound, bytes)
		return
	}
	// The unfused plan: the gathered array is stored, then read back.
	ctx := context.Background()
	g := graph.Input(graph.Float32, gather.Shape(), "g")
	tail := rest(g)
	step := func() {
		gt, err := be.Eval(ctx, &exec.Request{Outputs: []*graph.Node{gather}, Bound: bound, Alloc: alloc})
		if err != nil {
			b.Fatal(err)
		}
		vals := map[*graph.Node]*exec.Tensor{g: gt[0]}
		for k, v := range bound {
			vals[k] = v
		}
		res, err := be.Eval(ctx, &exec.Request{Outputs: []*graph.Node{tail}, Bound: vals, Alloc: alloc})
		if err != nil {
			b.Fatal(err)
		}
		release(res)
		release(gt)
	}
	step() // plan once
	runtime.GC()
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		step()
	}
}
