// Interpreter agreement on random graphs (the generator of the CPU
// differential tests, smaller sizes): every kernel of every plan lowered
// and run on the IR interpreter, the outputs compared with the reference.
// -randgraphs sets how many graphs (more for a long sweep).

package codegen_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

var randGraphs = flag.Int("randgraphs", 60, "random graphs for the interpreter agreement test")

func TestRandomGraphs(t *testing.T) {
	randomGraphs(t, 0x5eed, randgraph.Config{MaxExtent: 9, Steps: 10})
}

// TestRandomGraphsIndexing is TestRandomGraphs with the indexing ops:
// gathers of every index dtype fused where their consumers allow, and
// scatters.
func TestRandomGraphsIndexing(t *testing.T) {
	randomGraphs(t, 0x1dec5, randgraph.Config{MaxExtent: 9, Steps: 10, Indexing: true})
}

// randomGraphs runs -randgraphs graphs of cfg from seeds (i, stream).
func randomGraphs(t *testing.T, stream uint64, cfg randgraph.Config) {
	n := *randGraphs
	if testing.Short() {
		n = min(n, 20)
	}
	fused := 0 // gathers in kernels that compute more than the gather
	defer func() {
		if cfg.Indexing && fused == 0 && !t.Failed() {
			t.Errorf("no gather fused with other work in %d graphs", n)
		}
		t.Logf("%d gathers fused with other work", fused)
	}()
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), stream))
		c, err := randgraph.Generate(r, memory.DefaultAllocator, cfg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		tg := codegen.SmallGPU()
		if seed%3 == 0 {
			tg = codegen.H100()
		}
		p, slots, err := tryPlan(c.Outputs, c.Bound)
		if err != nil {
			// The planner's own failures are its tests' business.
			t.Logf("seed %d: not planned: %v", seed, err)
			c.Release()
			continue
		}
		for _, k := range p.Kernels {
			body, _ := k.Bodies()
			for _, in := range body {
				if in.Kind == fuse.InstrGather && len(k.Fused) > 1 {
					fused++
				}
			}
		}
		run := interpret(t, p, slots, c.Bound, tg)
		res, bounds, err := randgraph.Reference(context.Background(), c.Outputs, c.Bound, memory.DefaultAllocator, randgraph.GPU)
		if err != nil {
			t.Fatalf("seed %d: reference: %v", seed, err)
		}
		for i, want := range res {
			o := p.Outputs[i]
			got := &exec.Tensor{Buf: memory.NewBufferBytes(run.mems[o.Buffer].Data), Layout: o.Layout}
			if err := randgraph.Check(got, want, bounds[i]); err != nil {
				t.Errorf("seed %d output %d (%v): %v\n%s\n%s", seed, i, c.Outputs[i].Op(), err, strings.Join(c.Desc, "\n"), fuse.Explain(p))
			}
			want.Release()
			if bounds[i] != nil {
				bounds[i].Release()
			}
		}
		c.Release()
	}
}
