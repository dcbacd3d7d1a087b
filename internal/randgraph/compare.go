// Compare: a backend's result against the reference's, exactly or within
// the tolerance of an inexact output.

package randgraph

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Tolerances of inexact float outputs, relative to 1 + the largest
// magnitude in the reference output.
const (
	Tol32 = 1e-3
	Tol64 = 1e-7
)

// values reads t in row-major order as float64 (ints and bools exactly
// enough for the small values generated; int64 compared separately).
func values(t *exec.Tensor) ([]float64, []int64) {
	n := t.Size()
	idx := make([]int, len(t.Shape))
	f := make([]float64, 0, n)
	var iv []int64
	for range n {
		o := t.Index(idx)
		switch t.DType {
		case graph.Bool:
			b := int64(0)
			if exec.Elems[uint8](t)[o] != 0 {
				b = 1
			}
			iv = append(iv, b)
		case graph.Int32:
			iv = append(iv, int64(exec.Elems[int32](t)[o]))
		case graph.Int64:
			iv = append(iv, exec.Elems[int64](t)[o])
		case graph.Float32:
			f = append(f, float64(exec.Elems[float32](t)[o]))
		case graph.Float64:
			f = append(f, exec.Elems[float64](t)[o])
		}
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < t.Shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return f, iv
}

// Compare checks got against want (the reference's result): same dtype
// and shape; integers and bools equal; floats equal (NaN equal to NaN,
// -0 to +0) when exact, else within Tol32 or Tol64 of 1 + max|want|, with
// NaN and infinities in the same places. It names the first mismatch.
func Compare(got, want *exec.Tensor, exact bool) error {
	if got.DType != want.DType || !got.Shape.Equal(want.Shape) {
		return fmt.Errorf("got %v %v, want %v %v", got.Shape, got.DType, want.Shape, want.DType)
	}
	gf, gi := values(got)
	wf, wi := values(want)
	for k := range wi {
		if gi[k] != wi[k] {
			return fmt.Errorf("element %d: got:%v want:%v", k, gi[k], wi[k])
		}
	}
	scale := 1.0
	for _, w := range wf {
		if !math.IsInf(w, 0) && !math.IsNaN(w) {
			scale = max(scale, 1+math.Abs(w))
		}
	}
	tol := Tol64 * scale
	if got.DType == graph.Float32 {
		tol = Tol32 * scale
	}
	for k := range wf {
		g, w := gf[k], wf[k]
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if math.IsNaN(w) != math.IsNaN(g) {
				return fmt.Errorf("element %d: got:%v want:%v", k, g, w)
			}
		case g == w:
		case exact || math.IsInf(w, 0) || math.IsInf(g, 0) || math.Abs(g-w) > tol:
			return fmt.Errorf("element %d: got:%v want:%v (exact %v, tolerance %.3g)", k, g, w, exact, tol)
		}
	}
	return nil
}
