// The emulated-device suite (see emulate_test.go): generated kernels run
// on the IR interpreter behind the fake driver, checked against the
// reference evaluator and the CPU backend. Random graphs (-emu.graphs
// sets how many), every reduction op and strategy with ties, NaN and
// infinities, reductions of empty selections (the same bits as the
// reference: a float Sum of nothing is +0, not the -0 a fold starts
// from), GEMMs with epilogues, bound views on the host and on the
// device, results reused on the device, ToHost of device views,
// concurrent evaluations, and a kernel fault.

package cuda

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

var emuGraphs = flag.Int("emu.graphs", 1000, "random graphs for the emulated-device differential test")

// randCase returns the random graph of seed: bigger graphs on every
// other seed.
func randCase(t testing.TB, seed uint64, alloc memory.Allocator) *randgraph.Case {
	t.Helper()
	cfg := randgraph.Config{}
	if seed%2 == 1 {
		cfg = randgraph.Config{MaxExtent: 9, Steps: 10}
	}
	c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, cfg)
	require.NoError(t, err, "seed %d", seed)
	return c
}

// TestEmulatedDifferential evaluates random graphs on the emulated small
// device (two seeds in three) and on the H100-like one, against the
// reference and the CPU backend.
func TestEmulatedDifferential(t *testing.T) {
	devs := []*Backend{emuBackend(t, emuSmall, Options{}), emuBackend(t, emuH100, Options{})}
	n := *emuGraphs
	if testing.Short() {
		n = min(n, 100)
	}
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	for seed := range uint64(n) {
		c := randCase(t, seed, alloc)
		b := devs[0]
		if seed%3 == 2 {
			b = devs[1]
		}
		checkCase(t, b, fmt.Sprintf("seed %d", seed), c, alloc, func() {
			if f := emu.takeFaults(); len(f) > 0 {
				t.Errorf("seed %d: kernel faults: %v", seed, f)
			}
		})
	}
}

// specialInput returns an input "x" of d and shape and a host tensor
// for it filled by fillSpecial (the caller releases it).
func specialInput(t testing.TB, alloc memory.Allocator, d graph.DType, shape graph.Shape, r *rand.Rand, nan int) (*graph.Node, *exec.Tensor) {
	t.Helper()
	hx, err := exec.NewTensor(alloc, d, shape)
	require.NoError(t, err)
	fillSpecial(hx, r, nan)
	return graph.Input(d, shape, "x"), hx
}

// expectCompiled fails t, when it ends, unless the emulator compiled a
// kernel of each of kinds ("reduce column") from now on.
func expectCompiled(t testing.TB, kinds ...string) {
	t.Helper()
	before := emu.compiled()
	t.Cleanup(func() {
		after := emu.compiled()
		for _, s := range kinds {
			if after[s] <= before[s] {
				t.Errorf("no %s kernel was generated (compiled: %v)", s, after)
			}
		}
	})
}

// fillSpecial fills host tensor x from r with ties, NaN and
// infinities (randgraph.FillSpecial).
var fillSpecial = randgraph.FillSpecial

