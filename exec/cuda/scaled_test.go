// The scaled tier of the GPU differential suite: random graphs with
// extents up to 64 and fixed shapes of each kernel kind large enough that
// maps loop over the grid and take four vectors per thread, reductions
// take every strategy (columns split over blocks, a block per row), and
// GEMMs span many tiles; inputs bound from Go memory (the staging ring),
// pinned memory (DMA) and device memory in turn; and a fast-math pass
// held to the documented tolerance (doc.go, "Fast math").
//
// On a GPU (FUSEFLOW_DEVICE=cuda, -run GPUScaled) the fixed shapes hold
// 2^20 to 2^25 elements. CI runs the same tier scaled down on the small
// emulated device, whose 2 SMs of 512 threads reach every geometry at
// sizes the interpreter runs in seconds (TestEmulatedScaled; fewer cases
// under -race or -short).

package cuda

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

var (
	scaledGraphs = flag.Int("scaled.graphs", 0, "random graphs of the scaled tier (0: 200 on a GPU, fewer emulated)")
	scaledSmall  = flag.Bool("scaled.small", false, "TestGPUScaled at the emulated tier's small sizes (for compute-sanitizer)")
)

// scaledCase is one fixed workload of the scaled tier.
type scaledCase struct {
	name  string
	build func() (outs []*graph.Node, exact []bool, shapes map[*graph.Node]graph.Shape)
}

// scaledTier is the size of a run of the tier.
type scaledTier struct {
	// coverage says that the fixed cases must reach every path of
	// scaledWant on the device they run on.
	coverage bool
	graphs   int
	cfg      randgraph.Config
	fixed    []scaledCase
	fastN    int // elements per function of the fast-math pass
}

// gpuScaledTier is the tier a GPU runs: shapes of 2^20 to 2^25 elements.
func gpuScaledTier() scaledTier {
	return scaledTier{
		coverage: true,
		graphs:   200,
		cfg:      randgraph.Config{MaxRank: 3, MaxExtent: 64, Steps: 8},
		fixed: []scaledCase{
			mapCase(graph.Float32, 3<<24+5, false),   // 4 vectors a thread, two trips round the grid, a tail
			mapCase(graph.Float32, 1<<24, false),     // contiguous, vectorized
			mapCase(graph.Float64, 1<<22, false),     // two lanes a vector
			transposeCase(graph.Float32, 4096, 4096), // one element a lane, two trips round the grid
			broadcastCase(graph.Float64, 2048, 2048),
			reduceCase(graph.OpSum, graph.Float32, []int{1}, 1<<20, 16), // a warp per row
			reduceCase(graph.OpSum, graph.Float32, []int{1}, 64, 1<<18), // a block per row
			reduceCase(graph.OpReduceMax, graph.Float32, []int{1}, 4, 1<<22),
			reduceCase(graph.OpSum, graph.Float32, []int{0}, 1<<14, 1024), // columns
			reduceCase(graph.OpSum, graph.Float32, []int{0}, 1<<18, 64),   // columns split over blocks
			reduceCase(graph.OpSum, graph.Float32, []int{0}, 8191, 64),
			reduceCase(graph.OpSum, graph.Float32, nil, 1<<24),    // two passes
			reduceCase(graph.OpSum, graph.Int64, nil, 1<<22),      // two passes, exact
			reduceCase(graph.OpArgMax, graph.Float32, nil, 1<<23), // two passes with an index
			reduceCase(graph.OpReduceMin, graph.Int32, []int{0}, 3000, 2000),
			softmaxCase(4096, 4096),
			// Outputs of 2^20 to 2^21 elements over many tiles; K is kept
			// short so that the reference's naive product stays quick.
			gemmCase(graph.Float32, 1024, 256, 1024, false),
			gemmCase(graph.Float32, 2048, 128, 1536, true),
			gemmCase(graph.Float64, 1000, 300, 1001, false),
		},
		fastN: 1 << 20,
	}
}

