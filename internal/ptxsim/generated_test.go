// Generated kernels on the simulator: random graphs (the generator of the
// differential tests) planned for a small device and an H100-like one,
// every kernel run on the simulator and on the IR interpreter and the
// outputs compared with the reference (see harness_test.go).
// -ptxsim.graphs sets how many graphs.

package ptxsim_test

import (
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

var simGraphs = flag.Int("ptxsim.graphs", 150, "random graphs for the generated-kernel tests of the simulator")

func randSource(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x5eed51)) }

func TestGeneratedRandomGraphs(t *testing.T) {
	n := *simGraphs
	if testing.Short() {
		n = min(n, 40)
	}
	var instrs int64
	for seed := range uint64(n) {
		cfg := randgraph.Config{}
		if seed%2 == 1 {
			cfg = randgraph.Config{MaxExtent: 9, Steps: 10}
		}
		c := randCase(t, seed, cfg)
		tg := codegen.SmallGPU()
		if seed%3 == 2 {
			tg = codegen.H100()
		}
		res, err := runGraph(c.Outputs, c.Exact, c.Bound, tg, false)
		if res != nil {
			instrs += res.stats.ThreadInstructions
		}
		if err != nil && !strings.HasPrefix(err.Error(), "plan:") {
			t.Errorf("seed %d: %v\ngraph:\n%s", seed, err, strings.Join(c.Desc, "\n"))
		}
		c.Release()
	}
	t.Logf("%d graphs, %d thread instructions simulated", n, instrs)
}

// TestGeneratedReductions runs every reduction op on every dtype in the
// shape of each strategy (warp per row, block per row, column, column
// split over blocks, two passes) with ties, NaN and infinities, and
// checks that each strategy was generated. With -short or the race
// detector it runs a third of the combinations.
func TestGeneratedReductions(t *testing.T) {
	shapes := []struct {
		shape graph.Shape
		axes  []int
	}{
		{graph.Shape{37, 13}, []int{1}},
		{graph.Shape{3, 2500}, []int{1}},
		{graph.Shape{40, 300}, []int{0}},
		{graph.Shape{9000, 3}, []int{0}},
		{graph.Shape{60, 70}, []int{0, 1}},
		{graph.Shape{4, 5, 6}, []int{0, 2}},
	}
	ops := []graph.Op{graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin, graph.OpArgMax, graph.OpArgMin, graph.OpAny, graph.OpAll}
	r := rand.New(rand.NewPCG(5, 5))
	seen := map[codegen.Strategy]bool{}
	split := false
	for si, sh := range shapes {
		for di, d := range graph.DTypes() {
			x := graph.Input(d, sh.shape, "x")
			hx, err := exec.NewTensor(memory.DefaultAllocator, d, sh.shape)
			require.NoError(t, err)
			randgraph.FillSpecial(hx, r, []int{0, 200}[(si+di)%2])
			for oi, op := range ops {
				if (testing.Short() || raceEnabled) && (si+di+oi)%3 != 0 {
					continue // a third of the cases: the rest is the long run's
				}
				axes := sh.axes
				if (op == graph.OpArgMax || op == graph.OpArgMin) && len(axes) > 1 {
					axes = nil
				}
				y := graph.Reduce(op, x, axes, false)
				if err := graph.Verify(y); err != nil {
					t.Fatalf("%v %v over %v: %v", op, d, axes, err) // every reduction takes every dtype
				}
				exact := !d.IsFloat() || (op != graph.OpSum && op != graph.OpProd)
				res, err := runGraph([]*graph.Node{y}, []bool{exact}, map[*graph.Node]*exec.Tensor{x: hx}, codegen.SmallGPU(), false)
				if err != nil {
					t.Errorf("%v %v over %v of %v: %v", op, d, axes, sh.shape, err)
					continue
				}
				for i := range res.plan.Kernels {
					if k := &res.plan.Kernels[i]; k.Kind() == fuse.KindReduce {
						g, err := codegen.ChooseGeometry(k, codegen.SmallGPU())
						if err != nil {
							t.Fatal(err)
						}
						seen[g.Strategy] = true
						split = split || g.Strategy == codegen.StrategyColumn && g.Split > 1
					}
				}
			}
			hx.Release()
		}
	}
	for _, s := range []codegen.Strategy{codegen.StrategyWarpPerRow, codegen.StrategyBlockPerRow, codegen.StrategyColumn, codegen.StrategyTwoPass} {
		if !seen[s] {
			t.Errorf("no %v reduction was generated", s)
		}
	}
	if !split {
		t.Errorf("no column reduction split over blocks was generated")
	}
}

// TestGeneratedMatMul runs GEMMs of every numeric dtype (square, odd,
// batched, broadcast batch, transposed operands through views) with a
// relu and bias epilogue, on both devices. With -short or the race
// detector it runs a third of the combinations.
func TestGeneratedMatMul(t *testing.T) {
	cases := []randgraph.MatMulCase{
		{A: graph.Shape{1, 1}, B: graph.Shape{1, 1}},
		{A: graph.Shape{33, 17}, B: graph.Shape{17, 9}},
		{A: graph.Shape{70, 40}, B: graph.Shape{50, 40}, TransB: true},
		{A: graph.Shape{40, 65}, B: graph.Shape{40, 30}, TransA: true},
		{A: graph.Shape{3, 20, 7}, B: graph.Shape{3, 7, 11}},
		{A: graph.Shape{2, 5, 6}, B: graph.Shape{6, 4}},
		{A: graph.Shape{130, 70}, B: graph.Shape{70, 140}},
	}
	for ti, tg := range []codegen.Target{codegen.SmallGPU(), codegen.H100()} {
		for ci, c := range cases {
			for di, d := range []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64} {
				if (testing.Short() || raceEnabled) && (ti+ci+di)%3 != 0 {
					continue // a third of the cases: the rest is the long run's
				}
				xa, xb, p := c.Product(d)
				n := p.Shape()[len(p.Shape())-1]
				out := graph.Binary(graph.OpAdd, graph.Binary(graph.OpMax, p, graph.FloatConst(d, 0)), graph.Iota(d, n, -2, 1, false, 0))
				require.NoError(t, graph.Verify(out, p))
				bound, err := randgraph.SpecialInputs(memory.DefaultAllocator, rand.New(rand.NewPCG(uint64(ci), 11)), 0, xa, xb)
				require.NoError(t, err)
				if _, err := runGraph([]*graph.Node{out, p}, []bool{!d.IsFloat(), !d.IsFloat()}, bound, tg, false); err != nil {
					t.Errorf("%s case %d %v: %v", tg.Name, ci, d, err)
				}
				for _, x := range bound {
					x.Release()
				}
			}
		}
	}
}