// TestEmulatedReductions runs every reduction op on every dtype in the
// shape of each strategy on the small device (warp per row, block per
// row, column, column split over blocks with a second pass, two passes
// over everything), with ties, NaN and infinities, and checks that each
// strategy was generated.
func TestEmulatedReductions(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	expectCompiled(t, "reduce warp-per-row", "reduce block-per-row", "reduce column", "reduce column split", "reduce two-pass")
	shapes := []struct {
		shape graph.Shape
		axes  []int
	}{
		{graph.Shape{37, 13}, []int{1}},     // warp per row
		{graph.Shape{3, 2500}, []int{1}},    // block per row
		{graph.Shape{40, 300}, []int{0}},    // column
		{graph.Shape{9000, 3}, []int{0}},    // column, split
		{graph.Shape{60, 70}, []int{0, 1}},  // two passes
		{graph.Shape{4, 5, 6}, []int{0, 2}}, // a middle axis kept
	}
	ops := []graph.Op{graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin, graph.OpArgMax, graph.OpArgMin, graph.OpAny, graph.OpAll}
	r := rand.New(rand.NewPCG(5, 5))
	for si, sh := range shapes {
		for di, d := range graph.DTypes() {
			// Ties only, or with NaN and infinities too.
			x, hx := specialInput(t, alloc, d, sh.shape, r, []int{0, 200}[(si+di)%2])
			for _, op := range ops {
				axes := sh.axes
				if (op == graph.OpArgMax || op == graph.OpArgMin) && len(axes) > 1 {
					axes = nil // over the flattened array
				}
				y := graph.Reduce(op, x, axes, false)
				if err := graph.Verify(y); err != nil {
					t.Fatalf("%v %v over %v: %v", op, d, axes, err) // every reduction takes every dtype
				}
				exact := !d.IsFloat() || (op != graph.OpSum && op != graph.OpProd)
				compareWithCPU(t, b, fmt.Sprintf("%v %v over %v of %v", op, d, axes, sh.shape), []*graph.Node{y}, []bool{exact},
					bindings{x: hx}, alloc)
			}
			hx.Release()
		}
	}
}

// TestEmulatedComposites runs graphs that fuse several reductions into
// one kernel and broadcast reduced values back (softmax, mean and
// variance, max with its index, logsumexp) over rows and columns of each
// strategy's shape, on both devices.
func TestEmulatedComposites(t *testing.T) {
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	f32 := func(v float64) *graph.Node { return graph.FloatConst(graph.Float32, v) }
	shapes := []graph.Shape{{37, 13}, {3, 2500}, {9000, 3}, {1, 7000}}
	for _, dev := range []emuDevice{emuSmall, emuH100} {
		b := emuBackend(t, dev, Options{})
		for si, s := range shapes {
			for _, axis := range []int{0, 1} {
				if s[axis] < 4 {
					continue // thousands of rows of a few elements: slow to interpret, little to learn
				}
				x := graph.Input(graph.Float32, s, "x")
				n := f32(float64(s[axis]))
				mx := graph.Reduce(graph.OpReduceMax, x, []int{axis}, true)
				e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, mx))
				sum := graph.Reduce(graph.OpSum, e, []int{axis}, true)
				softmax := graph.Binary(graph.OpDiv, e, sum)
				mean := graph.Binary(graph.OpDiv, graph.Reduce(graph.OpSum, x, []int{axis}, false), n)
				meansq := graph.Binary(graph.OpDiv, graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, x), []int{axis}, false), n)
				variance := graph.Binary(graph.OpSub, meansq, graph.Binary(graph.OpMul, mean, mean))
				arg := graph.Reduce(graph.OpArgMax, x, []int{axis}, false)
				lse := graph.Binary(graph.OpAdd, graph.Unary(graph.OpLog, graph.Reduce(graph.OpSum, e, []int{axis}, false)),
					graph.Reduce(graph.OpReduceMax, x, []int{axis}, false))
				outs := []*graph.Node{softmax, mean, variance, arg, lse}
				require.NoError(t, graph.Verify(outs...))
				r := rand.New(rand.NewPCG(uint64(si), uint64(axis)))
				hx := hostTensor(t, alloc, graph.Float32, s, func(int) float32 { return float32(r.NormFloat64()) })
				compareWithCPU(t, b, fmt.Sprintf("device %d shape %v axis %d", dev, s, axis), outs, []bool{false, false, false, true, false},
					bindings{x: hx}, alloc)
				hx.Release()
			}
		}
	}
}

