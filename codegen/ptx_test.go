// Every kernel the interpreter tests generate, emitted as PTX and
// assembled by ptxas for sm_80 and sm_90 (many kernels per module to keep
// ptxas runs few), accurate and fast math; and the golden PTX of a few
// representative kernels under testdata (regenerate with -update).

package codegen_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

var update = flag.Bool("update", false, "rewrite the golden PTX files under testdata")

// allGraphs returns every graph the interpreter tests plan: the cases,
// one per elementwise op and dtype, the casts, and random graphs.
func allGraphs(t *testing.T) [][]*graph.Node {
	var out [][]*graph.Node
	for _, c := range cases() {
		outs, _ := c.build(t)
		out = append(out, outs)
	}
	for _, d := range graph.DTypes() {
		x := graph.Input(d, graph.Shape{5, 3}, "x")
		y := graph.Input(d, graph.Shape{3}, "y")
		for _, op := range unaryOps() {
			if n := graph.Unary(op, x); n.Err() == nil {
				out = append(out, []*graph.Node{n})
			}
		}
		for _, op := range binaryOps() {
			if n := graph.Binary(op, x, y); n.Err() == nil {
				out = append(out, []*graph.Node{n})
			}
		}
		for _, to := range graph.DTypes() {
			out = append(out, []*graph.Node{graph.Cast(x, to)})
		}
		for _, op := range []graph.Op{graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin, graph.OpArgMax, graph.OpArgMin, graph.OpAny, graph.OpAll} {
			for _, axes := range [][]int{{0}, {1}, nil} {
				if n := graph.Reduce(op, x, axes, false); n.Err() == nil {
					out = append(out, []*graph.Node{n})
				}
			}
		}
	}
	for seed := range 25 {
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		c, err := randgraph.Generate(r, memory.DefaultAllocator, randgraph.Config{MaxExtent: 9, Steps: 10})
		require.NoError(t, err)
		out = append(out, c.Outputs)
		c.Release()
	}
	return out
}

// lowerAll plans each graph (inputs contiguous) for tg and lowers every
// kernel, named uniquely.
func lowerAll(t *testing.T, graphs [][]*graph.Node, tg codegen.Target) []*ir.Func {
	var fns []*ir.Func
	for gi, outs := range graphs {
		bound := bindings{}
		collectInputs(outs, bound)
		p, _, err := tryPlan(outs, bound)
		if err != nil {
			t.Logf("graph %d: not planned: %v", gi, err)
			continue
		}
		fns = append(fns, lowerKernels(t, p, tg, fmt.Sprintf("g%d", gi))...)
	}
	return fns
}

// lowerKernels lowers every kernel of plan p for tg, each named prefix,
// its index and its own name, so that the kernels of several plans can
// share one module.
func lowerKernels(t testing.TB, p *fuse.Plan, tg codegen.Target, prefix string) []*ir.Func {
	t.Helper()
	var fns []*ir.Func
	for ki := range p.Kernels {
		fn, _, err := codegen.Lower(&p.Kernels[ki], tg)
		require.NoError(t, err, "%s: kernel %d (%s)", prefix, ki, p.Kernels[ki].Name)
		fn.Name = fmt.Sprintf("%s_%d_%s", prefix, ki, fn.Name)
		fns = append(fns, fn)
	}
	return fns
}

// assembleKernels emits fns as one module for tg and assembles it with
// ptxas for sm_80 and sm_90.
func assembleKernels(t testing.TB, fns []*ir.Func, tg codegen.Target) {
	t.Helper()
	text, err := ptx.EmitModule(fns, codegen.PTXOptions(tg, codegen.Options{}))
	require.NoError(t, err)
	ptxas.AssembleAll(t, text, "sm_80", "sm_90")
}

// assembleGraphs requires ptxas, plans each graph for tg over contiguous
// inputs, lowers every kernel and assembles them all as one module for
// sm_80 and sm_90. It returns the kernels.
func assembleGraphs(t *testing.T, tg codegen.Target, graphs [][]*graph.Node) []*ir.Func {
	t.Helper()
	ptxas.Require(t)
	var fns []*ir.Func
	for gi, outs := range graphs {
		fns = append(fns, lowerKernels(t, planned(t, outs...), tg, fmt.Sprintf("g%d", gi))...)
	}
	assembleKernels(t, fns, tg)
	return fns
}

// collectInputs binds a contiguous layout (no data) for every Input leaf.
func collectInputs(outs []*graph.Node, bound bindings) {
	var walk func(n *graph.Node)
	walk = func(n *graph.Node) {
		if _, ok := bound[n]; ok {
			return
		}
		if n.Op() == graph.OpInput {
			bound[n] = &exec.Tensor{Layout: graph.ContiguousLayout(n.DType(), n.Shape())}
			return
		}
		for _, x := range n.Inputs() {
			walk(x)
		}
	}
	for _, o := range outs {
		walk(o)
	}
}

func TestPTXAssembles(t *testing.T) {
	ptxas.Require(t)
	tg := codegen.SmallGPU()
	fns := lowerAll(t, allGraphs(t), tg)
	t.Logf("%d kernels", len(fns))
	for _, fast := range []bool{false, true} {
		text, err := ptx.EmitModule(fns, codegen.PTXOptions(tg, codegen.Options{FastMath: fast}))
		require.NoError(t, err)
		t.Run(fmt.Sprintf("fastmath=%v", fast), func(t *testing.T) {
			t.Parallel()
			ptxas.AssembleAll(t, text, "sm_80", "sm_90")
		})
	}
}

// goldens are the representative kernels kept as golden PTX.
var goldens = []struct {
	file  string
	build func() []*graph.Node
}{
	{"map_broadcast_vec4.ptx", func() []*graph.Node {
		x, y := graph.Input(graph.Float32, graph.Shape{1024, 256}, "x"), graph.Input(graph.Float32, graph.Shape{256}, "y")
		return []*graph.Node{graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, x, x), y)}
	}},
	{"reduce_row_sum.ptx", func() []*graph.Node {
		x := graph.Input(graph.Float32, graph.Shape{64, 4096}, "x")
		return []*graph.Node{graph.Reduce(graph.OpSum, x, []int{1}, false)}
	}},
	{"reduce_full_argmax.ptx", func() []*graph.Node {
		x := graph.Input(graph.Float64, graph.Shape{1 << 20}, "x")
		return []*graph.Node{graph.Reduce(graph.OpArgMax, x, nil, false)}
	}},
	{"matmul_bias_relu.ptx", func() []*graph.Node {
		a, b, c := graph.Input(graph.Float32, graph.Shape{512, 256}, "a"), graph.Input(graph.Float32, graph.Shape{256, 384}, "b"), graph.Input(graph.Float32, graph.Shape{384}, "c")
		return []*graph.Node{graph.Binary(graph.OpMax, graph.Binary(graph.OpAdd, graph.MatMul(a, b), c), graph.FloatConst(graph.Float32, 0))}
	}},
}

func TestGoldenPTX(t *testing.T) {
	tg := codegen.H100()
	tg.ComputeMajor = 8
	for _, gd := range goldens {
		t.Run(gd.file, func(t *testing.T) {
			m, err := codegen.Compile(planned(t, gd.build()...), tg, codegen.Options{})
			require.NoError(t, err)
			path := filepath.Join("testdata", gd.file)
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, []byte(m.PTX), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./codegen -run Golden -update to create it")
			if string(want) != m.PTX {
				t.Fatalf("PTX of %s differs from %s (run with -update after checking the change)", gd.file, path)
			}
			ptxas.AssembleAll(t, m.PTX, "sm_80", "sm_90")
		})
	}
}
