// Tests that an expression keeps its operands alive: an Array built from
// arrays the program no longer references still evaluates after the
// collector has run, and once it holds its own result it no longer keeps
// them.

package array_test

import (
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/stretchr/testify/require"
)

// collections runs the collector n times, long enough for finalizers
// queued by one collection (and the Context's batched ones) to run.
func collections(n int) {
	i := 0
	collect(func() bool { i++; return i > n })
}

func TestOperandsKeptAlive(t *testing.T) {
	c := cpuContext()
	for _, tc := range []struct {
		name  string
		build func() *array.Array // makes its operands itself and forgets them
		want  []float64
	}{
		{"unary", func() *array.Array { return array.FromSlice(c, []float64{0, 1}, 2).Exp().Log() }, []float64{0, 1}},
		{"binary", func() *array.Array {
			return array.FromSlice(c, []float64{1, 2}, 2).Add(array.FromSlice(c, []float64{10, 20}, 2))
		}, []float64{11, 22}},
		{"binary right operand", func() *array.Array {
			x := array.FromSlice(c, []float64{1, 2}, 2)
			return x.Mul(2).Sub(array.FromSlice(c, []float64{1, 1}, 2).Mul(3))
		}, []float64{-1, 1}},
		{"where", func() *array.Array {
			return array.Where(array.FromSlice(c, []bool{true, false}, 2), array.FromSlice(c, []float64{1, 2}, 2), array.FromSlice(c, []float64{3, 4}, 2))
		}, []float64{1, 4}},
		{"matmul", func() *array.Array {
			return array.MatMul(array.FromSlice(c, []float64{1, 2}, 1, 2), array.FromSlice(c, []float64{3, 4}, 2, 1)).Reshape(1)
		}, []float64{11}},
		{"concat", func() *array.Array {
			return array.Concat(0, array.FromSlice(c, []float64{1}, 1), array.FromSlice(c, []float64{2}, 1))
		}, []float64{1, 2}},
		{"concat of four", func() *array.Array {
			return array.Concat(0, array.FromSlice(c, []float64{1}, 1), array.FromSlice(c, []float64{2}, 1),
				array.FromSlice(c, []float64{3}, 1), array.FromSlice(c, []float64{4}, 1))
		}, []float64{1, 2, 3, 4}},
		{"stack", func() *array.Array {
			return array.Stack(0, array.FromSlice(c, []float64{1}, 1), array.FromSlice(c, []float64{2}, 1)).Reshape(2)
		}, []float64{1, 2}},
		{"einsum", func() *array.Array {
			return array.Einsum("i,i->", array.FromSlice(c, []float64{1, 2}, 2), array.FromSlice(c, []float64{3, 4}, 2)).Reshape(1)
		}, []float64{11}},
		{"views and reductions", func() *array.Array {
			return array.FromSlice(c, []float64{1, 2, 3, 4}, 2, 2).Flip(0).Sum(1)
		}, []float64{7, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y := tc.build()
			collections(5)
			got, err := array.ToSlice[float64](y)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			y.Release()
		})
	}
}

// TestEvaluatedDropsOperands: an evaluated Array holds its result, not its
// operands, so an operand the program forgot is freed.
func TestEvaluatedDropsOperands(t *testing.T) {
	c := cpuContext()
	y := func() *array.Array { return array.FromSlice(c, []float64{1, 2}, 2).Mul(2) }()
	require.NoError(t, y.Eval())
	collect(func() bool { return c.Live() == 1 })
	if got := c.Live(); got != 1 {
		t.Errorf("live results after the operand was collected got:%d want:1", got)
	}
	got, err := array.ToSlice[float64](y)
	require.NoError(t, err)
	require.Equal(t, []float64{2, 4}, got)
	y.Release()
}
