// Scans in the generated graphs.

package randgraph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// TestGeneratesScans checks that random graphs hold scans of every op
// and that the reference evaluates them with their bounds.
func TestGeneratesScans(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(300) {
		c, err := randgraph.Generate(seedRand(seed), alloc0, randgraph.Config{})
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for _, d := range c.Desc {
			for _, op := range []string{"CumSum", "CumProd", "CumMax", "CumMin"} {
				if strings.Contains(d, op+"(") {
					seen[op], has = true, true
				}
			}
		}
		if has {
			want, bounds, err := randgraph.Reference(context.Background(), c.Outputs, c.Bound, alloc0, randgraph.CPU)
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, strings.Join(c.Desc, "\n"))
			}
			release(append(want, bounds...)...)
		}
		c.Release()
	}
	for _, op := range []string{"CumSum", "CumProd", "CumMax", "CumMin"} {
		if !seen[op] {
			t.Errorf("no graph of 300 seeds holds a %s", op)
		}
	}
}
