// Vector inner loops for amd64 CPUs with AVX2 and FMA, written in
// assembly (asm_amd64.s) and registered at init in place of the scalar
// table entries: float32 and float64 Add, Sub, Mul, Div, Maximum,
// Minimum, Neg, Sqrt, Square and Reciprocal, float32 and float64 Sum and
// row Max and Min. The
// assembly covers whole vectors (8 float32 or 4 float64 lanes); the
// wrappers here run the scalar loops over the rest. (The math functions
// are internal/vecmath's, which picks its own vector code; see loops.go.)
//
// They give the scalar loops' bits: the arithmetic and Sqrt are IEEE
// operations (VSQRTPS is correctly rounded, as is the scalar float64
// square root rounded to float32), NaN payloads included; Maximum and
// Minimum repeat the instruction sequence the Go compiler emits for max
// and min on amd64 (signed zeros and the NaN it returns included: the
// tests compare bits); the sums add in the scalar loops' order; row
// extremes that meet a NaN or a zero are redone by the scalar loop.
//
// Every loop reads each element of its operands before it stores the
// result over them: a destination may be any operand (in place).

//go:build amd64 && !purego

package cpu

import (
	"math"
	"unsafe"

	xcpu "golang.org/x/sys/cpu"

	"github.com/fuseflow/fuseflow/graph"
)

// The assembly loops. n counts elements and is a multiple of the lane
// count (8 float32, 4 float64); the row extremes need n >= the lane
// count. Operands may alias exactly.

//go:noescape
func addF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func subF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func divF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func addF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func subF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func divF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func minF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func negF32(d, a unsafe.Pointer, n int)

//go:noescape
func negF64(d, a unsafe.Pointer, n int)

//go:noescape
func sqrtF32(d, a unsafe.Pointer, n int)

//go:noescape
func sqrtF64(d, a unsafe.Pointer, n int)

// sumBlocksF32 adds blocks of 128 values to acc as sumBlocks32Go does.
//
//go:noescape
func sumBlocksF32(acc float64, p unsafe.Pointer, blocks int) float64

// sumLanesF64 adds p[8i+k] to lanes[k] for i < n/8.
//
//go:noescape
func sumLanesF64(lanes *[8]float64, p unsafe.Pointer, n int)

// The row extremes return the extreme of the values (exact unless one is
// NaN or the extreme is zero) and nonzero when some value is NaN.

//go:noescape
func maxRowF32(p unsafe.Pointer, n int) (m float32, nan int)

//go:noescape
func minRowF32(p unsafe.Pointer, n int) (m float32, nan int)

//go:noescape
func maxRowF64(p unsafe.Pointer, n int) (m float64, nan int)

//go:noescape
func minRowF64(p unsafe.Pointer, n int) (m float64, nan int)

// hasVector reports whether the CPU (and the OS) supports the loops.
var hasVector = xcpu.X86.HasAVX2 && xcpu.X86.HasFMA

// registerVector registers the vector loops when the CPU supports them.
func registerVector() {
	if !hasVector {
		return
	}
	b32, b64 := &binaryTab[graph.Float32], &binaryTab[graph.Float64]
	for _, e := range []struct {
		name     string
		op       graph.Op
		v32, v64 func(d, a, b unsafe.Pointer, n int)
	}{
		{"add", graph.OpAdd, addF32, addF64},
		{"sub", graph.OpSub, subF32, subF64},
		{"mul", graph.OpMul, mulF32, mulF64},
		{"div", graph.OpDiv, divF32, divF64},
		{"maximum", graph.OpMax, maxF32, maxF64},
		{"minimum", graph.OpMin, minF32, minF64},
	} {
		vectorize(e.name+" float32", &b32[e.op], vecBinary(e.v32, b32[e.op], 4, 8))
		vectorize(e.name+" float64", &b64[e.op], vecBinary(e.v64, b64[e.op], 8, 4))
	}
	u32, u64 := &unaryTab[graph.Float32], &unaryTab[graph.Float64]
	vectorize("neg float32", &u32[graph.OpNeg], vecUnary(negF32, u32[graph.OpNeg], 4, 8))
	vectorize("neg float64", &u64[graph.OpNeg], vecUnary(negF64, u64[graph.OpNeg], 8, 4))
	vectorize("sqrt float32", &u32[graph.OpSqrt], vecUnary(sqrtF32, u32[graph.OpSqrt], 4, 8))
	vectorize("sqrt float64", &u64[graph.OpSqrt], vecUnary(sqrtF64, u64[graph.OpSqrt], 8, 4))
	// Square is x*x and Reciprocal 1/x: the product loop over the operand
	// twice, the quotient loop with the constant 1 first.
	vectorize("square float32", &u32[graph.OpSquare], vecUnary(func(d, a unsafe.Pointer, n int) { mulF32(d, a, a, n) }, u32[graph.OpSquare], 4, 8))
	vectorize("square float64", &u64[graph.OpSquare], vecUnary(func(d, a unsafe.Pointer, n int) { mulF64(d, a, a, n) }, u64[graph.OpSquare], 8, 4))
	vectorize("reciprocal float32", &u32[graph.OpRecip], vecUnary(func(d, a unsafe.Pointer, n int) { divSLF32(d, a, one32, n) }, u32[graph.OpRecip], 4, 8))
	vectorize("reciprocal float64", &u64[graph.OpRecip], vecUnary(func(d, a unsafe.Pointer, n int) { divSLF64(d, a, one64, n) }, u64[graph.OpRecip], 8, 4))
	vectorize("sum float32", &sumBlocks32, sumBlocksVec32)
	vectorize("sum float64", &foldTab[graph.OpSum][graph.Float64], sumRowVec64)
	vectorize("max float32", &foldTab[graph.OpReduceMax][graph.Float32], extremeRowVec(maxRowF32, maxRowF[float32], true))
	vectorize("min float32", &foldTab[graph.OpReduceMin][graph.Float32], extremeRowVec(minRowF32, minRowF[float32], false))
	vectorize("max float64", &foldTab[graph.OpReduceMax][graph.Float64], extremeRowVec(maxRowF64, maxRowF[float64], true))
	vectorize("min float64", &foldTab[graph.OpReduceMin][graph.Float64], extremeRowVec(minRowF64, minRowF[float64], false))
	registerReduceVector()
	registerElemVector()
	registerTileVector()
	registerGatherVector()
}

