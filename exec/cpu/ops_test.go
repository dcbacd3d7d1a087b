// The loop tables against the op definitions they are derived from:
// every unary, binary and cast loop, with the vector loops and with the
// scalar ones, computes each element as opdef's scalar function does.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// elemValue returns element i at p as the Go type of opdef's scalar
// functions (bool for Bool).
func elemValue(d graph.DType, p unsafe.Pointer, i int) any {
	switch d {
	case graph.Bool:
		return view[uint8](p, i+1)[i] != 0
	case graph.Int32:
		return view[int32](p, i+1)[i]
	case graph.Int64:
		return view[int64](p, i+1)[i]
	case graph.Float32:
		return view[float32](p, i+1)[i]
	}
	return view[float64](p, i+1)[i]
}

// approxULP lists the loops that may differ from the definition, by how
// many float32 ulps (the float32 exponential of expf.go, and its vector
// form).
var approxULP = map[graph.Op]int64{graph.OpExp: 2, graph.OpSigmoid: 2}

func TestLoopsMatchDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	was := setVector(true)
	defer setVector(was)
	const n = 300
	for _, vec := range []bool{true, false} {
		setVector(vec)
		for _, c := range loopCases() {
			if c.fn == nil {
				continue
			}
			ptrs := make([]unsafe.Pointer, len(c.ins))
			for k, d := range c.ins {
				ptrs[k] = unsafe.Pointer(&aliasValues(r, d, n)[0])
			}
			dst := unsafe.Pointer(&aliasBuf(n, c.out.Size(), 1)[0])
			c.run(dst, ptrs, n)
			for i := range n {
				args := make([]any, len(c.ins))
				for k, d := range c.ins {
					args[k] = elemValue(d, ptrs[k], i)
				}
				got, want := elemValue(c.out, dst, i), opdef.Call(c.fn, args...)
				if !sameElem(got, want, approxULP[c.op]) {
					t.Errorf("%s (vector loops %v)%v got:%v want:%v", c.name, vec, args, got, want)
					break
				}
			}
		}
	}
}

// sameElem reports whether got is want: the same bits (any NaN for NaN),
// or for float32 within ulp ulps.
func sameElem(got, want any, ulp int64) bool {
	switch g := got.(type) {
	case float32:
		w := want.(float32)
		if ulp > 0 && g == g && w == w {
			return ulps(g, w) <= ulp
		}
		return math.Float32bits(g) == math.Float32bits(w) || (g != g && w != w)
	case float64:
		w := want.(float64)
		return math.Float64bits(g) == math.Float64bits(w) || (g != g && w != w)
	}
	return got == want
}
