// Running sums and products of int32 and bool values, which the executor
// scans narrow into int64 accumulators: along rows and columns of
// transposed, reversed and plain inputs, in slabs and in pieces (small
// chunks), with values that wrap int32 and int64, bit for bit against
// the reference.

package cpu_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

func TestScanNarrow(t *testing.T) {
	rev := func(x *graph.Node) *graph.Node {
		return graph.Slice(x, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
	}
	views := map[string]func(*graph.Node) *graph.Node{
		"c":    func(x *graph.Node) *graph.Node { return x },
		"T":    func(x *graph.Node) *graph.Node { return graph.Permute(x, []int{1, 0}) },
		"rev0": rev,
	}
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 64}), cpu.New(cpu.Options{Chunk: 64, Workers: 3}),
		cpu.New(cpu.Options{Chunk: 7}), cpu.New(cpu.Options{})}
	for _, shape := range []graph.Shape{{1, 1}, {3, 1001}, {257, 5}, {2, 70001}} {
		alloc := checkedAlloc(t)
		xi, ti := newInput(t, alloc, graph.Int32, shape, "x")
		xb, tb := newInput(t, alloc, graph.Bool, shape, "b")
		vi, vb := exec.Elems[int32](ti), exec.Elems[uint8](tb)
		for k := range vi {
			vi[k] = []int32{math.MaxInt32, math.MinInt32, 3, -7, 65537, 0, 1}[k%7]
			vb[k] = []uint8{0, 1, 2, 0xff, 1}[k%5] // any nonzero byte is true
		}
		var outs []*graph.Node
		for _, name := range []string{"c", "T", "rev0"} {
			v := views[name]
			for _, axis := range []int{0, 1} {
				for _, op := range []graph.Op{graph.OpCumSum, graph.OpCumProd} {
					outs = append(outs, graph.Scan(op, v(xi), axis), graph.Scan(op, v(xb), axis))
				}
			}
		}
		bound := map[*graph.Node]*exec.Tensor{xi: ti, xb: tb}
		for bi, be := range backends {
			sameAsRef(t, be, outs, bound, alloc, fmt.Sprintf("%v backend %d", shape, bi))
		}
		ti.Release()
		tb.Release()
		alloc.AssertSize(t, 0)
	}
}
