// The loop tables against the op definitions they are derived from:
// every unary, binary and cast loop, with the vector loops and with the
// scalar ones, computes each element as opdef's scalar function does,
// the math functions within randgraph.CPU's ulps.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/half"
	"github.com/fuseflow/fuseflow/internal/opdef"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// elemValue returns element i at p as the Go type of opdef's scalar
// functions (bool for Bool).
func elemValue(d graph.DType, p unsafe.Pointer, i int) any {
	if d == graph.Bool {
		return view[uint8](p, i+1)[i] != 0
	}
	return elemValues[d](p, i)
}

// elemValues reads element i at p of each non-bool dtype.
var elemValues = map[graph.DType]func(p unsafe.Pointer, i int) any{
	graph.Int8: elemAt[int8], graph.Int16: elemAt[int16], graph.Int32: elemAt[int32], graph.Int64: elemAt[int64],
	graph.Uint8: elemAt[uint8], graph.Uint16: elemAt[uint16], graph.Uint32: elemAt[uint32], graph.Uint64: elemAt[uint64],
	graph.Float16: elemAt[half.Float16], graph.BFloat16: elemAt[half.BFloat16],
	graph.Float32: elemAt[float32], graph.Float64: elemAt[float64],
}

func elemAt[T any](p unsafe.Pointer, i int) any { return view[T](p, i+1)[i] }

func TestLoopsMatchDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const n = 300
	eachVector(func(vec bool) {
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
				ulp, ok := defULP(c.op, c.ins[0], args)
				if ok && !sameElem(got, want, ulp) {
					t.Errorf("%s (vector loops %v)%v got:%v want:%v", c.name, vec, args, got, want)
					break
				}
			}
		}
	})
}

// defULP returns how many ulps a loop of op on dtype d may lie from the
// definition at args: randgraph.CPU's bound, which counts Go's math
// functions (the definitions) as within an ulp of the exact result, and
// where they are not: math.Pow, off by about |y|+|log|x|| float64 ulps
// for large |y*log(x)| (randgraph's slack for it) and by far more for a
// subnormal x (it takes math.Log of x, whose amd64 assembly does not
// normalize subnormals: see fmath.Log), and math.Sin, Cos and
// Tan beyond 2^29, whose argument reduction loses the result's low bits
// there. ok is false for the last two: nothing is compared (vecmath's tests
// compare those inputs with the IR interpreter, codegen/mathlib's with a
// 200-bit reference).
func defULP(op graph.Op, d graph.DType, args []any) (ulp int64, ok bool) {
	ulp = int64(randgraph.CPU.ULP(op, d))
	if d != graph.Float64 {
		return ulp, true
	}
	switch op {
	case graph.OpPow:
		x, y := args[0].(float64), args[1].(float64)
		k := math.Abs(y) + math.Abs(math.Log(math.Abs(x))) + 4
		if k > 1<<40 || k != k || (x != 0 && math.Abs(x) < 0x1p-1022) {
			return 0, false
		}
		return ulp + 2*int64(k), true
	case graph.OpSin, graph.OpCos, graph.OpTan:
		return ulp, math.Abs(args[0].(float64)) < 0x1p29
	}
	return ulp, true
}

// sameElem reports whether got is want: the same bits (any NaN for NaN),
// or for floats within ulp ulps.
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
		if ulp > 0 && g == g && w == w {
			return ulps(g, w) <= ulp
		}
		return math.Float64bits(g) == math.Float64bits(w) || (g != g && w != w)
	case half.Float16:
		w := want.(half.Float16)
		return g == w || g.Float32() != g.Float32() && w.Float32() != w.Float32()
	case half.BFloat16:
		w := want.(half.BFloat16)
		return g == w || g.Float32() != g.Float32() && w.Float32() != w.Float32()
	}
	return got == want
}

// ulps returns how many values of got's type lie between got and want,
// counting from one to the other (the two zeros are one step apart).
func ulps[T float32 | float64](got, want T) int64 {
	g, w := ordered(got), ordered(want)
	if g > w {
		return g - w
	}
	return w - g
}

// ordered maps x to an integer that orders as x does, with -0 just
// below +0.
func ordered[T float32 | float64](x T) int64 {
	var b, sign int64
	if f, ok := any(x).(float32); ok {
		b, sign = int64(math.Float32bits(f)), 1<<31
	} else {
		b, sign = int64(math.Float64bits(float64(x))), math.MinInt64
	}
	if b&sign != 0 {
		return -(b &^ sign) - 1
	}
	return b
}
