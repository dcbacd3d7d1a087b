// Golden tests of String and Repr: the expected texts are NumPy 1.24's
// str and repr of the same arrays (the longest under testdata/).

package array_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/array"
)

func TestFormatMatchesNumPy(t *testing.T) {
	e := newEnv(t)
	c := e.c
	nan, inf := math.NaN(), math.Inf(1)
	f64 := func(v ...float64) *array.Array { return array.FromSlice(c, v) }
	tests := []struct {
		a         *array.Array
		str, repr string
	}{
		{c.ArangeStep(array.Int64, 0, 12, 1).Reshape(3, 4),
			`[[ 0  1  2  3]
 [ 4  5  6  7]
 [ 8  9 10 11]]`,
			`array([[ 0,  1,  2,  3],
       [ 4,  5,  6,  7],
       [ 8,  9, 10, 11]])`},
		{c.ArangeStep(array.Float32, 0, 12, 1).Reshape(3, 4),
			`[[ 0.  1.  2.  3.]
 [ 4.  5.  6.  7.]
 [ 8.  9. 10. 11.]]`,
			`array([[ 0.,  1.,  2.,  3.],
       [ 4.,  5.,  6.,  7.],
       [ 8.,  9., 10., 11.]], dtype=float32)`},
		{c.Linspace(array.Float64, 0, 1, 30),
			`[0.         0.03448276 0.06896552 0.10344828 0.13793103 0.17241379
 0.20689655 0.24137931 0.27586207 0.31034483 0.34482759 0.37931034
 0.4137931  0.44827586 0.48275862 0.51724138 0.55172414 0.5862069
 0.62068966 0.65517241 0.68965517 0.72413793 0.75862069 0.79310345
 0.82758621 0.86206897 0.89655172 0.93103448 0.96551724 1.        ]`,
			`array([0.        , 0.03448276, 0.06896552, 0.10344828, 0.13793103,
       0.17241379, 0.20689655, 0.24137931, 0.27586207, 0.31034483,
       0.34482759, 0.37931034, 0.4137931 , 0.44827586, 0.48275862,
       0.51724138, 0.55172414, 0.5862069 , 0.62068966, 0.65517241,
       0.68965517, 0.72413793, 0.75862069, 0.79310345, 0.82758621,
       0.86206897, 0.89655172, 0.93103448, 0.96551724, 1.        ])`},
		{f64(nan, 1.5, -inf), "[ nan  1.5 -inf]", "array([ nan,  1.5, -inf])"},
		{f64(1e-5, 1, 1e10), "[1.e-05 1.e+00 1.e+10]", "array([1.e-05, 1.e+00, 1.e+10])"},
		{c.ArangeStep(array.Int64, 0, 2000, 1), "[   0    1    2 ... 1997 1998 1999]", "array([   0,    1,    2, ..., 1997, 1998, 1999])"},
		{c.ArangeStep(array.Float32, 0, 2000, 1).Reshape(40, 50),
			`[[0.000e+00 1.000e+00 2.000e+00 ... 4.700e+01 4.800e+01 4.900e+01]
 [5.000e+01 5.100e+01 5.200e+01 ... 9.700e+01 9.800e+01 9.900e+01]
 [1.000e+02 1.010e+02 1.020e+02 ... 1.470e+02 1.480e+02 1.490e+02]
 ...
 [1.850e+03 1.851e+03 1.852e+03 ... 1.897e+03 1.898e+03 1.899e+03]
 [1.900e+03 1.901e+03 1.902e+03 ... 1.947e+03 1.948e+03 1.949e+03]
 [1.950e+03 1.951e+03 1.952e+03 ... 1.997e+03 1.998e+03 1.999e+03]]`,
			`array([[0.000e+00, 1.000e+00, 2.000e+00, ..., 4.700e+01, 4.800e+01,
        4.900e+01],
       [5.000e+01, 5.100e+01, 5.200e+01, ..., 9.700e+01, 9.800e+01,
        9.900e+01],
       [1.000e+02, 1.010e+02, 1.020e+02, ..., 1.470e+02, 1.480e+02,
        1.490e+02],
       ...,
       [1.850e+03, 1.851e+03, 1.852e+03, ..., 1.897e+03, 1.898e+03,
        1.899e+03],
       [1.900e+03, 1.901e+03, 1.902e+03, ..., 1.947e+03, 1.948e+03,
        1.949e+03],
       [1.950e+03, 1.951e+03, 1.952e+03, ..., 1.997e+03, 1.998e+03,
        1.999e+03]], dtype=float32)`},
		{c.ArangeStep(array.Int64, 0, 24, 1).Reshape(2, 3, 4),
			`[[[ 0  1  2  3]
  [ 4  5  6  7]
  [ 8  9 10 11]]

 [[12 13 14 15]
  [16 17 18 19]
  [20 21 22 23]]]`,
			`array([[[ 0,  1,  2,  3],
        [ 4,  5,  6,  7],
        [ 8,  9, 10, 11]],

       [[12, 13, 14, 15],
        [16, 17, 18, 19],
        [20, 21, 22, 23]]])`},
		{array.FromSlice(c, []bool{true, false, true}), "[ True False  True]", "array([ True, False,  True])"},
		{c.Scalar(2.5), "2.5", "array(2.5)"},
		{c.Scalar(float32(1)), "1.0", "array(1., dtype=float32)"},
		{c.Scalar(int32(7)), "7", "array(7, dtype=int32)"},
		{c.Scalar(true), "True", "array(True)"},
		{c.Scalar(1e20), "1e+20", "array(1.e+20)"},
		{c.Scalar(1e-7), "1e-07", "array(1.e-07)"},
		{f64(-1.5, 2.25, 100.125), "[ -1.5     2.25  100.125]", "array([ -1.5  ,   2.25 , 100.125])"},
		// NumPy's output for a summarized 3-d array is long: testdata holds it.
		{c.ArangeStep(array.Float64, 0, 3000, 1).Reshape(10, 10, 30).Div(7), golden(t, "format_3d.txt"), golden(t, "format_3d_repr.txt")},
		{c.Zeros(array.Float32, 0), "[]", "array([], dtype=float32)"},
		{c.Zeros(array.Float64, 2, 0), "[]", "array([], shape=(2, 0), dtype=float64)"},
		{array.FromSlice(c, []float32{0.1, 0.2, 0.3}), "[0.1 0.2 0.3]", "array([0.1, 0.2, 0.3], dtype=float32)"},
		{f64(1e8, 1), "[1.e+08 1.e+00]", "array([1.e+08, 1.e+00])"},
		{f64(math.Copysign(0, -1), 0), "[-0.  0.]", "array([-0.,  0.])"},
		{f64(123456789.0), "[1.23456789e+08]", "array([1.23456789e+08])"},
		{c.ArangeStep(array.Int32, 0, 40, 1).Mul(1000),
			`[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 11000
 12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 22000 23000
 24000 25000 26000 27000 28000 29000 30000 31000 32000 33000 34000 35000
 36000 37000 38000 39000]`,
			`array([    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,
        9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000,
       18000, 19000, 20000, 21000, 22000, 23000, 24000, 25000, 26000,
       27000, 28000, 29000, 30000, 31000, 32000, 33000, 34000, 35000,
       36000, 37000, 38000, 39000], dtype=int32)`},
		{array.FromSlice(c, []float64{nan, inf, 1, 2}, 2, 2),
			`[[nan inf]
 [ 1.  2.]]`,
			`array([[nan, inf],
       [ 1.,  2.]])`},
		{f64(1.0/3, 2.0/3), "[0.33333333 0.66666667]", "array([0.33333333, 0.66666667])"},
		{array.FromSlice(c, []int64{-1234567890123, 5}), "[-1234567890123              5]", "array([-1234567890123,              5])"},
		{f64(nan, nan), "[nan nan]", "array([nan, nan])"},
		{f64(1e-300, 1), "[1.e-300 1.e+000]", "array([1.e-300, 1.e+000])"},
		{array.FromSlice(c, []bool{true, true}, 1, 2), "[[ True  True]]", "array([[ True,  True]])"},
		{c.ArangeStep(array.Float32, 0, 1001, 1).Div(3),
			`[  0.           0.33333334   0.6666667  ... 332.66666    333.
 333.33334   ]`,
			`array([  0.        ,   0.33333334,   0.6666667 , ..., 332.66666   ,
       333.        , 333.33334   ], dtype=float32)`},
		{array.FromSlice(c, []float32{-1e-5, 3, -2e12}), "[-1.e-05  3.e+00 -2.e+12]", "array([-1.e-05,  3.e+00, -2.e+12], dtype=float32)"},
	}
	for i, tt := range tests {
		a := e.keep(tt.a)
		if got := a.String(); got != tt.str {
			t.Errorf("case %d String:\ngot:\n%s\nwant:\n%s", i, got, tt.str)
		}
		if got := a.Repr(); got != tt.repr {
			t.Errorf("case %d Repr:\ngot:\n%s\nwant:\n%s", i, got, tt.repr)
		}
	}
}

// golden returns the text of testdata/name without its final newline.
func golden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

func TestFormatErrors(t *testing.T) {
	e := newEnv(t)
	bad := e.floats([]float64{1, 2}).Reshape(3)
	want := "Array(() invalid, error: Reshape((2,) float64): cannot reshape array of size 2 into shape (3,))"
	if got := bad.String(); got != want {
		t.Errorf("got:%s want:%s", got, want)
	}
}
