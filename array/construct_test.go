// Tests of the constructors.

package array_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/internal/philox"
)

func TestConstructors(t *testing.T) {
	e := newEnv(t)
	c := e.c
	tests := []struct {
		name  string
		a     *array.Array
		dtype array.DType
		shape array.Shape
		want  []float64
	}{
		{"FromSlice float32", array.FromSlice(c, []float32{1, 2, 3, 4}, 2, 2), array.Float32, array.Shape{2, 2}, []float64{1, 2, 3, 4}},
		{"FromSlice int", array.FromSlice(c, []int{-1, 5}), array.Int64, array.Shape{2}, []float64{-1, 5}},
		{"FromSlice int32", array.FromSlice(c, []int32{7}), array.Int32, array.Shape{1}, []float64{7}},
		{"FromSlice bool", array.FromSlice(c, []bool{true, false}), array.Bool, array.Shape{2}, []float64{1, 0}},
		{"FromSlice empty", array.FromSlice(c, []float64{}, 0, 3), array.Float64, array.Shape{0, 3}, []float64{}},
		{"Zeros", c.Zeros(array.Int32, 2, 3), array.Int32, array.Shape{2, 3}, []float64{0, 0, 0, 0, 0, 0}},
		{"Ones", c.Ones(array.Bool, 2), array.Bool, array.Shape{2}, []float64{1, 1}},
		{"Full", c.Full(array.Int64, 2.9, 3), array.Int64, array.Shape{3}, []float64{2, 2, 2}},
		{"Full 0-d", c.Full(array.Float32, 0.5), array.Float32, array.Shape{}, []float64{0.5}},
		{"Arange", c.ArangeStep(array.Float64, 0, 1, 0.25), array.Float64, array.Shape{4}, []float64{0, 0.25, 0.5, 0.75}},
		{"Arange negative step", c.ArangeStep(array.Int32, 5, 0, -2), array.Int32, array.Shape{3}, []float64{5, 3, 1}},
		{"Arange empty", c.ArangeStep(array.Float32, 3, 0, 1), array.Float32, array.Shape{0}, []float64{}},
		// Each value converted on its own (NumPy gives [0 1 2 3]; see the
		// package doc's table).
		{"ArangeStep int", c.ArangeStep(array.Int64, 0.5, 3, 0.7), array.Int64, array.Shape{4}, []float64{0, 1, 1, 2}},
		{"Linspace", c.Linspace(array.Float64, 0, 1, 5), array.Float64, array.Shape{5}, []float64{0, 0.25, 0.5, 0.75, 1}},
		{"Linspace one", c.Linspace(array.Float64, 2, 3, 1), array.Float64, array.Shape{1}, []float64{2}},
		{"Eye", c.Eye(array.Float32, 2, 3, 1), array.Float32, array.Shape{2, 3}, []float64{0, 1, 0, 0, 0, 1}},
		{"Scalar int", c.Scalar(3), array.Int64, array.Shape{}, []float64{3}},
		{"Scalar float32", c.Scalar(float32(1.5)), array.Float32, array.Shape{}, []float64{1.5}},
		{"Scalar bool", c.Scalar(true), array.Bool, array.Shape{}, []float64{1}},
		{"Scalar int64", c.Scalar(int64(-4)), array.Int64, array.Shape{}, []float64{-4}},
	}
	for _, tt := range tests {
		a := e.keep(tt.a)
		require.NoError(t, a.Err(), tt.name)
		if a.DType() != tt.dtype || !a.Shape().Equal(tt.shape) {
			t.Errorf("%s: got:%v %v want:%v %v", tt.name, a.Shape(), a.DType(), tt.shape, tt.dtype)
		}
		if got := e.f64(a); !approx(got, tt.want) {
			t.Errorf("%s: got:%v want:%v", tt.name, got, tt.want)
		}
	}
}

func TestRandomStreams(t *testing.T) {
	e := newEnv(t)
	u := e.keep(e.c.Rand(array.Float64, 42, 2, 3))
	n := e.keep(e.c.Normal(array.Float32, 42, 4))
	got := array.MustToSlice[float64](u)
	for i, v := range got {
		if w := philox.Float64(42, uint64(i)); v != w {
			t.Errorf("Rand[%d]: got:%v want:%v", i, v, w)
		}
		if v < 0 || v >= 1 {
			t.Errorf("Rand[%d] = %v outside [0, 1)", i, v)
		}
	}
	for i, v := range array.MustToSlice[float32](n) {
		if w := philox.Normal32(42, uint64(i)); v != w {
			t.Errorf("Normal[%d]: got:%v want:%v", i, v, w)
		}
	}
	same := e.keep(e.c.Rand(array.Float64, 42, 2, 3))
	require.Equal(t, got, array.MustToSlice[float64](same))
	other := e.keep(e.c.Rand(array.Float64, 43, 2, 3))
	require.NotEqual(t, got, array.MustToSlice[float64](other))
}

