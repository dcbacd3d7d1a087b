// Tests on a real GPU, run with FUSEFLOW_DEVICE=cuda (or cuda:N) and
// -run GPU, or on the emulated device with -emulate; skipped otherwise.
// The differential suite compares CUDA with the reference and the CPU
// backend on random graphs and on every reduction strategy and GEMM
// shape; the others check the pool, concurrency, the out-of-memory path
// and a failing launch.

package cuda

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// emulateGPU runs the GPU tests on the emulated device when no GPU is
// asked for (slow: minutes).
var emulateGPU = flag.Bool("emulate", false, "run the GPU tests on the emulated device (the fake driver running generated kernels on the IR interpreter)")

// gpuBackend opens the GPU of FUSEFLOW_DEVICE, or the emulated device
// with -emulate, or skips the test; at the end it checks that the pool
// has no live bytes and closes the backend.
func gpuBackend(t testing.TB, opts Options) *Backend {
	t.Helper()
	if gpuOrdinal < 0 && *emulateGPU {
		return emuBackend(t, emuH100, opts)
	}
	if gpuOrdinal < 0 {
		t.Skip("GPU tests need FUSEFLOW_DEVICE=cuda (or cuda:N) on a machine with an NVIDIA GPU, or -emulate")
	}
	b, err := New(gpuOrdinal, opts)
	if err != nil {
		t.Fatalf("New(%d): %v", gpuOrdinal, err)
	}
	t.Cleanup(func() {
		if live := b.Pool().Stats().Live; live != 0 {
			t.Errorf("device pool live bytes at the end got:%d want:0", live)
		}
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}

func releaseAll(ts []*exec.Tensor) {
	for _, t := range ts {
		t.Release()
	}
}

// TestGPUDifferential runs random graphs (every op and dtype, strided and
// broadcast inputs, views, reductions, matmul) on CUDA and on the CPU.
func TestGPUDifferential(t *testing.T) {
	b := gpuBackend(t, Options{})
	n := 1000
	if testing.Short() {
		n = 200
	}
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	for seed := range uint64(n) {
		c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, randgraph.Config{})
		require.NoError(t, err, "seed %d", seed)
		checkCase(t, b, fmt.Sprintf("seed %d", seed), c, alloc, nil)
	}
}

// gpuCase is one hand-written workload of the GPU suite.
type gpuCase struct {
	name  string
	build func() (outs []*graph.Node, exact []bool, shapes map[*graph.Node]graph.Shape)
}

// gpuCases cover each reduction strategy, every reduction op, and GEMMs
// of awkward shapes with epilogues, at sizes where the planner's GPU
// strategies differ.
func gpuCases() []gpuCase {
	in := func(d graph.DType, s ...int) *graph.Node { return graph.Input(d, graph.Shape(s), "x") }
	red := func(op graph.Op, d graph.DType, axes []int, s ...int) gpuCase {
		return gpuCase{fmt.Sprintf("%v %v over %v of %v", op, d, axes, s), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
			x := in(d, s...)
			exact := !d.IsFloat() || op == graph.OpReduceMax || op == graph.OpReduceMin || op == graph.OpArgMax || op == graph.OpArgMin
			return []*graph.Node{graph.Reduce(op, x, axes, false)}, []bool{exact}, map[*graph.Node]graph.Shape{x: graph.Shape(s)}
		}}
	}
	var cs []gpuCase
	for _, op := range []graph.Op{graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin, graph.OpArgMax, graph.OpArgMin, graph.OpAny, graph.OpAll} {
		for _, d := range graph.DTypes() {
			cs = append(cs,
				red(op, d, []int{1}, 300, 17),   // short rows: warp per row
				red(op, d, []int{1}, 40, 70000), // long rows: block per row
				red(op, d, []int{0}, 5000, 300), // columns
			)
			if op != graph.OpArgMax && op != graph.OpArgMin { // they take one axis
				cs = append(cs, red(op, d, []int{0, 1}, 1000, 1111)) // everything: two-pass
			}
		}
	}
	mm := func(d graph.DType, m, k, n int, trans bool) gpuCase {
		return gpuCase{fmt.Sprintf("matmul %v %dx%dx%d trans=%v", d, m, k, n, trans), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
			a := in(d, m, k)
			bs := graph.Shape{k, n}
			if trans {
				bs = graph.Shape{n, k}
			}
			bb := in(d, bs...)
			bv := bb
			if trans {
				bv = graph.Permute(bb, []int{1, 0})
			}
			p := graph.MatMul(a, bv)
			out := graph.Binary(graph.OpMax, p, graph.FloatConst(d, 0)) // relu epilogue
			return []*graph.Node{out}, []bool{false}, map[*graph.Node]graph.Shape{a: {m, k}, bb: bs}
		}}
	}
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		cs = append(cs, mm(d, 1, 1, 1, false), mm(d, 257, 129, 65, false), mm(d, 512, 512, 512, true), mm(d, 1000, 77, 333, true))
	}
	return cs
}

