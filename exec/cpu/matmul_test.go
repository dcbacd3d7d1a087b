// Tests of the float MatMul on internal/gemm against the reference:
// shapes at the edges of the micro-tiles and cache blocks, transposed,
// strided, reversed and broadcast operands, batches, empty extents, NaN
// and infinities, with fused epilogues run per tile, each with the
// assembly and the portable kernels and with one and several workers;
// a product requested raw and through its epilogue at once, NaN met by a
// zero, and epilogues run in place over the product they read.

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
)

// mmInput is a bound input of a product test: normal values from a fixed
// seed, with specials written at given flat indices.
type mmInput struct {
	shape    graph.Shape
	seed     uint64
	specials map[int]float64
}

// bind creates the input node and its tensor in dtype d.
func (in mmInput) bind(t *testing.T, alloc memory.Allocator, d graph.DType) (*graph.Node, *exec.Tensor) {
	t.Helper()
	r := rand.New(rand.NewPCG(in.seed, 7))
	v := make([]float64, in.shape.Size())
	for i := range v {
		v[i] = r.NormFloat64()
		if s, ok := in.specials[i]; ok {
			v[i] = s
		}
	}
	return graph.Input(d, in.shape, fmt.Sprintf("x%d", in.seed)), floatTensor(t, alloc, d, in.shape, v)
}

// mmCase is a product test: inputs and the outputs built from them.
type mmCase struct {
	name  string
	ins   []mmInput
	build func(x []*graph.Node) []*graph.Node
}

// runMMCases evaluates every case in float32 and float64, with the vector
// loops and assembly kernels and with the portable ones, on one worker and
// on four with a small chunk (several tiles and epilogue spans per
// worker), against the reference.
func runMMCases(t *testing.T, cases []mmCase) {
	alloc := checkedAlloc(t)
	was := cpu.SetVector(true)
	defer cpu.SetVector(was)
	backends := []*cpu.Backend{cpu.New(cpu.Options{Workers: 1}), cpu.New(cpu.Options{Workers: 4, Chunk: 64})}
	for _, c := range cases {
		for _, d := range []graph.DType{graph.Float32, graph.Float64} {
			bound := map[*graph.Node]*exec.Tensor{}
			var xs []*graph.Node
			for _, in := range c.ins {
				x, xt := in.bind(t, alloc, d)
				defer xt.Release()
				bound[x] = xt
				xs = append(xs, x)
			}
			outs := c.build(xs)
			for _, vec := range []bool{true, false} {
				cpu.SetVector(vec)
				checkWithinRef(t, fmt.Sprintf("%s %v vector %v", c.name, d, vec), backends, outs, bound, alloc)
			}
		}
	}
}

// mm2 is a case multiplying an m×k and a k×n input, the product alone and
// through an epilogue with a row-broadcast bias and a ReLU.
func mm2(m, n, k int) mmCase {
	return mmCase{
		name: fmt.Sprintf("%dx%dx%d", m, n, k),
		ins:  []mmInput{{shape: graph.Shape{m, k}, seed: 1}, {shape: graph.Shape{k, n}, seed: 2}, {shape: graph.Shape{n}, seed: 3}},
		build: func(x []*graph.Node) []*graph.Node {
			p := graph.MatMul(x[0], x[1])
			return []*graph.Node{p, relu(graph.Binary(graph.OpAdd, p, x[2]))}
		},
	}
}

func relu(x *graph.Node) *graph.Node {
	return graph.Binary(graph.OpMax, x, graph.FloatConst(x.DType(), 0))
}

// Extents around the micro-tile sizes (MR 6 or 12, NR 8 to 32) and the
// width of epilogue tiles: each of 1, 7, 17, 63, 65 and 257 in each role.
func TestMatMulTileEdges(t *testing.T) {
	var cases []mmCase
	for _, s := range [][3]int{
		{1, 1, 1}, {1, 257, 7}, {7, 17, 63}, {17, 63, 65}, {63, 65, 257},
		{65, 7, 1}, {257, 1, 17}, {65, 257, 63}, {257, 65, 17}, {17, 1, 257},
	} {
		cases = append(cases, mm2(s[0], s[1], s[2]))
	}
	runMMCases(t, cases)
}

