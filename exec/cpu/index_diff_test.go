// Random graphs with the indexing ops (randgraph Config.Indexing) on the
// CPU backend against the reference.

package cpu_test

import (
	"testing"

	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

func TestDifferentialIndexing(t *testing.T) {
	for _, w := range []int{1, 3} {
		be := cpu.New(cpu.Options{Workers: w})
		for seed := range uint64(150) {
			differential(t, be, 7000+seed, randgraph.Config{Indexing: true})
		}
	}
}
