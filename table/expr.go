// Column expressions: an immutable tree over named columns, literals,
// elementwise ops, null handling and aggregates, planned against a
// schema only when a table or a scan evaluates it.

package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/graph"
)

// exprKind says what an Expr node is.
type exprKind uint8

const (
	kindCol exprKind = iota + 1
	kindLit
	kindUnary
	kindBinary
	kindWhere
	kindFillNull
	kindIsNull
	kindCast
	kindAgg
)

// Agg is an aggregate function.
type Agg uint8

// The aggregates. Every one skips nulls (and rows a filter drops); Sum,
// Mean, Min, Max and Var of no row are null, Count of no row is 0.
const (
	AggSum Agg = iota + 1
	AggMean
	AggMin
	AggMax
	AggCount
	AggVar
)

var aggNames = map[Agg]string{AggSum: "sum", AggMean: "mean", AggMin: "min", AggMax: "max", AggCount: "count", AggVar: "variance"}

// String returns the aggregate's name in expressions ("sum").
func (a Agg) String() string { return aggNames[a] }

// Expr is a column expression: a column by name, a literal, elementwise
// ops of expressions (nulls propagate: a row is null where any operand
// is), FillNull and IsNull, and aggregates, which skip nulls. Build one
// with Col, Lit and the methods and functions of this file; nothing is
// checked or computed until a Table or a Scan evaluates it, which then
// reports an unknown column, a type it cannot compute in, or ops that do
// not fit together (graph's error names the op and the dtypes). Exprs
// are immutable and safe for concurrent use.
type Expr struct {
	kind  exprKind
	name  string // kindCol: the column
	lit   graph.Weak
	op    graph.Op
	dtype graph.DType // kindCast
	agg   Agg
	ddof  int
	args  []*Expr
	alias string
	err   error
}

// Col returns the column named name.
func Col(name string) *Expr { return &Expr{kind: kindCol, name: name} }

// Lit returns a literal: a Go bool, integer or float, which takes the
// dtype of what it meets as Go constants do (an int32 column plus 1 stays
// int32). Another type gives an Expr whose evaluation fails.
func Lit(v any) *Expr {
	w, ok := graph.WeakOf(v)
	if !ok {
		return &Expr{kind: kindLit, err: fmt.Errorf("Lit: unsupported Go type %T (want bool, an integer or a float)", v)}
	}
	return &Expr{kind: kindLit, lit: w}
}

// expr turns an operand (an *Expr or a Go number) into an Expr.
func expr(v any) *Expr {
	if e, ok := v.(*Expr); ok {
		if e == nil {
			return &Expr{kind: kindLit, err: fmt.Errorf("nil *Expr")}
		}
		return e
	}
	return Lit(v)
}

func unary(op graph.Op, x *Expr) *Expr { return &Expr{kind: kindUnary, op: op, args: []*Expr{expr(x)}} }

func binary(op graph.Op, a, b any) *Expr {
	return &Expr{kind: kindBinary, op: op, args: []*Expr{expr(a), expr(b)}}
}

// Add returns e + o; o is an *Expr or a Go number (as are the operands of
// the other binary methods).
func (e *Expr) Add(o any) *Expr { return binary(graph.OpAdd, e, o) }

// Sub returns e - o.
func (e *Expr) Sub(o any) *Expr { return binary(graph.OpSub, e, o) }

// Mul returns e * o.
func (e *Expr) Mul(o any) *Expr { return binary(graph.OpMul, e, o) }

// Div returns e / o, true division (integers divide as float64).
func (e *Expr) Div(o any) *Expr { return binary(graph.OpDiv, e, o) }

// Mod returns e modulo o with the sign of o.
func (e *Expr) Mod(o any) *Expr { return binary(graph.OpMod, e, o) }

// Pow returns e to the power o.
func (e *Expr) Pow(o any) *Expr { return binary(graph.OpPow, e, o) }