// TestEmulatedMatMul runs GEMMs (square, odd, batched, broadcast batch,
// transposed operands through views) of every numeric dtype with
// epilogues, among them a GEMM whose raw product is an output next to
// its epilogue's.
func TestEmulatedMatMul(t *testing.T) {
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	cases := []struct {
		randgraph.MatMulCase
		withBias   bool
		keepRawOut bool
	}{
		{MatMulCase: randgraph.MatMulCase{A: graph.Shape{1, 1}, B: graph.Shape{1, 1}}},
		{MatMulCase: randgraph.MatMulCase{A: graph.Shape{33, 17}, B: graph.Shape{17, 9}}, withBias: true},
		{MatMulCase: randgraph.MatMulCase{A: graph.Shape{70, 40}, B: graph.Shape{50, 40}, TransB: true}},
		{MatMulCase: randgraph.MatMulCase{A: graph.Shape{40, 65}, B: graph.Shape{40, 30}, TransA: true}, keepRawOut: true},
		{MatMulCase: randgraph.MatMulCase{A: graph.Shape{3, 20, 7}, B: graph.Shape{3, 7, 11}}, withBias: true, keepRawOut: true},
		{MatMulCase: randgraph.MatMulCase{A: graph.Shape{2, 5, 6}, B: graph.Shape{6, 4}}},
		{MatMulCase: randgraph.MatMulCase{A: graph.Shape{2, 9, 6}, B: graph.Shape{2, 8, 6}, TransB: true}},
	}
	for _, dev := range []emuDevice{emuSmall, emuH100} {
		b := emuBackend(t, dev, Options{})
		for ci, c := range cases {
			for _, d := range []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64} {
				what := fmt.Sprintf("device %d case %d %v", dev, ci, d)
				xa, xb, p := c.Product(d)
				out := graph.Binary(graph.OpMax, p, graph.FloatConst(d, 0)) // relu
				if c.withBias {
					n := p.Shape()[len(p.Shape())-1]
					bias := graph.Iota(d, n, -2, 1, false, 0)
					out = graph.Binary(graph.OpAdd, out, bias)
				}
				outs := []*graph.Node{out}
				if c.keepRawOut {
					outs = append(outs, p, graph.Binary(graph.OpMul, p, graph.FloatConst(d, 3)))
				}
				require.NoError(t, graph.Verify(outs...), what)
				bound, err := randgraph.SpecialInputs(alloc, rand.New(rand.NewPCG(uint64(ci), 11)), 0, xa, xb)
				require.NoError(t, err)
				exact := make([]bool, len(outs))
				for i := range exact {
					exact[i] = !d.IsFloat()
				}
				compareWithCPU(t, b, what, outs, exact, bound, alloc)
				for _, x := range bound {
					x.Release()
				}
			}
		}
	}
}

// hostF64 returns a float64 host vector of n elements, element i
// holding i*k+1.
func hostF64(t testing.TB, alloc memory.Allocator, n int, k float64) *exec.Tensor {
	t.Helper()
	return hostTensor(t, alloc, graph.Float64, graph.Shape{n}, func(i int) float64 { return float64(i)*k + 1 })
}

// TestEmulatedViews binds views (strided, transposed, reversed,
// broadcast, with offsets) of a host tensor, and the same views of a
// device copy of it, to graphs of elementwise ops, reductions, a GEMM and
// views of their own, and compares with the reference on the host views.
// Transfers go through a staging ring of 256-byte chunks.
func TestEmulatedViews(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{StagingChunk: 256})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	base := hostF64(t, alloc, 400, 0.5)
	defer base.Release()
	dbase := toDevice(t, b, base)
	defer dbase.Release()
	other := hostF64(t, alloc, 120, -0.25)
	defer other.Release()
	views := []struct {
		name    string
		strides []int
		offset  int
	}{
		{"contiguous with an offset", []int{12, 1}, 37},
		{"transposed", []int{1, 10}, 3},
		{"reversed rows", []int{-12, 1}, 208},
		{"reversed both", []int{-12, -1}, 319},
		{"row broadcast", []int{0, 1}, 5},
		{"column broadcast", []int{3, 0}, 1},
		{"every third", []int{36, 3}, 2},
		{"scalar broadcast", []int{0, 0}, 399},
	}
	shape := graph.Shape{10, 12}
	for _, v := range views {
		x := graph.Input(graph.Float64, shape, "x")
		y := graph.Input(graph.Float64, graph.Shape{12, 10}, "y")
		twice := graph.Binary(graph.OpMul, x, graph.FloatConst(graph.Float64, 2))
		outs := []*graph.Node{
			twice,
			graph.Reduce(graph.OpSum, x, []int{1}, false),
			graph.Reduce(graph.OpArgMax, x, []int{0}, true),
			graph.MatMul(x, y),
			graph.Permute(x, []int{1, 0}),
			graph.Slice(twice, []graph.Range{{Start: 9, Stop: -1, Step: -2, NoStop: true}, {Start: 1, Stop: 12, Step: 3}}),
		}
		require.NoError(t, graph.Verify(outs...), v.name)
		exact := []bool{true, false, true, false, true, true}
		host := bindings{x: base.View(shape, v.strides, v.offset), y: other.View(graph.Shape{12, 10}, []int{10, 1}, 0)}
		dev := bindings{x: dbase.View(shape, v.strides, v.offset), y: host[y]}
		for _, on := range []struct {
			name string
			m    bindings
		}{{"host", nil}, {"device", dev}} {
			errs, notes := diffOutputs(b, v.name+" on the "+on.name, outs, exact, host, on.m, alloc)
			for _, n := range notes {
				t.Log(n)
			}
			for _, err := range errs {
				t.Error(err)
			}
		}
		host[x].Release()
		host[y].Release()
		dev[x].Release()
	}
}

