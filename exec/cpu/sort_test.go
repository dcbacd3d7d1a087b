// Sort, ArgSort and TopK on the CPU against the reference evaluator:
// every dtype, every axis, short rows (insertion), medium rows (radix
// passes, some skipped), long rows sorted by every worker, strided and
// reversed inputs, keys with NaN, -0, infinities and many ties.

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
	case graph.Float32:
		for i := range exec.Elems[float32](x) {
			exec.Elems[float32](x)[i] = float32(f())
		}
	case graph.Float64:
		for i := range exec.Elems[float64](x) {
			exec.Elems[float64](x)[i] = f()
		}
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

// sameElems reports whether two tensors of one dtype hold the same
// elements (bit for bit; any NaN equals any NaN).
func sameElems(t *testing.T, got, want *exec.Tensor, what string) {
	t.Helper()
	require.Equal(t, want.Shape, got.Shape, what)
	switch want.DType {
	case graph.Float32:
		g, w := exec.Elems[float32](got), exec.Elems[float32](want)
		for i := range w {
			if math.Float32bits(g[i]) != math.Float32bits(w[i]) && !(g[i] != g[i] && w[i] != w[i]) {
				t.Fatalf("%s: element %d got:%v want:%v", what, i, g[i], w[i])
			}
		}
	case graph.Float64:
		g, w := exec.Elems[float64](got), exec.Elems[float64](want)
		for i := range w {
			if math.Float64bits(g[i]) != math.Float64bits(w[i]) && !(g[i] != g[i] && w[i] != w[i]) {
				t.Fatalf("%s: element %d got:%v want:%v", what, i, g[i], w[i])
			}
		}
	default:
		g, w := got.Buf.Bytes(), want.Buf.Bytes()
		es := want.DType.Size()
		for i := range want.Size() {
			if string(g[i*es:(i+1)*es]) != string(w[i*es:(i+1)*es]) {
				t.Fatalf("%s: element %d differs (%v)", what, i, want.DType)
			}
		}
	}
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
			ctx := context.Background()
			be := cpu.New(cpu.Options{Workers: c.workers})
			// All outputs in one request (one kernel storing values and
			// indices), then each alone (values alone move the keys'
			// elements, not indices).
			reqs := [][]*graph.Node{outs}
			for _, o := range outs {
				reqs = append(reqs, []*graph.Node{o})
			}
			for ri, req := range reqs {
				want, err := ref.New().Eval(ctx, &exec.Request{Outputs: req, Bound: bound, Alloc: alloc})
				require.NoError(t, err)
				got, err := be.Eval(ctx, &exec.Request{Outputs: req, Bound: bound, Alloc: alloc})
				require.NoError(t, err)
				for i := range want {
					sameElems(t, got[i], want[i], fmt.Sprintf("request %d output %d of %v %v axis %d k %d", ri, i, d, c.shape, c.axis, c.k))
				}
				release(want)
				release(got)
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