// Maximum returns the larger of e and o per row.
func (e *Expr) Maximum(o any) *Expr { return binary(graph.OpMax, e, o) }

// Minimum returns the smaller of e and o per row.
func (e *Expr) Minimum(o any) *Expr { return binary(graph.OpMin, e, o) }

// Eq returns e == o.
func (e *Expr) Eq(o any) *Expr { return binary(graph.OpEq, e, o) }

// Ne returns e != o.
func (e *Expr) Ne(o any) *Expr { return binary(graph.OpNe, e, o) }

// Lt returns e < o.
func (e *Expr) Lt(o any) *Expr { return binary(graph.OpLt, e, o) }

// Le returns e <= o.
func (e *Expr) Le(o any) *Expr { return binary(graph.OpLe, e, o) }

// Gt returns e > o.
func (e *Expr) Gt(o any) *Expr { return binary(graph.OpGt, e, o) }

// Ge returns e >= o.
func (e *Expr) Ge(o any) *Expr { return binary(graph.OpGe, e, o) }

// And returns e && o (bitwise for integers); a row is null where either is.
func (e *Expr) And(o any) *Expr { return binary(graph.OpAnd, e, o) }

// Or returns e || o (bitwise for integers); a row is null where either is.
func (e *Expr) Or(o any) *Expr { return binary(graph.OpOr, e, o) }

// Not returns !e (bitwise for integers).
func (e *Expr) Not() *Expr { return unary(graph.OpNot, e) }

// Neg returns -e.
func (e *Expr) Neg() *Expr { return unary(graph.OpNeg, e) }

// Abs returns |e|.
func (e *Expr) Abs() *Expr { return unary(graph.OpAbs, e) }

// Sqrt returns the square root of e.
func (e *Expr) Sqrt() *Expr { return unary(graph.OpSqrt, e) }

// Exp returns e^x of e.
func (e *Expr) Exp() *Expr { return unary(graph.OpExp, e) }

// Log returns the natural logarithm of e.
func (e *Expr) Log() *Expr { return unary(graph.OpLog, e) }

// Unary returns the elementwise op (graph.OpExp, graph.OpTanh, ...) of e.
func (e *Expr) Unary(op graph.Op) *Expr { return unary(op, e) }

// Cast returns e converted to d.
func (e *Expr) Cast(d graph.DType) *Expr {
	return &Expr{kind: kindCast, dtype: d, args: []*Expr{expr(e)}}
}

// FillNull returns e with its nulls replaced by v (an *Expr or a Go
// number); the result has no nulls where v has none.
func (e *Expr) FillNull(v any) *Expr {
	return &Expr{kind: kindFillNull, args: []*Expr{expr(e), expr(v)}}
}

// IsNull returns a bool column, true where e is null; it has no nulls.
func (e *Expr) IsNull() *Expr { return &Expr{kind: kindIsNull, args: []*Expr{expr(e)}} }

// IsValid returns a bool column, true where e is not null.
func (e *Expr) IsValid() *Expr { return e.IsNull().Not() }

// Where returns a where cond is true and b where it is false, as Arrow's
// if_else: a row is null where cond is null or the chosen value is.
func Where(cond, a, b any) *Expr {
	return &Expr{kind: kindWhere, args: []*Expr{expr(cond), expr(a), expr(b)}}
}

// As returns e named name in results (the default name is the
// expression's text).
func (e *Expr) As(name string) *Expr {
	if e == nil {
		return expr(e)
	}
	c := *e
	c.alias = name
	return &c
}

func aggregate(a Agg, x *Expr, ddof int) *Expr {
	return &Expr{kind: kindAgg, agg: a, ddof: ddof, args: []*Expr{expr(x)}}
}

// Sum returns the sum of e's non-null rows (int64 for bool and int32, as
// NumPy sums them).
func Sum(e *Expr) *Expr { return aggregate(AggSum, e, 0) }

// Mean returns the mean of e's non-null rows (float32 for float32, else
// float64).
func Mean(e *Expr) *Expr { return aggregate(AggMean, e, 0) }

