// Differential tests: random graphs evaluated by the CPU backend and by
// the reference evaluator must agree (exactly, or within the tolerance
// randgraph states for outputs whose rounding order may differ).

package cpu_test

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// differential generates the case of seed with cfg and compares the
// backends.
func differential(t *testing.T, be exec.Backend, seed uint64, cfg randgraph.Config) {
	t.Helper()
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, cfg)
	if err != nil {
		t.Fatalf("seed %d: generate: %v", seed, err)
	}
	defer c.Release()
	ctx := context.Background()
	want, bounds, err := randgraph.Reference(ctx, c.Outputs, c.Bound, alloc, randgraph.CPU)
	if err != nil {
		t.Fatalf("seed %d: ref: %v\n%s", seed, err, strings.Join(c.Desc, "\n"))
	}
	defer release(want)
	defer release(bounds)
	got, err := be.Eval(ctx, &exec.Request{Outputs: c.Outputs, Bound: c.Bound, Alloc: alloc})
	if err != nil {
		t.Errorf("seed %d: cpu: %v\n%s", seed, err, strings.Join(c.Desc, "\n"))
		return
	}
	defer release(got)
	for i := range want {
		if err := randgraph.Check(got[i], want[i], bounds[i]); err != nil {
			t.Errorf("seed %d: output %d (%v): %v\n%s", seed, i, c.Outputs[i].Op(), err, strings.Join(c.Desc, "\n"))
			return
		}
	}
}

// runDifferential runs n random graphs (short of them with -short) from
// seed first on a backend with chunks of chunk points.
func runDifferential(t *testing.T, n, short, chunk int, first uint64, cfg randgraph.Config) {
	if testing.Short() {
		n = short
	}
	be := cpu.New(cpu.Options{Chunk: chunk})
	for seed := range uint64(n) {
		differential(t, be, first+seed, cfg)
	}
}

// TestDifferential runs 1200 random graphs (300 with -short) in chunks of
// 7 points, so that even these small graphs run in several chunks.
func TestDifferential(t *testing.T) {
	runDifferential(t, 1200, 300, 7, 0, randgraph.Config{})
}

// TestDifferentialWide runs 300 random graphs (100 with -short) with
// extents up to 12 in chunks of 131 points, so that the vector inner
// loops run over whole vectors (8 or 4 lanes) and their tails (the unit
// tests in vector_test.go cover each loop's edge cases).
func TestDifferentialWide(t *testing.T) {
	runDifferential(t, 300, 100, 131, 9000, randgraph.Config{MaxExtent: 12})
}

// TestDifferentialScalar runs TestDifferentialWide's graphs with the
// scalar inner loops, so that they stay tested where vector loops replace
// them (TestDifferential's chunks of 7 points run them too).
func TestDifferentialScalar(t *testing.T) {
	was := cpu.SetVector(false)
	defer cpu.SetVector(was)
	runDifferential(t, 300, 100, 131, 9000, randgraph.Config{MaxExtent: 12})
}

// fuzzChunks are the chunk sizes FuzzDifferential picks from: chunks of
// 5 points run the scalar loops alone, the others whole vectors too.
var fuzzChunks = []int{5, 8, 16, 37, 131, 4096}

// fuzzCase decodes FuzzDifferential's input: bytes 0-7 the seed (little
// endian, zero-padded), byte 8 the chunk (fuzzChunks; 5 when absent),
// byte 9 the graphs' size (extents up to 5, 9 or 16), byte 10 flags: bit
// 0 NoExtremes, bit 1 NoPatterns (both set: the generator's first
// version, which recorded inputs may need), bit 2 Indexing (gathers,
// fused where their consumers allow, and scatters).
func fuzzCase(data []byte) (seed uint64, chunk int, cfg randgraph.Config) {
	var b [11]byte
	copy(b[:], data)
	seed = binary.LittleEndian.Uint64(b[:8])
	chunk = fuzzChunks[int(b[8])%len(fuzzChunks)]
	cfg.MaxExtent = []int{5, 9, 16}[int(b[9])%3]
	cfg.NoExtremes = b[10]&1 != 0
	cfg.NoPatterns = b[10]&2 != 0
	cfg.Indexing = b[10]&4 != 0
	return seed, chunk, cfg
}

// FuzzDifferential compares the backends on graphs generated from the
// fuzzed input (see fuzzCase).
func FuzzDifferential(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], s)
		f.Add(b[:])
		for c := range len(fuzzChunks) {
			f.Add(append(b[:], byte(c), byte(s%3), 0))
		}
		f.Add(append(b[:], byte(s%uint64(len(fuzzChunks))), byte(s%3), 4))
	}
	bes := make([]*cpu.Backend, len(fuzzChunks))
	for i, c := range fuzzChunks {
		bes[i] = cpu.New(cpu.Options{Chunk: c})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		seed, chunk, cfg := fuzzCase(data)
		differential(t, bes[slices.Index(fuzzChunks, chunk)], seed, cfg)
	})
}

// TestDifferentialAllDTypes runs 400 random graphs (100 with -short) on
// inputs and casts of every dtype (int8 ... uint64, float16, bfloat16
// beside the common five).
func TestDifferentialAllDTypes(t *testing.T) {
	runDifferential(t, 400, 100, 7, 20000, randgraph.Config{AllDTypes: true})
}
