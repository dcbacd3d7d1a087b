// Random graphs with the row-group schedule forced: against the
// reference and bit for bit against the per-kernel schedule.

package cpu_test

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// TestDifferentialRowGroups runs random graphs with the row-group
// schedule forced on every size: against the reference (as
// TestDifferential) and, bit for bit, against the per-kernel schedule;
// it requires that some of them ran as row groups. 600 graphs (150 with
// -short), in chunks of 7 and of 131 points.
func TestDifferentialRowGroups(t *testing.T) {
	n := 300
	if testing.Short() || cpu.RaceEnabled {
		n = 75
	}
	runs := cpu.RowGroupRuns()
	for _, chunk := range []int{7, 131} {
		cfg := randgraph.Config{MaxExtent: 12}
		for seed := range uint64(n) {
			seed += 31000
			restore := cpu.SetRowGroups(true, 0)
			differential(t, cpu.New(cpu.Options{Chunk: chunk}), seed, cfg)
			grouped := randgraphOutputs(t, cpu.New(cpu.Options{Chunk: chunk, Workers: 3}), seed, cfg)
			restore()
			restore = cpu.SetRowGroups(false, 0)
			perKernel := randgraphOutputs(t, cpu.New(cpu.Options{Chunk: chunk, Workers: 3}), seed, cfg)
			restore()
			for i := range grouped {
				if err := randgraph.Check(grouped[i], perKernel[i], nil); err != nil {
					t.Errorf("seed %d chunk %d output %d: against the per-kernel schedule: %v", seed, chunk, i, err)
				}
			}
			release(grouped)
			release(perKernel)
		}
	}
	got := cpu.RowGroupRuns() - runs
	t.Logf("%d row groups run", got)
	require.Positive(t, got, "no random graph ran as a row group")
}

// randgraphOutputs evaluates the random graph of seed and cfg on be;
// the caller releases the tensors (from the Go allocator).
func randgraphOutputs(t *testing.T, be exec.Backend, seed uint64, cfg randgraph.Config) []*exec.Tensor {
	t.Helper()
	alloc := memory.NewGoAllocator()
	c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, cfg)
	require.NoError(t, err)
	defer c.Release()
	return evalOn(t, be, c.Outputs, c.Bound, alloc, "seed %d", seed)
}
