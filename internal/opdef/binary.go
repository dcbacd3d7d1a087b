// The binary ops: the scalar functions of each dtype (both operands have
// it: the graph promotes them first) and the lowering of each lane.

package opdef

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// cmpDef defines a comparison from its functions on each dtype and its
// predicates on floats and integers.
func cmpDef(fns Fns, pf, pi ir.CmpPred) Def {
	f, i, b := compare(pf, pi)
	return Def{Fns: fns, Float: f, Int: i, Bool: b}
}

func init() {
	register(graph.ClassBinary, map[graph.Op]Def{
		graph.OpAdd: {Fns: nums(fmath.Add[int32], fmath.Add[int64], fmath.Add[float32], fmath.Add[float64]),
			Float: bin(add), Int: bin(add)},
		graph.OpSub: {Fns: nums(fmath.Sub[int32], fmath.Sub[int64], fmath.Sub[float32], fmath.Sub[float64]),
			Float: bin(sub), Int: bin(sub)},
		graph.OpMul: {Fns: nums(fmath.Mul[int32], fmath.Mul[int64], fmath.Mul[float32], fmath.Mul[float64]),
			Float: bin(mul), Int: bin(mul)},
		graph.OpDiv: {Fns: floats(fmath.Div[float32], fmath.Div[float64]), Float: bin(div)},
		graph.OpFloorDiv: {Fns: wide2(fmath.FloorDivFloat).with(ints(fmath.FloorDiv[int32], fmath.FloorDiv[int64])),
			Float: bin(floorDivFloat), Int: bin(floorDivInt)},
		graph.OpMod: {Fns: wide2(fmath.ModFloat).with(ints(fmath.Mod[int32], fmath.Mod[int64])),
			Float: bin(modFloat), Int: bin(modInt)},
		graph.OpPow: {Fns: wide2(math.Pow).with(ints(fmath.Pow[int32], fmath.Pow[int64])),
			Float: mathCall(ir.MathPow), Int: bin(powInt)},
		graph.OpMax: {Fns: all(fmath.OrBool, fmath.Max[int32], fmath.Max[int64], fmath.Max[float32], fmath.Max[float64]),
			Float: bin(MaxFloat), Int: bin(maxI), Bool: bin(or)},
		graph.OpMin: {Fns: all(fmath.AndBool, fmath.Min[int32], fmath.Min[int64], fmath.Min[float32], fmath.Min[float64]),
			Float: bin(MinFloat), Int: bin(minI), Bool: bin(and)},
		graph.OpAtan2: {Fns: wide2(math.Atan2), Float: mathCall(ir.MathAtan2)},
		graph.OpEq: cmpDef(all(fmath.Eq[bool], fmath.Eq[int32], fmath.Eq[int64], fmath.Eq[float32], fmath.Eq[float64]),
			ir.CmpEQ, ir.CmpEQ),
		graph.OpNe: cmpDef(all(fmath.Ne[bool], fmath.Ne[int32], fmath.Ne[int64], fmath.Ne[float32], fmath.Ne[float64]),
			ir.CmpNEU, ir.CmpNE),
		graph.OpLt: cmpDef(all(fmath.LtBool, fmath.Lt[int32], fmath.Lt[int64], fmath.Lt[float32], fmath.Lt[float64]),
			ir.CmpLT, ir.CmpLT),
		graph.OpLe: cmpDef(all(fmath.LeBool, fmath.Le[int32], fmath.Le[int64], fmath.Le[float32], fmath.Le[float64]),
			ir.CmpLE, ir.CmpLE),
		graph.OpGt: cmpDef(all(fmath.GtBool, fmath.Gt[int32], fmath.Gt[int64], fmath.Gt[float32], fmath.Gt[float64]),
			ir.CmpGT, ir.CmpGT),
		graph.OpGe: cmpDef(all(fmath.GeBool, fmath.Ge[int32], fmath.Ge[int64], fmath.Ge[float32], fmath.Ge[float64]),
			ir.CmpGE, ir.CmpGE),
		graph.OpAnd: {Fns: Fns{Bool: fmath.AndBool, Int32: fmath.And[int32], Int64: fmath.And[int64]},
			Int: bin(and), Bool: bin(and)},
		graph.OpOr: {Fns: Fns{Bool: fmath.OrBool, Int32: fmath.Or[int32], Int64: fmath.Or[int64]},
			Int: bin(or), Bool: bin(or)},
		graph.OpXor: {Fns: Fns{Bool: fmath.XorBool, Int32: fmath.Xor[int32], Int64: fmath.Xor[int64]},
			Int: bin(xor), Bool: bin(xor)},
	})
}
