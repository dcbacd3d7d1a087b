// GPU benchmarks, run with FUSEFLOW_DEVICE=cuda (skipped otherwise): the
// workloads of the performance targets, which bench/gpu_peers.py runs on
// CuPy, cupy.fuse, Numba, JAX and PyTorch at the same sizes, with a
// device-to-device copy and a bare cuLaunchKernel measured in the same
// run as anchors. Every Eval includes its stream synchronization; inputs
// are device resident, so only kernels are timed. The whole process
// shares one backend and one set of device inputs (views of two 2^28
// float32 buffers), closed when the tests end.

package cuda

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// Sizes of the benchmark workloads (bench/gpu_peers.py uses the same).
const (
	benchBig     = 1 << 28 // copy, elementwise, sum
	benchChain   = 1 << 26 // 5-op chain
	benchSoftmax = 8192    // rows and columns
	benchGEMM    = 4096    // M = N = K
	benchLaunch  = 1024    // warm launch
	benchCold    = 1 << 20 // cold first call: elements of a map or reduction
	benchColdMM  = 256     // cold first call: M = N = K of a product
)

// benchRowSums and benchColSums are the (rows, columns) shapes of the row
// and column sum targets: fewer rows than SMs, and few or many columns.
var (
	benchRowSums = [][2]int{{4, 1 << 24}, {64, 1 << 20}}
	benchColSums = [][2]int{{8191, 64}, {65536, 4096}}
)

// benchState is the process's benchmark backend and its device inputs.
var benchState struct {
	once sync.Once
	be   *Backend
	err  error
	mu   sync.Mutex
	in   map[string]*exec.Tensor
}

// benchBackend returns the process's benchmark backend, opening it on
// first use, or skips without a GPU.
func benchBackend(b *testing.B) *Backend {
	b.Helper()
	if gpuOrdinal < 0 {
		b.Skip("GPU benchmarks need FUSEFLOW_DEVICE=cuda (or cuda:N)")
	}
	benchState.once.Do(func() {
		benchState.be, benchState.err = New(gpuOrdinal, Options{})
		benchState.in = map[string]*exec.Tensor{}
	})
	if benchState.err != nil {
		b.Fatalf("New(%d): %v", gpuOrdinal, benchState.err)
	}
	return benchState.be
}

// closeBench releases the benchmark inputs and closes the backend; the
// test binary calls it once the tests and benchmarks are done.
func closeBench() error {
	if benchState.be == nil {
		return nil
	}
	for _, t := range benchState.in {
		t.Release()
	}
	return benchState.be.Close()
}

// benchInput returns a view of shape s over the start of the process's
// device buffer called name (2^28 float32 holding a fixed pattern in
// [0.5, 1.5)), released when the benchmark ends. Distinct names are
// distinct buffers, so that two operands never share cache lines.
func benchInput(b *testing.B, be *Backend, name string, s ...int) *exec.Tensor {
	b.Helper()
	benchState.mu.Lock()
	defer benchState.mu.Unlock()
	base, ok := benchState.in[name]
	if !ok {
		h, err := exec.NewTensor(be.HostAllocator(), graph.Float32, graph.Shape{benchBig})
		if err != nil {
			b.Fatal(err)
		}
		vals := exec.Elems[float32](h)
		for i := range vals {
			vals[i] = 0.5 + float32(i%1021)/1021
		}
		base, err = be.ToDevice(context.Background(), h)
		h.Release()
		if err != nil {
			b.Fatal(err)
		}
		benchState.in[name] = base
	}
	shape := graph.Shape(s)
	if shape.Size() > benchBig {
		b.Fatalf("benchInput %v: larger than the %d-element buffer", shape, benchBig)
	}
	v := base.View(shape, shape.ContiguousStrides(), 0)
	b.Cleanup(v.Release)
	return v
}

// benchEval evaluates outs with bound once (compiling), then b.N times.
func benchEval(b *testing.B, be *Backend, bytes int64, outs []*graph.Node, bound bindings) {
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

// BenchmarkGPUCopy is the bandwidth anchor: a device-to-device copy of
// 2^28 float32 (bytes read plus written).
func BenchmarkGPUCopy(b *testing.B) {
	be := benchBackend(b)
	src := benchInput(b, be, "x", benchBig)
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
		bindings{x: benchInput(b, be, "x", benchBig), y: benchInput(b, be, "y", benchBig)})
}

// BenchmarkGPUSum: the sum of 2^28 float32.
func BenchmarkGPUSum(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{benchBig}, "x")
	benchEval(b, be, 4*benchBig, []*graph.Node{graph.Reduce(graph.OpSum, x, nil, false)},
		bindings{x: benchInput(b, be, "x", benchBig)})
}

// benchSum benchmarks the float32 sum over axis of a (rows, cols) input;
// bytes are those read and written.
func benchSum(b *testing.B, axis, rows, cols int) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{rows, cols}, "x")
	kept := rows
	if axis == 0 {
		kept = cols
	}
	benchEval(b, be, 4*int64(rows*cols+kept), []*graph.Node{graph.Reduce(graph.OpSum, x, []int{axis}, false)},
		bindings{x: benchInput(b, be, "x", rows, cols)})
}

