// Tests of Eval against the fake driver: results of the fake's runnable
// add kernel through uploads, launches and ToHost; the module cache (a
// warm evaluation generates and loads nothing); argument packing for
// every kernel of several plans; profiling; and concurrent evaluations.

package cuda

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// hostI32 returns a contiguous int32 host tensor of n elements i*k.
func hostI32(t testing.TB, alloc memory.Allocator, n, k int) *exec.Tensor {
	t.Helper()
	return hostTensor(t, alloc, graph.Int32, graph.Shape{n}, func(i int) int32 { return int32(i * k) })
}

// addGraph returns x + y over int32 vectors of n elements.
func addGraph(n int) (x, y, out *graph.Node) {
	x = graph.Input(graph.Int32, graph.Shape{n}, "x")
	y = graph.Input(graph.Int32, graph.Shape{n}, "y")
	return x, y, graph.Binary(graph.OpAdd, x, y)
}

// addRequest returns the request of addGraph(n) with x bound to the host
// vector i*kx and y to i*ky, and the checked allocator they come from;
// the test's cleanup releases both and asserts that the allocator has
// nothing left.
func addRequest(t testing.TB, n, kx, ky int) (*exec.Request, *memory.CheckedAllocator) {
	t.Helper()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	x, y, out := addGraph(n)
	hx, hy := hostI32(t, mem, n, kx), hostI32(t, mem, n, ky)
	t.Cleanup(func() {
		hx.Release()
		hy.Release()
	})
	return &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{x: hx, y: hy}}, mem
}

// evalHost evaluates req's one output on b and returns its host copy in
// alloc, which the caller releases; the device result is released.
func evalHost(ctx context.Context, b *Backend, req *exec.Request, alloc memory.Allocator) (*exec.Tensor, error) {
	res, err := b.Eval(ctx, req)
	if err != nil {
		return nil, err
	}
	defer releaseAll(res)
	return b.ToHost(ctx, res[0], alloc)
}

func TestEvalRunsFakeAdd(t *testing.T) {
	f, b := fakeBackend(t, Options{Compile: addCompile, StagingChunk: 4096})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	const n = 5000
	x, y, out := addGraph(n)
	hx, hy := hostI32(t, mem, n, 1), hostI32(t, mem, n, 3)
	defer hx.Release()
	defer hy.Release()

	res, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{x: hx, y: hy}})
	require.NoError(t, err)
	require.Len(t, res, 1)
	require.True(t, res[0].OnDevice(), "results stay on the device")
	rec := f.lastLaunch()
	require.Equal(t, "fake_add", rec.name)
	require.Equal(t, uint64(n), rec.params[3])
	require.Equal(t, uint64(res[0].Dev.(*Buffer).Ptr()), rec.params[2], "the output pointer is the result buffer")

	host, err := b.ToHost(ctx, res[0], mem)
	require.NoError(t, err)
	got := exec.Elems[int32](host)
	for i := range n {
		if got[i] != int32(4*i) {
			t.Fatalf("element %d got:%v want:%v", i, got[i], 4*i)
		}
	}
	host.Release()

	// The result is used in place as an input: no upload of it.
	z := graph.Input(graph.Int32, graph.Shape{n}, "z")
	out2 := graph.Binary(graph.OpAdd, z, x)
	up := b.Stats().Uploaded
	res2, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out2}, Bound: bindings{z: res[0], x: hx}})
	require.NoError(t, err)
	require.Equal(t, up+4*n, b.Stats().Uploaded, "only the host input moved")
	require.Equal(t, uint64(res[0].Dev.(*Buffer).Ptr()), f.lastLaunch().params[0])
	host, err = b.ToHost(ctx, res2[0], mem)
	require.NoError(t, err)
	require.Equal(t, int32(5*(n-1)), exec.Elems[int32](host)[n-1])
	host.Release()
	res[0].Release()
	res2[0].Release()
}

