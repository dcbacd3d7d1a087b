// Tests of the Arrow boundary: FromArrow (zero-copy, offsets, booleans,
// nulls), ToArrow (sharing, copies) and leak checks through a chain.

package array_test

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func float32Arrow(mem memory.Allocator, vals []float32, valid []bool) arrow.Array {
	b := arrowarray.NewFloat32Builder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	return b.NewArray()
}

func TestFromArrowZeroCopyAndToArrowShares(t *testing.T) {
	e := newEnv(t)
	src := float32Arrow(e.mem, []float32{0, 1, 2, 3, 4, 5, 6, 7}, nil)
	sliced := arrowarray.NewSlice(src, 2, 8) // offset 2
	src.Release()
	x := e.keep(e.c.FromArrow(sliced, 2, 3))
	sliced.Release() // the Array keeps the buffer alive
	require.NoError(t, x.Err())
	require.Equal(t, array.Shape{2, 3}, x.Shape())
	require.Equal(t, []float32{2, 3, 4, 5, 6, 7}, array.MustToSlice[float32](x))

	out, err := x.ToArrow()
	require.NoError(t, err)
	defer out.Release()
	require.Equal(t, 6, out.Len())
	require.Equal(t, []float32{2, 3, 4, 5, 6, 7}, out.(*arrowarray.Float32).Float32Values())
	before := e.mem.CurrentAlloc()
	again, err := x.ToArrow()
	require.NoError(t, err)
	require.Equal(t, before, e.mem.CurrentAlloc(), "contiguous ToArrow allocates nothing")
	require.Same(t, out.Data().Buffers()[1], again.Data().Buffers()[1])
	again.Release()
}

func TestArrowChainLeaksNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	c := array.MustContext(array.WithAllocator(mem))
	src := float32Arrow(mem, []float32{1, 2, 3, 4, 5, 6}, nil)
	x := c.FromArrow(src, 2, 3)
	src.Release()
	y := x.Transpose().Mul(2).Add(x.Transpose()).Sqrt().Sum(1)
	z := x.Slice(array.All, array.Rev()) // strided: ToArrow copies
	out, err := y.ToArrow()
	require.NoError(t, err)
	outZ, err := z.ToArrow()
	require.NoError(t, err)
	require.InDeltaSlice(t, []float32{sqrt32(3) + sqrt32(12), sqrt32(6) + sqrt32(15), sqrt32(9) + sqrt32(18)},
		out.(*arrowarray.Float32).Float32Values(), 1e-5)
	require.Equal(t, []float32{3, 2, 1, 6, 5, 4}, outZ.(*arrowarray.Float32).Float32Values())
	for _, a := range []*array.Array{x, y, z} {
		a.Release()
	}
	require.NotZero(t, mem.CurrentAlloc(), "exported arrays stay valid after Release")
	require.Equal(t, float32(3), outZ.(*arrowarray.Float32).Value(0))
	out.Release()
	outZ.Release()
	require.Zero(t, c.Live())
}

func sqrt32(v float32) float32 { return float32(math.Sqrt(float64(v))) }

func TestFromArrowTypes(t *testing.T) {
	e := newEnv(t)
	bb := arrowarray.NewBooleanBuilder(e.mem)
	bb.AppendValues([]bool{true, false, true, true, false, false, true, true, true}, nil)
	boolArr := bb.NewArray()
	bb.Release()
	defer boolArr.Release()
	boolSlice := arrowarray.NewSlice(boolArr, 1, 9)
	defer boolSlice.Release()
	b := e.keep(e.c.FromArrow(boolSlice))
	require.Equal(t, []bool{false, true, true, false, false, true, true, true}, array.MustToSlice[bool](b))
	out, err := e.keep(b.Not()).ToArrow()
	require.NoError(t, err)
	defer out.Release()
	require.Equal(t, arrow.BOOL, out.DataType().ID())
	require.Equal(t, 8, out.Len())
	require.True(t, out.(*arrowarray.Boolean).Value(0))
	require.False(t, out.(*arrowarray.Boolean).Value(1))

	ib := arrowarray.NewInt64Builder(e.mem)
	ib.AppendValues([]int64{5, 6, 7, 8}, nil)
	ints := ib.NewArray()
	ib.Release()
	defer ints.Release()
	i := e.keep(e.c.FromArrow(ints, 2, 2))
	require.Equal(t, []int64{5, 7, 6, 8}, array.MustToSlice[int64](e.keep(i.Transpose())))

	empty := float32Arrow(e.mem, nil, nil)
	defer empty.Release()
	z := e.keep(e.c.FromArrow(empty))
	require.Equal(t, []float32{}, array.MustToSlice[float32](z))

	withNulls := float32Arrow(e.mem, []float32{1, 2, 3}, []bool{true, false, true})
	defer withNulls.Release()
	require.ErrorContains(t, e.c.FromArrow(withNulls).Err(),
		"FromArrow: arrow float32 array of length 3 has 1 nulls; arrays with nulls are not supported")

	sb := arrowarray.NewStringBuilder(e.mem)
	sb.Append("x")
	strs := sb.NewArray()
	sb.Release()
	defer strs.Release()
	require.ErrorContains(t, e.c.FromArrow(strs).Err(), "FromArrow: unsupported arrow type utf8")
	require.ErrorContains(t, e.c.FromArrow(ints, 3).Err(), "FromArrow: shape (3,) needs 3 elements, the data has 4")
}
