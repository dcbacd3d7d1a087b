// Elementwise ops: the tables that lower each graph op to IR, per lane
// (float, integer, bool), with the exact semantics of exec/ref: NumPy's
// NaN-propagating Maximum and Minimum, Sign with NaN, integer division
// and modulo by zero giving 0, IsNaN and IsInf false for integers.

package codegen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

type unaryFn func(l *lowerer, x *ir.Value) *ir.Value
type binaryFn func(l *lowerer, a, b *ir.Value) *ir.Value

// mathFn returns a unary op computed by an ir.Math call.
func mathFn(fn ir.MathFn) unaryFn {
	return func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Math(fn, x) }
}

func identity(_ *lowerer, x *ir.Value) *ir.Value { return x }

// floatUnary lowers the unary ops on f32 and f64.
var floatUnary = map[graph.Op]unaryFn{
	graph.OpNeg:     func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Neg(x) },
	graph.OpAbs:     func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Abs(x) },
	graph.OpSign:    signFloat,
	graph.OpSqrt:    mathFn(ir.MathSqrt),
	graph.OpRsqrt:   mathFn(ir.MathRsqrt),
	graph.OpExp:     mathFn(ir.MathExp),
	graph.OpExp2:    mathFn(ir.MathExp2),
	graph.OpLog:     mathFn(ir.MathLog),
	graph.OpLog2:    mathFn(ir.MathLog2),
	graph.OpLog1p:   mathFn(ir.MathLog1p),
	graph.OpExpm1:   mathFn(ir.MathExpm1),
	graph.OpSin:     mathFn(ir.MathSin),
	graph.OpCos:     mathFn(ir.MathCos),
	graph.OpTan:     mathFn(ir.MathTan),
	graph.OpTanh:    mathFn(ir.MathTanh),
	graph.OpSigmoid: mathFn(ir.MathSigmoid),
	graph.OpErf:     mathFn(ir.MathErf),
	graph.OpFloor:   mathFn(ir.MathFloor),
	graph.OpCeil:    mathFn(ir.MathCeil),
	graph.OpRound:   mathFn(ir.MathRoundEven),
	graph.OpTrunc:   mathFn(ir.MathTrunc),
	graph.OpRecip:   func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Div(l.b.One(x.Type), x) },
	graph.OpSquare:  func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Mul(x, x) },
}

// intUnary lowers the unary ops on s32 and s64 (wrapping).
var intUnary = map[graph.Op]unaryFn{
	graph.OpNeg:    func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Neg(x) },
	graph.OpAbs:    func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Select(l.b.Lt(x, l.b.Zero(x.Type)), l.b.Neg(x), x) },
	graph.OpSign:   signInt,
	graph.OpSquare: func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Mul(x, x) },
	graph.OpFloor:  identity,
	graph.OpCeil:   identity,
	graph.OpRound:  identity,
	graph.OpTrunc:  identity,
	graph.OpNot:    func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Not(x) },
}

// boolUnary lowers the unary ops on pred.
var boolUnary = map[graph.Op]unaryFn{
	graph.OpAbs: identity,
	graph.OpNot: func(l *lowerer, x *ir.Value) *ir.Value { return l.b.Not(x) },
}

// floatBinary lowers the binary arithmetic ops on f32 and f64.
var floatBinary = map[graph.Op]binaryFn{
	graph.OpAdd:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Add(a, b) },
	graph.OpSub:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Sub(a, b) },
	graph.OpMul:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Mul(a, b) },
	graph.OpDiv:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Div(a, b) },
	graph.OpFloorDiv: func(l *lowerer, a, b *ir.Value) *ir.Value { return l.divmodFloat(a, b, true) },
	graph.OpMod:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.divmodFloat(a, b, false) },
	graph.OpPow:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Math(ir.MathPow, a, b) },
	graph.OpMax:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.maxFloat(a, b) },
	graph.OpMin:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.minFloat(a, b) },
	graph.OpAtan2:    func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Math(ir.MathAtan2, a, b) },
}

// intBinary lowers the binary arithmetic and bitwise ops on s32 and s64.
var intBinary = map[graph.Op]binaryFn{
	graph.OpAdd:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Add(a, b) },
	graph.OpSub:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Sub(a, b) },
	graph.OpMul:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Mul(a, b) },
	graph.OpFloorDiv: func(l *lowerer, a, b *ir.Value) *ir.Value { q, _ := l.divmodInt(a, b); return q },
	graph.OpMod:      func(l *lowerer, a, b *ir.Value) *ir.Value { _, r := l.divmodInt(a, b); return r },
	graph.OpPow:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.powInt(a, b) },
	graph.OpMax:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Max(a, b) },
	graph.OpMin:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Min(a, b) },
	graph.OpAnd:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.And(a, b) },
	graph.OpOr:       func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Or(a, b) },
	graph.OpXor:      func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Xor(a, b) },
}

// boolBinary lowers the binary ops on pred (Maximum is or, Minimum and).
var boolBinary = map[graph.Op]binaryFn{
	graph.OpAnd: func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.And(a, b) },
	graph.OpOr:  func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Or(a, b) },
	graph.OpXor: func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Xor(a, b) },
	graph.OpMax: func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.Or(a, b) },
	graph.OpMin: func(l *lowerer, a, b *ir.Value) *ir.Value { return l.b.And(a, b) },
}

