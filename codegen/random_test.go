// Interpreter agreement on random graphs (the generator of the CPU
// differential tests, smaller sizes): every kernel of every plan lowered
// and run on the IR interpreter, the outputs compared with the reference.
// -randgraphs sets how many graphs (more for a long sweep).

package codegen_test

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

var randGraphs = flag.Int("randgraphs", 60, "random graphs for the interpreter agreement test")

func TestRandomGraphs(t *testing.T) {
	n := *randGraphs
	if testing.Short() {
		n = min(n, 20)
	}
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		cfg := randgraph.Config{MaxExtent: 9, Steps: 10}
		c, err := randgraph.Generate(r, memory.DefaultAllocator, cfg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		tg := smallGPU()
		if seed%3 == 0 {
			tg = fuse.H100()
		}
		p, slots, err := tryPlan(c.Outputs, c.Bound, tg)
		if err != nil {
			// The planner's own failures are its tests' business.
			t.Logf("seed %d: not planned: %v", seed, err)
			c.Release()
			continue
		}
		run := interpret(t, p, slots, c.Bound, tg)
		res, err := referenceTensors(c.Outputs, c.Bound)
		if err != nil {
			t.Fatalf("seed %d: reference: %v", seed, err)
		}
		for i, want := range res {
			o := p.Outputs[i]
			got := &exec.Tensor{Buf: memory.NewBufferBytes(run.mems[o.Buffer].Data), DType: o.Layout.DType,
				Shape: o.Layout.Shape, Strides: o.Layout.Strides, Offset: o.Layout.Offset}
			if err := randgraph.Compare(got, want, c.Exact[i]); err != nil {
				t.Errorf("seed %d output %d (%s): %v\n%s", seed, i, c.Desc[i], err, fuse.Explain(p))
			}
			want.Release()
		}
		c.Release()
	}
}

func referenceTensors(outputs []*graph.Node, bound map[*graph.Node]*exec.Tensor) ([]*exec.Tensor, error) {
	return refEval(outputs, bound)
}