// TestEmulatedDeviceResults chains evaluations through results left on
// the device (no upload of them), reuses one result in several Evals, and
// copies results and strided views of them to the host; a warm evaluation
// of a cached plan generates and loads nothing and still computes. Host
// memory comes from the pinned allocator (transfers by DMA), and kernels
// are timed (profiling on).
func TestEmulatedDeviceResults(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{Profile: exec.On})
	ctx := context.Background()
	alloc := checkedAlloc(t, b.HostAllocator())
	const rows, cols = 30, 40
	hx := hostF64(t, alloc, rows*cols, 1)
	defer hx.Release()
	x := graph.Input(graph.Float64, graph.Shape{rows * cols}, "x")
	sq := graph.Reshape(graph.Binary(graph.OpMul, x, x), graph.Shape{rows, cols})
	res, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{sq}, Bound: bindings{x: hx}})
	require.NoError(t, err)
	d := res[0]
	defer d.Release()
	require.True(t, d.OnDevice())
	want := func(i, j int) float64 { v := float64(i*cols+j) + 1; return v * v }

	// d as an input, twice in the same graph and in several Evals.
	up := b.Stats().Uploaded
	for it := range 3 {
		z := graph.Input(graph.Float64, graph.Shape{rows, cols}, "z")
		w := graph.Input(graph.Float64, graph.Shape{cols, rows}, "w")
		out := graph.Reduce(graph.OpSum, graph.Binary(graph.OpSub, z, graph.Permute(w, []int{1, 0})), []int{0}, false)
		out2 := graph.Binary(graph.OpAdd, z, graph.FloatConst(graph.Float64, float64(it)))
		wv := d.View(graph.Shape{cols, rows}, []int{1, cols}, 0) // d transposed
		r2, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out, out2}, Bound: bindings{z: d, w: wv}})
		wv.Release()
		require.NoError(t, err)
		h0, err := b.ToHost(ctx, r2[0], alloc)
		require.NoError(t, err)
		for j, g := range exec.Elems[float64](h0) {
			require.Equal(t, 0.0, g, "iteration %d column %d", it, j)
		}
		h1, err := b.ToHost(ctx, r2[1], alloc)
		require.NoError(t, err)
		for k, g := range exec.Elems[float64](h1) {
			require.Equal(t, want(k/cols, k%cols)+float64(it), g, "iteration %d element %d", it, k)
		}
		h0.Release()
		h1.Release()
		releaseAll(r2)
	}
	require.Equal(t, up, b.Stats().Uploaded, "device inputs are not uploaded")

	// ToHost of strided views of the device result.
	for _, v := range []struct {
		shape   graph.Shape
		strides []int
		offset  int
		at      func(i, j int) (int, int)
	}{
		{graph.Shape{cols, rows}, []int{1, cols}, 0, func(i, j int) (int, int) { return j, i }},
		{graph.Shape{rows, cols}, []int{-cols, -1}, rows*cols - 1, func(i, j int) (int, int) { return rows - 1 - i, cols - 1 - j }},
		{graph.Shape{5, 4}, []int{6 * cols, 10}, cols + 3, func(i, j int) (int, int) { return 1 + 6*i, 3 + 10*j }},
	} {
		dv := d.View(v.shape, v.strides, v.offset)
		h, err := b.ToHost(ctx, dv, alloc)
		dv.Release()
		require.NoError(t, err)
		require.Equal(t, v.shape, h.Shape)
		for i := range v.shape[0] {
			for j := range v.shape[1] {
				ri, rj := v.at(i, j)
				require.Equal(t, want(ri, rj), exec.Elems[float64](h)[h.Index([]int{i, j})], "view %v (%d,%d)", v.strides, i, j)
			}
		}
		h.Release()
	}

	// A warm evaluation of the first plan: nothing generated or loaded.
	st := b.Stats()
	res2, err := b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{sq}, Bound: bindings{x: hx}})
	require.NoError(t, err)
	h, err := b.ToHost(ctx, res2[0], alloc)
	require.NoError(t, err)
	require.Equal(t, want(rows-1, cols-1), exec.Elems[float64](h)[rows*cols-1])
	h.Release()
	releaseAll(res2)
	now := b.Stats()
	require.Equal(t, st.Compiles, now.Compiles, "compiles")
	require.Equal(t, st.ModuleLoads, now.ModuleLoads, "module loads")
	run := b.LastRun()
	require.NotNil(t, run)
	require.Len(t, run.Kernels, 1)
	require.Contains(t, run.Explain(), "measured")
}

