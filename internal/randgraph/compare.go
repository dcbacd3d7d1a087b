// Comparing a backend's results with the reference's: Reference
// evaluates the outputs and their error bounds (bound.go) on the
// reference evaluator, Check compares one result element by element
// within its bound. Compare is the older check against a tolerance
// relative to the output's largest value.

package randgraph

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

// Reference evaluates outs on the reference evaluator with the values
// bound to their inputs, together with the error bound of each under m
// (see Bounds): want[i] is output i and bound[i] its bound, nil where the
// output must match exactly. The caller releases every tensor returned.
func Reference(ctx context.Context, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator, m Model) (want, bounds []*exec.Tensor, err error) {
	bn, err := Bounds(outs, m)
	if err != nil {
		return nil, nil, err
	}
	all := append([]*graph.Node(nil), outs...)
	for _, b := range bn {
		if b != nil {
			all = append(all, b)
		}
	}
	res, err := ref.New().Eval(ctx, &exec.Request{Outputs: all, Bound: bound, Alloc: alloc})
	if err != nil {
		return nil, nil, err
	}
	want, bounds = res[:len(outs)], make([]*exec.Tensor, len(outs))
	k := len(outs)
	for i, b := range bn {
		if b != nil {
			bounds[i] = res[k]
			k++
		}
	}
	return want, bounds, nil
}

// Check compares got with want, the reference's result, within bound
// (from Reference; nil for an exact output): same dtype and shape, and
// for each element with bound b:
//
//   - b NaN or +Inf: nothing is promised;
//   - b == 0: equal (ints and bools), or for floats the same value with
//     the same sign of zero, or both NaN;
//   - b > 0: floats within b of each other, NaN and infinities of the
//     same sign exactly where want has them; ints and bools equal unless
//     b >= 1.
//
// The error names the first element that differs by its index.
func Check(got, want, bound *exec.Tensor) error {
	if got.DType != want.DType || !got.Shape.Equal(want.Shape) {
		return fmt.Errorf("got %v %v, want %v %v", got.Shape, got.DType, want.Shape, want.DType)
	}
	if bound != nil && (bound.DType != graph.Float64 || !bound.Shape.Equal(want.Shape)) {
		return fmt.Errorf("bound %v %v for a result %v %v", bound.Shape, bound.DType, want.Shape, want.DType)
	}
	gf, gi := values(got)
	wf, wi := values(want)
	var bf []float64
	if bound != nil {
		bf, _ = values(bound)
	}
	at := func(k int) float64 {
		if bf == nil {
			return 0
		}
		return bf[k]
	}
	for k := range wi {
		if b := at(k); gi[k] != wi[k] && !(b != b || b >= 1) {
			return fmt.Errorf("element %v: got:%v want:%v", multiIndex(want.Shape, k), gi[k], wi[k])
		}
	}
	for k := range wf {
		g, w, b := gf[k], wf[k], at(k)
		if b != b || math.IsInf(b, 1) {
			continue
		}
		ok := false
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			ok = math.IsNaN(w) && math.IsNaN(g)
		case math.IsInf(w, 0) || math.IsInf(g, 0):
			ok = g == w
		case b == 0:
			ok = g == w && math.Signbit(g) == math.Signbit(w)
		default:
			ok = math.Abs(g-w) <= b
		}
		if !ok {
			return fmt.Errorf("element %v: got:%v want:%v (bound %.4g)", multiIndex(want.Shape, k), g, w, b)
		}
	}
	return nil
}

// multiIndex returns the index of the k-th element of shape s in
// row-major order.
func multiIndex(s graph.Shape, k int) []int {
	idx := make([]int, len(s))
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] > 0 {
			idx[i] = k % s[i]
			k /= s[i]
		}
	}
	return idx
}

// Tolerances of Compare's inexact float outputs, relative to 1 + the
// largest magnitude in the reference output.
const (
	Tol32 = 1e-3
	Tol64 = 1e-7
	// Tol16 is the tolerance of float16 and bfloat16 results.
	Tol16 = 3e-2
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
		switch v := exec.ScalarAt(t, o); {
		case t.DType.IsFloat():
			f = append(f, v.F)
		default:
			iv = append(iv, v.I)
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
//
// Deprecated: the tolerance is no bound: an error amplified after a
// cancellation exceeds it (a false alarm) and a wrong small value hides
// under a large one. Use Reference and Check.
func Compare(got, want *exec.Tensor, exact bool) error {
	if exact {
		return Equal(got, want)
	}
	return compareTol(got, want)
}

// Equal checks that got holds want's values: same dtype and shape,
// integers and bools equal, floats equal (NaN to NaN, -0 to +0). It
// names the first mismatch.
func Equal(got, want *exec.Tensor) error {
	return compareTolExact(got, want, true)
}

func compareTol(got, want *exec.Tensor) error { return compareTolExact(got, want, false) }

func compareTolExact(got, want *exec.Tensor, exact bool) error {
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
	switch got.DType {
	case graph.Float32:
		tol = Tol32 * scale
	case graph.Float16, graph.BFloat16:
		tol = Tol16 * scale
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