// emuScaledTier is the tier on the small emulated device: the same
// geometries at sizes the interpreter runs quickly.
func emuScaledTier() scaledTier {
	t := scaledTier{
		coverage: true,
		graphs:   12,
		cfg:      randgraph.Config{MaxRank: 2, MaxExtent: 64, Steps: 6},
		fixed: []scaledCase{
			mapCase(graph.Float32, 3<<16+5, false),
			transposeCase(graph.Float32, 190, 200),
			broadcastCase(graph.Float64, 96, 130),
			reduceCase(graph.OpSum, graph.Float32, []int{1}, 600, 13),
			reduceCase(graph.OpReduceMax, graph.Float32, []int{1}, 3, 9000),
			reduceCase(graph.OpSum, graph.Float32, []int{0}, 64, 300),
			reduceCase(graph.OpSum, graph.Float32, []int{0}, 12000, 3),
			reduceCase(graph.OpSum, graph.Float32, nil, 40000),
			reduceCase(graph.OpSum, graph.Int64, nil, 30000),
			softmaxCase(40, 600),
			gemmCase(graph.Float32, 96, 80, 72, true),
			gemmCase(graph.Float64, 65, 33, 70, false),
		},
		fastN: 4096,
	}
	if testing.Short() || raceEnabled {
		t.graphs = 4
		t.fixed = t.fixed[1:] // all but the largest map
		t.fastN = 1024
	}
	return t
}

// mapCase is x*2 + exp(-|y|) over n elements; strided reverses y.
func mapCase(d graph.DType, n int, strided bool) scaledCase {
	return scaledCase{fmt.Sprintf("map %v %d", d, n), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
		x, y := graph.Input(d, graph.Shape{n}, "x"), graph.Input(d, graph.Shape{n}, "y")
		yv := y
		if strided {
			yv = graph.Slice(y, []graph.Range{{Start: n - 1, Step: -1, NoStop: true}})
		}
		two := graph.FloatConst(d, 2)
		out := graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, x, two), graph.Unary(graph.OpExp, graph.Unary(graph.OpNeg, graph.Unary(graph.OpAbs, yv))))
		return []*graph.Node{out, graph.Binary(graph.OpSub, x, yv)}, []bool{false, true}, map[*graph.Node]graph.Shape{x: {n}, y: {n}}
	}}
}

// transposeCase is x.T + y over an (r, c) x: a strided operand.
func transposeCase(d graph.DType, r, c int) scaledCase {
	return scaledCase{fmt.Sprintf("transpose %v (%d,%d)", d, r, c), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
		x, y := graph.Input(d, graph.Shape{r, c}, "x"), graph.Input(d, graph.Shape{c, r}, "y")
		out := graph.Binary(graph.OpAdd, graph.Permute(x, []int{1, 0}), y)
		return []*graph.Node{out}, []bool{true}, map[*graph.Node]graph.Shape{x: {r, c}, y: {c, r}}
	}}
}

// broadcastCase is sqrt(|x + row|) with a row vector broadcast.
func broadcastCase(d graph.DType, r, c int) scaledCase {
	return scaledCase{fmt.Sprintf("broadcast %v (%d,%d)", d, r, c), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
		x, row := graph.Input(d, graph.Shape{r, c}, "x"), graph.Input(d, graph.Shape{c}, "row")
		out := graph.Unary(graph.OpSqrt, graph.Unary(graph.OpAbs, graph.Binary(graph.OpAdd, x, row)))
		return []*graph.Node{out}, []bool{true}, map[*graph.Node]graph.Shape{x: {r, c}, row: {c}}
	}}
}

// reduceCase is op over axes (nil: all) of an input of shape s.
func reduceCase(op graph.Op, d graph.DType, axes []int, s ...int) scaledCase {
	return scaledCase{fmt.Sprintf("%v %v over %v of %v", op, d, axes, s), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
		x := graph.Input(d, graph.Shape(s), "x")
		exact := !d.IsFloat() || op == graph.OpReduceMax || op == graph.OpReduceMin || op == graph.OpArgMax || op == graph.OpArgMin
		return []*graph.Node{graph.Reduce(op, x, axes, false)}, []bool{exact}, map[*graph.Node]graph.Shape{x: graph.Shape(s)}
	}}
}

// softmaxCase is a row softmax of an (r, c) float32 input.
func softmaxCase(r, c int) scaledCase {
	return scaledCase{fmt.Sprintf("softmax (%d,%d)", r, c), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
		x := graph.Input(graph.Float32, graph.Shape{r, c}, "x")
		m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
		e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m))
		out := graph.Binary(graph.OpDiv, e, graph.Reduce(graph.OpSum, e, []int{1}, true))
		return []*graph.Node{out}, []bool{false}, map[*graph.Node]graph.Shape{x: {r, c}}
	}}
}

