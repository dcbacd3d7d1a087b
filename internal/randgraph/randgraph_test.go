package randgraph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// Generated graphs are valid, deterministic for a seed, and evaluate on
// the reference with their error bounds (under the GPU model, whose
// approximate ops exercise more rules) with nothing leaked.
func TestGenerate(t *testing.T) {
	alloc := checkedAlloc(t)
	for seed := range uint64(100) {
		cfg := randgraph.Config{}
		if seed%4 == 3 {
			cfg = randgraph.Config{NoExtremes: true, NoPatterns: true}
		}
		gen := func() *randgraph.Case {
			c, err := randgraph.Generate(seedRand(seed), alloc, cfg)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return c
		}
		a, b := gen(), gen()
		if len(a.Outputs) == 0 || len(a.Outputs) != len(a.Exact) || len(a.Outputs) != len(b.Outputs) {
			t.Fatalf("seed %d: outputs got:%d/%d exact:%d", seed, len(a.Outputs), len(b.Outputs), len(a.Exact))
		}
		if err := graph.Verify(a.Outputs...); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i := range a.Outputs {
			if got, want := graph.Label(a.Outputs[i]), graph.Label(b.Outputs[i]); got != want {
				t.Errorf("seed %d output %d: not deterministic: got:%s want:%s", seed, i, got, want)
			}
		}
		res, bounds, err := randgraph.Reference(context.Background(), a.Outputs, a.Bound, alloc, randgraph.GPU)
		if err != nil {
			t.Fatalf("seed %d: ref: %v", seed, err)
		}
		for i, r := range res {
			if err := randgraph.Check(r, r, bounds[i]); err != nil {
				t.Errorf("seed %d output %d: a result differs from itself: %v", seed, i, err)
			}
			release(r, bounds[i])
		}
		a.Release()
		b.Release()
	}
}

func TestCompare(t *testing.T) {
	mk := func(v ...float64) *exec.Tensor { return tensorOf(t, alloc0, graph.Float32, graph.Shape{len(v)}, v...) }
	a, b, c := mk(1, 2, 3), mk(1, 2, 3.0001), mk(1, 2)
	if err := randgraph.Compare(a, b, false); err != nil {
		t.Errorf("within tolerance got:%v want:nil", err)
	}
	if err := randgraph.Compare(a, b, true); err == nil {
		t.Errorf("exact comparison of different values got:nil want:error")
	}
	if err := randgraph.Compare(a, c, false); err == nil {
		t.Errorf("different shapes got:nil want:error")
	}
}

// Generate builds a random graph with bound inputs; Reference evaluates
// it on the reference evaluator with the error bounds of a backend's
// model, and Check compares that backend's results with them.
func Example() {
	alloc := memory.NewGoAllocator()
	c, err := randgraph.Generate(rand.New(rand.NewPCG(1, 2)), alloc, randgraph.Config{MaxRank: 2, Steps: 4})
	if err != nil {
		panic(err)
	}
	defer c.Release()
	ctx := context.Background()
	want, bounds, err := randgraph.Reference(ctx, c.Outputs, c.Bound, alloc, randgraph.CPU)
	if err != nil {
		panic(err)
	}
	got, err := cpu.New(cpu.Options{}).Eval(ctx, &exec.Request{Outputs: c.Outputs, Bound: c.Bound, Alloc: alloc})
	if err != nil {
		panic(err)
	}
	for i := range got {
		fmt.Println(randgraph.Check(got[i], want[i], bounds[i]))
	}
	// Output:
	// <nil>
	// <nil>
}
