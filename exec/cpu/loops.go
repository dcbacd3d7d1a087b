// The inner loops that inline their op's scalar function (internal/fmath,
// the definition internal/opdef lists): a loop built from the op table
// calls it through a function value, several times slower for ops that
// cost a cycle or two. Each computes what opdef defines, bit for bit
// (TestLoopsMatchDefinitions), except the float math functions, which are
// internal/vecmath's (the GPU's expansions of codegen/mathlib, within
// their ulps of codegen/mathlib/ULP.md).

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
	"github.com/fuseflow/fuseflow/internal/opdef"
	"github.com/fuseflow/fuseflow/internal/vecmath"
)

type (
	loops1 = [numDTypes]unaryFn
	loops2 = [numDTypes]binaryFn
)

// num1 returns loops for the integer and float dtypes; the other
// constructors return them for their dtypes.
func num1(i32, i64, f32, f64 unaryFn) (t loops1) {
	t[graph.Int32], t[graph.Int64], t[graph.Float32], t[graph.Float64] = i32, i64, f32, f64
	return t
}

func float1(f32, f64 unaryFn) (t loops1) {
	t[graph.Float32], t[graph.Float64] = f32, f64
	return t
}

func float2(f32, f64 binaryFn) (t loops2) {
	t[graph.Float32], t[graph.Float64] = f32, f64
	return t
}

func num2(i32, i64, f32, f64 binaryFn) (t loops2) {
	t[graph.Int32], t[graph.Int64], t[graph.Float32], t[graph.Float64] = i32, i64, f32, f64
	return t
}

func int2(b, i32, i64 binaryFn) (t loops2) {
	t[graph.Bool], t[graph.Int32], t[graph.Int64] = b, i32, i64
	return t
}

// cmp2 returns a comparison's loops for every dtype.
func cmp2(f func(d []uint8, a, b []uint8), i32 func(d []uint8, a, b []int32),
	i64 func(d []uint8, a, b []int64), f32 func(d []uint8, a, b []float32), f64 func(d []uint8, a, b []float64)) (t loops2) {
	t[graph.Bool], t[graph.Int32], t[graph.Int64] = binary(f), binary(i32), binary(i64)
	t[graph.Float32], t[graph.Float64] = binary(f32), binary(f64)
	return t
}

// fastUnary lists the unary loops by op and operand dtype.
var fastUnary = map[graph.Op]loops1{
	graph.OpNeg: num1(unary(negL[int32]), unary(negL[int64]), unary(negL[float32]), unary(negL[float64])),
	graph.OpAbs: {graph.Bool: unary(copyL[uint8]), graph.Int32: unary(absIL[int32]), graph.Int64: unary(absIL[int64]),
		graph.Float32: unary(absFL[float32]), graph.Float64: unary(absFL[float64])},
	graph.OpSign:   num1(unary(signIL[int32]), unary(signIL[int64]), unary(signFL[float32]), unary(signFL[float64])),
	graph.OpSquare: num1(unary(squareL[int32]), unary(squareL[int64]), unary(squareL[float32]), unary(squareL[float64])),
	graph.OpRecip:  float1(unary(recipL[float32]), unary(recipL[float64])),
	graph.OpSqrt:   float1(unary(sqrtL[float32]), unary(sqrtL[float64])),
	graph.OpNot:    {graph.Bool: unary(notBL), graph.Int32: unary(notIL[int32]), graph.Int64: unary(notIL[int64])},
	graph.OpIsNaN:  {graph.Bool: isFalse, graph.Int32: isFalse, graph.Int64: isFalse, graph.Float32: unary(isNaNL[float32]), graph.Float64: unary(isNaNL[float64])},
	graph.OpIsInf:  {graph.Bool: isFalse, graph.Int32: isFalse, graph.Int64: isFalse, graph.Float32: unary(isInfL[float32]), graph.Float64: unary(isInfL[float64])},
	graph.OpFloor:  rounding(unary(vecmath.FloorF32), unary(vecmath.FloorF64)),
	graph.OpCeil:   rounding(unary(vecmath.CeilF32), unary(vecmath.CeilF64)),
	graph.OpRound:  rounding(unary(vecmath.RoundEvenF32), unary(vecmath.RoundEvenF64)),
	graph.OpTrunc:  rounding(unary(vecmath.TruncF32), unary(vecmath.TruncF64)),
	// internal/vecmath's math functions: vector code where the CPU has
	// it (and vecmath.SetASM, which setVector calls, allows it), the
	// same expansions in portable Go elsewhere. Not the definition's
	// bits: within the ulps of codegen/mathlib/ULP.md.
	graph.OpExp:     float1(unary(vecmath.ExpF32), unary(vecmath.ExpF64)),
	graph.OpExp2:    float1(unary(vecmath.Exp2F32), unary(vecmath.Exp2F64)),
	graph.OpExpm1:   float1(unary(vecmath.Expm1F32), unary(vecmath.Expm1F64)),
	graph.OpLog:     float1(unary(vecmath.LogF32), unary(vecmath.LogF64)),
	graph.OpLog2:    float1(unary(vecmath.Log2F32), unary(vecmath.Log2F64)),
	graph.OpLog1p:   float1(unary(vecmath.Log1pF32), unary(vecmath.Log1pF64)),
	graph.OpSin:     float1(unary(vecmath.SinF32), unary(vecmath.SinF64)),
	graph.OpCos:     float1(unary(vecmath.CosF32), unary(vecmath.CosF64)),
	graph.OpTan:     float1(unary(vecmath.TanF32), unary(vecmath.TanF64)),
	graph.OpTanh:    float1(unary(vecmath.TanhF32), unary(vecmath.TanhF64)),
	graph.OpSigmoid: float1(unary(vecmath.SigmoidF32), unary(vecmath.SigmoidF64)),
	graph.OpErf:     float1(unary(vecmath.ErfF32), unary(vecmath.ErfF64)),
	graph.OpRsqrt:   float1(unary(vecmath.RsqrtF32), unary(vecmath.RsqrtF64)),
}

