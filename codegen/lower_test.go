// Errors of a kernel's body met while a template builds its loops and
// branches (whose callbacks cannot return them) come back from Lower,
// naming the kernel and the instruction, for every kind and strategy
// that evaluates a body.

package codegen_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// broken returns a copy of instrs whose instructions are all of an
// unknown kind.
func broken(instrs []fuse.Instr) []fuse.Instr {
	out := append([]fuse.Instr(nil), instrs...)
	for i := range out {
		out[i].Kind = fuse.InstrKind(99)
	}
	return out
}

// brokenBodies returns copies of k, one per body of its spec ("body",
// "epilogue"), with that body broken.
func brokenBodies(k *fuse.Kernel) map[string]*fuse.Kernel {
	out := map[string]*fuse.Kernel{}
	for _, part := range []string{"body", "epilogue"} {
		c := *k
		var bodies map[string]*[]fuse.Instr
		switch s := k.Spec.(type) {
		case *fuse.MapSpec:
			m := *s
			c.Spec, bodies = &m, map[string]*[]fuse.Instr{"body": &m.Body}
		case *fuse.ReduceSpec:
			r := *s
			c.Spec, bodies = &r, map[string]*[]fuse.Instr{"body": &r.Body, "epilogue": &r.Epilogue}
		case *fuse.ScanSpec:
			sc := *s
			c.Spec, bodies = &sc, map[string]*[]fuse.Instr{"body": &sc.Body, "epilogue": &sc.Epilogue}
		}
		if b := bodies[part]; b != nil && len(*b) > 0 {
			*b = broken(*b)
			out[part] = &c
		}
	}
	return out
}

func TestLowerBodyErrors(t *testing.T) {
	x := inF32(64, 300)
	e := graph.Unary(graph.OpExp, x)
	for _, tc := range []struct {
		name string
		out  *graph.Node
	}{
		{"map", graph.Binary(graph.OpAdd, e, f32(1))},
		{"warp-per-row", graph.Unary(graph.OpSqrt, graph.Reduce(graph.OpSum, e, []int{1}, false))},
		{"block-per-row", graph.Unary(graph.OpSqrt, graph.Reduce(graph.OpSum, graph.Unary(graph.OpExp, inF32(4, 1<<16)), []int{1}, false))},
		{"column", graph.Unary(graph.OpSqrt, graph.Reduce(graph.OpSum, e, []int{0}, false))},
		{"two-pass", graph.Unary(graph.OpSqrt, graph.Reduce(graph.OpSum, e, nil, false))},
		{"scan", graph.Unary(graph.OpSqrt, graph.Scan(graph.OpCumSum, e, 1))},
		{"scan columns", graph.Unary(graph.OpSqrt, graph.Scan(graph.OpCumSum, e, 0))},
		{"scan look-back", graph.Unary(graph.OpSqrt, graph.Scan(graph.OpCumSum, graph.Unary(graph.OpExp, inF32(2, 1<<16)), 1))},
		{"map vectors", graph.Binary(graph.OpAdd, graph.Unary(graph.OpExp, inF32(1<<20)), f32(1))},
	} {
		p := planned(t, tc.out)
		n := 0
		for i := range p.Kernels {
			k := &p.Kernels[i]
			_, _, err := codegen.Lower(k, codegen.H100())
			require.NoError(t, err, tc.name)
			for part, bk := range brokenBodies(k) {
				_, _, err := codegen.Lower(bk, codegen.H100())
				what := fmt.Sprintf("%s: kernel %s, its %s broken", tc.name, k.Name, part)
				require.ErrorContains(t, err, "codegen: kernel "+k.Name+": ", what)
				require.ErrorContains(t, err, "unknown instruction kind", what)
				n++
			}
		}
		require.NotZero(t, n, "%s: a body to break", tc.name)
	}
}