// gemmCase is relu(a @ b) of (m, k) by (k, n); transB binds b stored as
// (n, k) through a transposed view.
func gemmCase(d graph.DType, m, k, n int, transB bool) scaledCase {
	return scaledCase{fmt.Sprintf("matmul %v %dx%dx%d trans=%v", d, m, k, n, transB), func() ([]*graph.Node, []bool, map[*graph.Node]graph.Shape) {
		a := graph.Input(d, graph.Shape{m, k}, "a")
		bs := graph.Shape{k, n}
		if transB {
			bs = graph.Shape{n, k}
		}
		b := graph.Input(d, bs, "b")
		bv := b
		if transB {
			bv = graph.Permute(b, []int{1, 0})
		}
		out := graph.Binary(graph.OpMax, graph.MatMul(a, bv), graph.FloatConst(d, 0))
		return []*graph.Node{out}, []bool{false}, map[*graph.Node]graph.Shape{a: {m, k}, b: bs}
	}}
}

// scaledFeatures names the code paths kernel k of a plan takes with its
// geometry on t: "map", "map vector", "map 4 items per thread", "map
// grid-stride loop", the reduction strategy ("reduce column split"), or
// "matmul" and "matmul multi-tile".
func scaledFeatures(k *fuse.Kernel, t codegen.Target) []string {
	g := kernelGeometry(k, t)
	switch k.Kind() {
	case fuse.KindMap:
		f := []string{"map"}
		if g.VectorWidth > 1 {
			f = append(f, "map vector")
		}
		if g.ItemsPerThread >= 4 {
			f = append(f, "map 4 items per thread")
		}
		total := 1
		for _, e := range k.Space {
			total *= e
		}
		if per := g.Grid * g.Block * max(g.VectorWidth, 1) * max(g.ItemsPerThread, 1); per > 0 && total > per {
			f = append(f, "map grid-stride loop")
		}
		return f
	case fuse.KindMatMul:
		if g.Grid > 1 {
			return []string{"matmul", "matmul multi-tile"}
		}
		return []string{"matmul"}
	}
	return []string{kernelShape(k, t)}
}

// scaledWant are the features each run of the tier must reach.
var scaledWant = []string{"map vector", "map 4 items per thread", "map grid-stride loop",
	"reduce warp-per-row", "reduce block-per-row", "reduce column", "reduce column split", "reduce two-pass",
	"matmul multi-tile"}

// bindModes are the ways the tier binds inputs, used in turn.
var bindModes = []string{"go memory", "pinned memory", "device memory"}

// runScaled runs the tier on b (which must profile, for LastRun), then
// its fast-math pass on fast (a backend with fast math). It stops at the
// first fault that breaks the device.
func runScaled(t *testing.T, b, fast *Backend, tier scaledTier) {
	goMem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	pinned := memory.NewCheckedAllocator(b.HostAllocator())
	defer goMem.AssertSize(t, 0)
	defer pinned.AssertSize(t, 0)
	allocs := []memory.Allocator{goMem, pinned, goMem}

	// toDevice copies every bound tensor to the device.
	toDevice := func(bound bindings) bindings {
		dev := bindings{}
		for n, h := range bound {
			dev[n] = toDevice(t, b, h)
		}
		return dev
	}
	check := func(what string, desc []string, outs []*graph.Node, exact []bool, bound bindings, mode int) {
		t.Helper()
		var dev bindings
		if bindModes[mode] == "device memory" {
			dev = toDevice(bound)
			defer func() {
				for _, d := range dev {
					d.Release()
				}
			}()
		}
		errs, notes := diffOutputs(b, what+" from "+bindModes[mode], outs, exact, bound, dev, goMem)
		for _, n := range notes {
			t.Log(n)
		}
		for _, err := range errs {
			t.Error(err)
		}
		if r := faultReport(b, what, desc); r != "" {
			t.Fatal(r)
		}
		if len(errs) > 0 && len(desc) > 0 {
			t.Logf("%s graph:\n%s", what, strings.Join(desc, "\n"))
		}
	}

	n := tier.graphs
	if *scaledGraphs > 0 {
		n = *scaledGraphs
	}
	for seed := range uint64(n) {
		mode := int(seed % 3)
		c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x51ab1e)), allocs[mode], tier.cfg)
		require.NoError(t, err, "seed %d", seed)
		check(fmt.Sprintf("scaled seed %d", seed), c.Desc, c.Outputs, c.Exact, c.Bound, mode)
		c.Release()
	}

	seen := map[string]bool{}
	for i, fc := range tier.fixed {
		outs, exact, shapes := fc.build()
		require.NoError(t, graph.Verify(outs...), fc.name)
		mode := i % 3
		bound := fillRandom(t, allocs[mode], shapes, uint64(i))
		check(fc.name, nil, outs, exact, bound, mode)
		for _, x := range bound {
			x.Release()
		}
		run := b.LastRun()
		require.NotNil(t, run, fc.name)
		var feats []string
		for k := range run.Plan.Kernels {
			for _, f := range scaledFeatures(&run.Plan.Kernels[k], b.Target()) {
				seen[f] = true
				feats = append(feats, f)
			}
		}
		t.Logf("%s from %s: %s", fc.name, bindModes[mode], strings.Join(feats, ", "))
		if testing.Verbose() {
			t.Logf("%s", run.Explain())
		}
	}
	var missing []string
	for _, f := range scaledWant {
		if !seen[f] {
			missing = append(missing, f)
		}
	}
	if tier.coverage {
		require.Empty(t, missing, "code paths no fixed case reached")
	}

	fastMathPass(t, fast, tier.fastN)
}

