// Planner-level random-graph tests: for the graphs of internal/randgraph
// Build succeeds without panicking, the plan keeps its contract and its
// bytes-moved guarantee, and the test interpreter running it agrees with
// the naive evaluator. FuzzBuild fuzzes the same checks.

package fuse

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

var randSeeds = flag.Int("fuse.seeds", 3001, "number of randgraph seeds TestRandomGraphs plans (from 0)")

// randCase generates the randgraph case of seed, seeded as the executors'
// differential tests seed it.
func randCase(seed uint64, alloc memory.Allocator, cfg randgraph.Config) (*randgraph.Case, error) {
	return randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, cfg)
}

// rawInput reads the whole buffer of t as float64 values.
func rawInput(t *exec.Tensor) []float64 {
	var out []float64
	for e := range t.Buf.Len() / t.DType.Size() {
		v := exec.ScalarAt(t, e)
		if t.DType == graph.Uint64 {
			out = append(out, float64(uint64(v.I)))
		} else if t.DType.IsFloat() {
			out = append(out, v.F)
		} else {
			out = append(out, float64(v.I))
		}
	}
	return out
}

// checkCase plans c and checks the plan: no panic,
// no error, the contract of validPlan, Bytes <= UnfusedBytes, and the
// interpreter's outputs equal the naive evaluation.
func checkCase(c *randgraph.Case) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	bound := map[*graph.Node]graph.Layout{}
	for n, t := range c.Bound {
		bound[n] = t.Layout
	}
	p, err := Build(c.Outputs, bound)
	if err != nil {
		return err
	}
	if err := validPlan(p); err != nil {
		return fmt.Errorf("invalid plan: %w\n%s", err, Explain(p))
	}
	if p.Bytes > p.UnfusedBytes {
		return fmt.Errorf("plan moves %d bytes, unfused %d\n%s", p.Bytes, p.UnfusedBytes, Explain(p))
	}
	_, slots, err := Key(c.Outputs, bound)
	if err != nil {
		return err
	}
	raw := make([][]float64, len(slots))
	for i, n := range slots {
		raw[i] = rawInput(c.Bound[n])
	}
	return compareWithGraph(p, c.Outputs, bound, slots, raw)
}

func runSeed(t *testing.T, seed uint64, cfg randgraph.Config) {
	t.Helper()
	alloc := memory.NewGoAllocator()
	c, err := randCase(seed, alloc, cfg)
	if err != nil {
		t.Fatalf("seed %d: generate: %v", seed, err)
	}
	defer c.Release()
	if err := checkCase(c); err != nil {
		t.Fatalf("seed %d: %v\ngraph:\n%s", seed, err, strings.Join(c.Desc, "\n"))
	}
}

// TestRandomGraphs plans the randgraph graphs of seeds 0..fuse.seeds-1
// (300 with -short).
func TestRandomGraphs(t *testing.T) {
	n := *randSeeds
	if testing.Short() {
		n = min(n, 300)
	}
	for seed := range uint64(n) {
		runSeed(t, seed, randgraph.Config{})
	}
	t.Logf("planned and interpreted the graphs of %d seeds", n)
}

// failingSeeds are seeds that once broke the planner: non-convergence on
// zero-extent GEMM operands, a K == 0 product with unset operands, and
// plans moving more bytes than the unfused graph.
var failingSeeds = []uint64{259, 300, 428, 697, 878, 958, 1045, 1119, 1279, 1323, 1479, 1483, 1600, 1714, 1761, 1908, 1993, 2051, 2787}

// plain is the generator the seeds and corpus entries of FuzzBuild were
// recorded with: its first version, without extreme values and patterns.
var plain = randgraph.Config{NoExtremes: true, NoPatterns: true}

// TestRandomGraphRegressions replays failingSeeds, also with -short.
func TestRandomGraphRegressions(t *testing.T) {
	for _, seed := range failingSeeds {
		runSeed(t, seed, plain)
	}
}

// FuzzBuild plans the randgraph graph of a fuzzed seed and shape bounds
// and checks it as TestRandomGraphs does.
func FuzzBuild(f *testing.F) {
	for _, s := range append([]uint64{0, 1, 42}, failingSeeds...) {
		f.Add(binary.LittleEndian.AppendUint64(nil, s), uint8(0), uint8(0), uint8(0))
	}
	f.Add(binary.LittleEndian.AppendUint64(nil, 7), uint8(4), uint8(3), uint8(16))
	f.Fuzz(func(t *testing.T, data []byte, rank, extent, steps uint8) {
		var b [8]byte
		copy(b[:], data)
		cfg := plain
		cfg.MaxRank, cfg.MaxExtent, cfg.Steps = int(rank%5), int(extent%8), int(steps%24)
		runSeed(t, binary.LittleEndian.Uint64(b[:]), cfg)
	})
}

// TestRandomGraphsAllDTypes plans random graphs on every signed dtype
// (the test interpreter holds values in float64, which cannot hold the
// bits of the uint64 values unsigned dtypes lead to; exec/cpu's and
// exec/cuda's differential tests cover those): 600 seeds, 150 with
// -short.
func TestRandomGraphsAllDTypes(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	for seed := range uint64(n) {
		runSeed(t, 50000+seed, randgraph.Config{AllDTypes: true, NoUnsigned: true})
	}
}
