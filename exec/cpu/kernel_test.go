// Kernel-level tests: hand-built plans run directly, checking chunked
// Map evaluation, strided and broadcast operands, reductions (the float32
// sum bound, ArgMax ties and NaN, columns, determinism), GEMM and
// cancellation.

package cpu

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/runner"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// planT builds plans by hand for kernel tests.
type planT struct {
	p      fuse.Plan
	inputs []*exec.Tensor
}

// input adds a bound tensor and returns its buffer index.
func (pt *planT) input(t *exec.Tensor) int {
	bi := len(pt.p.Buffers)
	pt.p.Buffers = append(pt.p.Buffers, fuse.Buffer{Kind: fuse.BufInput, Slot: len(pt.p.Inputs), ElemSize: t.DType.Size(), Elems: t.Buf.Len() / t.DType.Size(), First: 0})
	pt.p.Inputs = append(pt.p.Inputs, fuse.Input{Buffer: bi, Layout: t.Layout})
	pt.inputs = append(pt.inputs, t)
	return bi
}

// result adds a dense result buffer of d and s returned as an output.
func (pt *planT) result(d graph.DType, s graph.Shape, first int) int {
	bi := len(pt.p.Buffers)
	pt.p.Buffers = append(pt.p.Buffers, fuse.Buffer{Kind: fuse.BufResult, Slot: -1, ElemSize: d.Size(), Elems: s.Size(), Bytes: int64(s.Size() * d.Size()), First: first, Last: len(pt.p.Kernels)})
	pt.p.Outputs = append(pt.p.Outputs, fuse.Output{Buffer: bi, Layout: graph.ContiguousLayout(d, s)})
	return bi
}

func (pt *planT) run(ctx context.Context, b *Backend, alloc memory.Allocator) ([]*exec.Tensor, error) {
	lp, err := target{b}.Prepare(&pt.p)
	if err != nil {
		return nil, err
	}
	req := &exec.Request{Alloc: alloc, Bound: map[*graph.Node]*exec.Tensor{}}
	var slots []*graph.Node
	for _, t := range pt.inputs {
		n := graph.Input(t.DType, t.Shape, "x")
		slots = append(slots, n)
		req.Bound[n] = t
	}
	return runner.Run(ctx, target{b}, &pt.p, lp, req, slots)
}

func f32Tensor(t testing.TB, alloc memory.Allocator, v []float32, s graph.Shape) *exec.Tensor {
	x, err := exec.NewTensor(alloc, graph.Float32, s)
	require.NoError(t, err)
	copy(exec.Elems[float32](x), v)
	return x
}

func randF32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func op(o graph.Op, d graph.DType, args ...int) fuse.Instr {
	return fuse.Instr{Kind: fuse.InstrOp, Op: o, DType: d, Args: args}
}

func load(i int, d graph.DType) fuse.Instr {
	return fuse.Instr{Kind: fuse.InstrLoad, Operand: i, DType: d}
}

// TestMapChunks checks exp(-a*a)*b + sqrt(c) over a size that is not a
// multiple of the chunk, against float64 math rounded once (Exp within 2
// ulp).
func TestMapChunks(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(1, 2))
	const n = 10007
	av, bv, cv := randF32(r, n), randF32(r, n), randF32(r, n)
	for i := range cv {
		cv[i] = float32(math.Abs(float64(cv[i])))
	}
	var pt planT
	s := graph.Shape{n}
	F := graph.Float32
	a, b, c := pt.input(f32Tensor(t, alloc, av, s)), pt.input(f32Tensor(t, alloc, bv, s)), pt.input(f32Tensor(t, alloc, cv, s))
	out := pt.result(F, s, 0)
	st := []int{1}
	pt.p.Kernels = []fuse.Kernel{{Space: []int{n},
		Operands: []fuse.Operand{{Buffer: a, DType: F, Strides: st}, {Buffer: b, DType: F, Strides: st}, {Buffer: c, DType: F, Strides: st}},
		Spec: &fuse.MapSpec{Body: []fuse.Instr{load(0, F), op(graph.OpMul, F, 0, 0), op(graph.OpNeg, F, 1), op(graph.OpExp, F, 2),
			load(1, F), op(graph.OpMul, F, 3, 4), load(2, F), op(graph.OpSqrt, F, 6), op(graph.OpAdd, F, 5, 7)}},
		Stores: []fuse.Store{{Value: 8, Buffer: out, DType: F, Strides: st}}}}
	res, err := pt.run(context.Background(), New(Options{Chunk: 1000}), alloc)
	require.NoError(t, err)
	got := exec.Elems[float32](res[0])
	for i := range n {
		e := float32(math.Exp(float64(float32(-av[i] * av[i]))))
		want := e*bv[i] + float32(math.Sqrt(float64(cv[i])))
		// Exp is within 2 ulp (the vector loops) of the rounded value.
		tol := 2e-7*math.Max(1, math.Abs(float64(want))) + 2.5e-7*math.Abs(float64(e*bv[i]))
		if d := math.Abs(float64(got[i] - want)); d > tol {
			t.Fatalf("element %d: got:%v want:%v", i, got[i], want)
		}
	}
	for _, x := range append(res, pt.inputs...) {
		x.Release()
	}
}

