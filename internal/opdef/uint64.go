// The scalar functions of the uint64 lane: every op defined on int64 is
// defined on uint64 with Go's unsigned arithmetic (wrapping; division and
// modulo by zero give 0 as for the signed integers; Abs is the identity,
// Sign is 0 or 1, the rounding ops leave the value as it is). The
// lowerings are the integer lane's: the IR's unsigned register type
// makes its comparisons, division, Max and Min unsigned.

package opdef

import (
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// uint64Lowerings replace the Int lowerings that negate (PTX has no
// unsigned neg): Neg is 0 - x, Abs the identity, FloorDiv and Mod the
// unsigned division and remainder with 0 for a zero divisor.
var uint64Lowerings = map[graph.Op]Lowering{
	graph.OpNeg:      un(func(b *ir.Builder, x *ir.Value) *ir.Value { return b.Sub(b.Zero(x.Type), x) }),
	graph.OpAbs:      un(identity),
	graph.OpFloorDiv: bin(func(b *ir.Builder, x, y *ir.Value) *ir.Value { return udivrem(b, x, y, true) }),
	graph.OpMod:      bin(func(b *ir.Builder, x, y *ir.Value) *ir.Value { return udivrem(b, x, y, false) }),
}

// udivrem returns x / y (div) or x % y of unsigned x and y, 0 when y is 0.
func udivrem(b *ir.Builder, x, y *ir.Value, div bool) *ir.Value {
	z := b.Zero(x.Type)
	zero := b.Eq(y, z)
	ys := b.Select(zero, b.One(y.Type), y)
	r := b.Rem(x, ys)
	if div {
		r = b.Div(x, ys)
	}
	return b.Select(zero, z, r)
}

// uint64Fns is filled into each Def with an Int64 function (register).
var uint64Fns = map[graph.Op]any{
	graph.OpNeg: fmath.Neg[uint64], graph.OpAbs: fmath.AbsInt[uint64], graph.OpSign: fmath.SignInt[uint64],
	graph.OpSquare: fmath.Square[uint64], graph.OpNot: fmath.Not[uint64],
	graph.OpFloor: ident[uint64], graph.OpCeil: ident[uint64], graph.OpRound: ident[uint64], graph.OpTrunc: ident[uint64],
	graph.OpIsNaN: never[uint64], graph.OpIsInf: never[uint64],

	graph.OpAdd: fmath.Add[uint64], graph.OpSub: fmath.Sub[uint64], graph.OpMul: fmath.Mul[uint64],
	graph.OpFloorDiv: fmath.FloorDiv[uint64], graph.OpMod: fmath.Mod[uint64], graph.OpPow: fmath.Pow[uint64],
	graph.OpMax: fmath.Max[uint64], graph.OpMin: fmath.Min[uint64],
	graph.OpAnd: fmath.And[uint64], graph.OpOr: fmath.Or[uint64], graph.OpXor: fmath.Xor[uint64],
	graph.OpEq: fmath.Eq[uint64], graph.OpNe: fmath.Ne[uint64], graph.OpLt: fmath.Lt[uint64],
	graph.OpLe: fmath.Le[uint64], graph.OpGt: fmath.Gt[uint64], graph.OpGe: fmath.Ge[uint64],
}