// TestEmulatedConcurrentEval evaluates random graphs from several
// goroutines at once on one backend with fewer streams than goroutines.
func TestEmulatedConcurrentEval(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{Streams: 2})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	const goroutines, each = 6, 8
	cases := make([]*randgraph.Case, goroutines*each)
	for i := range cases {
		cases[i] = randCase(t, uint64(10000+i), alloc)
	}
	concurrently(t, goroutines, func(g int) error {
		var errs []error
		for i := range each {
			c := cases[g*each+i]
			// Each plan twice: the second run is warm and may meet
			// another goroutine's run of the same plan.
			for range 2 {
				e, _ := diffOutputs(b, fmt.Sprintf("goroutine %d case %d", g, i), c.Outputs, c.Exact, c.Bound, nil, alloc)
				errs = append(errs, e...)
			}
		}
		return errors.Join(errs...)
	})
	for _, c := range cases {
		c.Release()
	}
}

// TestEmulatedKernelFault binds a kernel's input parameter to a buffer
// too small for what it reads: the emulated device faults with an illegal
// address, which breaks the device context as on a GPU. Eval returns the
// driver's error naming the kernels, nothing stays allocated, later calls
// fail at once naming that fault, and Close works.
func TestEmulatedKernelFault(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	breakable(t, b)
	ctx := context.Background()
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	b.compile = overreadInput(b.compile)
	x := graph.Input(graph.Float32, graph.Shape{1000}, "x")
	s := graph.Input(graph.Float32, graph.Shape{10}, "s")
	outs := []*graph.Node{graph.Unary(graph.OpExp, x), graph.Unary(graph.OpNeg, s)}
	hx := newHost(t, alloc, graph.Float32, graph.Shape{1000})
	defer hx.Release()
	hs := newHost(t, alloc, graph.Float32, graph.Shape{10})
	defer hs.Release()
	bound := bindings{x: hx, s: hs}
	_, err := b.Eval(ctx, &exec.Request{Outputs: outs, Bound: bound})
	require.Error(t, err)
	require.Contains(t, err.Error(), "CUDA_ERROR_ILLEGAL_ADDRESS")
	require.Contains(t, err.Error(), "running kernels")
	require.ErrorIs(t, err, ErrDeviceFault)
	faults := emu.takeFaults()
	require.Len(t, faults, 1)
	require.Contains(t, faults[0].Error(), "overrun their")
	require.Zero(t, b.Pool().Stats().Live, "live bytes after the failed Eval")

	_, err = b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{graph.Unary(graph.OpSqrt, x)}, Bound: bound})
	var fe *FaultError
	require.True(t, errors.As(err, &fe), "got:%v", err)
	require.Contains(t, fe.PTX, ".entry", "the fault keeps the PTX of the kernels that ran")
	require.Empty(t, emu.takeFaults(), "nothing ran after the fault")
	closeWithin(t, b)
}

