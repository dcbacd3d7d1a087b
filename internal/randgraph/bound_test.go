// Tests of the error bounds and Check: what they accept (any summation
// order, an error amplified after a cancellation, the sign of a zero
// extreme) and what they reject (a wrong value however small next to the
// output's largest, NaN or an infinity where the reference has none), the
// rules of special values, and over random graphs that the CPU backend
// stays within its bounds while a relative error of 1e-4 in one element
// is caught almost always. The helpers of every test of the package
// (allocators, seeds, tensors, the reference) are here too.

package randgraph_test

import (
	"context"
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

// alloc0 is an unchecked allocator for tests that keep nothing.
var alloc0 = memory.NewGoAllocator()

// checkedAlloc returns a checked allocator that must be back at zero
// bytes when the test ends.
func checkedAlloc(t *testing.T) *memory.CheckedAllocator {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { alloc.AssertSize(t, 0) })
	return alloc
}

// seedRand returns the generator's source for seed, seeded as the
// executors' differential tests seed it.
func seedRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// tensorOf returns a tensor of dtype d and shape s holding v converted
// to d.
func tensorOf(t *testing.T, alloc memory.Allocator, d graph.DType, s graph.Shape, v ...float64) *exec.Tensor {
	t.Helper()
	x, err := exec.NewTensor(alloc, d, s)
	require.NoError(t, err)
	for i, f := range v {
		exec.PutScalar(x, i, graph.ScalarOf(graph.Float64, f))
	}
	return x
}

// reference evaluates out with the inputs bound under model m and
// returns the result and its bound (the bound may be nil).
func reference(t *testing.T, alloc memory.Allocator, m randgraph.Model, out *graph.Node, bound map[*graph.Node]*exec.Tensor) (want, bd *exec.Tensor) {
	t.Helper()
	w, b, err := randgraph.Reference(context.Background(), []*graph.Node{out}, bound, alloc, m)
	require.NoError(t, err)
	return w[0], b[0]
}

func release(ts ...*exec.Tensor) {
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
}

// A float32 sum with cancellation, multiplied by a large integer: a
// backend that adds in float32 in index order gets 0 where the reference
// gets 2 (then 0 and 2000 after the multiplication, in float64). That is
// within the bound of any summation order, and the old tolerance
// (relative to the largest output value, and float64's for a float64
// output) called it a mismatch; a wrong value is still caught.
func TestBoundScalesThroughMultiplication(t *testing.T) {
	alloc := checkedAlloc(t)
	x := graph.Input(graph.Float32, graph.Shape{4}, "x")
	out := graph.Binary(graph.OpMul, graph.Reduce(graph.OpSum, x, nil, false), graph.Const(graph.ScalarOf(graph.Int64, 1000)))
	in := tensorOf(t, alloc, graph.Float32, graph.Shape{4}, 1<<24, 1, 1, -(1 << 24))
	want, bound := reference(t, alloc, randgraph.CPU, out, map[*graph.Node]*exec.Tensor{x: in})
	defer release(in, want, bound)
	require.Equal(t, graph.Float64, want.DType) // float32 times int64
	require.Equal(t, 2000.0, exec.Elems[float64](want)[0])
	sequential := tensorOf(t, alloc, graph.Float64, graph.Shape{}, 0)
	wrong := tensorOf(t, alloc, graph.Float64, graph.Shape{}, 2000+1e5)
	defer release(sequential, wrong)
	require.NoError(t, randgraph.Check(sequential, want, bound))
	require.Error(t, randgraph.Compare(sequential, want, false), "the old tolerance accepted it")
	require.Error(t, randgraph.Check(wrong, want, bound))
}

// checkCase is a result element against the reference's with a bound.
type checkCase struct {
	name          string
	got, want, bd float64
	ok            bool
}

