// Elementwise operations: unary math, binary arithmetic and comparisons
// with *Array or Go-number operands, Where, Clip and AsType.

package array

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

func (a *Array) unary(op graph.Op) *Array {
	return a.derive(unaryNode(ctxOf(a), op, nodeFor(a, op.String())))
}

// Neg returns -a elementwise (bool is an error).
func (a *Array) Neg() *Array { return a.unary(graph.OpNeg) }

// Abs returns |a| elementwise.
func (a *Array) Abs() *Array { return a.unary(graph.OpAbs) }

// Sign returns -1, 0 or 1 by the sign of each element (NaN stays NaN).
func (a *Array) Sign() *Array { return a.unary(graph.OpSign) }

// Sqrt returns the square root (integers compute in float64; bool is an
// error, as for every float function below).
func (a *Array) Sqrt() *Array { return a.unary(graph.OpSqrt) }

// Rsqrt returns 1/sqrt(a).
func (a *Array) Rsqrt() *Array { return a.unary(graph.OpRsqrt) }

// Exp returns e**a.
func (a *Array) Exp() *Array { return a.unary(graph.OpExp) }

// Exp2 returns 2**a.
func (a *Array) Exp2() *Array { return a.unary(graph.OpExp2) }

// Log returns the natural logarithm.
func (a *Array) Log() *Array { return a.unary(graph.OpLog) }

// Log2 returns the base-2 logarithm.
func (a *Array) Log2() *Array { return a.unary(graph.OpLog2) }

// Log1p returns log(1+a), accurate for small a.
func (a *Array) Log1p() *Array { return a.unary(graph.OpLog1p) }

// Expm1 returns e**a - 1, accurate for small a.
func (a *Array) Expm1() *Array { return a.unary(graph.OpExpm1) }

// Sin returns the sine.
func (a *Array) Sin() *Array { return a.unary(graph.OpSin) }

// Cos returns the cosine.
func (a *Array) Cos() *Array { return a.unary(graph.OpCos) }

// Tan returns the tangent.
func (a *Array) Tan() *Array { return a.unary(graph.OpTan) }

// Tanh returns the hyperbolic tangent.
func (a *Array) Tanh() *Array { return a.unary(graph.OpTanh) }

// Sigmoid returns 1/(1+e**-a).
func (a *Array) Sigmoid() *Array { return a.unary(graph.OpSigmoid) }

// Erf returns the error function.
func (a *Array) Erf() *Array { return a.unary(graph.OpErf) }

// Floor rounds down (integers are unchanged; bool is an error).
func (a *Array) Floor() *Array { return a.unary(graph.OpFloor) }

// Ceil rounds up.
func (a *Array) Ceil() *Array { return a.unary(graph.OpCeil) }

// Round rounds to the nearest integer, halves to even, as NumPy's round.
func (a *Array) Round() *Array { return a.unary(graph.OpRound) }

// Trunc rounds toward zero.
func (a *Array) Trunc() *Array { return a.unary(graph.OpTrunc) }

// Reciprocal returns 1/a (integers compute in float64).
func (a *Array) Reciprocal() *Array { return a.unary(graph.OpRecip) }

// Square returns a*a.
func (a *Array) Square() *Array { return a.unary(graph.OpSquare) }

// IsNaN reports, as a bool array, which elements are NaN.
func (a *Array) IsNaN() *Array { return a.unary(graph.OpIsNaN) }

// IsInf reports which elements are +Inf or -Inf.
func (a *Array) IsInf() *Array { return a.unary(graph.OpIsInf) }

// Not returns the logical not of a bool array or the bitwise not of an
// integer array (float is an error).
func (a *Array) Not() *Array { return a.unary(graph.OpNot) }

// AsType returns a converted to d: float to integer truncates toward zero,
// saturating, with NaN to 0; anything to Bool is a != 0.
func (a *Array) AsType(d DType) *Array { return a.derive(graph.Cast(nodeFor(a, "AsType"), d)) }

// operand returns the node for a binary operand b of an op on a: an
// *Array of a's Context, or a Go number as a weak scalar (w, true).
// Anything else gives an error node naming the op and the type.
func operand(name string, op graph.Op, a *Array, b any) (n *graph.Node, w graph.Weak, weak bool) {
	switch x := b.(type) {
	case *Array:
		if x == nil {
			return graph.ErrorNode(op, opErr(name, []*graph.Node{nodeOf(a)}, "operand is a nil *Array")), w, false
		}
		if err := sameContext(name, a, x); err != nil {
			return graph.ErrorNode(op, err), w, false
		}
		return nodeOf(x), w, false
	}
	if w, ok := graph.WeakOf(b); ok {
		return nil, w, true
	}
	return graph.ErrorNode(op, opErr(name, []*graph.Node{nodeOf(a)},
		"unsupported operand type %T (want *array.Array or a Go number)", b)), w, false
}

// sameContext returns an error when x and y belong to different Contexts.
func sameContext(name string, x, y *Array) error {
	cx, cy := ctxOf(x), ctxOf(y)
	if cx == nil || cy == nil || cx == cy {
		return nil
	}
	if nodeOf(x).Err() != nil || nodeOf(y).Err() != nil {
		return nil // the operand's own error (a nil or zero Context's among them) goes on
	}
	return opErr(name, []*graph.Node{nodeOf(x), nodeOf(y)},
		"arrays belong to different Contexts (backends %s and %s)", cx.name, cy.name)
}

