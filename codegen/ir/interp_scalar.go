// This file implements the interpreter's scalar semantics: the register
// encoding of each type and the per-op functions on encoded values, chosen
// through tables by op and type.

package ir

import (
	"math"
	"math/bits"

	"github.com/fuseflow/fuseflow/internal/fmath"
)

// Registers hold every value as a uint64: integers as their low w bits
// (upper bits zero), f32 as its bits in the low 32, f64 as its bits, pred
// as 0 or 1, pointers as object<<48 | byte offset (48 bits, two's
// complement).

func maskOf(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// sext sign-extends the low w bits of x.
func sext(x uint64, w int) int64 {
	sh := 64 - uint(w)
	return int64(x<<sh) >> sh
}

func f32(x uint64) float32  { return math.Float32frombits(uint32(x)) }
func f64(x uint64) float64  { return math.Float64frombits(x) }
func bf32(x float32) uint64 { return uint64(math.Float32bits(x)) }
func bf64(x float64) uint64 { return math.Float64bits(x) }

type fn1 = func(a uint64) uint64
type fn2 = func(a, b uint64) uint64
type fn3 = func(a, b, c uint64) uint64

// intBinary returns the function of a binary integer op at width w.
func intBinary(op Op, w int, signed bool) fn2 {
	m := maskOf(w)
	cmpLess := func(a, b uint64) bool {
		if signed {
			return sext(a, w) < sext(b, w)
		}
		return a < b
	}
	switch op {
	case OpAdd:
		return func(a, b uint64) uint64 { return (a + b) & m }
	case OpSub:
		return func(a, b uint64) uint64 { return (a - b) & m }
	case OpMul:
		return func(a, b uint64) uint64 { return (a * b) & m }
	case OpDiv:
		if signed {
			return func(a, b uint64) uint64 {
				x, y := sext(a, w), sext(b, w)
				switch {
				case y == 0:
					return m
				case y == -1:
					return uint64(-x) & m
				}
				return uint64(x/y) & m
			}
		}
		return func(a, b uint64) uint64 {
			if b == 0 {
				return m
			}
			return a / b
		}
	case OpRem:
		if signed {
			return func(a, b uint64) uint64 {
				x, y := sext(a, w), sext(b, w)
				switch {
				case y == 0:
					return a
				case y == -1:
					return 0
				}
				return uint64(x%y) & m
			}
		}
		return func(a, b uint64) uint64 {
			if b == 0 {
				return a
			}
			return a % b
		}
	case OpMin:
		return func(a, b uint64) uint64 {
			if cmpLess(b, a) {
				return b
			}
			return a
		}
	case OpMax:
		return func(a, b uint64) uint64 {
			if cmpLess(a, b) {
				return b
			}
			return a
		}
	case OpMulHi:
		return mulHi(w, signed)
	case OpMulWide:
		m2 := maskOf(2 * w)
		if signed {
			return func(a, b uint64) uint64 { return uint64(sext(a, w)*sext(b, w)) & m2 }
		}
		return func(a, b uint64) uint64 { return (a * b) & m2 }
	case OpShl:
		return func(a, b uint64) uint64 {
			if b >= uint64(w) {
				return 0
			}
			return (a << b) & m
		}
	case OpShr:
		if signed {
			return func(a, b uint64) uint64 { return uint64(sext(a, w)>>min(b, 63)) & m }
		}
		return func(a, b uint64) uint64 {
			if b >= uint64(w) {
				return 0
			}
			return a >> b
		}
	case OpAnd:
		return func(a, b uint64) uint64 { return a & b }
	case OpOr:
		return func(a, b uint64) uint64 { return a | b }
	case OpXor:
		return func(a, b uint64) uint64 { return a ^ b }
	}
	return nil
}

func mulHi(w int, signed bool) fn2 {
	m := maskOf(w)
	switch {
	case w < 64 && signed:
		return func(a, b uint64) uint64 { return uint64((sext(a, w)*sext(b, w))>>uint(w)) & m }
	case w < 64:
		return func(a, b uint64) uint64 { return (a * b) >> uint(w) & m }
	case signed:
		return func(a, b uint64) uint64 {
			hi, _ := bits.Mul64(a, b)
			if int64(a) < 0 {
				hi -= b
			}
			if int64(b) < 0 {
				hi -= a
			}
			return hi
		}
	}
	return func(a, b uint64) uint64 { hi, _ := bits.Mul64(a, b); return hi }
}

// intUnary returns the function of a unary integer op at width w.
func intUnary(op Op, w int, signed bool) fn1 {
	m := maskOf(w)
	switch op {
	case OpNeg:
		return func(a uint64) uint64 { return -a & m }
	case OpAbs:
		return func(a uint64) uint64 {
			if sext(a, w) < 0 {
				return -a & m
			}
			return a
		}
	case OpNot:
		return func(a uint64) uint64 { return ^a & m }
	case OpPopc:
		return func(a uint64) uint64 { return uint64(bits.OnesCount64(a)) }
	case OpClz:
		return func(a uint64) uint64 { return uint64(bits.LeadingZeros64(a) - (64 - w)) }
	}
	return nil
}

// floatBinary returns the function of a binary float op on f32 or f64.
func floatBinary(op Op, t Type) fn2 {
	if t == F32 {
		switch op {
		case OpAdd:
			return func(a, b uint64) uint64 { return bf32(f32(a) + f32(b)) }
		case OpSub:
			return func(a, b uint64) uint64 { return bf32(f32(a) - f32(b)) }
		case OpMul:
			return func(a, b uint64) uint64 { return bf32(float32(f32(a) * f32(b))) }
		case OpDiv:
			return func(a, b uint64) uint64 { return bf32(float32(f32(a) / f32(b))) }
		case OpMin:
			return func(a, b uint64) uint64 { return fminmax(float64(f32(a)), float64(f32(b)), a, b, true) }
		case OpMax:
			return func(a, b uint64) uint64 { return fminmax(float64(f32(a)), float64(f32(b)), a, b, false) }
		}
		return nil
	}
	switch op {
	case OpAdd:
		return func(a, b uint64) uint64 { return bf64(f64(a) + f64(b)) }
	case OpSub:
		return func(a, b uint64) uint64 { return bf64(f64(a) - f64(b)) }
	case OpMul:
		return func(a, b uint64) uint64 { return bf64(float64(f64(a) * f64(b))) }
	case OpDiv:
		return func(a, b uint64) uint64 { return bf64(float64(f64(a) / f64(b))) }
	case OpMin:
		return func(a, b uint64) uint64 { return fminmax(f64(a), f64(b), a, b, true) }
	case OpMax:
		return func(a, b uint64) uint64 { return fminmax(f64(a), f64(b), a, b, false) }
	}
	return nil
}

// fminmax implements PTX min and max: a NaN operand yields the other one,
// and -0 orders below +0. ab and bb are the operands' register bits.
func fminmax(x, y float64, ab, bb uint64, isMin bool) uint64 {
	switch {
	case x != x:
		return bb
	case y != y:
		return ab
	case x == y:
		if isMin {
			return ab | bb // both zeros: -0 if either is -0 (sign bits only differ)
		}
		return ab & bb
	case (x < y) == isMin:
		return ab
	}
	return bb
}

// floatUnary returns the function of neg or abs on f32 or f64.
func floatUnary(op Op, t Type) fn1 {
	sign := uint64(1) << 63
	if t == F32 {
		sign = 1 << 31
	}
	if op == OpNeg {
		return func(a uint64) uint64 { return a ^ sign }
	}
	return func(a uint64) uint64 { return a &^ sign }
}

// cmpFunc returns the function of cmp.<c> on type t (result 0 or 1).
func cmpFunc(c CmpPred, t Type) fn2 {
	b2u := func(b bool) uint64 {
		if b {
			return 1
		}
		return 0
	}
	if t.IsFloat() {
		conv := f64
		if t == F32 {
			conv = func(x uint64) float64 { return float64(f32(x)) }
		}
		rel := floatRel[c]
		return func(a, b uint64) uint64 { return b2u(rel(conv(a), conv(b))) }
	}
	w := t.Bits()
	if t.IsSigned() {
		rel := intRel[c%CmpEQU]
		return func(a, b uint64) uint64 { return b2u(rel(sext(a, w), sext(b, w))) }
	}
	rel := uintRel[c%CmpEQU]
	return func(a, b uint64) uint64 { return b2u(rel(a, b)) }
}

func isNaN2(x, y float64) bool { return x != x || y != y }

var floatRel = [numCmps]func(x, y float64) bool{
	CmpEQ:  func(x, y float64) bool { return x == y },
	CmpNE:  func(x, y float64) bool { return x != y && !isNaN2(x, y) },
	CmpLT:  func(x, y float64) bool { return x < y },
	CmpLE:  func(x, y float64) bool { return x <= y },
	CmpGT:  func(x, y float64) bool { return x > y },
	CmpGE:  func(x, y float64) bool { return x >= y },
	CmpEQU: func(x, y float64) bool { return x == y || isNaN2(x, y) },
	CmpNEU: func(x, y float64) bool { return x != y },
	CmpLTU: func(x, y float64) bool { return !(x >= y) },
	CmpLEU: func(x, y float64) bool { return !(x > y) },
	CmpGTU: func(x, y float64) bool { return !(x <= y) },
	CmpGEU: func(x, y float64) bool { return !(x < y) },
	CmpNUM: func(x, y float64) bool { return !isNaN2(x, y) },
	CmpNAN: isNaN2,
}

var intRel = [6]func(x, y int64) bool{
	CmpEQ: func(x, y int64) bool { return x == y },
	CmpNE: func(x, y int64) bool { return x != y },
	CmpLT: func(x, y int64) bool { return x < y },
	CmpLE: func(x, y int64) bool { return x <= y },
	CmpGT: func(x, y int64) bool { return x > y },
	CmpGE: func(x, y int64) bool { return x >= y },
}

var uintRel = [6]func(x, y uint64) bool{
	CmpEQ: func(x, y uint64) bool { return x == y },
	CmpNE: func(x, y uint64) bool { return x != y },
	CmpLT: func(x, y uint64) bool { return x < y },
	CmpLE: func(x, y uint64) bool { return x <= y },
	CmpGT: func(x, y uint64) bool { return x > y },
	CmpGE: func(x, y uint64) bool { return x >= y },
}

// mathFuncs evaluates the math functions in float64 with Go's math package
// and, where fuseflow composes them, internal/fmath (the definitions the
// CPU executor computes too).
var mathFuncs = [numMathFns]func(x, y float64) float64{
	MathExp:       func(x, _ float64) float64 { return math.Exp(x) },
	MathExp2:      func(x, _ float64) float64 { return math.Exp2(x) },
	MathLog:       func(x, _ float64) float64 { return fmath.Log(x) },
	MathLog2:      func(x, _ float64) float64 { return math.Log2(x) },
	MathLog1p:     func(x, _ float64) float64 { return math.Log1p(x) },
	MathExpm1:     func(x, _ float64) float64 { return math.Expm1(x) },
	MathSin:       func(x, _ float64) float64 { return math.Sin(x) },
	MathCos:       func(x, _ float64) float64 { return math.Cos(x) },
	MathTan:       func(x, _ float64) float64 { return math.Tan(x) },
	MathTanh:      func(x, _ float64) float64 { return math.Tanh(x) },
	MathSigmoid:   func(x, _ float64) float64 { return fmath.Sigmoid(x) },
	MathErf:       func(x, _ float64) float64 { return math.Erf(x) },
	MathPow:       math.Pow,
	MathSqrt:      func(x, _ float64) float64 { return math.Sqrt(x) },
	MathRsqrt:     func(x, _ float64) float64 { return fmath.Rsqrt(x) },
	MathAtan2:     math.Atan2,
	MathFloor:     func(x, _ float64) float64 { return math.Floor(x) },
	MathCeil:      func(x, _ float64) float64 { return math.Ceil(x) },
	MathRoundEven: func(x, _ float64) float64 { return fmath.Round(x) },
	MathTrunc:     func(x, _ float64) float64 { return math.Trunc(x) },
}

// mathFunc returns fn on f32 (evaluated in float64, rounded once) or f64.
func mathFunc(fn MathFn, t Type) fn2 {
	g := mathFuncs[fn]
	if t == F32 {
		return func(a, b uint64) uint64 { return bf32(float32(g(float64(f32(a)), float64(f32(b))))) }
	}
	return func(a, b uint64) uint64 { return bf64(g(f64(a), f64(b))) }
}
