//go:build !race

// Allocation bounds of a compiled workload's call (not under the race
// detector, which allocates on its own).

package suite

import (
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
)

// TestCompiledAllocs bounds the allocations of one call of a compiled
// workload (the suite's timed loop, less Eval): the Arrays its ops build
// and nothing for the operands or the numbers of the expression.
func TestCompiledAllocs(t *testing.T) {
	c := array.MustContext(array.WithBackend(cpu.New(cpu.Options{})))
	a := array.FromSlice(c, make([]float32, 16), 16)
	b := array.FromSlice(c, make([]float32, 16), 16)
	defer a.Release()
	defer b.Release()
	env := map[string]*array.Array{"a": a, "b": b}
	for _, tc := range []struct {
		expr   string
		arrays float64
	}{
		{"add(a, b)", 1},
		{"exp(a)", 1},
		{"sum(a, 0)", 1},
		{"mul(a, 2.5)", 1},
		{"sub(add(mul(a, 2), mul(mul(b, 3), a)), b)", 5},
	} {
		stmts, err := ParseExpr(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Compile(stmts, env)
		if err != nil {
			t.Fatal(err)
		}
		call := func() {
			out, err := f()
			if err != nil {
				t.Fatal(err)
			}
			out.Release()
		}
		call() // the nodes, built once
		if got := testing.AllocsPerRun(100, call); got > tc.arrays {
			t.Errorf("%s: allocs per call got:%v want:<= %v", tc.expr, got, tc.arrays)
		}
	}
}
