// Lazy calls of explicit kernels (graph.Call) evaluated by the backend:
// the written arguments stored by generated Maps, the kernel launched on
// the plan's device buffers, the work after it in generated kernels; on
// the emulated device (PTX simulator) and, under FUSEFLOW_DEVICE=cuda, on
// the GPU, agreeing bit for bit with eager launches on the CPU device;
// and a failing bounds check surfacing from Eval.

package cuda

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	kt "github.com/fuseflow/fuseflow/exec/cuda/internal/kerneltest"
	"github.com/fuseflow/fuseflow/graph"
	ct "github.com/fuseflow/fuseflow/internal/calltest"
	"github.com/fuseflow/fuseflow/kernel"
)

// hostOf returns a 1-d host tensor of dtype d holding s.
func hostOf[T any](t *testing.T, alloc memory.Allocator, d graph.DType, s []T) *exec.Tensor {
	t.Helper()
	return hostTensor(t, alloc, d, graph.Shape{len(s)}, func(i int) T { return s[i] })
}

// evalCall evaluates outs on b with bound host tensors and returns the
// results copied to the host as Go slices of T.
func evalCall[T any](t *testing.T, b *Backend, alloc memory.Allocator, outs []*graph.Node, bound bindings) [][]T {
	t.Helper()
	ctx := context.Background()
	res, err := b.Eval(ctx, &exec.Request{Outputs: outs, Bound: bound, Alloc: alloc})
	require.NoError(t, err)
	defer releaseAll(res)
	out := make([][]T, len(res))
	for i, r := range res {
		h, err := b.ToHost(ctx, r, alloc)
		require.NoError(t, err)
		out[i] = append([]T(nil), exec.Elems[T](h)...)
		h.Release()
	}
	return out
}

func constOf(d graph.DType, v float64) *graph.Node { return graph.Const(graph.ScalarOf(d, v)) }

// runCalls evaluates lazy calls on b and compares them with eager
// launches on the CPU device.
func runCalls(t *testing.T, b *Backend) {
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	r := rand.New(rand.NewPCG(5, 6))
	const n = 1000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
	}
	xt, yt := hostOf(t, alloc, graph.Float32, x), hostOf(t, alloc, graph.Float32, y)
	defer xt.Release()
	defer yt.Release()

	saxpy := func(t *testing.T, attr *graph.CallAttr, cfg kernel.Config) {
		xi := graph.Input(graph.Float32, graph.Shape{n}, "x")
		yi := graph.Input(graph.Float32, graph.Shape{n}, "y")
		nx := graph.Unary(graph.OpNeg, xi)
		y2 := graph.Binary(graph.OpMul, yi, constOf(graph.Float32, 2))
		outs := graph.Call(attr, []*graph.Node{nx, y2})
		require.NoError(t, outs[0].Err())
		z := graph.Binary(graph.OpAdd, outs[0], constOf(graph.Float32, 1))
		got := evalCall[float32](t, b, alloc, []*graph.Node{outs[0], z}, bindings{xi: xt, yi: yt})

		wx, wy := make([]float32, n), make([]float32, n)
		for i := range x {
			wx[i], wy[i] = -x[i], y[i]*2
		}
		cfg.Device = kernel.CPU()
		require.NoError(t, ct.SaxpyKernel.Launch(cfg, float32(2.5), wx, wy))
		wz := make([]float32, n)
		for i := range wy {
			wz[i] = wy[i] + 1
		}
		requireSameBits(t, "saxpy", []any{wy, wz}, []any{got[0], got[1]})
	}
	args := []graph.CallArg{{Name: "a", Input: -1, Value: float32(2.5)}, {Name: "x", Input: 0}, {Name: "y", Input: 1, Written: true}}
	t.Run("saxpy launch", func(t *testing.T) {
		saxpy(t, &graph.CallAttr{Kernel: ct.SaxpyKernel, Args: args, Grid: [3]int{3, 1, 1}, Block: [3]int{64, 1, 1}}, kernel.Launch1D(3, 64))
	})
	t.Run("saxpy forall", func(t *testing.T) {
		// The block size is the device's (from the occupancy); saxpy's
		// result does not depend on it.
		saxpy(t, &graph.CallAttr{Kernel: ct.SaxpyKernel, Args: args, ForAll: true, Tasks: n}, kernel.Launch1D(4, 256))
	})
	t.Run("volume", func(t *testing.T) {
		out := graph.BroadcastTo(constOf(graph.Int32, -1), graph.Shape{3, 4, 5})
		attr := &graph.CallAttr{Kernel: kt.VolumeKernel, Args: []graph.CallArg{{Name: "out", Input: 0, Written: true},
			{Name: "nx", Input: -1, Value: 5}, {Name: "ny", Input: -1, Value: 4}, {Name: "nz", Input: -1, Value: 3}},
			Grid: [3]int{2, 2, 2}, Block: [3]int{4, 2, 2}}
		outs := graph.Call(attr, []*graph.Node{out})
		got := evalCall[int32](t, b, alloc, outs, nil)
		want := make([]int32, 60)
		for i := range want {
			want[i] = -1
		}
		require.NoError(t, kt.VolumeKernel.Launch(kernel.Config{Grid: kernel.D3(2, 2, 2), Block: kernel.D3(4, 2, 2), Device: kernel.CPU()}, want, 5, 4, 3))
		requireSameBits(t, "volume", []any{want}, []any{got[0]})
	})
	t.Run("reverse shared", func(t *testing.T) {
		v := make([]int64, 256)
		for i := range v {
			v[i] = r.Int64()
		}
		vt := hostOf(t, alloc, graph.Int64, v)
		defer vt.Release()
		vi := graph.Input(graph.Int64, graph.Shape{256}, "v")
		attr := &graph.CallAttr{Kernel: kt.ReverseKernel, Args: []graph.CallArg{{Name: "x", Input: 0, Written: true}},
			Grid: [3]int{4, 1, 1}, Block: [3]int{64, 1, 1}, SharedBytes: 64 * 8}
		outs := graph.Call(attr, []*graph.Node{vi})
		got := evalCall[int64](t, b, alloc, outs, bindings{vi: vt})
		want := append([]int64(nil), v...)
		require.NoError(t, kt.ReverseKernel.Launch(kernel.Config{Grid: kernel.D1(4), Block: kernel.D1(64), SharedBytes: 64 * 8, Device: kernel.CPU()}, want))
		requireSameBits(t, "reverse", []any{want}, []any{got[0]})
		// The bound input is unchanged.
		requireSameBits(t, "reverse input", []any{v}, []any{exec.Elems[int64](vt)})
	})
}