// TestStridedBroadcast reads a reversed, transposed view and a broadcast
// row and writes a strided store.
func TestStridedBroadcast(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	const R, C = 7, 5
	F := graph.Float32
	xs := make([]float32, R*C)
	for i := range xs {
		xs[i] = float32(i)
	}
	row := []float32{10, 20, 30, 40, 50, 60, 70}
	var pt planT
	x := pt.input(f32Tensor(t, alloc, xs, graph.Shape{R, C}))
	y := pt.input(f32Tensor(t, alloc, row, graph.Shape{R}))
	out := pt.result(F, graph.Shape{C, R}, 0)
	// out[i][j] = x[j][C-1-i] + row[j], computed over space (C, R), stored
	// transposed back through strides (1, C)... as a (C, R) dense array.
	pt.p.Kernels = []fuse.Kernel{{Space: []int{C, R},
		Operands: []fuse.Operand{{Buffer: x, DType: F, Offset: C - 1, Strides: []int{-1, C}}, {Buffer: y, DType: F, Strides: []int{0, 1}}},
		Spec:     &fuse.MapSpec{Body: []fuse.Instr{load(0, F), load(1, F), op(graph.OpAdd, F, 0, 1)}},
		Stores:   []fuse.Store{{Value: 2, Buffer: out, DType: F, Strides: []int{R, 1}}}}}
	res, err := pt.run(context.Background(), New(Options{Chunk: 3}), alloc)
	require.NoError(t, err)
	got := exec.Elems[float32](res[0])
	for i := range C {
		for j := range R {
			want := xs[j*C+C-1-i] + row[j]
			require.Equalf(t, want, got[i*R+j], "element (%d,%d)", i, j)
		}
	}
	for _, x := range append(res, pt.inputs...) {
		x.Release()
	}
}

// reducePlan builds a plan reducing a (rows, cols) float32 input with op,
// over the last axis (rows mode) or the first (columns mode).
func reducePlan(t testing.TB, alloc memory.Allocator, v []float32, rows, cols int, o graph.Op, colMode bool) *planT {
	var pt planT
	F := graph.Float32
	x := pt.input(f32Tensor(t, alloc, v, graph.Shape{rows, cols}))
	rd := graph.ReduceDType(o, F)
	k := fuse.Kernel{Spec: &fuse.ReduceSpec{Body: []fuse.Instr{load(0, F)},
		Reductions: []fuse.Reduction{{Op: o, Value: 0, DType: rd}},
		Epilogue:   []fuse.Instr{{Kind: fuse.InstrAcc, Acc: 0, DType: rd}}}}
	if colMode {
		out := pt.result(rd, graph.Shape{cols}, 0)
		k.Space, k.Reduce().Axes = []int{rows, cols}, []int{0}
		k.Operands = []fuse.Operand{{Buffer: x, DType: F, Strides: []int{cols, 1}}}
		k.Stores = []fuse.Store{{Buffer: out, DType: rd, Strides: []int{0, 1}}}
	} else {
		out := pt.result(rd, graph.Shape{rows}, 0)
		k.Space, k.Reduce().Axes = []int{rows, cols}, []int{1}
		k.Operands = []fuse.Operand{{Buffer: x, DType: F, Strides: []int{cols, 1}}}
		k.Stores = []fuse.Store{{Buffer: out, DType: rd, Strides: []int{1, 0}}}
	}
	pt.p.Kernels = []fuse.Kernel{k}
	return &pt
}

// TestSumFloat32Bound sums 2^24 float32 values (one row, split into
// chunk-sized pieces) and checks the documented bound against the exact
// float64 sum: |got - exact| <= 2^-24*|exact| + 2^-20*sum|x|.
func TestSumFloat32Bound(t *testing.T) {
	n := 1 << 24
	if testing.Short() {
		n = 1 << 20
	}
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(3, 4))
	v := make([]float32, n)
	var exact, abs float64
	for i := range v {
		v[i] = float32(r.Float64()*2 - 0.9)
		exact += float64(v[i])
		abs += math.Abs(float64(v[i]))
	}
	pt := reducePlan(t, alloc, v, 1, n, graph.OpSum, false)
	res, err := pt.run(context.Background(), New(Options{}), alloc)
	require.NoError(t, err)
	got := float64(exec.Elems[float32](res[0])[0])
	bound := math.Abs(exact)*0x1p-24 + abs*0x1p-20
	require.LessOrEqualf(t, math.Abs(got-exact), bound, "got:%v want:%v", got, exact)
	// A naive float32 running sum is far outside the bound.
	var naive float32
	for _, x := range v {
		naive += x
	}
	t.Logf("blocked error %.3g, naive float32 error %.3g, bound %.3g", math.Abs(got-exact), math.Abs(float64(naive)-exact), bound)
	for _, x := range append(res, pt.inputs...) {
		x.Release()
	}
}