// Min returns the least non-null row of e (NaN propagates, as NumPy's min).
func Min(e *Expr) *Expr { return aggregate(AggMin, e, 0) }

// Max returns the greatest non-null row of e (NaN propagates).
func Max(e *Expr) *Expr { return aggregate(AggMax, e, 0) }

// Count returns the number of non-null rows of e (int64).
func Count(e *Expr) *Expr { return aggregate(AggCount, e, 0) }

// Var returns the variance of e's non-null rows with ddof delta degrees
// of freedom (null where fewer than ddof+1 rows).
func Var(e *Expr, ddof int) *Expr { return aggregate(AggVar, e, ddof) }

// Name returns the name of e's result column: its alias, else its text.
func (e *Expr) Name() string {
	if e != nil && e.alias != "" {
		return e.alias
	}
	return e.String()
}

// String returns e as an expression in Go syntax, as Parse reads it.
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

var opText = map[graph.Op]string{
	graph.OpAdd: "+", graph.OpSub: "-", graph.OpMul: "*", graph.OpDiv: "/", graph.OpMod: "%",
	graph.OpEq: "==", graph.OpNe: "!=", graph.OpLt: "<", graph.OpLe: "<=", graph.OpGt: ">",
	graph.OpGe: ">=", graph.OpAnd: "&&", graph.OpOr: "||",
}

func (e *Expr) write(b *strings.Builder) {
	if e == nil {
		b.WriteString("<nil>")
		return
	}
	args := func(name string) {
		b.WriteString(name)
		b.WriteByte('(')
		for i, a := range e.args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.write(b)
		}
		b.WriteByte(')')
	}
	switch e.kind {
	case kindCol:
		b.WriteString(e.name)
	case kindLit:
		b.WriteString(litText(e.lit))
	case kindUnary:
		switch e.op {
		case graph.OpNeg:
			b.WriteString("-")
			e.args[0].write(b)
		case graph.OpNot:
			b.WriteString("!")
			e.args[0].write(b)
		default:
			args(strings.ToLower(e.op.String()))
		}
	case kindBinary:
		if t, ok := opText[e.op]; ok {
			b.WriteByte('(')
			e.args[0].write(b)
			b.WriteString(" " + t + " ")
			e.args[1].write(b)
			b.WriteByte(')')
			return
		}
		args(strings.ToLower(e.op.String()))
	case kindWhere:
		args("where")
	case kindFillNull:
		args("fill_null")
	case kindIsNull:
		args("is_null")
	case kindCast:
		b.WriteString(e.dtype.String())
		b.WriteByte('(')
		e.args[0].write(b)
		b.WriteByte(')')
	case kindAgg:
		if e.agg == AggVar && e.ddof != 0 {
			fmt.Fprintf(b, "variance(%v, %d)", e.args[0], e.ddof)
			return
		}
		args(e.agg.String())
	}
}

// litText writes a literal as Go would read it back with its kind: a
// float always with a point or an exponent (1.0, not 1, which is an int).
func litText(w graph.Weak) string {
	if w.Kind != graph.KindFloat {
		return w.String()
	}
	t := strconv.FormatFloat(w.Float, 'g', -1, 64)
	if !strings.ContainsAny(t, ".eIN") {
		t += ".0"
	}
	return t
}

// hasAgg reports whether e holds an aggregate.
func (e *Expr) hasAgg() bool {
	if e == nil {
		return false
	}
	if e.kind == kindAgg {
		return true
	}
	for _, a := range e.args {
		if a.hasAgg() {
			return true
		}
	}
	return false
}

// columns appends the names of the columns e reads to out, once each.
func (e *Expr) columns(out []string) []string {
	if e == nil {
		return out
	}
	if e.kind == kindCol {
		for _, n := range out {
			if n == e.name {
				return out
			}
		}
		return append(out, e.name)
	}
	for _, a := range e.args {
		out = a.columns(out)
	}
	return out
}