// fastMathCase is one float32 function under fast math with the domain
// it is checked on and its documented bound (doc.go, "Fast math"): a
// relative error rel of the exact value, or an absolute error abs.
type fastMathCase struct {
	name     string
	apply    func(x, y *graph.Node) *graph.Node
	exact    func(x, y float64) float64
	lo, hi   float64 // x's domain; y's is [0.5, 1000) where used
	rel, abs float64
}

// fastMathCases are the functions that take a PTX approximation under
// fast math, with the tolerance doc.go documents.
var fastMathCases = []fastMathCase{
	{"exp", un(graph.OpExp), func(x, _ float64) float64 { return math.Exp(x) }, -20, 20, 0x1p-10, 0},
	{"exp2", un(graph.OpExp2), func(x, _ float64) float64 { return math.Exp2(x) }, -30, 30, 0x1p-10, 0},
	{"sigmoid", un(graph.OpSigmoid), func(x, _ float64) float64 { return 1 / (1 + math.Exp(-x)) }, -20, 20, 0x1p-10, 0},
	{"tanh", un(graph.OpTanh), func(x, _ float64) float64 { return math.Tanh(x) }, -10, 10, 0x1p-10, 0},
	{"tan", un(graph.OpTan), func(x, _ float64) float64 { return math.Tan(x) }, -1.4, 1.4, 0x1p-10, 0},
	{"log", un(graph.OpLog), func(x, _ float64) float64 { return math.Log(x) }, 1e-3, 1e6, 0, 0x1p-16},
	{"log2", un(graph.OpLog2), func(x, _ float64) float64 { return math.Log2(x) }, 1e-3, 1e6, 0, 0x1p-16},
	{"sin", un(graph.OpSin), func(x, _ float64) float64 { return math.Sin(x) }, -math.Pi, math.Pi, 0, 0x1p-16},
	{"cos", un(graph.OpCos), func(x, _ float64) float64 { return math.Cos(x) }, -math.Pi, math.Pi, 0, 0x1p-16},
	{"sqrt", un(graph.OpSqrt), func(x, _ float64) float64 { return math.Sqrt(x) }, 0, 1e6, 0x1p-18, 0},
	{"rsqrt", un(graph.OpRsqrt), func(x, _ float64) float64 { return 1 / math.Sqrt(x) }, 1e-6, 1e6, 0x1p-18, 0},
	{"div", func(x, y *graph.Node) *graph.Node { return graph.Binary(graph.OpDiv, x, y) }, func(x, y float64) float64 { return x / y },
		-1e6, 1e6, 0x1p-18, 0},
}

func un(op graph.Op) func(x, _ *graph.Node) *graph.Node {
	return func(x, _ *graph.Node) *graph.Node { return graph.Unary(op, x) }
}