// Operands that are views: transposes, stepped and reversed slices, a
// single strided row, broadcast rows, batches with a broadcast operand,
// reversed batches and two batch axes.
func TestMatMulViews(t *testing.T) {
	all := graph.All
	step := func(s int) graph.Range { return graph.Range{Step: s, NoStart: true, NoStop: true} }
	tr := func(x *graph.Node) *graph.Node {
		r := len(x.Shape())
		perm := make([]int, r)
		for i := range perm {
			perm[i] = i
		}
		perm[r-2], perm[r-1] = r-1, r-2
		return graph.Permute(x, perm)
	}
	mm := func(f func(x []*graph.Node) (a, b *graph.Node)) func(x []*graph.Node) []*graph.Node {
		return func(x []*graph.Node) []*graph.Node {
			p := graph.MatMul(f(x))
			return []*graph.Node{p, graph.Unary(graph.OpTanh, p)}
		}
	}
	in := func(seed uint64, s ...int) mmInput { return mmInput{shape: s, seed: seed} }
	runMMCases(t, []mmCase{
		{"AT·B", []mmInput{in(1, 33, 20), in(2, 33, 19)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) { return tr(x[0]), x[1] })},
		{"A·BT", []mmInput{in(1, 20, 33), in(2, 19, 33)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) { return x[0], tr(x[1]) })},
		{"AT·BT", []mmInput{in(1, 65, 13), in(2, 29, 65)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) { return tr(x[0]), tr(x[1]) })},
		{"A[::2]·B[:,::3]", []mmInput{in(1, 40, 17), in(2, 17, 60)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) {
				return graph.Slice(x[0], []graph.Range{step(2), all}), graph.Slice(x[1], []graph.Range{all, step(3)})
			})},
		{"A[::-1,::-2]·B[::-1]", []mmInput{in(1, 21, 34), in(2, 17, 18)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) {
				return graph.Slice(x[0], []graph.Range{step(-1), step(-2)}), graph.Slice(x[1], []graph.Range{step(-1), all})
			})},
		{"A[::2]T·B", []mmInput{in(1, 40, 9), in(2, 20, 11)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) {
				return tr(graph.Slice(x[0], []graph.Range{step(2), all})), x[1]
			})},
		{"row[::3]·B", []mmInput{in(1, 1, 60), in(2, 20, 30)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) {
				return graph.Slice(x[0], []graph.Range{all, step(3)}), x[1]
			})},
		{"bcast-rows·B", []mmInput{in(1, 1, 23), in(2, 23, 31)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) {
				return graph.BroadcastTo(x[0], graph.Shape{19, 23}), x[1]
			})},
		{"batch·B", []mmInput{in(1, 5, 13, 24), in(2, 24, 40)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) { return x[0], x[1] })},
		{"A·batchT", []mmInput{in(1, 13, 24), in(2, 3, 40, 24)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) { return x[0], tr(x[1]) })},
		{"batch[::-1]·batch", []mmInput{in(1, 4, 7, 9), in(2, 4, 9, 6)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) {
				return graph.Slice(x[0], []graph.Range{step(-1)}), x[1]
			})},
		{"2x3 batch·3 batch", []mmInput{in(1, 2, 1, 17, 8), in(2, 3, 8, 66)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) { return x[0], x[1] })},
		{"64 small", []mmInput{in(1, 64, 8, 8), in(2, 64, 8, 8)},
			mm(func(x []*graph.Node) (*graph.Node, *graph.Node) { return x[0], x[1] })},
	})
}

// Empty extents: no rows, no columns, an empty batch, and k == 0 (a zero
// product, its epilogue still applied).
func TestMatMulEmpty(t *testing.T) {
	in := func(seed uint64, s ...int) mmInput { return mmInput{shape: s, seed: seed} }
	var cases []mmCase
	for _, s := range []struct {
		name string
		a, b mmInput
	}{
		{"m0", in(1, 0, 5), in(2, 5, 7)},
		{"n0", in(1, 6, 5), in(2, 5, 0)},
		{"k0", in(1, 6, 0), in(2, 0, 7)},
		{"batch0", in(1, 0, 6, 5), in(2, 5, 7)},
		{"batch k0", in(1, 3, 6, 0), in(2, 3, 0, 7)},
	} {
		cases = append(cases, mmCase{s.name, []mmInput{s.a, s.b}, func(x []*graph.Node) []*graph.Node {
			p := graph.MatMul(x[0], x[1])
			return []*graph.Node{p, graph.Binary(graph.OpAdd, p, graph.FloatConst(p.DType(), 1.5))}
		}})
	}
	runMMCases(t, cases)
}

