// Tests of the gonum interop.

package array_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/fuseflow/fuseflow/array"
)

func TestGonumRoundTrip(t *testing.T) {
	e := newEnv(t)
	big := mat.NewDense(3, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	sub := big.Slice(1, 3, 1, 3).(*mat.Dense) // strided view of big
	a := e.keep(array.FromDense(e.c, sub))
	require.Equal(t, array.Shape{2, 2}, a.Shape())
	require.Equal(t, []float64{6, 7, 10, 11}, array.MustToSlice[float64](a))
	big.Set(1, 1, 100) // FromDense copied
	require.Equal(t, []float64{6, 7, 10, 11}, array.MustToSlice[float64](a))

	p := e.keep(a.MatMul(a.Transpose()))
	d, err := array.ToDense(p)
	require.NoError(t, err)
	want := mat.NewDense(2, 2, []float64{85, 137, 137, 221})
	require.True(t, mat.Equal(d, want), "got:%v want:%v", mat.Formatted(d), mat.Formatted(want))

	ints := e.keep(e.c.Eye(array.Int32, 2, 3, 0))
	d, err = array.ToDense(ints)
	require.NoError(t, err)
	require.True(t, mat.Equal(d, mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0})))
	require.Error(t, array.FromDense(e.c, nil).Err())
}
