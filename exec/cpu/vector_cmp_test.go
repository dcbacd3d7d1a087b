// Tests of the vector float comparisons (elem_amd64.s) against the
// scalar loops and Go's operators: every length from 0 to 70 and a few
// long ones (all tails), starts off the vector alignment, operands equal
// in about a third of the lanes, NaNs of several payloads, infinities,
// signed zeros and subnormals.

package cpu

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

func TestVectorCompares(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(41, 42))
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		for _, c := range []struct {
			op  graph.Op
			def func(x, y float64) bool
		}{
			{graph.OpEq, func(x, y float64) bool { return x == y }},
			{graph.OpNe, func(x, y float64) bool { return x != y }},
			{graph.OpLt, func(x, y float64) bool { return x < y }},
			{graph.OpLe, func(x, y float64) bool { return x <= y }},
			{graph.OpGt, func(x, y float64) bool { return x > y }},
			{graph.OpGe, func(x, y float64) bool { return x >= y }},
		} {
			vec, scalar := withVector(func() binaryFn { return binaryTab[d][c.op] })
			es := d.Size()
			for _, n := range vecLengths {
				off := r.IntN(8)
				a, b := vecBuf(r, d, n, off), vecBuf(r, d, n, (off+5)%8)
				for i := range n { // equal lanes, -0 against +0 among them
					if r.IntN(3) == 0 {
						copy(view[byte](unsafe.Add(b, i*es), es), view[byte](unsafe.Add(a, i*es), es))
					}
				}
				got, want := make([]uint8, n+1), make([]uint8, n+1)
				if n > 0 {
					vec(unsafe.Pointer(&got[0]), a, b, n)
					scalar(unsafe.Pointer(&want[0]), a, b, n)
				}
				for i := range n {
					x, y := elemFloat(a, d, i), elemFloat(b, d, i)
					if def := b2u(c.def(x, y)); got[i] != want[i] || got[i] != def {
						t.Fatalf("%v %v n=%d [%d] (%v, %v) got:%d want:%d (scalar %d)", c.op, d, n, i, x, y, got[i], def, want[i])
					}
				}
				if got[n] != 0 {
					t.Fatalf("%v %v n=%d: wrote past the end", c.op, d, n)
				}
			}
		}
	}
}
