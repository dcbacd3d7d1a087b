// Index kernels on the emulated device: gathers, scatters and a mask
// (Nonzero, then Take) of every dtype against the reference and the CPU
// backend, on a small and a large device, and an index out of range read
// back from the kernel's error word as the error every backend gives.
// Gathers fused into Map and Reduce kernels: epilogues, reductions of
// gathered values, broadcasting, negative indices and every index dtype,
// and the first bad index read back from a kernel's error words as the
// error the reference gives.

package cuda

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// indexTensor is a host tensor of d and s filled with f(i).
func indexTensor(t *testing.T, alloc memory.Allocator, d graph.DType, s graph.Shape, f func(i int) int64) *exec.Tensor {
	x, err := exec.NewTensor(alloc, d, s)
	require.NoError(t, err)
	for i := range s.Size() {
		v := f(i)
		switch d {
		case graph.Bool:
			exec.Elems[uint8](x)[i] = uint8(v & 1)
		case graph.Int32:
			exec.Elems[int32](x)[i] = int32(v)
		case graph.Int64:
			exec.Elems[int64](x)[i] = v
		case graph.Float32:
			exec.Elems[float32](x)[i] = float32(v) * 0.5
		case graph.Float64:
			exec.Elems[float64](x)[i] = float64(v) * 0.25
		default: // the other dtypes: v as AsType converts it
			exec.PutScalar(x, i, graph.ScalarInt(graph.Int64, v))
		}
	}
	return x
}

func TestEmulatedIndex(t *testing.T) {
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	for _, dev := range []emuDevice{emuSmall, emuH100} {
		b := emuBackend(t, dev, Options{})
		for _, d := range graph.DTypes() {
			x := graph.Input(d, graph.Shape{40, 9}, "x")
			i1 := graph.Input(graph.Int64, graph.Shape{300}, "i")
			i2 := graph.Input(graph.Int32, graph.Shape{40, 5}, "j")
			u := graph.Input(d, graph.Shape{40, 300}, "u")
			hx := indexTensor(t, alloc, d, x.Shape(), func(i int) int64 { return int64(i*7%31) - 15 })
			hi1 := indexTensor(t, alloc, graph.Int64, i1.Shape(), func(i int) int64 { return int64(i*13%18) - 9 })
			hi2 := indexTensor(t, alloc, graph.Int32, i2.Shape(), func(i int) int64 { return int64(i*5%18) - 9 })
			hu := indexTensor(t, alloc, d, u.Shape(), func(i int) int64 { return int64(i*3%29) - 14 })
			outs := []*graph.Node{
				graph.Take(x, i1, 1), graph.TakeAlong(x, i2, 1),
				graph.Scatter(graph.OpScatter, x, i1, u, 1), graph.Scatter(graph.OpScatterMax, x, i1, u, 1),
			}
			if d != graph.Bool {
				outs = append(outs, graph.Scatter(graph.OpScatterAdd, x, i1, u, 1))
			}
			// A mask: the flat indices of the true elements, then a gather.
			cond := graph.Binary(graph.OpGt, graph.Cast(x, graph.Int64), graph.Const(graph.ScalarOf(graph.Int64, 0)))
			cnt, err := ref.New().Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{graph.Reduce(graph.OpSum, graph.Cast(cond, graph.Int64), nil, false)},
				Bound: bindings{x: hx}, Alloc: alloc})
			require.NoError(t, err)
			count := int(exec.Elems[int64](cnt[0])[cnt[0].Offset])
			cnt[0].Release()
			flat := graph.Reshape(x, graph.Shape{x.Size()})
			fcond := graph.Reshape(cond, graph.Shape{x.Size()})
			outs = append(outs, graph.Take(flat, graph.Nonzero(fcond, count), 0), graph.Compress(flat, fcond, count))
			// Rows by a 1-d condition.
			rcond := graph.Binary(graph.OpGt, graph.Reduce(graph.OpSum, graph.Cast(x, graph.Int64), []int{1}, false), graph.Const(graph.ScalarOf(graph.Int64, 0)))
			rc, err := ref.New().Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{graph.Reduce(graph.OpSum, graph.Cast(rcond, graph.Int64), nil, false)},
				Bound: bindings{x: hx}, Alloc: alloc})
			require.NoError(t, err)
			rows := int(exec.Elems[int64](rc[0])[rc[0].Offset])
			rc[0].Release()
			outs = append(outs, graph.Compress(x, rcond, rows))
			exact := make([]bool, len(outs))
			for k := range exact {
				exact[k] = true
			}
			bound := bindings{x: hx, i1: hi1, i2: hi2, u: hu}
			compareWithCPU(t, b, fmt.Sprintf("device %d %v", dev, d), outs, exact, bound, alloc)

			// One index out of range: the error names it.
			bad := graph.Input(graph.Int64, graph.Shape{300}, "bad")
			hb := indexTensor(t, alloc, graph.Int64, bad.Shape(), func(i int) int64 {
				if i == 250 {
					return -10
				}
				return int64(i % 9)
			})
			for _, o := range []*graph.Node{graph.Take(x, bad, 1), graph.Scatter(graph.OpScatter, x, bad, u, 1)} {
				_, err := b.Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{o}, Bound: bindings{x: hx, bad: hb, u: hu}, Alloc: alloc})
				require.Error(t, err)
				op := o.Op()
				if op == graph.OpCast { // a narrow dtype's scatter, in its lane
					op = o.Input(0).Op()
				}
				require.Contains(t, err.Error(), fmt.Sprintf("%v: index -10 is out of bounds for axis 1 with size 9", op))
			}
			for _, h := range []*exec.Tensor{hx, hi1, hi2, hu, hb} {
				h.Release()
			}
		}
	}
}

// TestEmulatedDifferentialIndexing evaluates random graphs with the
// indexing ops (randgraph Config.Indexing) on the emulated devices
// against the reference and the CPU backend.
func TestEmulatedDifferentialIndexing(t *testing.T) {
	devs := []*Backend{emuBackend(t, emuSmall, Options{}), emuBackend(t, emuH100, Options{})}
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	for seed := range uint64(60) {
		c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, 0x1dec5)), alloc, randgraph.Config{Indexing: true})
		require.NoError(t, err)
		b := devs[seed%2]
		compareWithCPU(t, b, fmt.Sprintf("seed %d", seed), c.Outputs, c.Exact, c.Bound, alloc)
		if f := emu.takeFaults(); len(f) > 0 {
			t.Errorf("seed %d: kernel faults: %v\n%s", seed, f, strings.Join(c.Desc, "\n"))
		}
		c.Release()
	}
}

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
