// The test oracle: a naive triple loop accumulating in float64, operand
// construction with poisoned padding, and the comparison.

package gemm_test

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/internal/gemm"
)

// extent is the elements a rows×cols matrix of stride stride covers.
func extent(rows, cols, stride int, trans bool) int {
	if trans {
		rows, cols = cols, rows
	}
	if rows == 0 || cols == 0 {
		return 0
	}
	return (rows-1)*stride + cols
}

func at[T gemm.Float](x gemm.Matrix[T], off, i, j int) T {
	if x.Trans {
		return x.Data[off+j*x.Stride+i]
	}
	return x.Data[off+i*x.Stride+j]
}

// naive returns the product of the matrices at offsets oa and ob in
// float64 (each product of float32 values exact in float64), and for
// each element the sum of the finite products' magnitudes (the scale of
// its rounding error).
func naive[T gemm.Float](m, n, k int, a gemm.Matrix[T], oa int, b gemm.Matrix[T], ob int) (want, scale []float64) {
	want = make([]float64, m*n)
	scale = make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s, sa float64
			for p := range k {
				x := float64(at(a, oa, i, p)) * float64(at(b, ob, p, j))
				s += x
				if math.Abs(x) <= math.MaxFloat64 {
					sa += math.Abs(x)
				}
			}
			want[i*n+j], scale[i*n+j] = s, sa
		}
	}
	return want, scale
}

func eps[T gemm.Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-24
	}
	return 0x1p-53
}

// agree compares C's m×n matrix at offset oc (stride ldc) with want:
// NaN where want is NaN, the same infinity, otherwise within the error
// bound of a sum of k products rounded in T.
func agree[T gemm.Float](m, n, k int, c []T, oc, ldc int, want, scale []float64) error {
	bound := 2 * float64(k+2) * eps[T]()
	for i := range m {
		for j := range n {
			g, w := float64(c[oc+i*ldc+j]), want[i*n+j]
			switch {
			case math.IsNaN(w):
				if !math.IsNaN(g) {
					return fmt.Errorf("(%d,%d): got:%v want:NaN", i, j, g)
				}
			case math.IsInf(w, 0):
				if g != w {
					return fmt.Errorf("(%d,%d): got:%v want:%v", i, j, g, w)
				}
			default:
				if d := math.Abs(g - w); !(d <= bound*scale[i*n+j]+1e-300) {
					return fmt.Errorf("(%d,%d): got:%v want:%v (error %.3g above %.3g)", i, j, g, w, d, bound*scale[i*n+j])
				}
			}
		}
	}
	return nil
}
