// The loop tables against the op definitions they are derived from:
// every unary, binary and cast loop, with the vector loops and with the
// scalar ones, computes each element as opdef's scalar function does.

package cpu

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// elemValue returns element i at p as the Go type of opdef's scalar
// functions (bool for Bool).
func elemValue(d graph.DType, p unsafe.Pointer, i int) reflect.Value {
	switch d {
	case graph.Bool:
		return reflect.ValueOf(view[uint8](p, i+1)[i] != 0)
	case graph.Int32:
		return reflect.ValueOf(view[int32](p, i+1)[i])
	case graph.Int64:
		return reflect.ValueOf(view[int64](p, i+1)[i])
	case graph.Float32:
		return reflect.ValueOf(view[float32](p, i+1)[i])
	}
	return reflect.ValueOf(view[float64](p, i+1)[i])
}

// apply calls an opdef scalar function (a Wide or Wide2 one through
// float64).
func apply(fn any, args []reflect.Value) reflect.Value {
	switch f := fn.(type) {
	case opdef.Wide:
		return reflect.ValueOf(float32(f(args[0].Float())))
	case opdef.Wide2:
		return reflect.ValueOf(float32(f(args[0].Float(), args[1].Float())))
	}
	return reflect.ValueOf(fn).Call(args)[0]
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
				args := make([]reflect.Value, len(c.ins))
				for k, d := range c.ins {
					args[k] = elemValue(d, ptrs[k], i)
				}
				got, want := elemValue(c.out, dst, i), apply(c.fn, args)
				if !sameElem(got, want, c.out == graph.Float32 && approxULP[c.op] > 0, approxULP[c.op]) {
					vals := make([]any, len(args))
					for k, a := range args {
						vals[k] = a.Interface()
					}
					t.Errorf("%s (vector loops %v)%v got:%v want:%v", c.name, vec, vals, got, want)
					break
				}
			}
		}
	}
}

// sameElem reports whether got is want: the same bits (any NaN for NaN),
// or for approx float32 loops within ulp ulps.
func sameElem(got, want reflect.Value, approx bool, ulp int64) bool {
	switch g := got.Interface().(type) {
	case float32:
		w := want.Interface().(float32)
		if approx && g == g && w == w {
			return ulps(g, w) <= ulp
		}
		return math.Float32bits(g) == math.Float32bits(w) || (g != g && w != w)
	case float64:
		w := want.Interface().(float64)
		return math.Float64bits(g) == math.Float64bits(w) || (g != g && w != w)
	}
	return got.Equal(want)
}
