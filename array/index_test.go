// Indexing through the array API: bad input as clear errors, updates
// that never change their input, and the data-dependent lengths.

package array_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
)

func TestIndexErrors(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	idx := e.ints([]int64{0, 2})
	fidx := e.floats([]float64{0, 1})
	hist := func(a *array.Array, o array.HistogramOpts) *array.Array { h, _ := a.HistogramWith(o); return h }
	cases := []struct {
		name string
		a    func() *array.Array
		want string
	}{
		{"take float indices", func() *array.Array { return x.Take(fidx, 0) }, "Take((2, 3) float64, (2,) float64): indices must be integers, not float64"},
		{"take bool indices", func() *array.Array { return x.Take(x.Gt(1), 0) }, "indices must be integers, not bool"},
		{"take axis", func() *array.Array { return x.Take(idx, 2) }, "Take((2, 3) float64, (2,) int64): axis 2 is out of bounds"},
		{"take nil", func() *array.Array { return x.Take(nil, 0) }, "Take((2, 3) float64): indices are a nil *Array"},
		{"take 0-d", func() *array.Array { return e.c.Scalar(1.0).Take(idx, 0) }, "cannot take from a 0-d array"},
		{"take out of range", func() *array.Array { return x.Take(e.ints([]int64{0, 3}), 1) }, "Take: index 3 is out of bounds for axis 1 with size 3"},
		{"take negative out of range", func() *array.Array { return x.Take(e.ints([]int64{-3}), 0) }, "Take: index -3 is out of bounds for axis 0 with size 2"},
		{"takealong rank", func() *array.Array { return x.TakeAlongAxis(idx, 1) }, "indices and array must have the same number of dimensions"},
		{"takealong shapes", func() *array.Array { return x.TakeAlongAxis(e.ints([]int64{0, 1, 0}, 3, 1), 1) }, "cannot be broadcast"},
		{"takealong float", func() *array.Array { return x.TakeAlongAxis(x, 1) }, "indices must be integers, not float64"},
		{"mask dtype", func() *array.Array { return x.Mask(x) }, "Mask((2, 3) float64, (2, 3) float64): the mask must be bool, not float64"},
		{"mask shape", func() *array.Array { return x.Mask(e.ints([]int64{1, 0, 1}).Gt(0)) }, "Mask((2, 3) float64, (3,) bool): boolean index of shape (3,) does not match the array's leading axes (2,)"},
		{"mask rank", func() *array.Array { return x.Mask(x.Gt(0).Reshape(1, 2, 3)) }, "does not match"},
		{"put float indices", func() *array.Array { return x.Put(fidx, 1) }, "Put((6,) float64, (2,) float64, () float64): indices must be integers, not float64"},
		{"put values", func() *array.Array { return x.Put(idx, e.floats([]float64{1, 2, 3})) }, "updates of shape (3,) do not broadcast to (2,)"},
		{"put values type", func() *array.Array { return x.Put(idx, "a") }, "unsupported values type string"},
		{"put out of range", func() *array.Array { return x.Put(e.ints([]int64{6}), 1) }, "Scatter: index 6 is out of bounds for axis 0 with size 6"},
		{"set out of range", func() *array.Array { return x.Set(e.ints([]int64{1, -4}), 1, 1) }, "Scatter: index -4 is out of bounds for axis 1 with size 3"},
		{"scatteradd bool", func() *array.Array { return x.Gt(1).ScatterAdd(idx, true, 0) }, "unsupported dtype bool"},
		{"scattermax out of range", func() *array.Array { return x.ScatterMax(e.ints([]int64{2}), 1, 0) }, "ScatterMax: index 2 is out of bounds for axis 0 with size 2"},
		{"bincount float", func() *array.Array { return array.Bincount(fidx, nil, 0) }, "Bincount((2,) float64): x must be an integer array, not float64"},
		{"bincount negative", func() *array.Array { return array.Bincount(e.ints([]int64{1, -2}), nil, 0) }, "x must have no negative elements (found -2)"},
		{"bincount 2-d", func() *array.Array { return array.Bincount(idx.Reshape(1, 2), nil, 0) }, "x must be 1-d"},
		{"bincount weights", func() *array.Array { return array.Bincount(idx, fidx.Reshape(2, 1), 0) }, "weights of shape (2, 1) for x of shape (2,)"},
		{"bincount minlength", func() *array.Array { return array.Bincount(idx, nil, -1) }, "minlength -1 must not be negative"},
		{"histogram bins", func() *array.Array { h, _ := x.Histogram(0); return h }, "bins must be at least 1, got 0"},
		{"histogram range", func() *array.Array { h, _ := x.Histogram(3, 2, 1); return h }, "max must be larger than min"},
		{"histogram nan", func() *array.Array { h, _ := e.floats([]float64{1, 0}).Log().Mul(-1).Histogram(3); return h }, "autodetected range of [-0, +Inf] is not finite"},
		{"histogram bool", func() *array.Array { h, _ := x.Gt(1).Histogram(3); return h }, "unsupported dtype bool"},
		{"histogram nan range", func() *array.Array { h, _ := x.Histogram(3, math.NaN(), 1); return h }, "supplied range of [NaN, 1] is not finite"},
		{"histogram range count", func() *array.Array { h, _ := x.Histogram(3, 1); return h }, "the range is two numbers, got 1"},
		{"histogram decreasing edges", func() *array.Array { return hist(x, array.HistogramOpts{Edges: e.floats([]float64{0, 2, 1})}) }, "Histogram((2, 3) float64): edges must increase monotonically"},
		{"histogram nan edges", func() *array.Array { return hist(x, array.HistogramOpts{Edges: e.floats([]float64{0, math.NaN(), 1})}) }, "edges must not hold NaN"},
		{"histogram 2-d edges", func() *array.Array { return hist(x, array.HistogramOpts{Edges: x}) }, "edges must be 1-d, got shape (2, 3)"},
		{"histogram one edge", func() *array.Array { return hist(x, array.HistogramOpts{Edges: e.floats([]float64{1})}) }, "edges must have at least 2 elements (one bin), got 1"},
		{"histogram bool edges", func() *array.Array { return hist(x, array.HistogramOpts{Edges: idx.Gt(0)}) }, "edges must be numbers, not bool"},
		{"histogram edges and bins", func() *array.Array { return hist(x, array.HistogramOpts{Bins: 3, Edges: fidx}) }, "give Edges or Bins and Range, not both"},
		{"histogram edges and range", func() *array.Array { return hist(x, array.HistogramOpts{Range: []float64{0, 1}, Edges: fidx}) }, "give Edges or Bins and Range, not both"},
		{"histogram negative bins", func() *array.Array { return hist(x, array.HistogramOpts{Bins: -2}) }, "bins must be at least 1, got -2"},
		{"histogram weights shape", func() *array.Array { return hist(x, array.HistogramOpts{Weights: x.Flatten()}) }, "Histogram((2, 3) float64): weights of shape (6,) for an array of shape (2, 3)"},
		{"histogram bool weights", func() *array.Array { return hist(x, array.HistogramOpts{Weights: x.Gt(1)}) }, "weights must be numbers, not bool"},
		{"histogram weights error", func() *array.Array { return hist(x, array.HistogramOpts{Weights: x.Take(fidx, 0)}) }, "indices must be integers, not float64"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := e.keep(tc.a())
			err := a.Eval()
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestIndexUpdatesLeaveTheInput(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{1, 2, 3, 4})
	require.NoError(t, x.Eval())
	idx := e.ints([]int64{0, 0, 3})
	outs := []*array.Array{
		e.keep(x.Put(idx, 9)), e.keep(x.Set(idx, e.floats([]float64{5, 6, 7}), 0)),
		e.keep(x.ScatterAdd(idx, 1, 0)), e.keep(x.ScatterMax(idx, 3.5, 0)),
	}
	require.NoError(t, array.Eval(t.Context(), outs...))
	e.check([]valueCase{
		{"put", outs[0], array.Shape{4}, []float64{9, 2, 3, 9}},
		{"set: the last repeat wins", outs[1], array.Shape{4}, []float64{6, 2, 3, 7}},
		{"scatteradd: repeats add", outs[2], array.Shape{4}, []float64{3, 2, 3, 5}},
		{"scattermax", outs[3], array.Shape{4}, []float64{3.5, 2, 3, 4}},
		{"input unchanged", x, array.Shape{4}, []float64{1, 2, 3, 4}},
	})
}

func TestIndexDataDependentLengths(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{3, -1, 0, 7, 0, 2}, 2, 3)
	nz := x.Nonzero()
	e.keep(nz[0])
	e.keep(nz[1])
	h, edges := x.Histogram(2)
	e.keep(edges)
	e.check([]valueCase{
		{"mask", x.Mask(x.Gt(0)), array.Shape{3}, []float64{3, 7, 2}},
		{"mask of rows", x.Mask(e.ints([]int64{0, 1}).Gt(0)), array.Shape{1, 3}, []float64{7, 0, 2}},
		{"mask of nothing", x.Mask(x.Gt(100)), array.Shape{0}, []float64{}},
		{"nonzero rows", nz[0], array.Shape{4}, []float64{0, 0, 1, 1}},
		{"nonzero cols", nz[1], array.Shape{4}, []float64{0, 1, 0, 2}},
		{"flatnonzero", x.FlatNonzero(), array.Shape{4}, []float64{0, 1, 3, 5}},
		{"bincount", array.Bincount(e.ints([]int64{2, 0, 2}), nil, 0), array.Shape{3}, []float64{1, 0, 2}},
		{"bincount minlength", array.Bincount(e.ints([]int64{2, 0, 2}), nil, 5), array.Shape{5}, []float64{1, 0, 2, 0, 0}},
		{"bincount empty", array.Bincount(e.ints([]int64{}), nil, 0), array.Shape{0}, []float64{}},
		{"histogram", h, array.Shape{2}, []float64{4, 2}},
	})
}