// rounding returns the loops of a rounding op: the float ones given, a
// copy for the integers.
func rounding(f32, f64 unaryFn) loops1 {
	t := float1(f32, f64)
	t[graph.Int32], t[graph.Int64] = unary(copyL[int32]), unary(copyL[int64])
	return t
}

// fastBinary lists the binary loops by op and operand dtype.
var fastBinary = map[graph.Op]loops2{
	graph.OpAdd:      num2(binary(addL[int32]), binary(addL[int64]), binary(addL[float32]), binary(addL[float64])),
	graph.OpSub:      num2(binary(subL[int32]), binary(subL[int64]), binary(subL[float32]), binary(subL[float64])),
	graph.OpMul:      num2(binary(mulL[int32]), binary(mulL[int64]), binary(mulL[float32]), binary(mulL[float64])),
	graph.OpDiv:      {graph.Float32: binary(divL[float32]), graph.Float64: binary(divL[float64])},
	graph.OpFloorDiv: num2(binary(floorDivL[int32]), binary(floorDivL[int64]), binary(floorDivFL[float32]), binary(floorDivFL[float64])),
	graph.OpMod:      num2(binary(modL[int32]), binary(modL[int64]), binary(modFL[float32]), binary(modFL[float64])),
	graph.OpPow: {graph.Int32: binary(powL[int32]), graph.Int64: binary(powL[int64]),
		graph.Float32: binary(vecmath.PowF32), graph.Float64: binary(vecmath.PowF64)},
	graph.OpAtan2: float2(binary(vecmath.Atan2F32), binary(vecmath.Atan2F64)),
	graph.OpAnd:   int2(binary(andL[uint8]), binary(andL[int32]), binary(andL[int64])),
	graph.OpOr:    int2(binary(orL[uint8]), binary(orL[int32]), binary(orL[int64])),
	graph.OpXor:   int2(binary(xorL[uint8]), binary(xorL[int32]), binary(xorL[int64])),
	graph.OpMax: withBool(num2(binary(maxL[int32]), binary(maxL[int64]), binary(maxL[float32]), binary(maxL[float64])),
		binary(orL[uint8])),
	graph.OpMin: withBool(num2(binary(minL[int32]), binary(minL[int64]), binary(minL[float32]), binary(minL[float64])),
		binary(andL[uint8])),
	graph.OpEq: cmp2(eqL[uint8], eqL[int32], eqL[int64], eqL[float32], eqL[float64]),
	graph.OpNe: cmp2(neL[uint8], neL[int32], neL[int64], neL[float32], neL[float64]),
	graph.OpLt: cmp2(ltL[uint8], ltL[int32], ltL[int64], ltL[float32], ltL[float64]),
	graph.OpLe: cmp2(leL[uint8], leL[int32], leL[int64], leL[float32], leL[float64]),
	graph.OpGt: cmp2(gtL[uint8], gtL[int32], gtL[int64], gtL[float32], gtL[float64]),
	graph.OpGe: cmp2(geL[uint8], geL[int32], geL[int64], geL[float32], geL[float64]),
}