// TestArgMaxTiesNaN checks the first index of ties and the first NaN, in
// rows and columns, across chunk boundaries.
func TestArgMaxTiesNaN(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name string
		op   graph.Op
		v    []float32
		want int64
	}{
		{"max ties", graph.OpArgMax, []float32{1, 3, 2, 3, 3}, 1},
		{"min ties", graph.OpArgMin, []float32{4, 0, 0, 5, 0}, 1},
		{"nan first wins", graph.OpArgMax, []float32{1, nan, 9, nan}, 1},
		{"nan beats min", graph.OpArgMin, []float32{-5, 2, nan}, 2},
		{"all equal", graph.OpArgMax, []float32{7, 7, 7, 7, 7, 7, 7}, 0},
	}
	for _, tc := range tests {
		for _, colMode := range []bool{false, true} {
			for _, chunk := range []int{2, 4096} {
				alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
				n := len(tc.v)
				var pt *planT
				if colMode {
					pt = reducePlan(t, alloc, tc.v, n, 1, tc.op, true)
				} else {
					pt = reducePlan(t, alloc, tc.v, 1, n, tc.op, false)
				}
				res, err := pt.run(context.Background(), New(Options{Chunk: chunk}), alloc)
				require.NoError(t, err)
				if got := exec.Elems[int64](res[0])[0]; got != tc.want {
					t.Errorf("%s cols=%v chunk=%d: got:%v want:%v", tc.name, colMode, chunk, got, tc.want)
				}
				for _, x := range append(res, pt.inputs...) {
					x.Release()
				}
				alloc.AssertSize(t, 0)
			}
		}
	}
}

// TestReduceDeterministic checks that sums do not depend on the number of
// workers, in every reduction strategy.
func TestReduceDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	shapes := []struct{ rows, cols, chunk int }{{3, 5000, 512}, {200, 30, 64}, {5000, 3, 64}, {40, 700, 128}}
	for _, s := range shapes {
		v := randF32(r, s.rows*s.cols)
		for _, colMode := range []bool{false, true} {
			var first []float32
			for _, w := range []int{1, 2, 3, 7} {
				alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
				pt := reducePlan(t, alloc, v, s.rows, s.cols, graph.OpSum, colMode)
				res, err := pt.run(context.Background(), New(Options{Workers: w, Chunk: s.chunk}), alloc)
				require.NoError(t, err)
				got := append([]float32(nil), exec.Elems[float32](res[0])[:res[0].Size()]...)
				if first == nil {
					first = got
					// Check against float64 sums.
					for o := range got {
						var want float64
						for k := range map[bool]int{true: s.rows, false: s.cols}[colMode] {
							if colMode {
								want += float64(v[k*s.cols+o])
							} else {
								want += float64(v[o*s.cols+k])
							}
						}
						require.InDeltaf(t, want, float64(got[o]), 1e-5*math.Max(1, math.Abs(want)), "output %d", o)
					}
				} else {
					require.Equalf(t, first, got, "shape %+v cols=%v workers %d", s, colMode, w)
				}
				for _, x := range append(res, pt.inputs...) {
					x.Release()
				}
				alloc.AssertSize(t, 0)
			}
		}
	}
}

// TestCancel runs a large Map with a cancelled context: it returns
// ctx.Err() and leaks nothing.
func TestCancel(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	const n = 1 << 20
	F := graph.Float32
	var pt planT
	a := pt.input(f32Tensor(t, alloc, make([]float32, n), graph.Shape{n}))
	out := pt.result(F, graph.Shape{n}, 0)
	pt.p.Kernels = []fuse.Kernel{{Space: []int{n},
		Operands: []fuse.Operand{{Buffer: a, DType: F, Strides: []int{1}}},
		Spec:     &fuse.MapSpec{Body: []fuse.Instr{load(0, F), op(graph.OpExp, F, 0)}},
		Stores:   []fuse.Store{{Value: 1, Buffer: out, DType: F, Strides: []int{1}}}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := pt.run(ctx, New(Options{Chunk: 1024}), alloc)
	require.ErrorIs(t, err, context.Canceled)
	require.Nil(t, res)
	pt.inputs[0].Release()
}

// TestParallelCancelMidRun cancels from inside a task: later tasks do not
// start.
func TestParallelCancelMidRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ran := make([]bool, 1000)
	err := parallel(ctx, 1, len(ran), func(_, t int) {
		ran[t] = true
		if t == 10 {
			cancel()
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, ran[11], "task after cancellation ran")
}