func TestWarmEvalGeneratesAndLoadsNothing(t *testing.T) {
	var compiles atomic.Int64
	counting := func(p *fuse.Plan, tg codegen.Target) (*codegen.Module, error) {
		compiles.Add(1)
		return addCompile(p, tg)
	}
	f, b := fakeBackend(t, Options{Compile: counting})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	hx, hy := hostI32(t, mem, 64, 1), hostI32(t, mem, 64, 2)
	defer hx.Release()
	defer hy.Release()
	for i := range 3 {
		// A new but structurally equal graph each time.
		x, y, out := addGraph(64)
		launches := f.LaunchCount()
		res, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{x: hx, y: hy}})
		require.NoError(t, err)
		res[0].Release()
		st := b.Stats()
		for _, c := range []struct {
			what      string
			got, want int64
		}{
			{"compiles", st.Compiles, 1},
			{"generator calls", compiles.Load(), 1},
			{"module loads", st.ModuleLoads, 1},
			{"plan misses", st.Plans.Misses, 1},
			{"plan hits", st.Plans.Hits, int64(i)},
			{"launches this eval", f.LaunchCount() - launches, 1},
		} {
			if c.got != c.want {
				t.Errorf("eval %d: %s got:%v want:%v", i, c.what, c.got, c.want)
			}
		}
	}
	// A different plan with the same PTX shares the loaded module.
	x, y, out := addGraph(128)
	hx2, hy2 := hostI32(t, mem, 128, 1), hostI32(t, mem, 128, 1)
	defer hx2.Release()
	defer hy2.Release()
	res, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{x: hx2, y: hy2}})
	require.NoError(t, err)
	res[0].Release()
	st := b.Stats()
	require.Equal(t, int64(2), st.Compiles)
	require.Equal(t, int64(1), st.ModuleLoads)
	require.Equal(t, int64(1), st.ModuleHits)
}

// packCases are graphs whose plans cover map, reduce and matmul kernels
// with views.
func packCases() []struct {
	name string
	outs func() ([]*graph.Node, map[*graph.Node][]int)
} {
	f32 := func(s ...int) *graph.Node { return graph.Input(graph.Float32, graph.Shape(s), "a") }
	return []struct {
		name string
		outs func() ([]*graph.Node, map[*graph.Node][]int)
	}{
		{"map chain", func() ([]*graph.Node, map[*graph.Node][]int) {
			a, c := f32(1000), f32(1000)
			e := graph.Unary(graph.OpExp, graph.Binary(graph.OpMul, a, c))
			return []*graph.Node{graph.Binary(graph.OpAdd, e, a)}, map[*graph.Node][]int{a: {1000}, c: {1000}}
		}},
		{"row sum and max", func() ([]*graph.Node, map[*graph.Node][]int) {
			a := f32(64, 300)
			return []*graph.Node{graph.Reduce(graph.OpSum, a, []int{1}, false), graph.Reduce(graph.OpReduceMax, a, []int{1}, false)},
				map[*graph.Node][]int{a: {64, 300}}
		}},
		{"full sum", func() ([]*graph.Node, map[*graph.Node][]int) {
			a := f32(1 << 16)
			return []*graph.Node{graph.Reduce(graph.OpSum, a, []int{0}, false)}, map[*graph.Node][]int{a: {1 << 16}}
		}},
		{"softmax", func() ([]*graph.Node, map[*graph.Node][]int) {
			a := f32(32, 100)
			m := graph.Reduce(graph.OpReduceMax, a, []int{1}, true)
			e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, a, m))
			s := graph.Reduce(graph.OpSum, e, []int{1}, true)
			return []*graph.Node{graph.Binary(graph.OpDiv, e, s)}, map[*graph.Node][]int{a: {32, 100}}
		}},
		{"matmul with epilogue", func() ([]*graph.Node, map[*graph.Node][]int) {
			a, c := f32(48, 40), f32(40, 24)
			p := graph.MatMul(a, graph.Permute(graph.Permute(c, []int{1, 0}), []int{1, 0}))
			return []*graph.Node{graph.Unary(graph.OpTanh, p)}, map[*graph.Node][]int{a: {48, 40}, c: {40, 24}}
		}},
	}
}

