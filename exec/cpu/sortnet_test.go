// Short rows against the reference evaluator: every row length around
// the network's block and vector sizes (0, 1, 2, 7, 8, 9, 127, 128,
// 129, 256, 257), every dtype, rows whose count is not a multiple of the
// block, and float rows with and without NaN, -0 and +0 (which the
// network leaves to the stable merge sort, and whose absence lets float
// sorts move keys without a payload), sorted, argsorted and TopK'd
// ascending and descending, also through a reversed view; and long
// float rows without them.

package cpu_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

// shortRowsInput returns rows×n float64 values with ties and
// infinities; with specials every third row holds NaN, -0 and +0 among
// them, without them no row does (the keys of such floats give back
// their values, and sorts move no payload).
func shortRowsInput(t *testing.T, alloc memory.Allocator, rows, n int, seed uint64, specials bool) *exec.Tensor {
	x, err := exec.NewTensor(alloc, graph.Float64, graph.Shape{rows, n})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(seed, 11))
	v := exec.Elems[float64](x)
	special := []float64{math.Inf(1), math.Inf(-1), 5e-324, math.NaN(), math.Copysign(0, -1), 0}
	if !specials {
		special = special[:3]
	}
	for i := range v {
		v[i] = float64(r.IntN(41)-20) + 0.5
		if i/max(1, n)%3 == 0 && r.IntN(6) == 0 {
			v[i] = special[r.IntN(len(special))]
		}
	}
	return x
}

func TestSortShortRowsMatchRef(t *testing.T) {
	lengths := []int{0, 1, 2, 7, 8, 9, 127, 128, 129, 256, 257}
	dtypes := graph.DTypes()
	if testing.Short() || cpu.RaceEnabled {
		dtypes = []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64, graph.Uint8, graph.Float16}
	}
	for _, d := range dtypes {
		for _, n := range lengths {
			// 37 rows: two blocks of 16 lanes (four of 8) and 5 rows more.
			sortRowsMatchRef(t, d, 37, n, true)
			if d.IsFloat() {
				sortRowsMatchRef(t, d, 37, n, false)
			}
		}
	}
	// Long rows of floats without zeros and NaN: radix passes without
	// a payload, on one worker and on every worker.
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		sortRowsMatchRef(t, d, 3, 3000, false)
		if !testing.Short() && !cpu.RaceEnabled {
			sortRowsMatchRef(t, d, 1, 70000, false)
		}
	}
}

// sortRowsMatchRef sorts, argsorts and TopKs rows×n elements of d
// (shortRowsInput cast to d), also through a reversed view, on 1 and 3
// workers (3 alone under the race detector), and compares each output
// alone with the reference.
func sortRowsMatchRef(t *testing.T, d graph.DType, rows, n int, specials bool) {
	t.Helper()
	ctx := context.Background()
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	x := graph.Input(graph.Float64, graph.Shape{rows, n}, "x")
	xt := shortRowsInput(t, alloc, rows, n, uint64(n), specials)
	xd := graph.Cast(x, d)
	rev := graph.Slice(xd, []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}})
	outs := []*graph.Node{graph.Sort(xd, 1), graph.ArgSort(xd, 1), graph.Sort(rev, 1)}
	for _, k := range []int{min(n, 1), min(n, 5), n} {
		v, i := graph.TopK(xd, 1, k)
		outs = append(outs, v, i)
	}
	bound := map[*graph.Node]*exec.Tensor{x: xt}
	workerCounts := []int{1, 3}
	if cpu.RaceEnabled {
		workerCounts = workerCounts[1:]
	}
	for _, workers := range workerCounts {
		be := cpu.New(cpu.Options{Workers: workers})
		for oi, o := range outs {
			req := []*graph.Node{o}
			want, err := ref.New().Eval(ctx, &exec.Request{Outputs: req, Bound: bound, Alloc: alloc})
			require.NoError(t, err)
			got, err := be.Eval(ctx, &exec.Request{Outputs: req, Bound: bound, Alloc: alloc})
			require.NoError(t, err)
			sameElems(t, got[0], want[0], fmt.Sprintf("%v rows of %d (specials %v), output %d, %d workers", d, n, specials, oi, workers))
			release(want)
			release(got)
		}
	}
	xt.Release()
	alloc.AssertSize(t, 0)
}