func TestCheck(t *testing.T) {
	alloc := checkedAlloc(t)
	nan, inf, nz := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	for _, c := range []checkCase{
		{"exact equal", 1.5, 1.5, 0, true},
		{"exact differs", 1.5, 1.25, 0, false},
		{"exact zero sign", nz, 0, 0, false},
		{"zero sign within a bound", nz, 0, 0x1p-1074, true},
		{"NaN payloads", nan, -nan, 0, true},
		{"within", 1.5, 1.25, 0.25, true},
		{"beyond", 1.5, 1.25, 0.2, false},
		{"NaN where finite", nan, 1, 0.5, false},
		{"finite where NaN", 1, nan, 0.5, false},
		{"infinity where finite", inf, 1e300, 1e300, false},
		{"finite where infinity", 1e300, inf, 1e300, false},
		{"infinities of other signs", -inf, inf, 1, false},
		{"unconstrained NaN", 7, 1, nan, true},
		{"unconstrained Inf", nan, 1, inf, true},
	} {
		g := tensorOf(t, alloc, graph.Float64, graph.Shape{1}, c.got)
		w := tensorOf(t, alloc, graph.Float64, graph.Shape{1}, c.want)
		b := tensorOf(t, alloc, graph.Float64, graph.Shape{1}, c.bd)
		if c.bd == 0 {
			b.Release()
			b = nil
		}
		err := randgraph.Check(g, w, b)
		if (err == nil) != c.ok {
			t.Errorf("%s: got:%v want ok:%v", c.name, err, c.ok)
		}
		release(g, w, b)
	}
	// Integers: equal unless the bound says they may differ.
	g := tensorOf(t, alloc, graph.Int64, graph.Shape{2}, 1, 5)
	w := tensorOf(t, alloc, graph.Int64, graph.Shape{2}, 1, 4)
	b := tensorOf(t, alloc, graph.Float64, graph.Shape{2}, 0, 0)
	defer release(g, w, b)
	require.Error(t, randgraph.Check(g, w, b))
	exec.Elems[float64](b)[1] = math.NaN()
	require.NoError(t, randgraph.Check(g, w, b))
}

// boundCase is a graph of one input x and the bound expected of one
// element of its output.
type boundCase struct {
	name string
	in   []float64
	f    func(x *graph.Node) *graph.Node
	at   int
	want func(b float64) bool
}

func TestBoundRules(t *testing.T) {
	alloc := checkedAlloc(t)
	f32 := func(v float64) *graph.Node { return graph.FloatConst(graph.Float32, v) }
	sum := func(x *graph.Node) *graph.Node { return graph.Reduce(graph.OpSum, x, nil, true) }
	unconstrained := func(b float64) bool { return b != b || math.IsInf(b, 1) }
	exact := func(b float64) bool { return b == 0 }
	small := func(lim float64) func(float64) bool { return func(b float64) bool { return b > 0 && b <= lim } }
	for _, c := range []boundCase{
		{"sum: relative to the magnitudes", []float64{1, 2, 3}, sum, 0, small(1e-5)},
		{"exp of a sum: relative", []float64{10, 20, 30}, func(x *graph.Node) *graph.Node { return graph.Unary(graph.OpExp, sum(x)) }, 0, small(1e26 * 1e-4)},
		{"a divisor that may be 0", []float64{1, -1, 1e-9}, func(x *graph.Node) *graph.Node { return graph.Binary(graph.OpDiv, f32(1), sum(x)) }, 0, unconstrained},
		{"a log of what may be negative", []float64{1, -1, 1e-9}, func(x *graph.Node) *graph.Node { return graph.Unary(graph.OpLog, sum(x)) }, 0, unconstrained},
		{"a floor far from a step", []float64{1.25, 1}, func(x *graph.Node) *graph.Node { return graph.Unary(graph.OpFloor, sum(x)) }, 0, exact},
		{"a comparison near a tie", []float64{0.1, 0.2}, func(x *graph.Node) *graph.Node {
			return graph.Binary(graph.OpGe, sum(x), f32(float64(float32(0.1)+float32(0.2))))
		}, 0, unconstrained},
		{"a comparison far from a tie", []float64{1, 2}, func(x *graph.Node) *graph.Node { return graph.Binary(graph.OpLt, sum(x), f32(10)) }, 0, exact},
		{"the zero of ReLU", []float64{-1, 0}, func(x *graph.Node) *graph.Node { return graph.Binary(graph.OpMax, x, f32(0)) }, 0, small(0x1p-1074)},
		{"ReLU of a positive value", []float64{2, 0}, func(x *graph.Node) *graph.Node { return graph.Binary(graph.OpMax, x, f32(0)) }, 0, exact},
		{"an infinity from an infinite operand", []float64{math.Inf(1), 1}, sum, 0, func(b float64) bool { return b >= 0 && !unconstrained(b) }},
		{"an overflow", []float64{3e38, 3e38}, sum, 0, unconstrained},
		{"near the largest float32", []float64{3.40282e38, -1}, sum, 0, unconstrained},
		{"exp past float32's range", []float64{200}, func(x *graph.Node) *graph.Node { return graph.Unary(graph.OpExp, sum(x)) }, 0, func(b float64) bool { return !unconstrained(b) }},
		{"exp at float32's edge", []float64{88.7228}, func(x *graph.Node) *graph.Node { return graph.Unary(graph.OpExp, sum(x)) }, 0, unconstrained},
		{"tan over several periods", []float64{1e7 + 9, 1}, func(x *graph.Node) *graph.Node { return graph.Unary(graph.OpTan, sum(x)) }, 0, unconstrained},
		{"tan within a branch", []float64{0.25, 0.5}, func(x *graph.Node) *graph.Node { return graph.Unary(graph.OpTan, sum(x)) }, 0, small(1e-5)},
		{"a NaN times what may be 0", []float64{1, -1}, func(x *graph.Node) *graph.Node {
			return graph.Binary(graph.OpMul, sum(x), f32(math.Inf(1)))
		}, 0, unconstrained},
	} {
		x := graph.Input(graph.Float32, graph.Shape{len(c.in)}, "x")
		in := tensorOf(t, alloc, graph.Float32, graph.Shape{len(c.in)}, c.in...)
		out := c.f(x)
		want, bound := reference(t, alloc, randgraph.CPU, out, map[*graph.Node]*exec.Tensor{x: in})
		b := 0.0
		if bound != nil {
			b = exec.Elems[float64](bound)[bound.Offset+c.at]
		}
		if !c.want(b) {
			t.Errorf("%s: bound got:%v (value %v)", c.name, b, exec.Elems[float32](want)[want.Offset+c.at])
		}
		release(in, want, bound)
	}
}