// TestArgumentPacking evaluates plans with map, reduce and matmul
// kernels, with the test generator and with the real one (codegen's PTX
// loaded by the fake), and checks the launches the fake recorded: their
// number, geometry, and that every parameter of the last launch is the
// address of its buffer (bound inputs in place, results in the returned
// tensors) or the launch's pass.
func TestArgumentPacking(t *testing.T) {
	for _, gen := range []struct {
		name    string
		compile CompileFunc
	}{{"stub", stubCompile}, {"codegen", nil}} {
		t.Run(gen.name, func(t *testing.T) { testArgumentPacking(t, gen.compile) })
	}
}

func testArgumentPacking(t *testing.T, compile CompileFunc) {
	f, b := fakeBackend(t, Options{Compile: compile})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	for _, c := range packCases() {
		t.Run(c.name, func(t *testing.T) {
			outs, shapes := c.outs()
			bound := bindings{}
			for n, s := range shapes {
				h := hostF32(t, mem, s...)
				d := toDevice(t, b, h)
				h.Release()
				bound[n] = d
			}
			defer func() {
				for _, d := range bound {
					d.Release()
				}
			}()
			before := f.LaunchCount()
			res, err := b.Eval(ctx, &exec.Request{Outputs: outs, Bound: bound})
			require.NoError(t, err)
			defer func() {
				for _, r := range res {
					r.Release()
				}
			}()
			layouts := map[*graph.Node]graph.Layout{}
			for n, d := range bound {
				layouts[n] = d.Layout
			}
			plan, slots, err := b.planOf(outs, layouts)
			require.NoError(t, err)
			prog, err := b.buildProgram(plan)
			require.NoError(t, err)
			defer prog.Release()
			want := 0
			for i := range prog.kernels {
				want += len(prog.kernels[i].sig.Launches)
			}
			require.Equal(t, int64(want), f.LaunchCount()-before, "launches for\n%s", fuse.Explain(plan))

			lastK := &prog.kernels[len(prog.kernels)-1]
			lastL := lastK.sig.Launches[len(lastK.sig.Launches)-1]
			rec := f.lastLaunch()
			require.Equal(t, lastK.sig.Entry, rec.name)
			require.Equal(t, uint32(lastL.Grid.X), rec.grid)
			require.Equal(t, uint32(lastL.Block.X), rec.block)
			require.Len(t, rec.params, len(lastK.sig.Params))
			for i, prm := range lastK.sig.Params {
				if prm.Kind == codegen.ParamPass {
					require.Equal(t, uint64(uint32(lastL.Pass)), rec.params[i], "pass")
					continue
				}
				if prm.Kind == codegen.ParamScratch {
					require.NotZero(t, rec.params[i], "scratch %d", prm.Buffer)
					require.Zero(t, rec.params[i]%16, "scratch %d is 16-byte aligned", prm.Buffer)
					for _, r := range res {
						require.NotEqual(t, uint64(r.Dev.(*Buffer).Ptr()), rec.params[i], "scratch %d is no result", prm.Buffer)
					}
					continue
				}
				require.NotZero(t, rec.params[i], "buffer %d", prm.Buffer)
				require.Zero(t, rec.params[i]%16, "buffer %d is 16-byte aligned", prm.Buffer)
				if bf := plan.Buffers[prm.Buffer]; bf.Kind == fuse.BufInput {
					d := bound[slots[bf.Slot]]
					require.Equal(t, uint64(d.Dev.(*Buffer).Ptr()), rec.params[i], "input buffer %d in place", prm.Buffer)
				}
				for oi, o := range plan.Outputs {
					if o.Buffer == prm.Buffer && plan.Buffers[prm.Buffer].Kind == fuse.BufResult {
						require.Equal(t, uint64(res[oi].Dev.(*Buffer).Ptr()), rec.params[i], "output %d", oi)
					}
				}
			}
			for i, r := range res {
				require.True(t, r.OnDevice() || plan.Outputs[i].View, "output %d", i)
			}
		})
	}
}

func TestLaunchAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	_, b := fakeBackend(t, Options{Compile: stubCompile})
	ctx := context.Background()
	x, y, out := addGraph(256)
	mem := checkedAlloc(t, memory.DefaultAllocator)
	hx, hy := hostI32(t, mem, 256, 1), hostI32(t, mem, 256, 1)
	dx, dy := toDevice(t, b, hx), toDevice(t, b, hy)
	hx.Release()
	hy.Release()
	defer dx.Release()
	defer dy.Release()
	res, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{x: dx, y: dy}})
	require.NoError(t, err)
	res[0].Release()
	plan, _, err := b.planOf([]*graph.Node{out}, map[*graph.Node]graph.Layout{
		x: graph.ContiguousLayout(graph.Int32, graph.Shape{256}), y: graph.ContiguousLayout(graph.Int32, graph.Shape{256})})
	require.NoError(t, err)
	prog, err := b.buildProgram(plan)
	require.NoError(t, err)
	defer prog.Release()
	ln, err := b.lanes.acquire(ctx)
	require.NoError(t, err)
	defer b.lanes.release(ln)
	ptrs := make([]uint64, len(plan.Buffers))
	for i := range ptrs {
		ptrs[i] = uint64(dx.Dev.(*Buffer).Ptr())
	}
	dptrs := toDevicePtrs(ptrs)
	// The emulator's hook runs Go code for every launch; the launch path
	// itself is what is measured here.
	withoutLaunchHook(t)
	allocs := testing.AllocsPerRun(200, func() {
		if err := b.launch(ln, &prog.kernels[0], dptrs); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("allocations per launch got:%v want:0", allocs)
	}
}

func TestProfileTimesKernels(t *testing.T) {
	_, b := fakeBackend(t, Options{Compile: stubCompile, Profile: exec.On})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	outs, shapes := packCases()[3].outs() // softmax: several kernels
	bound := bindings{}
	for n, s := range shapes {
		bound[n] = hostF32(t, mem, s...)
	}
	res, err := b.Eval(ctx, &exec.Request{Outputs: outs, Bound: bound})
	require.NoError(t, err)
	for _, r := range res {
		r.Release()
	}
	for _, h := range bound {
		h.Release()
	}
	r := b.LastRun()
	require.NotNil(t, r)
	require.NotEmpty(t, r.Kernels)
	for _, k := range r.Kernels {
		// The fake's clock advances 0.125 ms per launch.
		want := 125 * len(k.Launches)
		require.Equal(t, want, int(k.Time.Microseconds()), "kernel %s", k.Name)
		require.Positive(t, k.GBps())
	}
	text := r.Explain()
	for _, want := range []string{"measured", "GB/s", r.Kernels[0].Entry, "total"} {
		require.Contains(t, text, want)
	}
}

