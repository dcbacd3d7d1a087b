// Differential tests: random graphs evaluated by the CPU backend and by
// the reference evaluator must agree (exactly, or within the tolerance
// randgraph states for outputs whose rounding order may differ).

package cpu_test

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// differential generates the case of seed and compares the backends. The
// small chunk makes even these small graphs run in several chunks.
func differential(t *testing.T, be exec.Backend, seed uint64) {
	t.Helper()
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, randgraph.Config{})
	if err != nil {
		t.Fatalf("seed %d: generate: %v", seed, err)
	}
	defer c.Release()
	ctx := context.Background()
	want, err := ref.New().Eval(ctx, &exec.Request{Outputs: c.Outputs, Bound: c.Bound, Alloc: alloc})
	if err != nil {
		t.Fatalf("seed %d: ref: %v\n%s", seed, err, strings.Join(c.Desc, "\n"))
	}
	defer release(want)
	got, err := be.Eval(ctx, &exec.Request{Outputs: c.Outputs, Bound: c.Bound, Alloc: alloc})
	if err != nil {
		t.Errorf("seed %d: cpu: %v\n%s", seed, err, strings.Join(c.Desc, "\n"))
		return
	}
	defer release(got)
	for i := range want {
		if err := randgraph.Compare(got[i], want[i], c.Exact[i]); err != nil {
			t.Errorf("seed %d: output %d (%v): %v\n%s", seed, i, c.Outputs[i].Op(), err, strings.Join(c.Desc, "\n"))
			return
		}
	}
}

func release(ts []*exec.Tensor) {
	for _, t := range ts {
		t.Release()
	}
}

// TestDifferential runs 1200 random graphs (300 with -short).
func TestDifferential(t *testing.T) {
	n := 1200
	if testing.Short() {
		n = 300
	}
	be := cpu.New(cpu.Options{Chunk: 7})
	for seed := range uint64(n) {
		differential(t, be, seed)
	}
}

// FuzzDifferential compares the backends on graphs generated from the
// fuzzed seed.
func FuzzDifferential(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], s)
		f.Add(b[:])
	}
	be := cpu.New(cpu.Options{Chunk: 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		var b [8]byte
		copy(b[:], data)
		differential(t, be, binary.LittleEndian.Uint64(b[:]))
	})
}
