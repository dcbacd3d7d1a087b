// Tests of the AVX2 int64 loops that machines with AVX-512 do not
// register (they take AVX-512's instructions instead).

//go:build amd64 && !purego

package cpu

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// TestInt64AVX2 compares the AVX2 int64 Maximum, Minimum, Mul and Abs
// with their definitions over integer edge values and random ones.
func TestInt64AVX2(t *testing.T) {
	if !hasVector {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(25, 26))
	const n = 256
	a, b := view[int64](unsafe.Pointer(unsafe.SliceData(aliasValues(r, graph.Int64, n))), n),
		view[int64](unsafe.Pointer(unsafe.SliceData(aliasValues(r, graph.Int64, n))), n)
	for _, tc := range []struct {
		name string
		v    func(d, a, b unsafe.Pointer, n int)
		f    func(x, y int64) int64
	}{
		{"maximum", maxI64x2, fmath.Max[int64]},
		{"minimum", minI64x2, fmath.Min[int64]},
		{"mul", mulI64x2, fmath.Mul[int64]},
		{"abs", func(d, a, _ unsafe.Pointer, n int) { absI64x2(d, a, n) }, func(x, _ int64) int64 { return fmath.AbsInt(x) }},
	} {
		got := make([]int64, n)
		tc.v(unsafe.Pointer(&got[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n)
		for i := range n {
			if want := tc.f(a[i], b[i]); got[i] != want {
				t.Errorf("%s(%d, %d) got:%d want:%d", tc.name, a[i], b[i], got[i], want)
				break
			}
		}
	}
}
