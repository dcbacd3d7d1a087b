// Scans through the array API: bad axes as clear errors, and the result
// dtypes.

package array_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestScanErrors(t *testing.T) {
	ctx := array.MustContext()
	x := array.FromSlice(ctx, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	defer x.Release()
	for _, tc := range []struct {
		name string
		a    *array.Array
		want string
	}{
		{"axis 2", x.CumSum(2), "CumSum((2, 3) float32): axis 2 is out of bounds for array of dimension 2"},
		{"axis -3", x.CumMax(-3), "CumMax((2, 3) float32): axis -3 is out of bounds for array of dimension 2"},
		{"0-d", x.Sum().CumProd(0), "CumProd(() float32): axis 0 is out of bounds for array of dimension 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.a.Err())
			require.Contains(t, tc.a.Err().Error(), tc.want)
			require.Error(t, tc.a.Eval())
		})
	}
}

func TestScanDTypes(t *testing.T) {
	ctx := array.MustContext()
	for _, tc := range []struct {
		name string
		a    *array.Array
		want array.DType
	}{
		{"CumSum bool", array.FromSlice(ctx, []float32{1, 0, 2}).Gt(0).CumSum(0), array.Int64},
		{"CumProd int32", array.FromSlice(ctx, []int32{1, 2, 3}).CumProd(-1), array.Int64},
		{"CumMax int32", array.FromSlice(ctx, []int32{1, 2, 3}).CumMax(0), array.Int32},
		{"CumMin bool", array.FromSlice(ctx, []float32{1, 0, 2}).Gt(0).CumMinFlat(), array.Bool},
		{"CumSum float32", array.FromSlice(ctx, []float32{1, 0, 2}).CumSumFlat(), array.Float32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.a.Eval())
			require.Equal(t, tc.want, tc.a.DType(), "dtype got:%v want:%v", tc.a.DType(), tc.want)
		})
	}
	got, err := array.ToSlice[int64](array.FromSlice(ctx, []float32{1, 0, 2, 5}).Gt(0).CumSum(0))
	require.NoError(t, err)
	require.Equal(t, []int64{1, 1, 2, 3}, got, "got:%v want:%v", got, []int64{1, 1, 2, 3})
}