// TestLaunchDescriptor makes a launch of every kind of the shared
// descriptor: a 3-D grid and block, dynamic shared memory, and scalar
// parameters of every dtype beside the buffers and the pass, and checks
// what the fake driver received.
func TestLaunchDescriptor(t *testing.T) {
	const ptxText = ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry k3d(\n" +
		"\t.param .u64 a,\n\t.param .u64 b,\n\t.param .u64 c,\n" +
		"\t.param .s32 i,\n\t.param .s64 l,\n\t.param .f32 f,\n\t.param .f64 d,\n\t.param .u32 z,\n\t.param .s32 pass\n)\n{\n\tret;\n}\n"
	launch := codegen.Launch{Grid: codegen.Dim3{X: 2, Y: 3, Z: 4}, Block: codegen.Dim3{X: 8, Y: 4, Z: 2}, SharedBytes: 96, Pass: 7}
	scalars := []graph.Scalar{
		{DType: graph.Int32, I: -5}, {DType: graph.Int64, I: -1 << 40}, {DType: graph.Float32, F: 1.5},
		{DType: graph.Float64, F: -0.25}, {DType: graph.Bool, I: 1},
	}
	want := []func(t *testing.T, v uint64){
		func(t *testing.T, v uint64) { require.Equal(t, uint64(uint32(0xfffffffb)), v&0xffffffff) },
		func(t *testing.T, v uint64) { require.Equal(t, uint64(0xffffff0000000000), v) },
		func(t *testing.T, v uint64) { require.Equal(t, uint64(math.Float32bits(1.5)), v&0xffffffff) },
		func(t *testing.T, v uint64) { require.Equal(t, math.Float64bits(-0.25), v) },
		func(t *testing.T, v uint64) { require.Equal(t, uint64(1), v&0xffffffff) },
	}
	f, b := fakeBackend(t, Options{Compile: func(p *fuse.Plan, _ codegen.Target) (*codegen.Module, error) {
		sig := codegen.Signature{Entry: "k3d", Launches: []codegen.Launch{launch}}
		for _, bf := range kernelBuffers(&p.Kernels[0]) {
			sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamBuffer, Buffer: bf})
		}
		for _, v := range scalars {
			sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamScalar, Buffer: -1, Value: v})
		}
		sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamPass, Buffer: -1})
		return &codegen.Module{PTX: ptxText, Kernels: []codegen.Signature{sig}}, nil
	}})
	req, _ := addRequest(t, 10, 1, 1)
	res, err := b.Eval(context.Background(), req)
	require.NoError(t, err)
	res[0].Release()
	rec := f.lastLaunch()
	require.Equal(t, "k3d", rec.name)
	require.Equal(t, [7]uint32{2, 3, 4, 8, 4, 2, 96}, rec.dims, "grid, block and dynamic shared memory")
	require.Len(t, rec.params, 3+len(scalars)+1)
	for i, w := range want {
		w(t, rec.params[3+i])
	}
	require.Equal(t, uint64(7), rec.params[len(rec.params)-1], "pass")
}

func TestCompileErrorIsAnError(t *testing.T) {
	_, b := fakeBackend(t, Options{Compile: func(*fuse.Plan, codegen.Target) (*codegen.Module, error) {
		return &codegen.Module{PTX: "FAKE_JIT_ERROR", Kernels: []codegen.Signature{{Entry: "k", Launches: []codegen.Launch{{Grid: codegen.D1(1), Block: codegen.D1(1)}}}}}, nil
	}})
	req, _ := addRequest(t, 10, 1, 1)
	_, err := b.Eval(context.Background(), req)
	require.ErrorContains(t, err, "JIT log")
	require.ErrorContains(t, err, "loading the module")
}

func TestConcurrentEval(t *testing.T) {
	_, b := fakeBackend(t, Options{Compile: addCompile, Streams: 3, StagingChunk: 4096})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	concurrently(t, 8, func(g int) error {
		for it := range 10 {
			n := 1000 + 100*g + it
			x, y, out := addGraph(n)
			hx, hy := hostI32(t, mem, n, g), hostI32(t, mem, n, 1)
			host, err := evalHost(ctx, b, &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{x: hx, y: hy}}, mem)
			hx.Release()
			hy.Release()
			if err != nil {
				return err
			}
			got := exec.Elems[int32](host)
			for i := range n {
				if got[i] != int32(i*(g+1)) {
					host.Release()
					return fmt.Errorf("goroutine %d n %d element %d got:%v want:%v", g, n, i, got[i], i*(g+1))
				}
			}
			host.Release()
		}
		return nil
	})
}

// toDevicePtrs converts raw addresses for launch.
func toDevicePtrs(p []uint64) []drv.DevicePtr {
	out := make([]drv.DevicePtr, len(p))
	for i, v := range p {
		out[i] = drv.DevicePtr(v)
	}
	return out
}

func TestBadGeometryIsALaunchError(t *testing.T) {
	broken := func(p *fuse.Plan, tg codegen.Target) (*codegen.Module, error) {
		m, err := stubCompile(p, tg)
		if err == nil {
			m.Kernels[0].Launches[0].Block = codegen.D1(4096) // more threads than a block may have
		}
		return m, err
	}
	_, b := fakeBackend(t, Options{Compile: broken})
	req, _ := addRequest(t, 100, 1, 1)
	_, err := b.Eval(context.Background(), req)
	require.ErrorContains(t, err, "launching kernel")
	require.ErrorContains(t, err, "block 4096")
	require.ErrorContains(t, err, "CUDA_ERROR_INVALID_VALUE")
}