// Over random graphs with extreme values and patterns: the CPU backend
// stays within its bounds, and a relative error of 1e-4 in one element of
// an inexact float output is caught in at least 90% of the elements
// where the bound promises something (about 96% measured).
func TestBoundsCatchErrors(t *testing.T) {
	alloc := checkedAlloc(t)
	be := cpu.New(cpu.Options{Chunk: 37})
	ctx := context.Background()
	tried, caught := 0, 0
	for seed := range uint64(300) {
		c, err := randgraph.Generate(seedRand(seed), alloc, randgraph.Config{MaxExtent: 9})
		require.NoError(t, err)
		want, bounds, err := randgraph.Reference(ctx, c.Outputs, c.Bound, alloc, randgraph.CPU)
		require.NoError(t, err, "seed %d", seed)
		got, err := be.Eval(ctx, &exec.Request{Outputs: c.Outputs, Bound: c.Bound, Alloc: alloc})
		require.NoError(t, err, "seed %d", seed)
		for i, w := range want {
			require.NoError(t, randgraph.Check(got[i], w, bounds[i]), "seed %d output %d", seed, i)
			if bounds[i] == nil || !w.DType.IsFloat() || !w.Contiguous() || !bounds[i].Contiguous() {
				continue
			}
			p, err := exec.NewTensor(alloc, w.DType, w.Shape)
			require.NoError(t, err)
			for k := range w.Size() {
				set(p, k, elem(w, k))
			}
			for k := range w.Size() {
				v, b := elem(w, k), exec.Elems[float64](bounds[i])[bounds[i].Offset+k]
				if b != b || math.IsInf(b, 0) || v == 0 || v != v || math.IsInf(v, 0) {
					continue
				}
				tried++
				set(p, k, v*(1+1e-4))
				if randgraph.Check(p, w, bounds[i]) != nil {
					caught++
				}
				set(p, k, v)
			}
			p.Release()
		}
		release(want...)
		release(got...)
		release(bounds...)
		c.Release()
	}
	require.Greater(t, tried, 1000)
	require.GreaterOrEqual(t, float64(caught), 0.9*float64(tried), "caught %d of %d", caught, tried)
}

