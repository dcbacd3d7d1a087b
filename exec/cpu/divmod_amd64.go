// Vector loops for amd64 of NumPy's float floor division and modulo
// (graph.OpFloorDiv and graph.OpMod on float32 and float64), written in
// assembly (divmod_amd64.s) with AVX2 and FMA, or AVX-512 where the CPU
// has it, and registered in place of the scalar loops of
// fmath.DivModFloat. They store DivModFloat's bits lane by lane: float32
// operands are widened to float64 exactly and the results rounded to
// float32 at the end, as the scalar loop does.
//
// Where |a|/|b| rounded is below 2^50 and both operands are finite with
// b nonzero (the fast domain), fmath.Fmod's remainder is
// r = |a| - n|b| exact for n the truncated rounded quotient (one less
// where that makes r negative), and DivModFloat's quotient
// round((a - fmod)/b) (less one where the remainder moves into b's
// sign) is that n plus one where it moved, signed like a/b: a - fmod is
// ±n|b| rounded (exact where subnormal), so the two roundings of
// (a - fmod)/b, each under 2^-53 relative, put it within about n 2^-52
// of ±n, below 1/4 for n < 2^50; the subtraction of one adds at most
// 2^-3 (half an ulp below 2^51), so rounding to the nearest integer
// gives the integer back; the quotient is zero only where n is and the
// remainder did not move, and both sign it like a/b. Units with a lane
// outside the fast domain (NaN and infinite operands, zero divisors,
// huge quotients) go to the scalar loop whole (vecPartial).

//go:build amd64 && !purego

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// The loops run over whole units of 4 (x4, AVX2 and FMA) or 8 (x8,
// AVX-512 F and DQ) elements and return the elements done: they stop
// before the first unit with a lane outside the fast domain, storing
// nothing of it.

//go:noescape
func floorDivF64x4(d, a, b unsafe.Pointer, n int) int

//go:noescape
func modF64x4(d, a, b unsafe.Pointer, n int) int

//go:noescape
func floorDivF32x4(d, a, b unsafe.Pointer, n int) int

//go:noescape
func modF32x4(d, a, b unsafe.Pointer, n int) int

//go:noescape
func floorDivF64x8(d, a, b unsafe.Pointer, n int) int

//go:noescape
func modF64x8(d, a, b unsafe.Pointer, n int) int

//go:noescape
func floorDivF32x8(d, a, b unsafe.Pointer, n int) int

//go:noescape
func modF32x8(d, a, b unsafe.Pointer, n int) int

// divModLoop is one of the loops above with its dtype, op and unit.
type divModLoop struct {
	d     graph.DType
	op    graph.Op
	name  string
	v     func(d, a, b unsafe.Pointer, n int) int
	lanes int
}

// divModLoops returns the loops for AVX-512 (wide) or AVX2.
func divModLoops(wide bool) []divModLoop {
	const F32, F64 = graph.Float32, graph.Float64
	if wide {
		return []divModLoop{
			{F32, graph.OpFloorDiv, "floordiv", floorDivF32x8, 8},
			{F32, graph.OpMod, "mod", modF32x8, 8},
			{F64, graph.OpFloorDiv, "floordiv", floorDivF64x8, 8},
			{F64, graph.OpMod, "mod", modF64x8, 8},
		}
	}
	return []divModLoop{
		{F32, graph.OpFloorDiv, "floordiv", floorDivF32x4, 4},
		{F32, graph.OpMod, "mod", modF32x4, 4},
		{F64, graph.OpFloorDiv, "floordiv", floorDivF64x4, 4},
		{F64, graph.OpMod, "mod", modF64x4, 4},
	}
}

// registerDivModVector registers the float floor division and modulo
// loops (AVX-512's where wide): the caller has checked for AVX2 and FMA.
func registerDivModVector(wide bool) {
	for _, e := range divModLoops(wide) {
		p := &binaryTab[e.d][e.op]
		vectorize(e.name+" "+e.d.String(), p, vecPartial(e.v, *p, e.d.Size(), e.lanes))
	}
}