// BenchmarkGPURowSum: row sums with fewer rows than SMs.
func BenchmarkGPURowSum(b *testing.B) {
	for _, s := range benchRowSums {
		b.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(b *testing.B) { benchSum(b, 1, s[0], s[1]) })
	}
}

// BenchmarkGPUColSum: column sums of few and of many columns.
func BenchmarkGPUColSum(b *testing.B) {
	for _, s := range benchColSums {
		b.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(b *testing.B) { benchSum(b, 0, s[0], s[1]) })
	}
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
	benchEval(b, be, 2*4*benchChain, []*graph.Node{e}, bindings{x: benchInput(b, be, "x", benchChain)})
}

// BenchmarkGPUSoftmax: row softmax of 8192x8192 float32.
func BenchmarkGPUSoftmax(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{benchSoftmax, benchSoftmax}, "x")
	m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m))
	out := graph.Binary(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
	benchEval(b, be, 2*4*benchSoftmax*benchSoftmax, []*graph.Node{out},
		bindings{x: benchInput(b, be, "x", benchSoftmax, benchSoftmax)})
}

// BenchmarkGPUSGEMM: 4096^3 float32 matrix product; reports GFLOP/s.
func BenchmarkGPUSGEMM(b *testing.B) {
	be := benchBackend(b)
	x := graph.Input(graph.Float32, graph.Shape{benchGEMM, benchGEMM}, "a")
	y := graph.Input(graph.Float32, graph.Shape{benchGEMM, benchGEMM}, "b")
	benchEval(b, be, 3*4*benchGEMM*benchGEMM, []*graph.Node{graph.MatMul(x, y)},
		bindings{x: benchInput(b, be, "x", benchGEMM, benchGEMM), y: benchInput(b, be, "y", benchGEMM, benchGEMM)})
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
	benchEval(b, be, 0, []*graph.Node{out}, bindings{x: benchInput(b, be, "x", benchLaunch)})
}

