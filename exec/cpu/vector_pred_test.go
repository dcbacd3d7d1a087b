// Tests of the vector IsNaN and IsInf loops against the scalar ones and
// the definitions: every length from 0 to 70 and a few long ones, values
// mixed with NaNs of several payloads, infinities, signed zeros,
// subnormals and the largest finite values.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

func TestVectorPredicates(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(31, 32))
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		for _, c := range []struct {
			op  graph.Op
			def func(x float64) bool
		}{
			{graph.OpIsNaN, math.IsNaN},
			{graph.OpIsInf, func(x float64) bool { return math.IsInf(x, 0) }},
		} {
			vec, scalar := withVector(func() unaryFn { return unaryTab[d][c.op] })
			for _, n := range vecLengths {
				off := r.IntN(8)
				a := vecBuf(r, d, n, off)
				got, want := make([]uint8, n+1), make([]uint8, n+1)
				if n > 0 {
					vec(unsafe.Pointer(&got[0]), a, n)
					scalar(unsafe.Pointer(&want[0]), a, n)
				}
				for i := range n {
					x := elemFloat(a, d, i)
					if def := b2u(c.def(x)); got[i] != want[i] || got[i] != def {
						t.Fatalf("%v %v n=%d [%d] (%v) got:%d want:%d (scalar %d)", c.op, d, n, i, x, got[i], def, want[i])
					}
				}
			}
		}
	}
}
