// Scans and sorts on the emulated device. Scans: each op and dtype over
// the lane strategy (rows and columns) and the decoupled look-back (long
// rows over many tiles, whose blocks the PTX simulator runs in parallel,
// so a block looks back over tiles still in flight), fused prologues and
// epilogues. Sorts: Sort, ArgSort and TopK of every dtype along the last
// and the first axis, with ties, NaN and infinities, through the radix
// sort's launches (scratch from the pool, the passes in order), and
// random graphs with sorts (randgraph Config.Sort) on both emulated
// devices. Each is checked against the reference and the CPU backend.

package cuda

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

func TestEmulatedScans(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	expectCompiled(t, "scan scan-lane", "scan scan-warp", "scan scan-lookback")
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
					bindings{x: hx}, alloc)
			}
			if d.IsFloat() {
				// exp(x/8) before, *2 after: one kernel.
				y := graph.Binary(graph.OpMul, graph.Scan(graph.OpCumSum, graph.Unary(graph.OpExp,
					graph.Binary(graph.OpMul, x, graph.FloatConst(d, 0.125))), sh.axis), graph.FloatConst(d, 2))
				compareWithCPU(t, b, fmt.Sprintf("fused CumSum %v along %d of %v", d, sh.axis, sh.shape), []*graph.Node{y}, []bool{false},
					bindings{x: hx}, alloc)
			}
			hx.Release()
		}
	}
}

func TestEmulatedSorts(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	expectCompiled(t, "sort radix-sort")
	shapes := []struct {
		shape graph.Shape
		axis  int
		k     int // TopK's count, -1 for Sort and ArgSort
	}{
		{graph.Shape{7, 45}, 1, -1},    // rows along the last axis
		{graph.Shape{20, 3, 2}, 0, -1}, // the sorted axis first: strided keys
		{graph.Shape{5, 1}, 1, -1},     // rows of 1
		{graph.Shape{4, 60}, 1, 6},     // TopK
		{graph.Shape{3, 3000}, 1, 20},  // TopK over two blocks of ranges
	}
	r := rand.New(rand.NewPCG(7, 9))
	for si, sh := range shapes {
		for di, d := range graph.DTypes() {
			x, hx := specialInput(t, alloc, d, sh.shape, r, []int{0, 8}[(si+di)%2])
			var outs []*graph.Node
			if sh.k >= 0 {
				v, i := graph.TopK(x, sh.axis, sh.k)
				outs = []*graph.Node{v, i}
			} else {
				outs = []*graph.Node{graph.Sort(x, sh.axis), graph.ArgSort(x, sh.axis)}
			}
			for _, o := range outs {
				require.NoError(t, graph.Verify(o))
			}
			compareWithCPU(t, b, fmt.Sprintf("sort %v along %d of %v keeping %d", d, sh.axis, sh.shape, sh.k), outs, []bool{true, true},
				bindings{x: hx}, alloc)
			if f := emu.takeFaults(); len(f) > 0 {
				t.Errorf("sort %v of %v: kernel faults: %v", d, sh.shape, f)
			}
			hx.Release()
		}
	}
}

// TestEmulatedDifferentialSorts evaluates random graphs with Sort,
// ArgSort and TopK (randgraph Config.Sort) on the emulated devices
// against the reference and the CPU backend.
func TestEmulatedDifferentialSorts(t *testing.T) {
	devs := []*Backend{emuBackend(t, emuSmall, Options{}), emuBackend(t, emuH100, Options{})}
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	expectCompiled(t, "sort radix-sort")
	for seed := range uint64(40) {
		c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, 0x5047)), alloc, randgraph.Config{Sort: true})
		require.NoError(t, err)
		compareWithCPU(t, devs[seed%2], fmt.Sprintf("seed %d", seed), c.Outputs, c.Exact, c.Bound, alloc)
		if f := emu.takeFaults(); len(f) > 0 {
			t.Errorf("seed %d: kernel faults: %v\n%s", seed, f, strings.Join(c.Desc, "\n"))
		}
		c.Release()
	}
}