// overreadInput wraps a code generator so that the kernel parameter of
// the plan's big input (over 100 elements) points at the small input's
// buffer: the kernel then reads past the end of that buffer.
func overreadInput(good CompileFunc) CompileFunc {
	return func(p *fuse.Plan, tg codegen.Target) (*codegen.Module, error) {
		m, err := good(p, tg)
		if err != nil {
			return m, err
		}
		var big, small int = -1, -1
		for _, in := range p.Inputs {
			if in.Layout.Shape.Size() > 100 {
				big = in.Buffer
			} else {
				small = in.Buffer
			}
		}
		for i := range m.Kernels {
			for j := range m.Kernels[i].Params {
				if prm := &m.Kernels[i].Params[j]; prm.Kind == codegen.ParamBuffer && prm.Buffer == big && small >= 0 {
					prm.Buffer = small
				}
			}
		}
		return m, nil
	}
}

// TestEmulatedEdgeCases: outputs that are bound inputs or views of them
// (on the host and on the device), one device tensor bound to two
// inputs, empty and rank-0 arrays, a plan of many kernels, a cancelled
// context, and running out of device memory in the middle of an
// evaluation; each failure leaves nothing allocated and the next
// evaluation works.
func TestEmulatedEdgeCases(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	ctx := context.Background()
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	hx := hostF64(t, alloc, 24, 1)
	defer hx.Release()
	dx := toDevice(t, b, hx)
	defer dx.Release()
	live := b.Pool().Stats().Live // dx's
	x := graph.Input(graph.Float64, graph.Shape{24}, "x")
	y := graph.Input(graph.Float64, graph.Shape{24}, "y")
	check := func(what string, outs []*graph.Node, host, dev bindings) {
		t.Helper()
		exact := make([]bool, len(outs))
		for i := range exact {
			exact[i] = true
		}
		errs, _ := diffOutputs(b, what, outs, exact, host, dev, alloc)
		for _, err := range errs {
			t.Error(err)
		}
	}
	m := graph.Reshape(x, graph.Shape{4, 6})
	passthrough := []*graph.Node{x, graph.Permute(m, []int{1, 0}), graph.Binary(graph.OpAdd, x, y)}
	check("inputs as outputs, host", passthrough, bindings{x: hx, y: hx}, nil)
	check("inputs as outputs, device", passthrough, bindings{x: hx, y: hx}, bindings{x: dx, y: dx})

	// Empty and rank-0 arrays.
	e := graph.Input(graph.Float64, graph.Shape{0, 3}, "e")
	he, err := exec.NewTensor(alloc, graph.Float64, graph.Shape{0, 3})
	require.NoError(t, err)
	defer he.Release()
	s := graph.Reduce(graph.OpSum, x, nil, false)
	check("empty and scalar", []*graph.Node{
		graph.Unary(graph.OpNeg, e), graph.Reduce(graph.OpSum, e, []int{0}, false), graph.Reduce(graph.OpReduceMax, e, []int{1}, false),
		s, graph.Binary(graph.OpMul, s, s), graph.Binary(graph.OpSub, x, s),
	}, bindings{x: hx, e: he}, nil)

	// A chain of 40 reductions broadcast back: a plan of many kernels.
	v := m
	for i := range 40 {
		v = graph.Binary(graph.OpSub, v, graph.Reduce(graph.OpReduceMax, v, []int{i % 2}, true))
		v = graph.Binary(graph.OpAdd, v, graph.FloatConst(graph.Float64, float64(i)))
	}
	check("40 reductions", []*graph.Node{v}, bindings{x: hx}, nil)

	// A cancelled context.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = b.Eval(cctx, &exec.Request{Outputs: []*graph.Node{v}, Bound: bindings{x: hx}})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, live, b.Pool().Stats().Live)

	// Out of device memory half way: the first buffers fit, a later one
	// does not.
	big := graph.Input(graph.Float64, graph.Shape{1 << 16}, "big")
	hb := newHost(t, alloc, graph.Float64, graph.Shape{1 << 16})
	defer hb.Release()
	t1 := graph.Unary(graph.OpExp, big)
	t2 := graph.Reduce(graph.OpSum, t1, nil, true)
	out := graph.Binary(graph.OpDiv, t1, t2)
	b.Pool().Trim()
	fake.SetMemLimit(fake.MemUsed() + 3<<18)
	_, err = b.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{big: hb}})
	fake.SetMemLimit(1 << 30)
	require.Error(t, err)
	require.Contains(t, err.Error(), "cannot allocate")
	require.Equal(t, live, b.Pool().Stats().Live)
	check("after running out of memory", []*graph.Node{out}, bindings{big: hb}, nil)
}

