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
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// evalBoth evaluates outs on the CPU executor and on the reference and
// requires them to agree (floats within the error bounds of
// randgraph.CPU).
func evalBoth(t *testing.T, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator) {
	t.Helper()
	req := &exec.Request{Outputs: outs, Bound: bound, Alloc: alloc}
	got, err := cpu.New(cpu.Options{}).Eval(context.Background(), req)
	require.NoError(t, err)
	want, bounds, err := randgraph.Reference(context.Background(), outs, bound, alloc, randgraph.CPU)
	require.NoError(t, err)
	for i := range outs {
		require.NoError(t, randgraph.Check(got[i], want[i], bounds[i]), "output %d", i)
	}
	release(got)
	release(want)
	release(bounds)
}

func tensor64(t *testing.T, alloc memory.Allocator, v []float64, s graph.Shape) *exec.Tensor {
	t.Helper()
	x, err := exec.NewTensor(alloc, graph.Float64, s)
	require.NoError(t, err)
	copy(exec.Elems[float64](x), v)
	return x
}

// A product requested both raw and through its epilogue keeps the two
// apart: the accumulator must not share a buffer with the epilogue value.
func TestMatMulRawAndEpilogueOutputs(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	a := graph.Input(graph.Float64, graph.Shape{3, 2}, "a")
	b := graph.Input(graph.Float64, graph.Shape{2, 4}, "b")
	at := tensor64(t, alloc, []float64{1, -2, 3, 4, -5, 6}, graph.Shape{3, 2})
	bt := tensor64(t, alloc, []float64{1, 2, -3, 4, -5, 6, 7, -8}, graph.Shape{2, 4})
	defer at.Release()
	defer bt.Release()
	p := graph.MatMul(a, b)
	relu := graph.Binary(graph.OpMax, p, graph.FloatConst(graph.Float64, 0))
	bias := graph.BinaryWeak(graph.OpAdd, p, graph.Weak{Kind: graph.KindFloat, Float: 0.5}, false)
	bound := map[*graph.Node]*exec.Tensor{a: at, b: bt}
	for _, outs := range [][]*graph.Node{{p, relu}, {relu, p}, {relu, bias}, {p, relu, bias}} {
		evalBoth(t, outs, bound, alloc)
	}
}

// 0*NaN and 0*Inf are NaN: a product with a zero against a non-finite
// value must not lose it (BLAS kernels skip zero multiplicands).
func TestMatMulNaNPropagates(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	a := graph.Input(graph.Float64, graph.Shape{2, 2}, "a")
	b := graph.Input(graph.Float64, graph.Shape{2, 2}, "b")
	at := tensor64(t, alloc, []float64{0, 1, 2, 0}, graph.Shape{2, 2})
	bt := tensor64(t, alloc, []float64{math.NaN(), 1, 3, math.Inf(1)}, graph.Shape{2, 2})
	defer at.Release()
	defer bt.Release()
	bound := map[*graph.Node]*exec.Tensor{a: at, b: bt}
	for _, p := range []*graph.Node{graph.MatMul(a, b), graph.MatMul(graph.Cast(a, graph.Float32), graph.Cast(b, graph.Float32))} {
		res, err := cpu.New(cpu.Options{}).Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{p}, Bound: bound, Alloc: alloc})
		require.NoError(t, err)
		var got []float64
		if p.DType() == graph.Float32 {
			for _, v := range exec.Elems[float32](res[0])[:4] {
				got = append(got, float64(v))
			}
		} else {
			got = append(got, exec.Elems[float64](res[0])[:4]...)
		}
		res[0].Release()
		// Row 0 = 0*[NaN 1] + 1*[3 Inf]; row 1 = 2*[NaN 1] + 0*[3 Inf].
		require.True(t, math.IsNaN(got[0]), "c00 got:%v want:NaN", got[0])
		require.True(t, math.IsInf(got[1], 1), "c01 got:%v want:+Inf", got[1])
		require.True(t, math.IsNaN(got[2]), "c10 got:%v want:NaN", got[2])
		require.True(t, math.IsNaN(got[3]), "c11 got:%v want:NaN", got[3])
		evalBoth(t, []*graph.Node{p}, bound, alloc)
	}
}

// An epilogue runs in place over the product it reads: Exp and Sigmoid,
// whose loops treat out-of-range inputs apart, must not read a result
// where they expect their input. The products here span the float32
// exponential's range many times over and one row is NaN, so that every
// chunk takes the out-of-range path of the vector and the scalar loops.
func TestMatMulEpilogueInPlace(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	const m, n, k = 48, 40, 64
	r := rand.New(rand.NewPCG(5, 6))
	qt, err := exec.NewTensor(alloc, graph.Float32, graph.Shape{m, k})
	require.NoError(t, err)
	defer qt.Release()
	kt, err := exec.NewTensor(alloc, graph.Float32, graph.Shape{n, k})
	require.NoError(t, err)
	defer kt.Release()
	for i := range exec.Elems[float32](qt) {
		exec.Elems[float32](qt)[i] = float32(4 * r.NormFloat64())
	}
	for i := range exec.Elems[float32](kt) {
		exec.Elems[float32](kt)[i] = float32(r.NormFloat64())
	}
	exec.Elems[float32](qt)[5*k] = float32(math.NaN())
	q := graph.Input(graph.Float32, graph.Shape{m, k}, "q")
	kn := graph.Input(graph.Float32, graph.Shape{n, k}, "k")
	bound := map[*graph.Node]*exec.Tensor{q: qt, kn: kt}
	p := graph.MatMul(q, graph.Permute(kn, []int{1, 0}))
	was := cpu.SetVector(true)
	defer cpu.SetVector(was)
	for _, vec := range []bool{true, false} {
		cpu.SetVector(vec)
		// The product alone, from the same kernels (the portable ones
		// round differently from the assembly ones).
		raw, err := cpu.New(cpu.Options{}).Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{p}, Bound: bound, Alloc: alloc})
		require.NoError(t, err)
		prod := exec.Elems[float32](raw[0])
		for _, op := range []graph.Op{graph.OpExp, graph.OpSigmoid} {
			// The product alone is the output: its buffer is the
			// accumulator and the epilogue's destination.
			req := &exec.Request{Outputs: []*graph.Node{graph.Unary(op, p)}, Bound: bound, Alloc: alloc}
			got, err := cpu.New(cpu.Options{Chunk: 64}).Eval(context.Background(), req)
			require.NoError(t, err)
			bad, first := 0, ""
			for i, y := range exec.Elems[float32](got[0])[:m*n] {
				x := float64(prod[i])
				want := math.Exp(x)
				if op == graph.OpSigmoid {
					want = 1 / (1 + math.Exp(-x))
				}
				w := float32(want)
				if ok := y == w || (y != y && w != w) || math.Abs(float64(y-w)) <= 4e-7*math.Abs(want); !ok {
					if bad == 0 {
						first = fmt.Sprintf("[%d] %v(%v) got:%v want:%v", i, op, x, y, w)
					}
					bad++
				}
			}
			got[0].Release()
			if bad > 0 {
				t.Errorf("vector loops %v: %d of %d wrong, first %s", vec, bad, m*n, first)
			}
		}
		raw[0].Release()
	}
}
