// Non-coherent loads in the templates: a kernel reads through the
// read-only cache only buffers it never writes, even when a plan stores a
// result into the buffer of one of its operands.

package codegen_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// rootParam returns the kernel parameter pointer p derives from, or nil.
func rootParam(p *ir.Value) *ir.Value {
	for p.Kind == ir.ValResult && (p.Def.Op == ir.OpIndex || p.Def.Op == ir.OpPtrAdd || p.Def.Op == ir.OpPtrCast) {
		p = p.Def.Args[0]
	}
	if p.Kind == ir.ValParam {
		return p
	}
	return nil
}

// ncViolations returns the names of the parameters fn both stores
// through and reads with a CacheNC load.
func ncViolations(fn *ir.Func) []string {
	stored := map[*ir.Value]bool{}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpStore || in.Op == ir.OpAtomic {
				if r := rootParam(in.Args[0]); r != nil {
					stored[r] = true
				}
			}
		}
	}
	var bad []string
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpLoad && in.Cache == ir.CacheNC {
				if r := rootParam(in.Args[0]); r != nil && stored[r] {
					bad = append(bad, r.Name)
				}
			}
		}
	}
	return bad
}

func TestNonCoherentLoadsOnlyOfUnwrittenBuffers(t *testing.T) {
	a := graph.Input(graph.Float32, graph.Shape{64, 64}, "a")
	b := graph.Input(graph.Float32, graph.Shape{64, 64}, "b")
	tests := []struct {
		name string
		out  *graph.Node
		kind fuse.Kind
	}{
		{"map", graph.Binary(graph.OpMul, graph.Unary(graph.OpExp, a), b), fuse.KindMap},
		{"matmul", graph.MatMul(a, b), fuse.KindMatMul},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := planned(t, tt.out)
			k := &p.Kernels[len(p.Kernels)-1]
			require.Equal(t, tt.kind, k.Kind())
			// Store the result into the buffer of the first operand, as an
			// in-place plan would.
			if k.MatMul() != nil {
				k.Stores[0].Buffer = k.MatMul().A.Buffer
			} else {
				k.Stores[0].Buffer = k.Operands[0].Buffer
			}
			fn, _, err := codegen.Lower(k, codegen.H100())
			require.NoError(t, err)
			if bad := ncViolations(fn); len(bad) > 0 {
				t.Fatalf("got:non-coherent loads of written buffers %v want:none\n%s", bad, fn)
			}
		})
	}
}
