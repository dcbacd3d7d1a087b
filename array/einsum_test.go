// Tests of Einsum beyond the NumPy cases: bad subscripts and shapes, and
// how many kernels a subscripts string becomes.

package array_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

func TestEinsumErrors(t *testing.T) {
	e := newEnv(t)
	a := e.keep(e.floats(make([]float64, 6), 2, 3))
	b := e.keep(e.floats(make([]float64, 20), 4, 5))
	c3 := e.keep(e.floats(make([]float64, 24), 4, 2, 3))
	other := array.MustContext()
	big := e.c.Zeros(array.Float64, 1<<30)
	big2 := e.c.Zeros(array.Float64, 1<<30, 4)
	tests := []errCase{
		{"terms", array.Einsum("ij,jk", a), `Einsum("ij,jk", (2, 3) float64): 2 terms for 1 operands`},
		{"absent", array.Einsum("ij->ik", a), `Einsum("ij->ik", (2, 3) float64): output subscript k does not appear in the inputs`},
		{"repeated output", array.Einsum("ij->ii", a), "output subscript i appears more than once"},
		{"rank", array.Einsum("ij", c3), `term 0 "ij" names 2 axes but operand 0 has 3`},
		{"rank ellipsis", array.Einsum("...ijk", a), `term 0 "...ijk" names 3 axes besides "..." but operand 0 has 2`},
		{"character", array.Einsum("i1", a), `term 0 "i1": invalid character '1'`},
		{"single dot", array.Einsum("..i", a), `invalid character '.'`},
		{"two ellipses", array.Einsum("......", a), `more than one "..."`},
		{"extents", array.Einsum("ij,jk->ik", a, b), `Einsum("ij,jk->ik", (2, 3) float64, (4, 5) float64): subscript j has extent 4 in operand 1 where an earlier operand has 3`},
		{"diagonal extents", array.Einsum("ii", a), "subscript i repeated in operand 0 over axes of extents 2 and 3"},
		{"ellipsis dropped", array.Einsum("...ij->ij", c3), `output "ij" has no "..." for the 1 axes the inputs' "..." cover`},
		{"arrows", array.Einsum("ij->i->j", a), `more than one "->"`},
		{"no operands", array.Einsum("ij"), "Einsum: need at least one array"},
		{"contexts", array.Einsum("ij,jk", a, other.Zeros(array.Float64, 3, 2)), "Einsum"},
		{"nil", array.Einsum("ij", nil), "Einsum: nil *Array"},
		{"too large", array.Einsum("i,j,k->ijk", big, big, big), `Einsum("i,j,k->ijk", (1073741824,) float64, (1073741824,) float64, (1073741824,) float64): shape`},
		{"too large matmul", array.Einsum("ij,jk->ik", big2, big2.Transpose()), `Einsum("ij,jk->ik", (1073741824, 4) float64, (4, 1073741824) float64): shape`},
	}
	checkErrs(t, tests)
}

// TestEinsumKernels states how many kernels a subscripts string becomes:
// a contraction with free axes on both sides is one MatMul kernel (with
// an elementwise epilogue), any other an elementwise product and a
// reduction in one kernel; diagonals and transposes are views.
func TestEinsumKernels(t *testing.T) {
	e := newEnv(t)
	in := func(shape ...int) *array.Array {
		n := 1
		for _, s := range shape {
			n *= s
		}
		return e.keep(array.FromSlice(e.c, make([]float32, n), shape...))
	}
	a, b := in(8, 32, 16), in(8, 16, 24)
	m, v := in(32, 16), in(16)
	sq := in(32, 32)
	tests := []struct {
		name    string
		a       *array.Array
		kernels int
		matmuls int
	}{
		{"batched", array.Einsum("bij,bjk->bik", a, b), 1, 1},
		{"batched epilogue", array.Einsum("bij,bjk->bik", a, b).Mul(2).Add(1), 1, 1},
		{"matvec", array.Einsum("ij,j->i", m, v), 1, 0},
		{"rowdot", array.Einsum("ij,ij->i", m, m), 1, 0},
		{"trace", array.Einsum("ii", sq), 1, 0},
		{"diagonal", array.Einsum("ii->i", sq).Exp(), 1, 0},
		{"transpose sum", array.Einsum("ij->j", m).Sqrt(), 1, 0},
		{"outer", array.Einsum("i,j->ij", v, v), 1, 0},
		{"chain", array.Einsum("ij,jk,kl->il", m, in(16, 8), in(8, 4)), 2, 2},
	}
	for _, tc := range tests {
		n := tc.a.Node()
		require.NoError(t, n.Err(), tc.name)
		p, err := fuse.Build([]*graph.Node{n}, layoutsOf(n))
		require.NoError(t, err, tc.name)
		mm := 0
		for _, k := range p.Kernels {
			if k.Kind() == fuse.KindMatMul {
				mm++
			}
		}
		if len(p.Kernels) != tc.kernels || mm != tc.matmuls {
			t.Errorf("%s: got:%d kernels (%d matmul) want:%d (%d)\n%s", tc.name, len(p.Kernels), mm, tc.kernels, tc.matmuls, fuse.Explain(p))
		}
	}
}