// BenchmarkGPURawLaunch: the kernel of BenchmarkGPUWarmLaunch launched
// and synchronized without the executor, the anchor of its target:
// "bare" calls cuLaunchKernel and cuStreamSynchronize straight from a
// thread where the context is current, "binding" through the driver
// binding's Launch and StreamSynchronize (which make the context current
// on every call).
func BenchmarkGPURawLaunch(b *testing.B) {
	be := benchBackend(b)
	x, out := launchGraph()
	dx := benchInput(b, be, "x", benchLaunch)
	layout := map[*graph.Node]graph.Layout{x: graph.ContiguousLayout(graph.Float32, graph.Shape{benchLaunch})}
	plan, _, err := be.planOf([]*graph.Node{out}, layout)
	if err != nil {
		b.Fatal(err)
	}
	prog, err := be.buildProgram(plan)
	if err != nil {
		b.Fatal(err)
	}
	defer prog.Release()
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
	vals := make([]uint64, len(pk.sig.Params)) // the bare launch's parameter values
	for i, p := range pk.sig.Params {
		switch p.Kind {
		case codegen.ParamBuffer:
			ptr := dst.Ptr()
			if plan.Buffers[p.Buffer].Kind == fuse.BufInput {
				ptr = dx.Dev.(*Buffer).Ptr()
			}
			args.SetPtr(i, ptr)
			vals[i] = uint64(ptr)
		case codegen.ParamPass:
			args.SetI32(i, pk.sig.Launches[0].Pass)
			vals[i] = uint64(uint32(pk.sig.Launches[0].Pass))
		}
	}
	l := pk.sig.Launches[0]
	ln, err := be.lanes.acquire(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer be.lanes.release(ln)
	ctx := be.Context()

	b.Run("bare", func(b *testing.B) {
		lib, err := purego.Dlopen(be.d.Path(), purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			b.Fatal(err)
		}
		launch, err := purego.Dlsym(lib, "cuLaunchKernel")
		if err != nil {
			b.Fatal(err)
		}
		sync, err := purego.Dlsym(lib, "cuStreamSynchronize")
		if err != nil {
			b.Fatal(err)
		}
		params := make([]unsafe.Pointer, len(vals))
		var pin runtime.Pinner
		defer pin.Unpin()
		for i := range vals {
			pin.Pin(&vals[i])
			params[i] = unsafe.Pointer(&vals[i])
		}
		if len(params) > 0 {
			pin.Pin(&params[0])
		}
		var pp uintptr
		if len(params) > 0 {
			pp = uintptr(unsafe.Pointer(&params[0]))
		}
		err = ctx.Do(func() error {
			b.ResetTimer()
			for range b.N {
				if r, _, _ := purego.SyscallN(launch, uintptr(prog.kernels[0].fn), uintptr(l.Grid.X), uintptr(l.Grid.Y), uintptr(l.Grid.Z), uintptr(l.Block.X), uintptr(l.Block.Y), uintptr(l.Block.Z), 0,
					uintptr(ln.stream), pp, 0); int32(r) != 0 {
					return fmt.Errorf("cuLaunchKernel: %v", drv.Result(int32(r)))
				}
				if r, _, _ := purego.SyscallN(sync, uintptr(ln.stream)); int32(r) != 0 {
					return fmt.Errorf("cuStreamSynchronize: %v", drv.Result(int32(r)))
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	})
	b.Run("binding", func(b *testing.B) {
		for range b.N {
			if err := ctx.Launch(pk.fn, dim3(l.Grid), dim3(l.Block), 0, ln.stream, args); err != nil {
				b.Fatal(err)
			}
			if err := ctx.StreamSynchronize(ln.stream); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// coldCase is a workload of the cold benchmark: a new graph for each
// constant c, so that every call plans, generates and loads new code.
type coldCase struct {
	name  string
	build func(c float64) (outs []*graph.Node, inputs map[string]*graph.Node, shapes map[string][]int)
}

// coldCases are the kernel kinds of the cold benchmark.
var coldCases = []coldCase{
	{"map", func(c float64) ([]*graph.Node, map[string]*graph.Node, map[string][]int) {
		x := graph.Input(graph.Float32, graph.Shape{benchCold}, "x")
		return []*graph.Node{graph.Unary(graph.OpExp, graph.Binary(graph.OpMul, x, f32c(c)))},
			map[string]*graph.Node{"x": x}, map[string][]int{"x": {benchCold}}
	}},
	{"reduce-all", func(c float64) ([]*graph.Node, map[string]*graph.Node, map[string][]int) {
		x := graph.Input(graph.Float32, graph.Shape{benchCold}, "x")
		return []*graph.Node{graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, f32c(c)), nil, false)},
			map[string]*graph.Node{"x": x}, map[string][]int{"x": {benchCold}}
	}},
	{"reduce-rows", func(c float64) ([]*graph.Node, map[string]*graph.Node, map[string][]int) {
		x := graph.Input(graph.Float32, graph.Shape{1024, benchCold / 1024}, "x")
		return []*graph.Node{graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, f32c(c)), []int{1}, false)},
			map[string]*graph.Node{"x": x}, map[string][]int{"x": {1024, benchCold / 1024}}
	}},
	{"reduce-cols", func(c float64) ([]*graph.Node, map[string]*graph.Node, map[string][]int) {
		x := graph.Input(graph.Float32, graph.Shape{1024, benchCold / 1024}, "x")
		return []*graph.Node{graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, f32c(c)), []int{0}, false)},
			map[string]*graph.Node{"x": x}, map[string][]int{"x": {1024, benchCold / 1024}}
	}},
	{"matmul", func(c float64) ([]*graph.Node, map[string]*graph.Node, map[string][]int) {
		a := graph.Input(graph.Float32, graph.Shape{benchColdMM, benchColdMM}, "a")
		bb := graph.Input(graph.Float32, graph.Shape{benchColdMM, benchColdMM}, "b")
		return []*graph.Node{graph.Binary(graph.OpMax, graph.MatMul(a, bb), f32c(c))},
			map[string]*graph.Node{"x": a, "y": bb}, map[string][]int{"x": {benchColdMM, benchColdMM}, "y": {benchColdMM, benchColdMM}}
	}},
}

// coldSeq makes every cold iteration's constant new across the whole
// process (benchmarks run their function several times).
var coldSeq int

// BenchmarkGPUCold: the first call of a new expression of each kernel
// kind (a new constant each iteration: a new plan and new PTX) on device
// inputs, from graph to result. gen-us/op is the PTX generation and
// jit-us/op the driver's module load (its JIT) within that time.
// Run it with CUDA_CACHE_DISABLE=1, or the driver may serve a module it
// compiled in an earlier run from its disk cache.
func BenchmarkGPUCold(b *testing.B) {
	for _, cc := range coldCases {
		b.Run(cc.name, func(b *testing.B) {
			be := benchBackend(b)
			ctx := context.Background()
			_, _, shapes := cc.build(1)
			dev := map[string]*exec.Tensor{}
			for name, s := range shapes {
				dev[name] = benchInput(b, be, name, s...)
			}
			before := be.Stats()
			b.ResetTimer()
			for range b.N {
				coldSeq++
				outs, inputs, _ := cc.build(1 + float64(coldSeq)*1e-6)
				bound := bindings{}
				for name, n := range inputs {
					bound[n] = dev[name]
				}
				res, err := be.Eval(ctx, &exec.Request{Outputs: outs, Bound: bound})
				if err != nil {
					b.Fatal(err)
				}
				releaseAll(res)
			}
			b.StopTimer()
			after := be.Stats()
			if n := after.Compiles - before.Compiles; n != int64(b.N) {
				b.Fatalf("%d plans compiled in %d iterations: not every iteration was cold", n, b.N)
			}
			b.ReportMetric(float64((after.GenTime-before.GenTime).Microseconds())/float64(b.N), "gen-us/op")
			b.ReportMetric(float64((after.LoadTime-before.LoadTime).Microseconds())/float64(b.N), "jit-us/op")
		})
	}
}