// binary returns op(a, b) for an *Array or Go-number b.
func (a *Array) binary(op graph.Op, b any) *Array {
	n, w, weak := operand(op.String(), op, a, b)
	if weak {
		return a.derive(weakNode(ctxOf(a), op, nodeFor(a, op.String()), w))
	}
	return a.derive(binaryNode(ctxOf(a), op, nodeFor(a, op.String()), n)).keep(b)
}

// Add returns a + b elementwise with broadcasting. b is an *Array of the
// same Context or a Go number (weakly typed: float32 array + 2 stays
// float32); any other type gives an Array carrying an error. The same
// holds for every binary op below.
func (a *Array) Add(b any) *Array { return a.binary(graph.OpAdd, b) }

// Sub returns a - b.
func (a *Array) Sub(b any) *Array { return a.binary(graph.OpSub, b) }

// Mul returns a * b.
func (a *Array) Mul(b any) *Array { return a.binary(graph.OpMul, b) }

// Div returns a / b, true division (integers divide as float64).
func (a *Array) Div(b any) *Array { return a.binary(graph.OpDiv, b) }

// FloorDiv returns floor(a / b); integer division by zero gives 0.
func (a *Array) FloorDiv(b any) *Array { return a.binary(graph.OpFloorDiv, b) }

// Mod returns a - floor(a/b)*b, with the sign of b, as NumPy's mod;
// integer modulo by zero gives 0.
func (a *Array) Mod(b any) *Array { return a.binary(graph.OpMod, b) }

// Pow returns a ** b. Integer powers with a negative exponent give 0,
// except for bases 1 and -1.
func (a *Array) Pow(b any) *Array { return a.binary(graph.OpPow, b) }

// Maximum returns the elementwise maximum; NaN propagates.
func (a *Array) Maximum(b any) *Array { return a.binary(graph.OpMax, b) }

// Minimum returns the elementwise minimum; NaN propagates.
func (a *Array) Minimum(b any) *Array { return a.binary(graph.OpMin, b) }

// Atan2 returns atan2(a, b) (integers compute in float64).
func (a *Array) Atan2(b any) *Array { return a.binary(graph.OpAtan2, b) }

// Eq returns a == b as a bool array.
func (a *Array) Eq(b any) *Array { return a.binary(graph.OpEq, b) }

// Ne returns a != b.
func (a *Array) Ne(b any) *Array { return a.binary(graph.OpNe, b) }

// Lt returns a < b.
func (a *Array) Lt(b any) *Array { return a.binary(graph.OpLt, b) }

// Le returns a <= b.
func (a *Array) Le(b any) *Array { return a.binary(graph.OpLe, b) }

// Gt returns a > b.
func (a *Array) Gt(b any) *Array { return a.binary(graph.OpGt, b) }

// Ge returns a >= b.
func (a *Array) Ge(b any) *Array { return a.binary(graph.OpGe, b) }

// And returns the logical (bool) or bitwise (integers) and; float is an
// error.
func (a *Array) And(b any) *Array { return a.binary(graph.OpAnd, b) }

// Or returns the logical or bitwise or.
func (a *Array) Or(b any) *Array { return a.binary(graph.OpOr, b) }

// Xor returns the logical or bitwise exclusive or.
func (a *Array) Xor(b any) *Array { return a.binary(graph.OpXor, b) }

// Clip limits a to [lo, hi] as Minimum(Maximum(a, lo), hi); lo and hi are
// *Arrays or Go numbers, as for Add. An error of either step is reported
// as Clip's ("Clip: Maximum(...): ...").
func (a *Array) Clip(lo, hi any) *Array {
	r := a.Maximum(lo).Minimum(hi)
	if err := r.node.Err(); err != nil && (a == nil || a.node == nil || a.node.Err() == nil) {
		return errArray(ctxOf(a), graph.OpMin, fmt.Errorf("Clip: %w", err))
	}
	return r
}

// weakDType returns the dtype a lone Go number takes: bool, int64 or
// float64 by its kind.
func weakDType(w graph.Weak) DType {
	switch w.Kind {
	case graph.KindBool:
		return Bool
	case graph.KindInt:
		return Int64
	}
	return Float64
}

// Where returns x where cond is true and y elsewhere, broadcasting the
// three. cond must be a bool *Array; x and y are *Arrays of cond's Context
// or Go numbers (a Go number takes the dtype of the other operand as in
// Add; two Go numbers give bool, int64 or float64 by their kinds).
func Where(cond *Array, x, y any) *Array {
	cn := nodeFor(cond, "Where")
	xn, xw, xweak := operand("Where", graph.OpWhere, cond, x)
	yn, yw, yweak := operand("Where", graph.OpWhere, cond, y)
	switch {
	case xweak && yweak:
		d := graph.Promote(weakDType(xw), weakDType(yw))
		xn, yn = weakConst(xw, d), weakConst(yw, d)
	case xweak:
		xn = yn // y's error, if it carries one
		if yn.Err() == nil {
			xn = weakConst(xw, graph.PromoteWeak(yn.DType(), xw))
		}
	case yweak:
		yn = xn
		if xn.Err() == nil {
			yn = weakConst(yw, graph.PromoteWeak(xn.DType(), yw))
		}
	}
	return newArray(ctxOf(cond), graph.Where(cn, xn, yn)).keep(cond, x, y)
}

// weakConst returns the constant node of w as dtype d (an error node when
// it does not fit).
func weakConst(w graph.Weak, d DType) *graph.Node {
	v, err := w.Value(d)
	if err != nil {
		return graph.ErrorNode(graph.OpConst, fmt.Errorf("Where: %w", err))
	}
	return graph.Const(v)
}
