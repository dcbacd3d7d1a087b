// Scans on the emulated device: each op and dtype over the lane strategy
// (rows and columns) and the decoupled look-back (long rows over many
// tiles, whose blocks the PTX simulator runs in parallel, so a block
// looks back over tiles still in flight), fused prologues and epilogues,
// checked against the reference and the CPU backend.

package cuda

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

func TestEmulatedScans(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	before := emu.compiled()
	shapes := []struct {
		shape graph.Shape
		axis  int
	}{
		{graph.Shape{37, 13}, 1},   // lanes along rows
		{graph.Shape{20, 300}, 1},  // a warp per row
		{graph.Shape{30, 4, 5}, 0}, // lanes down columns
		{graph.Shape{3, 9000}, 1},  // look-back over 3 x 5 tiles
	}
	ops := []graph.Op{graph.OpCumSum, graph.OpCumProd, graph.OpCumMax, graph.OpCumMin}
	r := rand.New(rand.NewPCG(7, 7))
	for si, sh := range shapes {
		for di, d := range graph.DTypes() {
			x, hx := specialInput(t, alloc, d, sh.shape, r, []int{0, 300}[(si+di)%2])
			for _, op := range ops {
				y := graph.Scan(op, x, sh.axis)
				require.NoError(t, graph.Verify(y))
				exact := !y.DType().IsFloat() || op == graph.OpCumMax || op == graph.OpCumMin
				compareWithCPU(t, b, fmt.Sprintf("%v %v along %d of %v", op, d, sh.axis, sh.shape), []*graph.Node{y}, []bool{exact},
					map[*graph.Node]*exec.Tensor{x: hx}, alloc)
			}
			if d.IsFloat() {
				// exp(x/8) before, *2 after: one kernel.
				y := graph.Binary(graph.OpMul, graph.Scan(graph.OpCumSum, graph.Unary(graph.OpExp,
					graph.Binary(graph.OpMul, x, graph.FloatConst(d, 0.125))), sh.axis), graph.FloatConst(d, 2))
				compareWithCPU(t, b, fmt.Sprintf("fused CumSum %v along %d of %v", d, sh.axis, sh.shape), []*graph.Node{y}, []bool{false},
					map[*graph.Node]*exec.Tensor{x: hx}, alloc)
			}
			hx.Release()
		}
	}
	requireCompiled(t, before, "scan scan-lane", "scan scan-warp", "scan scan-lookback")
}
