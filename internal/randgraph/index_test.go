// The indexing ops appear in generated graphs when asked for, and never
// otherwise.

package randgraph

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/graph"
)

func TestIndexingGenerated(t *testing.T) {
	for _, on := range []bool{true, false} {
		seen := map[graph.Op]int{}
		for seed := range uint64(200) {
			c, err := Generate(rand.New(rand.NewPCG(seed, 3)), memory.DefaultAllocator, Config{Indexing: on})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range graph.Topo(c.Outputs...) {
				if n.Op().Class() == graph.ClassIndex {
					seen[n.Op()]++
				}
			}
			c.Release()
		}
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
