// GPU benchmarks, run with FUSEFLOW_DEVICE=cuda (skipped otherwise): the
// workloads bench/gpu_peers.py runs on CuPy, cupy.fuse, Numba and JAX,
// with a device-to-device copy and a raw cuLaunchKernel measured in the
// same run as anchors. Every Eval includes its stream synchronization;
// inputs are device resident, so only kernels are timed.

package cuda

import (
	"context"
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// Sizes of the benchmark workloads (the peers use the same).
const (
	benchBig     = 1 << 28 // elementwise, sum, copy
	benchChain   = 1 << 26 // 5-op chain
	benchSoftmax = 8192    // rows and columns
	benchGEMM    = 4096    // M = N = K
	benchLaunch  = 1024    // warm launch
)

// benchBackend opens the GPU or skips.
func benchBackend(b *testing.B) *Backend {
	b.Helper()
	if gpuOrdinal < 0 {
		b.Skip("GPU benchmarks need FUSEFLOW_DEVICE=cuda (or cuda:N)")
	}
	be, err := New(gpuOrdinal, Options{})
	if err != nil {
		b.Fatalf("New(%d): %v", gpuOrdinal, err)
	}
	b.Cleanup(func() { _ = be.Close() })
	return be
}

// deviceF32 returns a device tensor of shape s filled with a fixed
// pattern in [0.5, 1.5).
func deviceF32(b *testing.B, be *Backend, s ...int) *exec.Tensor {
	b.Helper()
	h, err := exec.NewTensor(be.HostAllocator(), graph.Float32, graph.Shape(s))
	if err != nil {
		b.Fatal(err)
	}
	vals := exec.Elems[float32](h)
	for i := range vals {
		vals[i] = 0.5 + float32(i%1021)/1021
	}
	d, err := be.ToDevice(context.Background(), h)
	h.Release()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(d.Release)
	return d
}

// benchEval evaluates outs with bound once (compiling), then b.N times.
func benchEval(b *testing.B, be *Backend, bytes int64, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor) {
	b.Helper()
	ctx := context.Background()
	req := &exec.Request{Outputs: outs, Bound: bound}
	res, err := be.Eval(ctx, req)
	if err != nil {
		b.Fatal(err)
	}
	releaseAll(res)
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		res, err := be.Eval(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		releaseAll(res)
	}
}

func f32c(v float64) *graph.Node { return graph.FloatConst(graph.Float32, v) }

// BenchmarkGPUCopy is the anchor: a device-to-device copy of 2^28
// float32 (bytes read plus written).
func BenchmarkGPUCopy(b *testing.B) {
	be := benchBackend(b)
	src := deviceF32(b, be, benchBig)
	dst, err := be.Pool().Alloc(4*benchBig, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer dst.Release()
	ctx := be.Context()
	ln, err := be.lanes.acquire(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer be.lanes.release(ln)
	b.SetBytes(2 * 4 * benchBig)
	b.ResetTimer()
	for range b.N {
		if err := ctx.MemcpyDtoDAsync(dst.Ptr(), src.Dev.(*Buffer).Ptr(), 4*benchBig, ln.stream); err != nil {
			b.Fatal(err)
		}
		if err := ctx.StreamSynchronize(ln.stream); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGPUElementwise: out = x*2 + y over 2^28 float32.
func BenchmarkGPUElementwise(b *testing.B) {
	be := benchBackend(b)
	x, y := graph.Input(graph.Float32, graph.Shape{benchBig}, "x"), graph.Input(graph.Float32, graph.Shape{benchBig}, "y")
	out := graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, x, f32c(2)), y)
	benchEval(b, be, 3*4*benchBig, []*graph.Node{out},
		map[*graph.Node]*exec.Tensor{x: deviceF32(b, be, benchBig), y: deviceF32(b, be, benchBig)})
}

// BenchmarkGPUSum: the sum of 2^28 float32.
func BenchmarkGPUSum(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{benchBig}, "x")
	benchEval(b, be, 4*benchBig, []*graph.Node{graph.Reduce(graph.OpSum, x, nil, false)},
		map[*graph.Node]*exec.Tensor{x: deviceF32(b, be, benchBig)})
}

// BenchmarkGPUChain5: ((((x*1.5)+2)*x)-1)/3 over 2^26 float32, five ops
// in one kernel.
func BenchmarkGPUChain5(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{benchChain}, "x")
	e := graph.Binary(graph.OpMul, x, f32c(1.5))
	e = graph.Binary(graph.OpAdd, e, f32c(2))
	e = graph.Binary(graph.OpMul, e, x)
	e = graph.Binary(graph.OpSub, e, f32c(1))
	e = graph.Binary(graph.OpDiv, e, f32c(3))
	benchEval(b, be, 2*4*benchChain, []*graph.Node{e}, map[*graph.Node]*exec.Tensor{x: deviceF32(b, be, benchChain)})
}

// BenchmarkGPUSoftmax: row softmax of 8192x8192 float32.
func BenchmarkGPUSoftmax(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{benchSoftmax, benchSoftmax}, "x")
	m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m))
	out := graph.Binary(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	benchEval(b, be, 2*4*benchSoftmax*benchSoftmax, []*graph.Node{out},
		map[*graph.Node]*exec.Tensor{x: deviceF32(b, be, benchSoftmax, benchSoftmax)})
}

