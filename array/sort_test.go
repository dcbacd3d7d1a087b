// Sorting through the array API: results of the flat and axis forms,
// TopK's two arrays, and bad input (axis out of range, k out of range,
// a 0-d array, several axes) as errors naming the op and the values.

package array_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestSortAPI(t *testing.T) {
	ctx := array.MustContext()
	x := array.FromSlice(ctx, []float32{3, -1, 2, 0, 5, 4}, 2, 3)
	got, err := array.ToSlice[float32](x.Sort())
	require.NoError(t, err)
	require.Equal(t, []float32{-1, 2, 3, 0, 4, 5}, got)
	idx, err := array.ToSlice[int64](x.ArgSort(0))
	require.NoError(t, err)
	require.Equal(t, []int64{1, 0, 0, 0, 1, 1}, idx)
	flat, err := array.ToSlice[float32](x.SortFlat())
	require.NoError(t, err)
	require.Equal(t, []float32{-1, 0, 2, 3, 4, 5}, flat)
	fi, err := array.ToSlice[int64](x.ArgSortFlat())
	require.NoError(t, err)
	require.Equal(t, []int64{1, 3, 2, 0, 5, 4}, fi)
	v, i := x.TopK(2)
	require.Equal(t, array.Shape{2, 2}, v.Shape())
	tv, err := array.ToSlice[float32](v)
	require.NoError(t, err)
	require.Equal(t, []float32{3, 2, 5, 4}, tv)
	ti, err := array.ToSlice[int64](i)
	require.NoError(t, err)
	require.Equal(t, []int64{0, 2, 1, 2}, ti)
	require.Equal(t, array.Int64, x.ArgSort().DType())
}

func TestSortErrors(t *testing.T) {
	ctx := array.MustContext()
	x := array.FromSlice(ctx, []int32{3, 1, 2, 0, 5, 4}, 2, 3)
	topkV := func(k int, axis ...int) *array.Array { v, _ := x.TopK(k, axis...); return v }
	topkI := func(k int, axis ...int) *array.Array { _, i := x.TopK(k, axis...); return i }
	cases := []struct {
		name string
		a    *array.Array
		want string
	}{
		{"sort axis 2", x.Sort(2), "Sort((2, 3) int32): axis 2 is out of bounds for array of dimension 2"},
		{"argsort axis -3", x.ArgSort(-3), "ArgSort((2, 3) int32): axis -3 is out of bounds"},
		{"sort two axes", x.Sort(0, 1), "Sort((2, 3) int32): takes one axis or none, got [0 1]"},
		{"sort 0-d", array.FromSlice(ctx, []float64{1}).Reshape().Sort(), "Sort(() float64): axis -1 is out of bounds for a 0-d array"},
		{"topk k > n", topkV(4), "TopK: k 4 is larger than the extent 3 of axis 1"},
		{"topk k > n indices", topkI(3, 0), "TopK: k 3 is larger than the extent 2 of axis 0"},
		{"topk k < 0", topkI(-1), "TopK: k -1 is negative"},
		{"topk axis", topkV(1, 5), "TopK: axis 5 is out of bounds"},
	}
	for _, c := range cases {
		err := c.a.Err()
		require.Error(t, err, c.name)
		require.Contains(t, err.Error(), c.want, c.name)
	}
	// The flat forms of a 0-d array sort its one element.
	z := array.FromSlice(ctx, []float64{2.5}).Reshape()
	got, err := array.ToSlice[float64](z.SortFlat())
	require.NoError(t, err)
	require.Equal(t, []float64{2.5}, got)
}
