// The memory guard in the reference evaluator: results and float64 lanes
// larger than the allocation limit are *exec.MemoryErrors, and nothing
// allocated before the failure is left behind.

package ref_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

func TestMemoryLimit(t *testing.T) {
	one := graph.FloatConst(graph.Float32, 1)
	huge := graph.BroadcastTo(one, graph.Shape{1 << 40})
	tests := []struct {
		name  string
		limit int64
		n     *graph.Node
		want  string
	}{
		{"default limit", 0, graph.Unary(graph.OpExp, huge),
			"ref: BroadcastTo (1099511627776,) float32: Unable to allocate 4.00 TiB for an array with shape (1099511627776,) and data type float32"},
		{"lanes", 1 << 10, graph.Reduce(graph.OpAny, graph.BroadcastTo(graph.Const(graph.ScalarOf(graph.Bool, 1)), graph.Shape{200}), nil, false),
			"ref: Any () bool: Unable to allocate 1.56 KiB for an array with shape (200,) and data type float64 (larger than the allocation limit of 1.00 KiB)"},
		{"after other work", 1 << 12, graph.Binary(graph.OpAdd,
			graph.Reduce(graph.OpSum, graph.BroadcastTo(one, graph.Shape{100}), nil, false),
			graph.BroadcastTo(one, graph.Shape{1000})),
			"ref: Add (1000,) float32: Unable to allocate 7.81 KiB for an array with shape (1000,) and data type float64"},
		{"rand", 0, graph.Random(graph.OpRandU, graph.Float64, graph.Shape{1 << 50}, 1), "ref: Rand (1125899906842624,) float64: Unable to allocate 8.00 PiB"},
		{"matmul batch", 1 << 16, graph.MatMul(graph.BroadcastTo(one, graph.Shape{64, 1, 2, 2}), graph.BroadcastTo(one, graph.Shape{64, 2, 2})),
			"ref: MatMul (64, 64, 2, 2) float32: Unable to allocate 128 KiB for an array with shape (64, 64, 2, 2) and data type float64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checkedAlloc()
			defer mem.AssertSize(t, 0)
			res, err := evalReq(&exec.Request{Outputs: []*graph.Node{tt.n}, Alloc: exec.LimitAllocator(mem, tt.limit)})
			require.Nil(t, res)
			var me *exec.MemoryError
			require.ErrorAs(t, err, &me)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

// panicky fails every allocation above 64 bytes as allocators without an
// error result do.
type panicky struct{ memory.Allocator }

func (p panicky) Allocate(n int) []byte {
	if n > 64 {
		panic(&exec.MemoryError{Bytes: int64(n)})
	}
	return p.Allocator.Allocate(n)
}

func (p panicky) Reallocate(n int, b []byte) []byte {
	if n > 64 {
		panic(&exec.MemoryError{Bytes: int64(n)})
	}
	return p.Allocator.Reallocate(n, b)
}

func TestAllocatorPanicIsAnError(t *testing.T) {
	mem := checkedAlloc()
	defer mem.AssertSize(t, 0)
	one := graph.FloatConst(graph.Float64, 1)
	n := graph.Binary(graph.OpAdd, graph.BroadcastTo(one, graph.Shape{4}), graph.BroadcastTo(one, graph.Shape{100, 4}))
	_, err := evalReq(&exec.Request{Outputs: []*graph.Node{n}, Alloc: panicky{mem}})
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	require.ErrorContains(t, err, "Unable to allocate")
}

// TestEmptyEnormousExtents evaluates ops on an empty bool array whose other
// extents are valid for bool but too big for float64: the lanes hold no
// elements, so there is nothing to refuse.
func TestEmptyEnormousExtents(t *testing.T) {
	e := graph.BroadcastTo(graph.Const(graph.ScalarOf(graph.Bool, 1)), graph.Shape{0, 1 << 31, 1 << 31})
	for _, n := range []*graph.Node{
		graph.Binary(graph.OpEq, e, e),
		graph.Unary(graph.OpNot, e),
		graph.Reduce(graph.OpAny, e, []int{2}, false),
	} {
		mem := checkedAlloc()
		res, err := evalReq(&exec.Request{Outputs: []*graph.Node{n}, Alloc: mem})
		require.NoError(t, err, "%v %v", n.Op(), n.Shape())
		require.Equal(t, n.Shape(), res[0].Shape, "got:%v want:%v", res[0].Shape, n.Shape())
		require.Equal(t, 0, res[0].Size())
		res[0].Release()
		mem.AssertSize(t, 0)
	}
}
