package randgraph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// Generated graphs are valid, deterministic for a seed, and evaluate on
// the reference with nothing leaked.
func TestGenerate(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	for seed := range uint64(50) {
		gen := func() *randgraph.Case {
			c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), alloc, randgraph.Config{})
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
		res, err := ref.New().Eval(context.Background(), &exec.Request{Outputs: a.Outputs, Bound: a.Bound, Alloc: alloc})
		if err != nil {
			t.Fatalf("seed %d: ref: %v", seed, err)
		}
		for i, r := range res {
			if err := randgraph.Compare(r, r, a.Exact[i]); err != nil {
				t.Errorf("seed %d output %d: a result differs from itself: %v", seed, i, err)
			}
			r.Release()
		}
		a.Release()
		b.Release()
	}
}

func TestCompare(t *testing.T) {
	alloc := memory.NewGoAllocator()
	mk := func(v ...float32) *exec.Tensor {
		x, _ := exec.NewTensor(alloc, graph.Float32, graph.Shape{len(v)})
		copy(exec.Elems[float32](x), v)
		return x
	}
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

// Generate builds a random graph with bound inputs; Compare checks one
// backend's result against another's.
func Example() {
	alloc := memory.NewGoAllocator()
	c, err := randgraph.Generate(rand.New(rand.NewPCG(1, 2)), alloc, randgraph.Config{MaxRank: 2, Steps: 4})
	if err != nil {
		panic(err)
	}
	defer c.Release()
	fmt.Println(len(c.Outputs) > 0, graph.Verify(c.Outputs...))
	// Output: true <nil>
}