// compares maps a comparison to its predicate for floats (IEEE: ordered,
// except Ne, which is true with NaN) and for integers.
var compares = map[graph.Op]struct{ float, int ir.CmpPred }{
	graph.OpEq: {ir.CmpEQ, ir.CmpEQ},
	graph.OpNe: {ir.CmpNEU, ir.CmpNE},
	graph.OpLt: {ir.CmpLT, ir.CmpLT},
	graph.OpLe: {ir.CmpLE, ir.CmpLE},
	graph.OpGt: {ir.CmpGT, ir.CmpGT},
	graph.OpGe: {ir.CmpGE, ir.CmpGE},
}

// elementwise lowers one InstrOp; dts are the dtypes of args.
func (l *lowerer) elementwise(in *fuse.Instr, args []*ir.Value, dts []graph.DType) (*ir.Value, error) {
	op := in.Op
	switch {
	case op == graph.OpCast:
		if len(args) != 1 {
			return nil, fmt.Errorf("cast takes 1 argument, has %d", len(args))
		}
		return l.cast(args[0], dts[0], in.DType)
	case op == graph.OpWhere:
		if len(args) != 3 || dts[0] != graph.Bool || dts[1] != dts[2] {
			return nil, fmt.Errorf("where needs (bool, T, T), has %v", dts)
		}
		return l.b.Select(args[0], args[1], args[2]), nil
	case op == graph.OpIsNaN || op == graph.OpIsInf:
		if len(args) != 1 {
			return nil, fmt.Errorf("%v takes 1 argument", op)
		}
		x := args[0]
		switch {
		case !dts[0].IsFloat():
			return l.b.Bool(false), nil
		case op == graph.OpIsNaN:
			return l.b.Cmp(ir.CmpNAN, x, x), nil
		}
		return l.b.Eq(l.b.Abs(x), l.fconst(x.Type, math.Inf(1))), nil
	case op.IsCompare():
		if len(args) != 2 || dts[0] != dts[1] {
			return nil, fmt.Errorf("%v needs two operands of one dtype, has %v", op, dts)
		}
		c := compares[op]
		a, b := args[0], args[1]
		switch {
		case dts[0].IsFloat():
			return l.b.Cmp(c.float, a, b), nil
		case dts[0] == graph.Bool:
			a, b = l.boolToInt(a, ir.S32), l.boolToInt(b, ir.S32)
		}
		return l.b.Cmp(c.int, a, b), nil
	}
	var un map[graph.Op]unaryFn
	var bin map[graph.Op]binaryFn
	switch d := dts[0]; {
	case d.IsFloat():
		un, bin = floatUnary, floatBinary
	case d.IsInt():
		un, bin = intUnary, intBinary
	case d == graph.Bool:
		un, bin = boolUnary, boolBinary
	default:
		return nil, fmt.Errorf("unsupported operand dtype %v", d)
	}
	switch len(args) {
	case 1:
		if f := un[op]; f != nil {
			return l.toDType(f(l, args[0]), dts[0], in.DType)
		}
	case 2:
		if dts[0] != dts[1] {
			return nil, fmt.Errorf("%v needs two operands of one dtype, has %v", op, dts)
		}
		if f := bin[op]; f != nil {
			return l.toDType(f(l, args[0], args[1]), dts[0], in.DType)
		}
	}
	return nil, fmt.Errorf("op %v with %d operands of dtype %v is not supported", op, len(args), dts[0])
}

// toDType checks that an op computed in dtype from yields dtype to.
func (l *lowerer) toDType(v *ir.Value, from, to graph.DType) (*ir.Value, error) {
	if from != to {
		return nil, fmt.Errorf("op computes in %v but its result is %v", from, to)
	}
	return v, nil
}

// signFloat is -1, 0 or 1 by the sign of x, +0 for both zeros, NaN for
// NaN.
func signFloat(l *lowerer, x *ir.Value) *ir.Value {
	t := x.Type
	z := l.b.Zero(t)
	r := l.b.Select(l.b.Eq(x, z), z, x) // NaN stays NaN
	r = l.b.Select(l.b.Lt(x, z), l.fconst(t, -1), r)
	return l.b.Select(l.b.Gt(x, z), l.fconst(t, 1), r)
}

// signInt is -1, 0 or 1.
func signInt(l *lowerer, x *ir.Value) *ir.Value {
	t := x.Type
	z := l.b.Zero(t)
	r := l.b.Select(l.b.Lt(x, z), l.b.Int(t, -1), z)
	return l.b.Select(l.b.Gt(x, z), l.b.One(t), r)
}

// maxFloat is NumPy's maximum: a when a >= b or a is NaN, else b.
func (l *lowerer) maxFloat(a, b *ir.Value) *ir.Value {
	return l.b.Select(l.b.Or(l.b.Ge(a, b), l.b.Cmp(ir.CmpNAN, a, a)), a, b)
}

// minFloat is NumPy's minimum: a when a <= b or a is NaN, else b.
func (l *lowerer) minFloat(a, b *ir.Value) *ir.Value {
	return l.b.Select(l.b.Or(l.b.Le(a, b), l.b.Cmp(ir.CmpNAN, a, a)), a, b)
}