// fillRandom binds a host tensor of random values to every input.
func fillRandom(t *testing.T, alloc memory.Allocator, shapes map[*graph.Node]graph.Shape, seed uint64) bindings {
	r := rand.New(rand.NewPCG(seed, 7))
	bound := bindings{}
	for n, s := range shapes {
		x := newHost(t, alloc, n.DType(), s)
		for i := range x.Size() {
			var v float64
			switch n.DType() {
			case graph.Int32:
				v = float64(r.IntN(200) - 100)
			case graph.Int64:
				v = float64(r.IntN(2000) - 1000)
			case graph.Bool:
				v = float64(min(r.IntN(1000), 1))
			default:
				v = r.NormFloat64()
			}
			exec.PutScalar(x, i, graph.ScalarOf(graph.Float64, v))
		}
		bound[n] = x
	}
	return bound
}

// TestGPUReductionsAndMatMul runs every reduction op and dtype in each
// strategy's shape, and GEMMs with epilogues, on CUDA and the CPU.
func TestGPUReductionsAndMatMul(t *testing.T) {
	b := gpuBackend(t, Options{Profile: exec.On})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	for i, c := range gpuCases() {
		outs, exact, shapes := c.build()
		if err := graph.Verify(outs...); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		bound := fillRandom(t, alloc, shapes, uint64(i))
		compareWithCPU(t, b, c.name, outs, exact, bound, alloc)
		if r := faultReport(b, c.name, nil); r != "" {
			t.Fatal(r)
		}
		if r := b.LastRun(); testing.Verbose() && r != nil {
			t.Logf("%s:\n%s", c.name, r.Explain())
		}
		for _, x := range bound {
			x.Release()
		}
	}
}

// TestGPUConcurrentEval evaluates from 8 goroutines at once.
func TestGPUConcurrentEval(t *testing.T) {
	b := gpuBackend(t, Options{})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	ctx := context.Background()
	concurrently(t, 8, func(g int) error {
		for it := range 20 {
			n := 100000 + 1000*g + it
			x := graph.Input(graph.Float32, graph.Shape{n}, "x")
			y := graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, graph.FloatConst(graph.Float32, 2)), []int{0}, false)
			hx, err := exec.NewTensor(alloc, graph.Float32, graph.Shape{n})
			if err != nil {
				return err
			}
			for i := range exec.Elems[float32](hx) {
				exec.Elems[float32](hx)[i] = 1
			}
			h, err := evalHost(ctx, b, &exec.Request{Outputs: []*graph.Node{y}, Bound: bindings{x: hx}}, alloc)
			hx.Release()
			if err != nil {
				return err
			}
			got := exec.Elems[float32](h)[0]
			h.Release()
			if got != float32(2*n) {
				return fmt.Errorf("goroutine %d: sum of %d twos got:%v want:%v", g, n, got, 2*n)
			}
		}
		return nil
	})
}

// TestGPUOutOfMemory asks for more than the device has: a clear error,
// and work afterwards succeeds.
func TestGPUOutOfMemory(t *testing.T) {
	b := gpuBackend(t, Options{})
	total := int64(b.Device().TotalMem)
	_, err := b.Pool().Alloc(2*total, 0)
	require.Error(t, err)
	require.Contains(t, err.Error(), fmt.Sprintf("cannot allocate %d bytes", 2*total))
	require.Contains(t, err.Error(), "bytes free of")
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	outs, exact, shapes := gpuCases()[0].build()
	bound := fillRandom(t, alloc, shapes, 1)
	compareWithCPU(t, b, "after out of memory", outs, exact, bound, alloc)
	for _, x := range bound {
		x.Release()
	}
}

// TestGPULaunchFailure launches a kernel with more threads per block
// than the device allows: the error names the kernel and the driver's
// code, and the backend keeps working.
func TestGPULaunchFailure(t *testing.T) {
	var broken bool
	opts := Options{}
	b := gpuBackend(t, opts)
	good := b.compile
	b.compile = func(p *fuse.Plan, tg codegen.Target) (*codegen.Module, error) {
		m, err := good(p, tg)
		if err == nil && broken {
			m.Kernels[0].Launches[0].Block = codegen.D1(4096)
		}
		return m, err
	}
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	x := graph.Input(graph.Float32, graph.Shape{1000}, "x")
	broken = true
	bound := fillRandom(t, alloc, map[*graph.Node]graph.Shape{x: {1000}}, 3)
	defer bound[x].Release()
	_, err := b.Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{graph.Unary(graph.OpExp, x)}, Bound: bound})
	require.Error(t, err)
	require.Contains(t, err.Error(), "launching kernel")
	require.Contains(t, err.Error(), "CUDA_ERROR_INVALID_VALUE")
	broken = false
	compareWithCPU(t, b, "after a failed launch", []*graph.Node{graph.Unary(graph.OpSqrt, x)}, []bool{true}, bound, alloc)
}
