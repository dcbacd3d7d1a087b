// Reductions of empty selections on the emulated device: the same bits as
// the reference evaluator (a float Sum of nothing is +0, not the -0 a
// fold starts from).

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

func TestEmulatedEmptyReductions(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	ctx := context.Background()
	for _, d := range graph.DTypes() {
		for _, c := range []struct {
			shape graph.Shape
			axes  []int
		}{{graph.Shape{0}, nil}, {graph.Shape{0, 3}, nil}, {graph.Shape{0, 3}, []int{0}}, {graph.Shape{3, 0}, []int{1}}, {graph.Shape{2, 0, 3}, []int{1}}} {
			x := graph.Input(d, c.shape, "x")
			hx, err := exec.NewTensor(alloc, d, c.shape)
			require.NoError(t, err)
			bound := map[*graph.Node]*exec.Tensor{x: hx}
			for _, op := range []graph.Op{graph.OpSum, graph.OpProd, graph.OpAny, graph.OpAll} {
				for _, keep := range []bool{false, true} {
					y := graph.Reduce(op, x, c.axes, keep)
					what := fmt.Sprintf("%v %v over %v of %v keep %v", op, d, c.axes, c.shape, keep)
					req := &exec.Request{Outputs: []*graph.Node{y}, Bound: bound, Alloc: alloc}
					want, err := ref.New().Eval(ctx, req)
					require.NoError(t, err, what)
					got, err := b.Eval(ctx, req)
					require.NoError(t, err, what)
					h, err := b.ToHost(ctx, got[0], alloc)
					require.NoError(t, err, what)
					es := y.DType().Size()
					n := y.Size() * es
					require.Equal(t, want[0].Buf.Bytes()[want[0].Offset*es:][:n], h.Buf.Bytes()[h.Offset*es:][:n], what)
					h.Release()
					got[0].Release()
					want[0].Release()
				}
			}
			hx.Release()
		}
	}
}
