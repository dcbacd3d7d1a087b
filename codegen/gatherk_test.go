// Gathers fused into Map and Reduce kernels (fuse.InstrGather) on the
// IR interpreter against the reference evaluator: epilogues, reductions
// of gathered values along rows, columns and middle axes, broadcasting,
// transposed reads and results, negative indices and every index dtype;
// the error of the first bad index read back from the kernels' error
// words; and the PTX assembled by ptxas for sm_80 and sm_90.

package codegen_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxas"
)

// gatherIndexDTypes are every integer dtype an index may have.
var gatherIndexDTypes = []graph.DType{graph.Int8, graph.Int16, graph.Int32, graph.Int64, graph.Uint8, graph.Uint16, graph.Uint32, graph.Uint64}

// fusedGather is one expression with a fused gather, its inputs and the
// number of kernels it must plan into.
type fusedGather struct {
	indexGraph
	kernels int
}

// fusedGatherGraphs builds the cases; bad puts bad indices at positions
// 5 (the first, value n) and 11 (value -n-1) of the index array.
func fusedGatherGraphs(t testing.TB, bad bool) []fusedGather {
	var out []fusedGather
	x := graph.Input(graph.Float32, graph.Shape{9, 7}, "x")
	xt := tensorOf(t, graph.Float32, x.Shape(), func(i int) float64 { return float64(i%23) - 11 })
	y := graph.Input(graph.Float32, graph.Shape{12, 7}, "y")
	yt := tensorOf(t, graph.Float32, y.Shape(), func(i int) float64 { return float64(i % 5) })
	for _, it := range gatherIndexDTypes {
		idx := func(s graph.Shape, n int) (*graph.Node, *exec.Tensor) {
			lo := -n
			if it.Unsigned() {
				lo = 0
			}
			v := graph.Input(it, s, "i")
			vt := tensorOf(t, it, s, func(i int) float64 {
				switch {
				case bad && i == 5:
					return float64(n)
				case bad && i == 11 && !it.Unsigned():
					return float64(-n - 1)
				case bad && i == 11:
					return float64(n + 3)
				}
				return float64(lo + (i*5)%(n-lo))
			})
			return v, vt
		}
		add := func(name string, kernels int, o *graph.Node, b bindings) {
			out = append(out, fusedGather{indexGraph{fmt.Sprintf("%s/%v", name, it), o, b}, kernels})
		}
		i12, t12 := idx(graph.Shape{12}, 9)
		add("take_mul_add", 1, graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, graph.Take(x, i12, 0),
			graph.FloatConst(graph.Float32, 2)), y), bindings{x: xt, i12: t12, y: yt})
		i34, t34 := idx(graph.Shape{3, 4}, 7)
		add("take_sum_rows", 1, graph.Reduce(graph.OpSum, graph.Take(x, i34, 1), []int{1, 2}, false),
			bindings{x: xt, i34: t34})
		add("take_max_middle", 1, graph.Reduce(graph.OpReduceMax, graph.Take(x, i34, 1), []int{1}, false),
			bindings{x: xt, i34: t34})
		ia, ta := idx(graph.Shape{15, 7}, 9)
		add("takealong_sum_cols", 1, graph.Reduce(graph.OpSum, graph.TakeAlong(x, ia, 0), []int{0}, false),
			bindings{x: xt, ia: ta})
		ib, tb := idx(graph.Shape{1, 13}, 7)
		add("takealong_broadcast_transposed", 1, graph.Permute(graph.TakeAlong(x, ib, 1), []int{1, 0}),
			bindings{x: xt, ib: tb})
		z := graph.Input(graph.Float32, graph.Shape{4, 7, 12}, "z")
		zt := tensorOf(t, graph.Float32, z.Shape(), func(i int) float64 { return float64(i % 3) })
		add("take_of_transposed_broadcast", 1, graph.Binary(graph.OpSub, graph.Take(graph.Permute(x, []int{1, 0}), i12, 1), z),
			bindings{x: xt, i12: t12, z: zt})
	}
	return out
}

func TestFusedGatherInterpreted(t *testing.T) {
	for _, tg := range []codegen.Target{codegen.SmallGPU(), codegen.H100()} {
		for _, g := range fusedGatherGraphs(t, false) {
			t.Run(g.name, func(t *testing.T) {
				outs := []*graph.Node{g.out}
				p, slots := planOf(t, outs, g.bound)
				require.Len(t, p.Kernels, g.kernels, fuse.Explain(p))
				require.Contains(t, fuse.Explain(p), "take", fuse.Explain(p))
				got, err := interpretIndex(t, p, slots, g.bound, tg)
				require.NoError(t, err)
				want := reference(t, outs, g.bound)
				if err := compare(got[0], want[0], tolerance{}); err != nil {
					t.Fatalf("%v\n%s", err, fuse.Explain(p))
				}
			})
		}
	}
}

func TestFusedGatherOutOfRange(t *testing.T) {
	var gs []indexGraph
	for _, g := range fusedGatherGraphs(t, true) {
		gs = append(gs, g.indexGraph)
	}
	interpretIndexGraphs(t, gs, true)
}

func TestFusedGatherPTXAssembles(t *testing.T) {
	ptxas.Require(t)
	for _, tg := range []codegen.Target{codegen.SmallGPU(), codegen.H100()} {
		var fns []*ir.Func
		for gi, g := range fusedGatherGraphs(t, false) {
			p, _ := planOf(t, []*graph.Node{g.out}, g.bound)
			fns = append(fns, lowerKernels(t, p, tg, fmt.Sprintf("g%d", gi))...)
		}
		text, err := ptx.EmitModule(fns, codegen.PTXOptions(tg, codegen.Options{}))
		require.NoError(t, err)
		archs := []string{"sm_80", "sm_90"}
		if tg.ComputeMajor >= 9 {
			archs = archs[1:] // its .target is sm_90
		}
		ptxas.AssembleAll(t, text, archs...)
	}
}
