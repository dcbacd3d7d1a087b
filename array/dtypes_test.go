// Tests of the dtypes beyond the first five at the API: Go slices in and
// out, Scalar, the 16-bit floats from and to float32, Arrow in and out
// (zero-copy; bfloat16 through its extension type), and the errors of
// bad input.

package array_test

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

// roundTrip checks FromSlice, ToSlice, ToArrow (sharing the buffer),
// FromArrow (sharing it back) and Scalar for Go type T of dtype d.
func roundTrip[T array.Number](t *testing.T, e *tenv, d array.DType, vals []T, arrowType arrow.DataType) {
	t.Helper()
	x := e.keep(array.FromSlice(e.c, vals))
	require.NoError(t, x.Err())
	require.Equal(t, d, x.DType())
	require.Equal(t, vals, array.MustToSlice[T](x), "%v", d)
	out, err := x.ToArrow()
	require.NoError(t, err)
	defer out.Release()
	require.True(t, arrow.TypeEqual(arrowType, out.DataType()), "%v: got:%v want:%v", d, out.DataType(), arrowType)
	y := e.keep(e.c.FromArrow(out))
	require.NoError(t, y.Err())
	require.Equal(t, d, y.DType())
	require.Equal(t, vals, array.MustToSlice[T](y))
	again, err := y.ToArrow()
	require.NoError(t, err)
	defer again.Release()
	storage := func(a arrow.Array) arrow.Array {
		if ext, ok := a.(arrowarray.ExtensionArray); ok {
			return ext.Storage()
		}
		return a
	}
	require.Same(t, storage(out).Data().Buffers()[1], storage(again).Data().Buffers()[1], "%v: zero-copy both ways", d)
	s := e.keep(e.c.Scalar(vals[1]))
	require.Equal(t, d, s.DType())
	require.Equal(t, vals[1:2], array.MustToSlice[T](e.keep(s.Reshape(1))))
}

func TestNewDTypesRoundTrip(t *testing.T) {
	e := newEnv(t)
	roundTrip(t, e, array.Int8, []int8{-128, 127, 0, -1}, arrow.PrimitiveTypes.Int8)
	roundTrip(t, e, array.Int16, []int16{-32768, 32767, 5, -1}, arrow.PrimitiveTypes.Int16)
	roundTrip(t, e, array.Uint8, []uint8{0, 255, 7, 128}, arrow.PrimitiveTypes.Uint8)
	roundTrip(t, e, array.Uint16, []uint16{0, 65535, 7, 300}, arrow.PrimitiveTypes.Uint16)
	roundTrip(t, e, array.Uint32, []uint32{0, 1<<32 - 1, 7, 1 << 31}, arrow.PrimitiveTypes.Uint32)
	roundTrip(t, e, array.Uint64, []uint64{0, 1<<64 - 1, 7, 1 << 63}, arrow.PrimitiveTypes.Uint64)
	roundTrip(t, e, array.Float16, []array.F16{0x3c00, 0x7bff, 0x8001, 0xfc00}, arrow.FixedWidthTypes.Float16)
	roundTrip(t, e, array.BFloat16, []array.BF16{0x3f80, 0x7f7f, 0x8001, 0xff80}, &array.BFloat16Type{ExtensionBase: arrow.ExtensionBase{Storage: arrow.PrimitiveTypes.Uint16}})
}

func TestFloat32sRounding(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		d    array.DType
		in   []float32
		want []float32
	}{
		{array.Float16, []float32{1, 1 + 0x1p-11, 1 + 3*0x1p-11, 65519, 65520, 0x1p-25, -0.1}, []float32{1, 1, 1 + 0x1p-9, 65504, float32(math.Inf(1)), 0, -0.0999755859375}},
		{array.BFloat16, []float32{1, 1 + 0x1p-8, 1 + 3*0x1p-8, 3.14159, 3.4e38}, []float32{1, 1, 1 + 0x1p-6, 3.140625, float32(math.Inf(1))}},
		{array.Float32, []float32{1.5}, []float32{1.5}},
	} {
		x := e.keep(array.FromFloat32s(e.c, c.d, c.in))
		require.Equal(t, c.d, x.DType())
		got, err := array.ToFloat32s(x)
		require.NoError(t, err)
		require.Equal(t, c.want, got, "%v got:%v want:%v", c.d, got, c.want)
	}
}

func TestNewDTypesErrors(t *testing.T) {
	e := newEnv(t)
	u8 := e.keep(array.FromSlice(e.c, []uint8{1, 2}))
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"weak out of range", e.keep(u8.Add(300)).Err(), "Go int 300 is out of range for uint8"},
		{"weak negative", e.keep(u8.Add(-1)).Err(), "Go int -1 is out of range for uint8"},
		{"FromFloat32s int", e.keep(array.FromFloat32s(e.c, array.Int8, []float32{1})).Err(), "FromFloat32s: dtype int8 is not a float dtype"},
		{"random float16", e.keep(e.c.Rand(array.Float16, 1, 3)).Err(), "unsupported dtype float16: random arrays are float32 or float64"},
		{"bool sqrt", e.keep(e.keep(array.FromSlice(e.c, []bool{true})).Sqrt()).Err(), "unsupported dtype bool"},
	} {
		require.ErrorContains(t, c.err, c.want, c.name)
	}
	_, err := array.ToFloat32s(u8)
	require.ErrorContains(t, err, "ToFloat32s: array is uint8; want float16, bfloat16 or float32")
	_, err = array.ToSlice[int8](u8)
	require.ErrorContains(t, err, "is uint8; cannot read it as []int8")
	b := arrowarray.NewUint16Builder(e.mem)
	b.AppendValues([]uint16{1, 2}, []bool{true, false})
	withNull := b.NewArray()
	b.Release()
	defer withNull.Release()
	require.ErrorContains(t, e.keep(e.c.FromArrow(withNull)).Err(), "has 1 nulls")
	fsb := arrowarray.NewFixedSizeBinaryBuilder(e.mem, &arrow.FixedSizeBinaryType{ByteWidth: 2})
	fsb.Append([]byte{1, 2})
	fa := fsb.NewArray()
	fsb.Release()
	defer fa.Release()
	require.ErrorContains(t, e.keep(e.c.FromArrow(fa)).Err(), "unsupported arrow type fixed_size_binary[2]")
}