func elem(t *exec.Tensor, k int) float64 {
	if t.DType == graph.Float32 {
		return float64(exec.Elems[float32](t)[t.Offset+k])
	}
	return exec.Elems[float64](t)[t.Offset+k]
}

func set(t *exec.Tensor, k int, v float64) {
	if t.DType == graph.Float32 {
		exec.Elems[float32](t)[t.Offset+k] = float32(v)
		return
	}
	exec.Elems[float64](t)[t.Offset+k] = v
}

// The reference's float64 Sigmoid is 0 below -709.78, where the exact
// value (which the GPU computes) is a subnormal: the GPU model's bound
// allows the smallest normal there, and only ulps elsewhere.
func TestBoundReferenceSigmoid(t *testing.T) {
	alloc := checkedAlloc(t)
	x := graph.Input(graph.Float64, graph.Shape{2}, "x")
	in := tensorOf(t, alloc, graph.Float64, graph.Shape{2}, -740, -700)
	w, b := reference(t, alloc, randgraph.GPU, graph.Unary(graph.OpSigmoid, x), map[*graph.Node]*exec.Tensor{x: in})
	defer release(in, w, b)
	require.Equal(t, 0.0, exec.Elems[float64](w)[0])
	bv := exec.Elems[float64](b)
	require.GreaterOrEqual(t, bv[0], 0x1p-1022, "bound at -740")
	require.Less(t, bv[1], 1e-318, "bound at -700: a few ulps of e^-700")
	got := tensorOf(t, alloc, graph.Float64, graph.Shape{2}, 4.2e-322, exec.Elems[float64](w)[1])
	defer got.Release()
	require.NoError(t, randgraph.Check(got, w, b))
}

// math.Pow, the reference's, errs by about |y| ulps for a large integer
// part of y: the GPU model's bound allows it.
func TestBoundReferencePow(t *testing.T) {
	alloc := checkedAlloc(t)
	x := graph.Input(graph.Float64, graph.Shape{2}, "x")
	y := graph.Input(graph.Float64, graph.Shape{2}, "y")
	in := tensorOf(t, alloc, graph.Float64, graph.Shape{2}, 0.9999999, 3)
	ex := tensorOf(t, alloc, graph.Float64, graph.Shape{2}, 1e6, 2)
	w, b := reference(t, alloc, randgraph.GPU, graph.Binary(graph.OpPow, x, y), map[*graph.Node]*exec.Tensor{x: in, y: ex})
	defer release(in, ex, w, b)
	wv, bv := exec.Elems[float64](w), exec.Elems[float64](b)
	require.GreaterOrEqual(t, bv[0], 1e6*0x1p-52*wv[0], "bound of 0.9999999^1e6")
	require.Less(t, bv[1], 20*0x1p-52*wv[1], "bound of 3^2")
}

// An approximate op of an operand whose bound is a node but zero where
// the reference evaluates it (here a float32 Max: exact unless zeros of
// both signs meet) keeps its own rounding: the math library's ulps
// under GPU, not 0.
func TestBoundOwnRoundingBehindOperandBound(t *testing.T) {
	alloc := checkedAlloc(t)
	x := graph.Input(graph.Float32, graph.Shape{3}, "x")
	m := graph.Reduce(graph.OpReduceMax, x, nil, false)
	for _, op := range []graph.Op{graph.OpAtan2, graph.OpPow} {
		out := graph.Binary(op, m, graph.Const(graph.ScalarOf(graph.Float64, 0.7)))
		in := tensorOf(t, alloc, graph.Float32, graph.Shape{3}, 1, 3, 2)
		want, bound := reference(t, alloc, randgraph.GPU, out, map[*graph.Node]*exec.Tensor{x: in})
		require.NotNil(t, bound, "%v", op)
		w, b := exec.Elems[float64](want)[0], exec.Elems[float64](bound)[0]
		lim := randgraph.GPU.ULP(op, graph.Float64) * 0x1p-52 * math.Abs(w)
		if !(b >= lim) {
			t.Errorf("%v(3, 0.7) = %v: bound got:%v want:>= %v", op, w, b, lim)
		}
		release(in, want, bound)
	}
}