// NaN and infinities propagate as in the definition: 0·Inf and 0·NaN are
// NaN, Inf-Inf is NaN, in products large enough to run the micro-kernels
// and their edge tiles.
func TestMatMulNonFinite(t *testing.T) {
	const m, n, k = 29, 37, 70
	a := mmInput{shape: graph.Shape{m, k}, seed: 1, specials: map[int]float64{
		3*k + 5: math.NaN(), 10*k + 6: 0, 10*k + 7: math.Inf(1), 28*k + 69: math.Inf(-1),
	}}
	b := mmInput{shape: graph.Shape{k, n}, seed: 2, specials: map[int]float64{
		6*n + 4: math.Inf(1), 7*n + 4: math.Inf(1), 69*n + 36: math.NaN(), 0: math.Inf(-1),
	}}
	runMMCases(t, []mmCase{{"nonfinite", []mmInput{a, b}, func(x []*graph.Node) []*graph.Node {
		p := graph.MatMul(x[0], x[1])
		return []*graph.Node{p, relu(p)}
	}}})

	// The definition element by element, in float64: which results are
	// NaN or infinite.
	alloc := checkedAlloc(t)
	xa, ta := a.bind(t, alloc, graph.Float64)
	xb, tb := b.bind(t, alloc, graph.Float64)
	defer ta.Release()
	defer tb.Release()
	av, bv := exec.Elems[float64](ta), exec.Elems[float64](tb)
	res := evalOn(t, cpu.New(cpu.Options{}), []*graph.Node{graph.MatMul(xa, xb)}, map[*graph.Node]*exec.Tensor{xa: ta, xb: tb}, alloc)
	defer release(res)
	got := exec.Elems[float64](res[0])
	special := 0
	for i := range m {
		for j := range n {
			var s float64
			for q := range k {
				s += av[i*k+q] * bv[q*n+j]
			}
			g := got[i*n+j]
			if math.IsNaN(s) || math.IsInf(s, 0) {
				special++
				if math.IsNaN(s) != math.IsNaN(g) || math.IsInf(s, 1) != math.IsInf(g, 1) || math.IsInf(s, -1) != math.IsInf(g, -1) {
					t.Errorf("c[%d,%d] got:%v want:%v", i, j, g, s)
				}
			}
		}
	}
	require.Greater(t, special, m+n, "the case must produce NaN and infinities")
}

// A product requested both raw and through its epilogue keeps the two
// apart: the accumulator must not share a buffer with the epilogue value.
func TestMatMulRawAndEpilogueOutputs(t *testing.T) {
	alloc := checkedAlloc(t)
	a := graph.Input(graph.Float64, graph.Shape{3, 2}, "a")
	b := graph.Input(graph.Float64, graph.Shape{2, 4}, "b")
	at := floatTensor(t, alloc, graph.Float64, graph.Shape{3, 2}, []float64{1, -2, 3, 4, -5, 6})
	bt := floatTensor(t, alloc, graph.Float64, graph.Shape{2, 4}, []float64{1, 2, -3, 4, -5, 6, 7, -8})
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
	alloc := checkedAlloc(t)
	a := graph.Input(graph.Float64, graph.Shape{2, 2}, "a")
	b := graph.Input(graph.Float64, graph.Shape{2, 2}, "b")
	at := floatTensor(t, alloc, graph.Float64, graph.Shape{2, 2}, []float64{0, 1, 2, 0})
	bt := floatTensor(t, alloc, graph.Float64, graph.Shape{2, 2}, []float64{math.NaN(), 1, 3, math.Inf(1)})
	defer at.Release()
	defer bt.Release()
	bound := map[*graph.Node]*exec.Tensor{a: at, b: bt}
	for _, p := range []*graph.Node{graph.MatMul(a, b), graph.MatMul(graph.Cast(a, graph.Float32), graph.Cast(b, graph.Float32))} {
		res := evalOn(t, cpu.New(cpu.Options{}), []*graph.Node{p}, bound, alloc)
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
	alloc := checkedAlloc(t)
	const m, n, k = 48, 40, 64
	r := rand.New(rand.NewPCG(5, 6))
	q, qt := newInput(t, alloc, graph.Float32, graph.Shape{m, k}, "q")
	defer qt.Release()
	kn, kt := newInput(t, alloc, graph.Float32, graph.Shape{n, k}, "k")
	defer kt.Release()
	for i := range exec.Elems[float32](qt) {
		exec.Elems[float32](qt)[i] = float32(4 * r.NormFloat64())
	}
	for i := range exec.Elems[float32](kt) {
		exec.Elems[float32](kt)[i] = float32(r.NormFloat64())
	}
	exec.Elems[float32](qt)[5*k] = float32(math.NaN())
	bound := map[*graph.Node]*exec.Tensor{q: qt, kn: kt}
	p := graph.MatMul(q, graph.Permute(kn, []int{1, 0}))
	was := cpu.SetVector(true)
	defer cpu.SetVector(was)
	for _, vec := range []bool{true, false} {
		cpu.SetVector(vec)
		// The product alone, from the same kernels (the portable ones
		// round differently from the assembly ones).
		raw := evalOn(t, cpu.New(cpu.Options{}), []*graph.Node{p}, bound, alloc)
		prod := exec.Elems[float32](raw[0])
		for _, op := range []graph.Op{graph.OpExp, graph.OpSigmoid} {
			// The product alone is the output: its buffer is the
			// accumulator and the epilogue's destination.
			got := evalOn(t, cpu.New(cpu.Options{Chunk: 64}), []*graph.Node{graph.Unary(op, p)}, bound, alloc)
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
