// Unsigned semantics: the ops whose result depends on reading the int
// lane as unsigned. uint8, uint16 and uint32 values are nonnegative in
// the int64 lane, so only Abs and Sign differ for them; uint64 values are
// held as their bits, so its comparisons, division, modulo, power, Max
// and Min read them as uint64. Add, Sub, Mul and the bitwise ops are the
// same on the bits.

package ref

import (
	"maps"

	"github.com/fuseflow/fuseflow/graph"
)

// unaryUint defines the unary ops on unsigned integers: those of
// unaryInt, but for Abs and Sign.
var unaryUint = overlay(unaryInt, map[graph.Op]func(int64) int64{
	graph.OpAbs:  func(x int64) int64 { return x },
	graph.OpSign: func(x int64) int64 { return b2i(x != 0) },
})

// binaryUint defines the binary ops on uint64 bits: those of binaryInt,
// but for the ones that read the bits as unsigned.
var binaryUint = overlay(binaryInt, map[graph.Op]func(a, b int64) int64{
	graph.OpFloorDiv: func(a, b int64) int64 { return uop(a, b, func(x, y uint64) uint64 { return x / y }) },
	graph.OpMod:      func(a, b int64) int64 { return uop(a, b, func(x, y uint64) uint64 { return x % y }) },
	graph.OpPow:      powUint,
	graph.OpMax:      func(a, b int64) int64 { return int64(max(uint64(a), uint64(b))) },
	graph.OpMin:      func(a, b int64) int64 { return int64(min(uint64(a), uint64(b))) },
})

// overlay returns a new table holding the entries of base, replaced or
// joined by those of over.
func overlay[F any](base, over map[graph.Op]F) map[graph.Op]F {
	m := maps.Clone(base)
	maps.Copy(m, over)
	return m
}

// uop applies a division-like f, giving 0 for a zero divisor (as the
// signed integers do).
func uop(a, b int64, f func(x, y uint64) uint64) int64 {
	if b == 0 {
		return 0
	}
	return int64(f(uint64(a), uint64(b)))
}

// powUint is a ** b for uint64 by repeated squaring, wrapping.
func powUint(a, b int64) int64 {
	x, e, r := uint64(a), uint64(b), uint64(1)
	for e > 0 {
		if e&1 != 0 {
			r *= x
		}
		x *= x
		e >>= 1
	}
	return int64(r)
}

// compareUint defines the comparisons of uint64 bits.
var compareUint = map[graph.Op]func(a, b int64) bool{
	graph.OpEq: func(a, b int64) bool { return a == b },
	graph.OpNe: func(a, b int64) bool { return a != b },
	graph.OpLt: func(a, b int64) bool { return uint64(a) < uint64(b) },
	graph.OpLe: func(a, b int64) bool { return uint64(a) <= uint64(b) },
	graph.OpGt: func(a, b int64) bool { return uint64(a) > uint64(b) },
	graph.OpGe: func(a, b int64) bool { return uint64(a) >= uint64(b) },
}