// one32 and one64 are the bits of 1 as the scalar-operand loops take them.
var one32, one64 = uint64(math.Float32bits(1)), math.Float64bits(1)

// vecBinary runs v over the whole vectors of lanes elements of es bytes
// and the scalar loop s over the rest.
func vecBinary(v func(d, a, b unsafe.Pointer, n int), s binaryFn, es, lanes int) binaryFn {
	return func(d, a, b unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			v(d, a, b, m)
		}
		if m < n {
			o := m * es
			s(unsafe.Add(d, o), unsafe.Add(a, o), unsafe.Add(b, o), n-m)
		}
	}
}

// vecUnary is vecBinary for one operand.
func vecUnary(v func(d, a unsafe.Pointer, n int), s unaryFn, es, lanes int) unaryFn {
	return func(d, a unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			v(d, a, m)
		}
		if m < n {
			o := m * es
			s(unsafe.Add(d, o), unsafe.Add(a, o), n-m)
		}
	}
}

// sumBlocksVec32 is sumBlocks32Go with the blocks summed by sumBlocksF32.
func sumBlocksVec32(acc float64, v []float32) float64 {
	if nb := len(v) / sumBlock32; nb > 0 {
		acc = sumBlocksF32(acc, unsafe.Pointer(unsafe.SliceData(v)), nb)
		v = v[nb*sumBlock32:]
	}
	for _, x := range v {
		acc += float64(x)
	}
	return acc
}

// sumRowVec64 is sumRowF[float64] with the eight partial sums in two
// vectors.
func sumRowVec64(s *accum, p unsafe.Pointer, n int, _ int64) {
	lanes := [8]float64{s.f, negZero, negZero, negZero, negZero, negZero, negZero, negZero}
	m := n &^ 7
	if m > 0 {
		sumLanesF64(&lanes, p, m)
	}
	for _, x := range view[float64](p, n)[m:] {
		lanes[0] += x
	}
	s.f = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]))
}

// extremeRowVec folds a row into a Max (isMax) or Min with the vector
// loop v over whole vectors and Go's max or min over the rest; rows
// shorter than two vectors, rows with a NaN (whose payload the scalar
// loop chooses) and rows whose extreme is zero (where -0 and +0 must be
// told apart) are folded by the scalar loop s.
func extremeRowVec[T floats](v func(p unsafe.Pointer, n int) (T, int), s foldFn, isMax bool) foldFn {
	lanes := int(32 / unsafe.Sizeof(T(0)))
	return func(a *accum, p unsafe.Pointer, n int, pos int64) {
		m := n &^ (lanes - 1)
		if m < 2*lanes {
			s(a, p, n, pos)
			return
		}
		r, nan := v(p, m)
		if nan != 0 || r == 0 {
			s(a, p, n, pos)
			return
		}
		for _, x := range view[T](p, n)[m:] {
			if x != x {
				s(a, p, n, pos)
				return
			}
			if isMax {
				r = max(r, x)
			} else {
				r = min(r, x)
			}
		}
		if isMax {
			a.f = max(a.f, float64(r))
		} else {
			a.f = min(a.f, float64(r))
		}
	}
}