func TestScalarValues(t *testing.T) {
	e := newEnv(t)
	x := e.keep(e.c.Scalar(2.75))
	v, err := x.Value()
	require.NoError(t, err)
	require.Equal(t, 2.75, v)
	i, err := x.ValueInt()
	require.NoError(t, err)
	require.Equal(t, int64(2), i)
	b, err := e.keep(e.c.Scalar(false)).ValueBool()
	require.NoError(t, err)
	require.False(t, b)
	big := e.keep(e.c.Scalar(int64(math.MaxInt64)))
	bi, err := big.ValueInt()
	require.NoError(t, err)
	require.Equal(t, int64(math.MaxInt64), bi)
	one := e.keep(e.floats([]float64{4}, 1, 1))
	require.Equal(t, 4.0, one.MustValue())
	_, err = e.floats([]float64{1, 2}).Value()
	require.ErrorContains(t, err, "Value: array of shape (2,) has 2 elements; want exactly 1")
}

// TestFullExactInt checks that Full holds every int64 exactly (never a
// float64 rounding of it) and rejects values the dtype cannot hold.
func TestFullExactInt(t *testing.T) {
	e := newEnv(t)
	c := e.c
	for _, v := range []int64{1<<62 + 1, math.MinInt64, math.MaxInt64, -(1<<53 + 1)} {
		got, err := array.ToSlice[int64](e.keep(c.Full(array.Int64, v, 2)))
		require.NoError(t, err)
		if got[0] != v || got[1] != v {
			t.Errorf("Full(Int64, %d): got:%v want:%v", v, got, v)
		}
	}
	got, err := array.ToSlice[int64](e.keep(c.Full(array.Int64, uint64(1<<63-1))))
	require.NoError(t, err)
	require.Equal(t, []int64{math.MaxInt64}, got)
	i32, err := array.ToSlice[int32](e.keep(c.Full(array.Int32, int8(-7), 3)))
	require.NoError(t, err)
	require.Equal(t, []int32{-7, -7, -7}, i32)
	f, err := array.ToSlice[float64](e.keep(c.Full(array.Float64, 1<<53+1)))
	require.NoError(t, err)
	require.Equal(t, []float64{1 << 53}, f) // one rounding, as AsType
	b, err := array.ToSlice[bool](e.keep(c.Full(array.Bool, true, 2)))
	require.NoError(t, err)
	require.Equal(t, []bool{true, true}, b)

	bad := []errCase{
		{"string", c.Full(array.Int64, "7", 2), `Full(int64, 7, shape (2,)): unsupported value type string`},
		{"int32 range", c.Full(array.Int32, 1<<40), "Full(int32, 1099511627776, shape ()): Go int 1099511627776 is out of range for int32"},
		{"uint64 range", c.Full(array.Int64, uint64(1<<63)), "Full(int64, 9223372036854775808, shape ()): value out of range for int64"},
	}
	checkErrs(t, bad)
}

// TestArangeCount checks the one-count Arange, as NumPy's arange(n).
func TestArangeCount(t *testing.T) {
	e := newEnv(t)
	c := e.c
	tests := []struct {
		name string
		a    *array.Array
		want []float64
	}{
		{"float32", c.Arange(array.Float32, 4), []float64{0, 1, 2, 3}},
		{"int64", c.Arange(array.Int64, 3), []float64{0, 1, 2}},
		{"zero", c.Arange(array.Int32, 0), []float64{}},
		{"negative", c.Arange(array.Float64, -2), []float64{}},
	}
	for _, tc := range tests {
		a := e.keep(tc.a)
		require.NoError(t, a.Err(), tc.name)
		if got := e.f64(a); !approx(got, tc.want) {
			t.Errorf("%s: got:%v want:%v", tc.name, got, tc.want)
		}
	}
	big, err := array.ToSlice[int64](e.keep(c.Arange(array.Int64, 1<<20).Slice(array.From(1<<20 - 1))))
	require.NoError(t, err)
	require.Equal(t, []int64{1<<20 - 1}, big)
	require.ErrorContains(t, c.Arange(array.Bool, 2).Err(), "Arange(bool, 2): unsupported dtype bool")
	require.ErrorContains(t, c.Arange(array.Int32, 1<<32).Err(), "do not fit in int32")
}

// TestLinspaceIntFloor checks that integer Linspace rounds toward minus
// infinity, as NumPy 2 does.
func TestLinspaceIntFloor(t *testing.T) {
	e := newEnv(t)
	got, err := array.ToSlice[int64](e.keep(e.c.Linspace(array.Int64, -1, 0, 3)))
	require.NoError(t, err)
	require.Equal(t, []int64{-1, -1, 0}, got)
	g32, err := array.ToSlice[int32](e.keep(e.c.Linspace(array.Int32, 2, -2, 5)))
	require.NoError(t, err)
	require.Equal(t, []int32{2, 1, 0, -1, -2}, g32)
	g32, err = array.ToSlice[int32](e.keep(e.c.Linspace(array.Int32, 0, -1, 3)))
	require.NoError(t, err)
	require.Equal(t, []int32{0, -1, -1}, g32)
}