// BenchmarkGPUSGEMM: 4096^3 float32 matrix product; reports GFLOP/s.
func BenchmarkGPUSGEMM(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{benchGEMM, benchGEMM}, "a")
	y := graph.Input(graph.Float32, graph.Shape{benchGEMM, benchGEMM}, "b")
	benchEval(b, be, 3*4*benchGEMM*benchGEMM, []*graph.Node{graph.MatMul(x, y)},
		map[*graph.Node]*exec.Tensor{x: deviceF32(b, be, benchGEMM, benchGEMM), y: deviceF32(b, be, benchGEMM, benchGEMM)})
	b.ReportMetric(2*float64(benchGEMM)*benchGEMM*benchGEMM*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// launchGraph is the one-kernel plan of the launch benchmarks: x + 1
// over 1024 float32.
func launchGraph() (x, out *graph.Node) {
	x = graph.Input(graph.Float32, graph.Shape{benchLaunch}, "x")
	return x, graph.Binary(graph.OpAdd, x, f32c(1))
}

// BenchmarkGPUWarmLaunch: Eval of a cached one-kernel plan on a device
// input, synchronized (host time per evaluation).
func BenchmarkGPUWarmLaunch(b *testing.B) {
	be := benchBackend(b)
	x, out := launchGraph()
	benchEval(b, be, 0, []*graph.Node{out}, map[*graph.Node]*exec.Tensor{x: deviceF32(b, be, benchLaunch)})
}

// BenchmarkGPURawLaunch: the same kernel launched with cuLaunchKernel
// directly and synchronized, the anchor of BenchmarkGPUWarmLaunch.
func BenchmarkGPURawLaunch(b *testing.B) {
	be := benchBackend(b)
	x, out := launchGraph()
	dx := deviceF32(b, be, benchLaunch)
	layout := map[*graph.Node]fuse.Layout{x: fuse.ContiguousLayout(graph.Float32, graph.Shape{benchLaunch})}
	plan, _, err := be.cache.Get([]*graph.Node{out}, layout, be.Target())
	if err != nil {
		b.Fatal(err)
	}
	prog, err := be.program(plan)
	if err != nil {
		b.Fatal(err)
	}
	defer be.releaseProgram(prog)
	if len(prog.kernels) != 1 || len(prog.kernels[0].sig.Launches) != 1 {
		b.Fatalf("want one kernel with one launch, have %d kernels", len(prog.kernels))
	}
	pk := &prog.kernels[0]
	dst, err := be.Pool().Alloc(4*benchLaunch, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer dst.Release()
	args := drv.NewArgs(pk.kinds...)
	for i, p := range pk.sig.Params {
		if p.Kind == ParamBuffer {
			ptr := dst.Ptr()
			if plan.Buffers[p.Buffer].Kind == fuse.BufInput {
				ptr = dx.Dev.(*Buffer).Ptr()
			}
			args.SetPtr(i, ptr)
		}
	}
	l := pk.sig.Launches[0]
	ln, err := be.lanes.acquire(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer be.lanes.release(ln)
	ctx := be.Context()
	b.ResetTimer()
	for range b.N {
		if err := ctx.Launch(pk.fn, drv.Dim3{X: uint32(l.Grid)}, drv.Dim3{X: uint32(l.Block)}, 0, ln.stream, args); err != nil {
			b.Fatal(err)
		}
		if err := ctx.StreamSynchronize(ln.stream); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGPUColdFirstResult: a new expression each iteration (a new
// constant, so a new plan and new PTX) over 2^20 float32 on the device,
// from graph to result. gen-us/op is the PTX generation and jit-us/op the
// driver's module load (its JIT) within that time.
func BenchmarkGPUColdFirstResult(b *testing.B) {
	be := benchBackend(b)
	const n = 1 << 20
	dx := deviceF32(b, be, n)
	ctx := context.Background()
	before := be.Stats()
	b.ResetTimer()
	for i := range b.N {
		x := graph.Input(graph.Float32, graph.Shape{n}, "x")
		out := graph.Unary(graph.OpExp, graph.Binary(graph.OpMul, x, f32c(1+float64(i)*1e-6)))
		res, err := be.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out}, Bound: map[*graph.Node]*exec.Tensor{x: dx}})
		if err != nil {
			b.Fatal(err)
		}
		releaseAll(res)
	}
	b.StopTimer()
	after := be.Stats()
	b.ReportMetric(float64((after.GenTime-before.GenTime).Microseconds())/float64(b.N), "gen-us/op")
	b.ReportMetric(float64((after.LoadTime-before.LoadTime).Microseconds())/float64(b.N), "jit-us/op")
}