// withBool returns t with the bool loop b (Maximum is or, Minimum and).
func withBool(t loops2, b binaryFn) loops2 {
	t[graph.Bool] = b
	return t
}

func copyL[T any](d, a []T)              { copy(d, a) }
func isFalse(d, _ unsafe.Pointer, n int) { clear(view[uint8](d, n)) }
func negL[T nums](d, a []T)              { map1(d, a, fmath.Neg[T]) }
func absIL[T ints](d, a []T)             { map1(d, a, fmath.AbsInt[T]) }
func absFL[T floats](d, a []T)           { map1(d, a, fmath.AbsFloat[T]) }
func signIL[T ints](d, a []T)            { map1(d, a, fmath.SignInt[T]) }
func signFL[T floats](d, a []T)          { map1(d, a, fmath.SignFloat[T]) }
func squareL[T nums](d, a []T)           { map1(d, a, fmath.Square[T]) }
func recipL[T floats](d, a []T)          { map1(d, a, fmath.Recip[T]) }
func sqrtL[T floats](d, a []T)           { map1(d, a, fmath.Sqrt[T]) }
func notIL[T ints](d, a []T)             { map1(d, a, fmath.Not[T]) }
func notBL(d, a []uint8)                 { map1(d, a, func(x uint8) uint8 { return b2u(x == 0) }) }
func normBL(d, a []uint8)                { map1(d, a, func(x uint8) uint8 { return b2u(x != 0) }) }
func isNaNL[T floats](d []uint8, a []T)  { map1(d, a, func(x T) uint8 { return b2u(fmath.IsNaN(x)) }) }
func isInfL[T floats](d []uint8, a []T)  { map1(d, a, func(x T) uint8 { return b2u(fmath.IsInf(x)) }) }

func addL[T nums](d, a, b []T)       { map2(d, a, b, fmath.Add[T]) }
func subL[T nums](d, a, b []T)       { map2(d, a, b, fmath.Sub[T]) }
func mulL[T nums](d, a, b []T)       { map2(d, a, b, fmath.Mul[T]) }
func divL[T floats](d, a, b []T)     { map2(d, a, b, fmath.Div[T]) }
func floorDivL[T ints](d, a, b []T)  { map2(d, a, b, fmath.FloorDiv[T]) }
func modL[T ints](d, a, b []T)       { map2(d, a, b, fmath.Mod[T]) }
func powL[T ints](d, a, b []T)       { map2(d, a, b, fmath.Pow[T]) }
func andL[T fmath.Bits](d, a, b []T) { map2(d, a, b, fmath.And[T]) }
func orL[T fmath.Bits](d, a, b []T)  { map2(d, a, b, fmath.Or[T]) }
func xorL[T fmath.Bits](d, a, b []T) { map2(d, a, b, fmath.Xor[T]) }
func maxL[T nums](d, a, b []T)       { map2(d, a, b, fmath.Max[T]) }
func minL[T nums](d, a, b []T)       { map2(d, a, b, fmath.Min[T]) }
func eqL[T elems](d []uint8, a, b []T) {
	map2(d, a, b, func(x, y T) uint8 { return b2u(fmath.Eq(x, y)) })
}
func neL[T elems](d []uint8, a, b []T) {
	map2(d, a, b, func(x, y T) uint8 { return b2u(fmath.Ne(x, y)) })
}
func ltL[T elems](d []uint8, a, b []T) {
	map2(d, a, b, func(x, y T) uint8 { return b2u(fmath.Lt(x, y)) })
}
func leL[T elems](d []uint8, a, b []T) {
	map2(d, a, b, func(x, y T) uint8 { return b2u(fmath.Le(x, y)) })
}
func gtL[T elems](d []uint8, a, b []T) {
	map2(d, a, b, func(x, y T) uint8 { return b2u(fmath.Gt(x, y)) })
}
func geL[T elems](d []uint8, a, b []T) {
	map2(d, a, b, func(x, y T) uint8 { return b2u(fmath.Ge(x, y)) })
}

