// Which ops the generator draws: the indexing ops and the sorts appear
// in generated graphs when their Config switch asks for them (sorts
// often), and never otherwise.

package randgraph_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// eachGenerated calls f with the graphs of seeds 0 to n-1 (PCG stream
// stream) generated with cfg, and checks that releasing each frees all it
// allocated.
func eachGenerated(t *testing.T, cfg randgraph.Config, n, stream uint64, f func(c *randgraph.Case)) {
	t.Helper()
	for seed := range n {
		alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
		c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, stream)), alloc, cfg)
		if err != nil {
			t.Fatal(err)
		}
		f(c)
		c.Release()
		alloc.AssertSize(t, 0)
	}
}

func TestIndexingGenerated(t *testing.T) {
	for _, on := range []bool{true, false} {
		seen := map[graph.Op]int{}
		eachGenerated(t, randgraph.Config{Indexing: on}, 200, 3, func(c *randgraph.Case) {
			for _, n := range graph.Topo(c.Outputs...) {
				if n.Op().Class() == graph.ClassIndex {
					seen[n.Op()]++
				}
			}
		})
		for _, op := range []graph.Op{graph.OpTake, graph.OpTakeAlong, graph.OpScatter, graph.OpScatterAdd, graph.OpScatterMax} {
			if on && seen[op] == 0 {
				t.Errorf("Indexing: no graph uses %v", op)
			}
			if !on && seen[op] > 0 {
				t.Errorf("without Indexing: %d graphs use %v", seen[op], op)
			}
		}
		t.Logf("Indexing %v: %v", on, seen)
	}
}

func TestSortGenerated(t *testing.T) {
	for _, on := range []bool{false, true} {
		sorts := 0
		eachGenerated(t, randgraph.Config{Sort: on}, 60, 1, func(c *randgraph.Case) {
			for _, d := range c.Desc {
				if strings.Contains(d, "Sort(") || strings.Contains(d, "TopK(") {
					sorts++
				}
			}
		})
		if on && sorts < 20 || !on && sorts != 0 {
			t.Errorf("Sort %v: got:%d sorts in 60 graphs want:%s", on, sorts, map[bool]string{true: ">= 20", false: "0"}[on])
		}
	}
}
