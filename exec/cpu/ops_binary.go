// Binary inner loops: binaryTab[d][op] computes op over two operands of
// dtype d (the dtype the graph promoted both to). Comparisons write bool,
// every other entry writes d.

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

var binaryTab [numDTypes][256]binaryFn

// initBinaryTab fills binaryTab with the scalar loops (see tables.go).
func initBinaryTab() {
	compares[uint8](graph.Bool)
	b := &binaryTab[graph.Bool]
	b[graph.OpMax] = binary(orL[uint8])
	b[graph.OpMin] = binary(andL[uint8])
	b[graph.OpAnd] = binary(andL[uint8])
	b[graph.OpOr] = binary(orL[uint8])
	b[graph.OpXor] = binary(xorL[uint8])
	intBinary[int32](graph.Int32)
	intBinary[int64](graph.Int64)
	floatBinary[float32](graph.Float32)
	floatBinary[float64](graph.Float64)
}

func compares[T elems](d graph.DType) {
	t := &binaryTab[d]
	t[graph.OpEq] = binary(eqL[T])
	t[graph.OpNe] = binary(neL[T])
	t[graph.OpLt] = binary(ltL[T])
	t[graph.OpLe] = binary(leL[T])
	t[graph.OpGt] = binary(gtL[T])
	t[graph.OpGe] = binary(geL[T])
}

func arith[T nums](d graph.DType) {
	compares[T](d)
	t := &binaryTab[d]
	t[graph.OpAdd] = binary(addL[T])
	t[graph.OpSub] = binary(subL[T])
	t[graph.OpMul] = binary(mulL[T])
}

func intBinary[T ints](d graph.DType) {
	arith[T](d)
	t := &binaryTab[d]
	t[graph.OpFloorDiv] = binary(floorDivI[T])
	t[graph.OpMod] = binary(modI[T])
	t[graph.OpPow] = binary(powI[T])
	t[graph.OpMax] = binary(maxI[T])
	t[graph.OpMin] = binary(minI[T])
	t[graph.OpAnd] = binary(andL[T])
	t[graph.OpOr] = binary(orL[T])
	t[graph.OpXor] = binary(xorL[T])
}

func floatBinary[T floats](d graph.DType) {
	arith[T](d)
	t := &binaryTab[d]
	t[graph.OpDiv] = binary(divL[T])
	t[graph.OpFloorDiv] = binary(apply2[T](floorDivF))
	t[graph.OpMod] = binary(apply2[T](modF))
	t[graph.OpPow] = binary(apply2[T](math.Pow))
	t[graph.OpAtan2] = binary(apply2[T](math.Atan2))
	t[graph.OpMax] = binary(maxF[T])
	t[graph.OpMin] = binary(minF[T])
}

// apply2 evaluates f in float64 and rounds the result to T.
func apply2[T floats](f func(a, b float64) float64) func(d, a, b []T) {
	return func(d, a, b []T) {
		d, b = d[:len(a)], b[:len(a)]
		for i, x := range a {
			d[i] = T(f(float64(x), float64(b[i])))
		}
	}
}

func addL[T nums](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = x + b[i]
	}
}

func subL[T nums](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = x - b[i]
	}
}

func mulL[T nums](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = x * b[i]
	}
}

func divL[T floats](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = x / b[i]
	}
}

func andL[T ints | ~uint8](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = x & b[i]
	}
}

func orL[T ints | ~uint8](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = x | b[i]
	}
}

func xorL[T ints | ~uint8](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = x ^ b[i]
	}
}

func maxI[T ints](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = max(x, b[i])
	}
}

func minI[T ints](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = min(x, b[i])
	}
}

// maxF and minF propagate NaN from either side (Go's built-in max does).
func maxF[T floats](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = max(x, b[i])
	}
}

func minF[T floats](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = min(x, b[i])
	}
}

// floorDivI rounds the quotient toward negative infinity; division by
// zero gives 0 and MinInt / -1 wraps to MinInt.
func floorDivI[T ints](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		y := b[i]
		var q T
		if y != 0 {
			q = x / y
			if (x%y != 0) && ((x < 0) != (y < 0)) {
				q--
			}
		}
		d[i] = q
	}
}

// modI gives the remainder with the sign of the divisor (Python's %);
// modulo by zero gives 0.
func modI[T ints](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		y := b[i]
		var r T
		if y != 0 {
			r = x % y
			if r != 0 && ((r < 0) != (y < 0)) {
				r += y
			}
		}
		d[i] = r
	}
}

// powI raises by repeated squaring, wrapping on overflow. A negative
// exponent gives the integer part of the true power: 1 for base 1, ±1 for
// base -1, 0 otherwise (base 0 included).
func powI[T ints](d, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = ipow(x, b[i])
	}
}

func ipow[T ints](x, e T) T {
	if e < 0 {
		switch {
		case x == 1:
			return 1
		case x == -1:
			if e&1 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := T(1)
	for e > 0 {
		if e&1 != 0 {
			r *= x
		}
		x *= x
		e >>= 1
	}
	return r
}

// divmodF computes NumPy's floor division and modulo of floats: the
// remainder has the sign of b (a zero remainder is +-0 with b's sign),
// the quotient is floor((a - mod) / b), and division by zero gives a/b
// and NaN.
func divmodF(a, b float64) (div, mod float64) {
	mod = math.Mod(a, b)
	if b == 0 {
		return a / b, mod
	}
	q := (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			q--
		}
	} else {
		mod = math.Copysign(0, b)
	}
	if q != 0 {
		f := math.Floor(q)
		if q-f > 0.5 {
			f++
		}
		return f, mod
	}
	return math.Copysign(0, a/b), mod
}

func floorDivF(a, b float64) float64 { q, _ := divmodF(a, b); return q }
func modF(a, b float64) float64      { _, m := divmodF(a, b); return m }

func eqL[T elems](d []uint8, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = b2u(x == b[i])
	}
}

func neL[T elems](d []uint8, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = b2u(x != b[i])
	}
}

func ltL[T elems](d []uint8, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = b2u(x < b[i])
	}
}

func leL[T elems](d []uint8, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = b2u(x <= b[i])
	}
}

func gtL[T elems](d []uint8, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = b2u(x > b[i])
	}
}

func geL[T elems](d []uint8, a, b []T) {
	d, b = d[:len(a)], b[:len(a)]
	for i, x := range a {
		d[i] = b2u(x >= b[i])
	}
}

// whereTab[size] selects by element size (1, 4 or 8 bytes): where only
// moves bits.
var whereTab = [9]whereFn{1: where[uint8], 4: where[uint32], 8: where[uint64]}

// where runs backward, so that the destination may also be the (one-byte)
// condition: a store then covers only conditions already read.
func where[T uint8 | uint32 | uint64](d, c, a, b unsafe.Pointer, n int) {
	dv, cv, av, bv := view[T](d, n), view[uint8](c, n), view[T](a, n), view[T](b, n)
	for i := n - 1; i >= 0; i-- {
		if cv[i] != 0 {
			dv[i] = av[i]
		} else {
			dv[i] = bv[i]
		}
	}
}