// The cast loops. Those whose result is wider than the operand run back
// to front (see the loop types).
func fromBool[R nums](d []R, a []uint8) {
	map1Back(d, a, func(x uint8) R { return fmath.FromBool[R](x != 0) })
}
func toBool[T nums](d []uint8, a []T)         { map1(d, a, func(x T) uint8 { return b2u(fmath.ToBool(x)) }) }
func floatToInt32[T floats](d []int32, a []T) { map1(d, a, opdef.FloatToInt32[T]) }
func floatToInt64[T floats](d []int64, a []T) { map1Back(d, a, opdef.FloatToInt64[T]) }
func convert[T, R nums](d []R, a []T) {
	if unsafe.Sizeof(R(0)) > unsafe.Sizeof(T(0)) {
		map1Back(d, a, fmath.Convert[T, R])
		return
	}
	map1(d, a, fmath.Convert[T, R])
}

// normLoop normalizes loaded bools: any nonzero byte to 1.
var normLoop = unary(normBL)

// fastCast lists the cast loops by operand and result dtype.
var fastCast = func() (t [numDTypes][numDTypes]unaryFn) {
	const B, I32, I64, F32, F64 = graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64
	t[B] = [numDTypes]unaryFn{B: unary(copyL[uint8]), I32: unary(fromBool[int32]), I64: unary(fromBool[int64]),
		F32: unary(fromBool[float32]), F64: unary(fromBool[float64])}
	t[I32] = [numDTypes]unaryFn{B: unary(toBool[int32]), I32: unary(copyL[int32]), I64: unary(convert[int32, int64]),
		F32: unary(convert[int32, float32]), F64: unary(convert[int32, float64])}
	t[I64] = [numDTypes]unaryFn{B: unary(toBool[int64]), I32: unary(convert[int64, int32]), I64: unary(copyL[int64]),
		F32: unary(convert[int64, float32]), F64: unary(convert[int64, float64])}
	t[F32] = [numDTypes]unaryFn{B: unary(toBool[float32]), I32: unary(floatToInt32[float32]), I64: unary(floatToInt64[float32]),
		F32: unary(copyL[float32]), F64: unary(convert[float32, float64])}
	t[F64] = [numDTypes]unaryFn{B: unary(toBool[float64]), I32: unary(floatToInt32[float64]), I64: unary(floatToInt64[float64]),
		F32: unary(convert[float64, float32]), F64: unary(copyL[float64])}
	return t
}()

// uint64Loops adds uint64's loops for the common ops (the others call
// the op's scalar function from opdef).
func init() {
	for op, f := range map[graph.Op]binaryFn{
		graph.OpAdd: binary(addL[uint64]), graph.OpSub: binary(subL[uint64]), graph.OpMul: binary(mulL[uint64]),
		graph.OpMax: binary(maxL[uint64]), graph.OpMin: binary(minL[uint64]),
		graph.OpAnd: binary(andL[uint64]), graph.OpOr: binary(orL[uint64]), graph.OpXor: binary(xorL[uint64]),
		graph.OpFloorDiv: binary(floorDivL[uint64]), graph.OpMod: binary(modL[uint64]),
		graph.OpEq: binary(eqL[uint64]), graph.OpNe: binary(neL[uint64]), graph.OpLt: binary(ltL[uint64]),
		graph.OpLe: binary(leL[uint64]), graph.OpGt: binary(gtL[uint64]), graph.OpGe: binary(geL[uint64]),
	} {
		t := fastBinary[op]
		t[graph.Uint64] = f
		fastBinary[op] = t
	}
	for op, f := range map[graph.Op]unaryFn{
		graph.OpNeg: unary(negL[uint64]), graph.OpSquare: unary(squareL[uint64]), graph.OpNot: unary(notIL[uint64]),
		graph.OpAbs: unary(copyL[uint64]),
	} {
		t := fastUnary[op]
		t[graph.Uint64] = f
		fastUnary[op] = t
	}
}
