// The unary ops: the scalar functions of each dtype and the lowering of
// each lane.

package opdef

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// roundingOnInts leaves integers unchanged: Floor, Ceil, Round and Trunc.
var roundingOnInts = ints(ident[int32], ident[int64])

func init() {
	register(graph.ClassUnary, map[graph.Op]Def{
		graph.OpNeg: {Fns: nums(fmath.Neg[int32], fmath.Neg[int64], fmath.Neg[float32], fmath.Neg[float64]),
			Float: un(neg), Int: un(neg)},
		graph.OpAbs: {Fns: all(ident[bool], fmath.AbsInt[int32], fmath.AbsInt[int64], fmath.AbsFloat[float32], fmath.AbsFloat[float64]),
			Float: un(abs), Int: un(absInt), Bool: un(identity)},
		graph.OpSign: {Fns: nums(fmath.SignInt[int32], fmath.SignInt[int64], fmath.SignFloat[float32], fmath.SignFloat[float64]),
			Float: un(signFloat), Int: un(signInt)},
		graph.OpSqrt:    {Fns: floats(fmath.Sqrt[float32], fmath.Sqrt[float64]), Float: mathCall(ir.MathSqrt)},
		graph.OpRsqrt:   {Fns: wide(fmath.Rsqrt), Float: mathCall(ir.MathRsqrt)},
		graph.OpExp:     {Fns: wide(math.Exp), Float: mathCall(ir.MathExp)},
		graph.OpExp2:    {Fns: wide(math.Exp2), Float: mathCall(ir.MathExp2)},
		graph.OpLog:     {Fns: wide(fmath.Log), Float: mathCall(ir.MathLog)},
		graph.OpLog2:    {Fns: wide(math.Log2), Float: mathCall(ir.MathLog2)},
		graph.OpLog1p:   {Fns: wide(math.Log1p), Float: mathCall(ir.MathLog1p)},
		graph.OpExpm1:   {Fns: wide(math.Expm1), Float: mathCall(ir.MathExpm1)},
		graph.OpSin:     {Fns: wide(math.Sin), Float: mathCall(ir.MathSin)},
		graph.OpCos:     {Fns: wide(math.Cos), Float: mathCall(ir.MathCos)},
		graph.OpTan:     {Fns: wide(math.Tan), Float: mathCall(ir.MathTan)},
		graph.OpTanh:    {Fns: wide(math.Tanh), Float: mathCall(ir.MathTanh)},
		graph.OpSigmoid: {Fns: wide(fmath.Sigmoid), Float: mathCall(ir.MathSigmoid)},
		graph.OpErf:     {Fns: wide(math.Erf), Float: mathCall(ir.MathErf)},
		graph.OpFloor:   {Fns: wide(math.Floor).with(roundingOnInts), Float: mathCall(ir.MathFloor), Int: un(identity)},
		graph.OpCeil:    {Fns: wide(math.Ceil).with(roundingOnInts), Float: mathCall(ir.MathCeil), Int: un(identity)},
		graph.OpRound:   {Fns: wide(fmath.Round).with(roundingOnInts), Float: mathCall(ir.MathRoundEven), Int: un(identity)},
		graph.OpTrunc:   {Fns: wide(math.Trunc).with(roundingOnInts), Float: mathCall(ir.MathTrunc), Int: un(identity)},
		graph.OpRecip:   {Fns: floats(fmath.Recip[float32], fmath.Recip[float64]), Float: un(recip)},
		graph.OpSquare: {Fns: nums(fmath.Square[int32], fmath.Square[int64], fmath.Square[float32], fmath.Square[float64]),
			Float: un(square), Int: un(square)},
		graph.OpIsNaN: {Fns: all(never[bool], never[int32], never[int64], fmath.IsNaN[float32], fmath.IsNaN[float64]),
			Float: un(isNaN), Int: un(falseOf), Bool: un(falseOf)},
		graph.OpIsInf: {Fns: all(never[bool], never[int32], never[int64], fmath.IsInf[float32], fmath.IsInf[float64]),
			Float: un(isInf), Int: un(falseOf), Bool: un(falseOf)},
		graph.OpNot: {Fns: Fns{Bool: notBool, Int32: fmath.Not[int32], Int64: fmath.Not[int64]},
			Int: un(not), Bool: un(not)},
	})
}