// TestEmulatedDifferentialAllDTypes is TestEmulatedDifferential on graphs
// whose inputs and casts take every dtype (int8 ... uint64, float16,
// bfloat16): 200 graphs, 50 with -short, on both emulated devices.
func TestEmulatedDifferentialAllDTypes(t *testing.T) {
	devs := []*Backend{emuBackend(t, emuSmall, Options{}), emuBackend(t, emuH100, Options{})}
	n := 200
	if testing.Short() {
		n = 50
	}
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	for seed := range uint64(n) {
		seed += 70000
		c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, randgraph.Config{AllDTypes: true})
		require.NoError(t, err, "seed %d", seed)
		b := devs[seed%2]
		before := t.Failed()
		compareWithCPU(t, b, fmt.Sprintf("seed %d", seed), c.Outputs, c.Exact, c.Bound, alloc)
		if f := emu.takeFaults(); len(f) > 0 {
			t.Errorf("seed %d: kernel faults: %v", seed, f)
		}
		if !before && t.Failed() {
			t.Logf("seed %d graph:\n%s", seed, strings.Join(c.Desc, "\n"))
		}
		c.Release()
	}
}

func TestEmulatedEmptyReductions(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	ctx := context.Background()
	for _, d := range graph.DTypes() {
		for _, c := range []struct {
			shape graph.Shape
			axes  []int
		}{{graph.Shape{0}, nil}, {graph.Shape{0, 3}, nil}, {graph.Shape{0, 3}, []int{0}}, {graph.Shape{3, 0}, []int{1}}, {graph.Shape{2, 0, 3}, []int{1}}} {
			x := graph.Input(d, c.shape, "x")
			hx := newHost(t, alloc, d, c.shape)
			bound := bindings{x: hx}
			for _, op := range []graph.Op{graph.OpSum, graph.OpProd, graph.OpAny, graph.OpAll} {
				for _, keep := range []bool{false, true} {
					y := graph.Reduce(op, x, c.axes, keep)
					what := fmt.Sprintf("%v %v over %v of %v keep %v", op, d, c.axes, c.shape, keep)
					req := &exec.Request{Outputs: []*graph.Node{y}, Bound: bound, Alloc: alloc}
					want, err := ref.New().Eval(ctx, req)
					require.NoError(t, err, what)
					got, err := b.Eval(ctx, req)
					require.NoError(t, err, what)
					h, err := b.ToHost(ctx, got[0], alloc)
					require.NoError(t, err, what)
					es := y.DType().Size()
					n := y.Size() * es
					require.Equal(t, want[0].Buf.Bytes()[want[0].Offset*es:][:n], h.Buf.Bytes()[h.Offset*es:][:n], what)
					h.Release()
					got[0].Release()
					want[0].Release()
				}
			}
			hx.Release()
		}
	}
}