func TestEmulatedCalls(t *testing.T) {
	b := explicitEmuBackend(t, emuH100)
	runCalls(t, b)
}

func TestGPUCalls(t *testing.T) {
	b := gpuBackend(t, Options{})
	fileExplicit(t)
	runCalls(t, b)
}

// TestEmulatedCallFailure: a call of Gather with an index out of range
// fails Eval with the LaunchError naming the kernel's line.
func TestEmulatedCallFailure(t *testing.T) {
	b := explicitEmuBackend(t, emuSmall)
	breakable(t, b)
	alloc := memory.NewGoAllocator()
	xt := hostOf(t, alloc, graph.Float32, make([]float32, 10))
	it := hostOf(t, alloc, graph.Int32, []int32{0, 1, 2, 99, 4})
	defer xt.Release()
	defer it.Release()
	xi := graph.Input(graph.Float32, graph.Shape{10}, "x")
	ii := graph.Input(graph.Int32, graph.Shape{5}, "idx")
	out := graph.BroadcastTo(constOf(graph.Float32, 0), graph.Shape{5})
	attr := &graph.CallAttr{Kernel: kt.GatherKernel, Args: []graph.CallArg{{Name: "x", Input: 0}, {Name: "idx", Input: 1},
		{Name: "out", Input: 2, Written: true}}, ForAll: true, Tasks: 5}
	outs := graph.Call(attr, []*graph.Node{xi, ii, out})
	_, err := b.Eval(context.Background(), &exec.Request{Outputs: outs, Bound: bindings{xi: xt, ii: it}})
	var le *kernel.LaunchError
	require.ErrorAs(t, err, &le)
	require.Equal(t, "Gather", le.Kernel)
	require.True(t, strings.HasPrefix(le.Pos, gatherLine), "got:%s want:%s", le.Pos, gatherLine)
}

// TestCallWithoutPTX: a kernel without PTX cannot be a call on the GPU,
// and the error says to run go generate.
func TestCallWithoutPTX(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	s := ct.SaxpyKernel.Spec()
	s.PTX = ""
	k := kernel.New(s)
	yi := graph.Input(graph.Float32, graph.Shape{4}, "y")
	outs := graph.Call(&graph.CallAttr{Kernel: k, Args: []graph.CallArg{{Name: "a", Input: -1, Value: float32(1)},
		{Name: "x", Input: 0}, {Name: "y", Input: 1, Written: true}}, ForAll: true, Tasks: 4}, []*graph.Node{yi, yi})
	alloc := memory.NewGoAllocator()
	yt := hostOf(t, alloc, graph.Float32, []float32{1, 2, 3, 4})
	defer yt.Release()
	_, err := b.Eval(context.Background(), &exec.Request{Outputs: outs, Bound: bindings{yi: yt}})
	require.ErrorContains(t, err, "kernel Saxpy has no PTX")
	require.ErrorContains(t, err, "go generate")
}
