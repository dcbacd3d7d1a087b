// Sort, ArgSort and TopK on the CPU against the reference evaluator:
// every dtype, every axis, short rows (insertion), medium rows (radix
// passes, some skipped), long rows sorted by every worker, strided and
// reversed inputs, keys with NaN, -0, infinities and many ties. Short
// rows of every length around the sorting network's block and vector
// sizes (0, 1, 2, 7, 8, 9, 127, 128, 129, 256, 257), rows whose count is
// not a multiple of the block, and float rows with and without NaN, -0
// and +0 (which the network leaves to the stable merge sort, and whose
// absence lets float sorts move keys without a payload), ascending and
// descending, also through a reversed view; and long float rows without
// them.

package cpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// sortInput returns a tensor of d and s whose values come from a small
// set (so rows have ties), with NaN, -0 and infinities among floats.
func sortInput(t testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape, seed uint64) *exec.Tensor {
	x, err := exec.NewTensor(alloc, d, s)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(seed, 7))
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1e-300, -2.5}
	f := func() float64 {
		if r.IntN(8) == 0 {
			return special[r.IntN(len(special))]
		}
		return float64(r.IntN(2000)-1000) / 8
	}
	switch d {
	case graph.Float32, graph.Float64:
		setFloats(x, f)
	case graph.Int32:
		ext := []int32{math.MinInt32, math.MaxInt32, -1, 0}
		for i := range exec.Elems[int32](x) {
			v := int32(r.IntN(3000) - 1500)
			if r.IntN(10) == 0 {
				v = ext[r.IntN(len(ext))]
			}
			exec.Elems[int32](x)[i] = v
		}
	case graph.Int64:
		ext := []int64{math.MinInt64, math.MaxInt64, -1, 0, 1 << 40}
		for i := range exec.Elems[int64](x) {
			v := int64(r.IntN(3000)-1500) << (r.IntN(3) * 20)
			if r.IntN(10) == 0 {
				v = ext[r.IntN(len(ext))]
			}
			exec.Elems[int64](x)[i] = v
		}
	case graph.Bool:
		for i := range exec.Elems[uint8](x) {
			exec.Elems[uint8](x)[i] = uint8(r.IntN(2))
		}
	}
	return x
}

func TestSortMatchesRef(t *testing.T) {
	type tc struct {
		shape   graph.Shape
		axis    int
		k       int // TopK's k; -1 sorts
		workers int
	}
	cases := []tc{
		{graph.Shape{5, 7, 33}, 0, -1, 2}, {graph.Shape{5, 7, 33}, 1, -1, 2}, {graph.Shape{5, 7, 33}, 2, -1, 3},
		{graph.Shape{40, 300}, -1, -1, 2}, {graph.Shape{300, 40}, 0, 7, 2}, {graph.Shape{3, 1000}, 1, 1000, 2},
		{graph.Shape{4, 1}, 1, -1, 2}, {graph.Shape{2, 5000}, 1, 3, 1},
		{graph.Shape{9, 129}, 1, 16, 2}, {graph.Shape{3, 64}, -1, 1, 2}, {graph.Shape{64, 3}, 0, 8, 1},
		{graph.Shape{1, 70000}, 1, -1, 3}, {graph.Shape{70000}, 0, 100, 2}, {graph.Shape{2, 100000}, 1, 1, 3},
	}
	if testing.Short() || cpu.RaceEnabled {
		cases = cases[:len(cases)-3]
	}
	for _, d := range []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64} {
		for ci, c := range cases {
			alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
			x := graph.Input(d, c.shape, "x")
			xt := sortInput(t, alloc, d, c.shape, uint64(ci))
			var outs []*graph.Node
			if c.k < 0 {
				outs = []*graph.Node{graph.Sort(x, c.axis), graph.ArgSort(x, c.axis)}
				// A reversed view: the operand's stride is negative.
				rev := make([]graph.Range, len(c.shape))
				for i := range rev {
					rev[i] = graph.All
				}
				ax, _ := graph.NormalizeAxis(c.axis, len(c.shape))
				rev[ax] = graph.Range{Step: -1, NoStart: true, NoStop: true}
				outs = append(outs, graph.ArgSort(graph.Slice(x, rev), c.axis))
			} else {
				v, i := graph.TopK(x, c.axis, c.k)
				outs = []*graph.Node{v, i}
			}
			bound := map[*graph.Node]*exec.Tensor{x: xt}
			be := cpu.New(cpu.Options{Workers: c.workers})
			// All outputs in one request (one kernel storing values and
			// indices), then each alone (values alone move the keys'
			// elements, not indices).
			reqs := [][]*graph.Node{outs}
			for _, o := range outs {
				reqs = append(reqs, []*graph.Node{o})
			}
			for ri, req := range reqs {
				sameAsRef(t, be, req, bound, alloc, fmt.Sprintf("request %d of %v %v axis %d k %d", ri, d, c.shape, c.axis, c.k))
			}
			xt.Release()
			alloc.AssertSize(t, 0)
		}
	}
}

// TestDifferentialSort runs 300 random graphs (100 with -short) with
// sorts among their ops (randgraph.Config.Sort), in chunks of 7 points.
func TestDifferentialSort(t *testing.T) {
	runDifferential(t, 300, 100, 7, 40000, randgraph.Config{Sort: true, MaxExtent: 9})
}

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
			sameAsRef(t, be, []*graph.Node{o}, bound, alloc, fmt.Sprintf("%v rows of %d (specials %v), output %d, %d workers", d, n, specials, oi, workers))
		}
	}
	xt.Release()
	alloc.AssertSize(t, 0)
}
