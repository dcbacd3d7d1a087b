// IR lowerings shared by several ops: adapters from unary and binary
// emitters to a Lowering, math library calls, and the ops that take more
// than one IR instruction (Sign, integer Abs, NumPy's Maximum and Minimum,
// comparisons of bools).

package opdef

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

var posInf = math.Inf(1)

// un adapts a unary emitter.
func un(f func(b *ir.Builder, x *ir.Value) *ir.Value) Lowering {
	return func(b *ir.Builder, a []*ir.Value) *ir.Value { return f(b, a[0]) }
}

// bin adapts a binary emitter.
func bin(f func(b *ir.Builder, x, y *ir.Value) *ir.Value) Lowering {
	return func(b *ir.Builder, a []*ir.Value) *ir.Value { return f(b, a[0], a[1]) }
}

// mathCall lowers to a call of the math library function fn (accurate:
// codegen/mathlib expands it unless PTX computes it in one correctly
// rounded instruction).
func mathCall(fn ir.MathFn) Lowering {
	return func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Math(fn, a...) }
}

func identity(_ *ir.Builder, x *ir.Value) *ir.Value { return x }
func neg(b *ir.Builder, x *ir.Value) *ir.Value      { return b.Neg(x) }
func abs(b *ir.Builder, x *ir.Value) *ir.Value      { return b.Abs(x) }
func not(b *ir.Builder, x *ir.Value) *ir.Value      { return b.Not(x) }
func square(b *ir.Builder, x *ir.Value) *ir.Value   { return b.Mul(x, x) }
func recip(b *ir.Builder, x *ir.Value) *ir.Value    { return b.Div(b.One(x.Type), x) }
func falseOf(b *ir.Builder, _ *ir.Value) *ir.Value  { return b.Bool(false) }
func isNaN(b *ir.Builder, x *ir.Value) *ir.Value    { return b.Cmp(ir.CmpNAN, x, x) }

func isInf(b *ir.Builder, x *ir.Value) *ir.Value {
	return b.Eq(b.Abs(x), b.Float(x.Type, posInf))
}

func absInt(b *ir.Builder, x *ir.Value) *ir.Value {
	return b.Select(b.Lt(x, b.Zero(x.Type)), b.Neg(x), x)
}

// signFloat is -1, 0 or 1 by the sign of x, +0 for both zeros, NaN for
// NaN.
func signFloat(b *ir.Builder, x *ir.Value) *ir.Value {
	t := x.Type
	z := b.Zero(t)
	r := b.Select(b.Eq(x, z), z, x) // NaN stays NaN
	r = b.Select(b.Lt(x, z), b.Float(t, -1), r)
	return b.Select(b.Gt(x, z), b.Float(t, 1), r)
}

// signInt is -1, 0 or 1.
func signInt(b *ir.Builder, x *ir.Value) *ir.Value {
	t := x.Type
	z := b.Zero(t)
	r := b.Select(b.Lt(x, z), b.Int(t, -1), z)
	return b.Select(b.Gt(x, z), b.One(t), r)
}

func add(b *ir.Builder, x, y *ir.Value) *ir.Value  { return b.Add(x, y) }
func sub(b *ir.Builder, x, y *ir.Value) *ir.Value  { return b.Sub(x, y) }
func mul(b *ir.Builder, x, y *ir.Value) *ir.Value  { return b.Mul(x, y) }
func div(b *ir.Builder, x, y *ir.Value) *ir.Value  { return b.Div(x, y) }
func and(b *ir.Builder, x, y *ir.Value) *ir.Value  { return b.And(x, y) }
func or(b *ir.Builder, x, y *ir.Value) *ir.Value   { return b.Or(x, y) }
func xor(b *ir.Builder, x, y *ir.Value) *ir.Value  { return b.Xor(x, y) }
func maxI(b *ir.Builder, x, y *ir.Value) *ir.Value { return b.Max(x, y) }
func minI(b *ir.Builder, x, y *ir.Value) *ir.Value { return b.Min(x, y) }

// MaxFloat emits NumPy's maximum: a when a >= b or a is NaN, else b.
// (PTX's max returns the other operand of a NaN.) The CPU's Maximum may
// give +0 where this gives -0.
func MaxFloat(b *ir.Builder, x, y *ir.Value) *ir.Value {
	return b.Select(b.Or(b.Ge(x, y), b.Cmp(ir.CmpNAN, x, x)), x, y)
}

// MinFloat emits NumPy's minimum: a when a <= b or a is NaN, else b.
func MinFloat(b *ir.Builder, x, y *ir.Value) *ir.Value {
	return b.Select(b.Or(b.Le(x, y), b.Cmp(ir.CmpNAN, x, x)), x, y)
}

// compare lowers a comparison with predicate pf on floats (ordered,
// except Ne, which is true with NaN) and pi on integers; bools compare
// as the integers 0 and 1.
func compare(pf, pi ir.CmpPred) (float, integer, boolean Lowering) {
	float = bin(func(b *ir.Builder, x, y *ir.Value) *ir.Value { return b.Cmp(pf, x, y) })
	integer = bin(func(b *ir.Builder, x, y *ir.Value) *ir.Value { return b.Cmp(pi, x, y) })
	boolean = bin(func(b *ir.Builder, x, y *ir.Value) *ir.Value {
		return b.Cmp(pi, boolToInt(b, x, ir.S32), boolToInt(b, y, ir.S32))
	})
	return float, integer, boolean
}

// boolToInt returns 1 or 0 of integer type t for pred p.
func boolToInt(b *ir.Builder, p *ir.Value, t ir.Type) *ir.Value {
	return b.Select(p, b.One(t), b.Zero(t))
}
