// Gathers fused into Map and Reduce kernels on the emulated device:
// epilogues, reductions of gathered values, broadcasting, negative
// indices and every index dtype against the reference and the CPU
// backend, and the first bad index read back from a kernel's error
// words as the error the reference gives, on a small and a large
// device.

package cuda

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

func TestEmulatedFusedGather(t *testing.T) {
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	idts := []graph.DType{graph.Int8, graph.Int16, graph.Int32, graph.Int64, graph.Uint8, graph.Uint16, graph.Uint32, graph.Uint64}
	for di, dev := range []emuDevice{emuSmall, emuH100} {
		b := emuBackend(t, dev, Options{})
		for _, it := range idts {
			x := graph.Input(graph.Float32, graph.Shape{40, 9}, "x")
			y := graph.Input(graph.Float32, graph.Shape{300, 9}, "y")
			i1 := graph.Input(it, graph.Shape{300}, "i")
			i2 := graph.Input(it, graph.Shape{40, 5}, "j")
			lo := func(n int) int64 {
				if it.Unsigned() {
					return 0
				}
				return int64(-n)
			}
			hx := indexTensor(t, alloc, graph.Float32, x.Shape(), func(i int) int64 { return int64(i*7%31) - 15 })
			hy := indexTensor(t, alloc, graph.Float32, y.Shape(), func(i int) int64 { return int64(i % 11) })
			hi1 := indexTensor(t, alloc, it, i1.Shape(), func(i int) int64 { return lo(40) + int64(i*13)%(40-lo(40)) })
			hi2 := indexTensor(t, alloc, it, i2.Shape(), func(i int) int64 { return lo(9) + int64(i*5)%(9-lo(9)) })
			two := graph.FloatConst(graph.Float32, 2)
			outs := []*graph.Node{
				graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, graph.Take(x, i1, 0), two), y),
				graph.Reduce(graph.OpSum, graph.Take(x, i1, 0), []int{1}, false),
				graph.Reduce(graph.OpReduceMax, graph.Take(x, i1, 0), []int{0}, false),
				graph.Reduce(graph.OpSum, graph.TakeAlong(x, i2, 1), []int{1}, false),
				graph.Binary(graph.OpSub, graph.Permute(graph.TakeAlong(x, i2, 1), []int{1, 0}), graph.Reduce(graph.OpSum, x, []int{1}, false)),
			}
			bound := bindings{x: hx, y: hy, i1: hi1, i2: hi2}
			exact := []bool{true, true, true, true, true}
			compareWithCPU(t, b, fmt.Sprintf("device %d %v", di, it), outs, exact, bound, alloc)

			// Bad indices at positions 250 (the first) and 290: the error
			// names the first, whichever thread meets it first.
			hb := indexTensor(t, alloc, it, i1.Shape(), func(i int) int64 {
				switch i {
				case 250:
					return 40
				case 290:
					return 77
				}
				return int64(i % 40)
			})
			bb := bindings{x: hx, y: hy, i1: hb, i2: hi2}
			for _, o := range []*graph.Node{outs[0], outs[1], outs[2]} {
				bothFail(t, b, o, bb, alloc, "Take: index 40 is out of bounds for axis 0 with size 40")
			}
			// Through a reversed view of the indices: the first bad one in
			// the result's order is the one at 290, read back through the
			// view's negative stride.
			rev := graph.Slice(i1, []graph.Range{{Start: 299, Step: -1, NoStop: true}})
			o := graph.Binary(graph.OpMul, graph.Take(x, rev, 0), two)
			bothFail(t, b, o, bb, alloc, "Take: index 77 is out of bounds for axis 0 with size 40")
			for _, h := range []*exec.Tensor{hx, hy, hi1, hi2, hb} {
				h.Release()
			}
		}
	}
}

// bothFail evaluates o on b and on the reference evaluator and requires
// both to fail with an error containing want.
func bothFail(t *testing.T, b *Backend, o *graph.Node, bound bindings, alloc memory.Allocator, want string) {
	t.Helper()
	for _, be := range []exec.Backend{b, ref.New()} {
		_, err := be.Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{o}, Bound: bound, Alloc: alloc})
		require.ErrorContains(t, err, want, "on %s", be.Name())
	}
}
