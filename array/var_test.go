// Var and Std accuracy: data on a large offset (1e8 plus small noise) in
// float32 and float64, over each axis and all, against the exact variance
// (math/big) and against two passes (mean first, then the squared
// deviations) evaluated in the same dtype; a selection whose first
// element lies far out; and one fused kernel reading the data once.

package array_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// exactVar returns the variance of v with ddof, each sum exact to 256
// bits.
func exactVar(v []float64, ddof int) float64 {
	n := new(big.Float).SetPrec(256).SetInt64(int64(len(v)))
	s := new(big.Float).SetPrec(256)
	for _, x := range v {
		s.Add(s, big.NewFloat(x))
	}
	mean := new(big.Float).SetPrec(256).Quo(s, n)
	ss := new(big.Float).SetPrec(256)
	for _, x := range v {
		d := new(big.Float).SetPrec(256).Sub(big.NewFloat(x), mean)
		ss.Add(ss, d.Mul(d, d))
	}
	f, _ := ss.Quo(ss, big.NewFloat(float64(len(v)-ddof))).Float64()
	return f
}

// twoPass is the variance by two passes in a's dtype.
func twoPass(a *array.Array, ddof, axis int) *array.Array {
	dev := a.Sub(a.MeanKeepDims(axis))
	n := a.Shape()[axis]
	return dev.Mul(dev).Sum(axis).Div(float64(n - ddof))
}

// selection returns the elements of the rows (axis 1) or columns (axis 0)
// of the rows x cols row-major v.
func selection(v []float64, rows, cols, axis, i int) []float64 {
	var out []float64
	if axis == 1 {
		return append(out, v[i*cols:(i+1)*cols]...)
	}
	for r := range rows {
		out = append(out, v[r*cols+i])
	}
	return out
}

func TestVarLargeOffset(t *testing.T) {
	const rows, cols = 300, 7
	r := rand.New(rand.NewPCG(21, 22))
	tests := []struct {
		name  string
		dt    array.DType
		noise func() float64
		tol   float64 // relative error allowed
	}{
		// float32 values near 1e8 are multiples of 8.
		{"float32", array.Float32, func() float64 { return 8 * float64(r.IntN(41)-20) }, 1e-5},
		{"float64", array.Float64, func() float64 { return r.Float64() - 0.5 }, 1e-11},
	}
	for _, tc := range tests {
		for _, be := range []string{"ref", "cpu"} {
			varLargeOffset(t, tc.name+" "+be, be, tc.dt, tc.noise, tc.tol, rows, cols)
		}
	}
}

func varLargeOffset(t *testing.T, name, be string, dt array.DType, noise func() float64, tol float64, rows, cols int) {
	e := newEnv(t)
	if be == "cpu" {
		c, err := array.NewContext(array.WithBackend(cpu.New(cpu.Options{Chunk: 64})), array.WithAllocator(e.mem))
		require.NoError(t, err)
		e.c = c
	}
	tc := struct {
		name  string
		dt    array.DType
		noise func() float64
		tol   float64
	}{name, dt, noise, tol}
	{
		v := make([]float64, rows*cols)
		for i := range v {
			v[i] = 1e8 + tc.noise()
		}
		var x *array.Array
		if tc.dt == array.Float32 {
			f := make([]float32, len(v))
			for i := range v {
				f[i] = float32(v[i])
				v[i] = float64(f[i]) // the values as stored
			}
			x = e.keep(array.FromSlice(e.c, f, rows, cols))
		} else {
			x = e.keep(array.FromSlice(e.c, v, rows, cols))
		}
		for _, ddof := range []int{0, 1} {
			for axis := range 2 {
				got := e.f64(e.keep(x.VarDdof(ddof, axis)))
				old := e.f64(e.keep(twoPass(x, ddof, axis)))
				std := e.f64(e.keep(x.StdDdof(ddof, axis)))
				for i := range got {
					want := exactVar(selection(v, rows, cols, axis, i), ddof)
					errNew := math.Abs(got[i]-want) / want
					errOld := math.Abs(old[i]-want) / want
					if errNew > tc.tol || errNew > errOld+tc.tol/10 {
						t.Errorf("%s ddof %d axis %d [%d]: got:%v want:%v (relative error %.3g, two passes %.3g)",
							tc.name, ddof, axis, i, got[i], want, errNew, errOld)
					}
					if d := math.Abs(std[i]-math.Sqrt(want)) / math.Sqrt(want); d > tc.tol {
						t.Errorf("%s ddof %d axis %d [%d] Std: got:%v want:%v", tc.name, ddof, axis, i, std[i], math.Sqrt(want))
					}
				}
			}
			all := e.f64(e.keep(x.VarDdof(ddof)))
			if want := exactVar(v, ddof); math.Abs(all[0]-want)/want > tc.tol {
				t.Errorf("%s ddof %d all axes: got:%v want:%v", tc.name, ddof, all[0], want)
			}
		}
	}
}

// TestVarOutlierSample puts a far outlier first in every selection: the
// shift (a median of three samples) stays near the data.
func TestVarOutlierSample(t *testing.T) {
	e := newEnv(t)
	v := []float64{1e6, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	x := e.keep(e.floats(v, 1, len(v)).AsType(array.Float32))
	got := e.f64(e.keep(x.Var(1)))
	want := exactVar(v, 0)
	if math.Abs(got[0]-want)/want > 1e-6 {
		t.Errorf("got:%v want:%v", got[0], want)
	}
}

// TestVarSpecial checks NaN and Inf anywhere, a single element and ddof
// past the count.
func TestVarSpecial(t *testing.T) {
	e := newEnv(t)
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		v    []float64
		ddof int
		want float64
	}{
		{"nan middle", []float64{1, 2, nan, 4, 5}, 0, nan},
		{"nan last", []float64{1, 2, 3, 4, nan}, 0, nan},
		{"inf", []float64{1, inf, 3, 4}, 0, nan},
		{"one", []float64{7}, 0, 0},
		{"one ddof 1", []float64{7}, 1, nan},
		{"ddof past count", []float64{1, 3}, 3, math.Inf(1)},
		{"constant", []float64{3, 3, 3, 3, 3}, 1, 0},
	}
	for _, tc := range tests {
		got := e.f64(e.keep(e.floats(tc.v, len(tc.v)).VarDdof(tc.ddof)))
		if !approx(got, []float64{tc.want}) {
			t.Errorf("%s: got:%v want:%v", tc.name, got[0], tc.want)
		}
	}
}

// TestVarOnePass checks that Var plans into one kernel that reads its
// operand (the shift's kernels read three elements per selection) and
// that the plan moves little more than the operand's bytes.
func TestVarOnePass(t *testing.T) {
	e := newEnv(t)
	x := e.keep(array.FromSlice(e.c, make([]float32, 256*256), 256, 256))
	for axis := range 2 {
		v := x.Var(axis)
		in := v.Node()
		for in.Op() != graph.OpInput && len(in.Inputs()) > 0 {
			in = in.Input(0)
		}
		p, err := fuse.Build([]*graph.Node{v.Node()}, map[*graph.Node]graph.Layout{in: graph.ContiguousLayout(graph.Float32, in.Shape())})
		require.NoError(t, err)
		big := 0
		for _, k := range p.Kernels {
			if k.BytesRead >= 256*256*4 {
				big++
			}
		}
		require.Equal(t, 1, big, "axis %d:\n%s", axis, fuse.Explain(p))
		require.Less(t, p.Bytes, int64(256*256*4*5/4), "axis %d:\n%s", axis, fuse.Explain(p))
	}
}