// fastMathPass evaluates every fastMathCase over n float32 values spread
// over its domain on fast and checks each result against the exact value
// of its float32 input within the case's bound.
func fastMathPass(t *testing.T, fast *Backend, n int) {
	ctx := context.Background()
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	r := rand.New(rand.NewPCG(9, 9))
	for _, fc := range fastMathCases {
		x, y := graph.Input(graph.Float32, graph.Shape{n}, "x"), graph.Input(graph.Float32, graph.Shape{n}, "y")
		out := fc.apply(x, y)
		hx, hy := newHost(t, alloc, graph.Float32, graph.Shape{n}), newHost(t, alloc, graph.Float32, graph.Shape{n})
		xs, ys := exec.Elems[float32](hx), exec.Elems[float32](hy)
		for i := range xs {
			// Evenly over the domain, then a random offset within the step.
			xs[i] = float32(fc.lo + (fc.hi-fc.lo)*(float64(i)+r.Float64())/float64(n))
			ys[i] = float32(0.5 + 999.5*r.Float64())
		}
		res, err := fast.Eval(ctx, &exec.Request{Outputs: []*graph.Node{out}, Bound: bindings{x: hx, y: hy}})
		if err != nil {
			hx.Release()
			hy.Release()
			t.Fatalf("fast math %s: %v", fc.name, err)
		}
		h, err := fast.ToHost(ctx, res[0], alloc)
		releaseAll(res)
		require.NoError(t, err)
		type miss struct {
			i          int
			x, got, ex float64
			err, bound float64
		}
		var worst []miss
		got := exec.Elems[float32](h)
		for i := range got {
			want := fc.exact(float64(xs[i]), float64(ys[i]))
			bound := fc.abs + fc.rel*math.Abs(want)
			if e := math.Abs(float64(got[i]) - want); !(e <= bound) { // NaN fails too
				worst = append(worst, miss{i, float64(xs[i]), float64(got[i]), want, e, bound})
			}
		}
		h.Release()
		hx.Release()
		hy.Release()
		if len(worst) > 0 {
			sort.Slice(worst, func(a, b int) bool { return worst[a].err/worst[a].bound > worst[b].err/worst[b].bound })
			w := worst[0]
			t.Errorf("fast math %s: %d of %d results outside the documented bound (rel %g, abs %g); worst x=%v got:%v want:%v (error %.3g, bound %.3g)",
				fc.name, len(worst), n, fc.rel, fc.abs, w.x, w.got, w.ex, w.err, w.bound)
		}
	}
}

// TestGPUScaled runs the scaled tier on the GPU, or on the emulated H100
// with -emulate (slow). With -scaled.small it runs the emulated tier's
// sizes instead, which reach every kind of kernel quickly (on a GPU some
// geometries need the large sizes), for tools that slow kernels down
// a hundredfold such as compute-sanitizer.
func TestGPUScaled(t *testing.T) {
	b := gpuBackend(t, Options{Profile: exec.On})
	fast := gpuBackend(t, Options{FastMath: exec.On})
	tier := gpuScaledTier()
	if *scaledSmall {
		tier = emuScaledTier()
		tier.coverage = false
	}
	runScaled(t, b, fast, tier)
}

// TestEmulatedScaled runs the scaled tier, scaled down, on the small
// emulated device.
func TestEmulatedScaled(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{Profile: exec.On})
	fast := emuBackend(t, emuSmall, Options{FastMath: exec.On})
	tier := emuScaledTier()
	runs, unknown := emu.runs.Load(), emu.unknown.Load()
	runScaled(t, b, fast, tier)
	require.Equal(t, unknown, emu.unknown.Load(), "every launch ran on the interpreter")
	t.Logf("%d kernels interpreted", emu.runs.Load()-runs)
	require.GreaterOrEqual(t, emu.runs.Load()-runs, int64(len(tier.fixed)+len(fastMathCases)))
}

// TestScaledTierCoverage plans and compiles the GPU tier's fixed cases
// for an H100 (nothing runs) and checks that they reach every code path the tier is
// there for, so that a planner change cannot quietly shrink it.
func TestScaledTierCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, fc := range gpuScaledTier().fixed {
		outs, _, shapes := fc.build()
		layouts := map[*graph.Node]graph.Layout{}
		for n, s := range shapes {
			layouts[n] = graph.ContiguousLayout(n.DType(), s)
		}
		p, err := fuse.Build(outs, layouts)
		require.NoError(t, err, fc.name)
		_, err = codegen.Compile(p, codegen.H100(), codegen.Options{CUDA: ptx.Version{Major: 12, Minor: 8}})
		require.NoError(t, err, fc.name)
		for k := range p.Kernels {
			for _, f := range scaledFeatures(&p.Kernels[k], codegen.H100()) {
				seen[f] = true
			}
		}
	}
	for _, f := range scaledWant {
		if !seen[f] {
			t.Errorf("no fixed case of the GPU tier reaches %q", f)
		}
	}
}
