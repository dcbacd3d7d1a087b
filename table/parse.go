// Parse: column expressions in Go syntax, read with go/parser; columns
// are identifiers, numbers are literals, the operators and functions are
// those of Expr. Errors give the column of the expression they are at.

package table

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/goexpr"
)

// parseUnary maps function names of one argument to elementwise ops.
var parseUnary = map[string]graph.Op{
	"abs": graph.OpAbs, "sqrt": graph.OpSqrt, "exp": graph.OpExp, "log": graph.OpLog,
	"log2": graph.OpLog2, "log1p": graph.OpLog1p, "expm1": graph.OpExpm1, "sin": graph.OpSin,
	"cos": graph.OpCos, "tanh": graph.OpTanh, "sigmoid": graph.OpSigmoid, "floor": graph.OpFloor,
	"ceil": graph.OpCeil, "round": graph.OpRound, "sign": graph.OpSign, "isnan": graph.OpIsNaN,
}

// parseBinary maps function names of two arguments to elementwise ops.
var parseBinary = map[string]graph.Op{
	"maximum": graph.OpMax, "minimum": graph.OpMin, "pow": graph.OpPow, "mod": graph.OpMod,
}

// parseAggs maps aggregate names to aggregates.
var parseAggs = map[string]Agg{
	"sum": AggSum, "mean": AggMean, "min": AggMin, "max": AggMax, "count": AggCount, "variance": AggVar,
}

// parseOps maps Go's binary operators to ops.
var parseOps = map[token.Token]graph.Op{
	token.ADD: graph.OpAdd, token.SUB: graph.OpSub, token.MUL: graph.OpMul, token.QUO: graph.OpDiv,
	token.REM: graph.OpMod, token.EQL: graph.OpEq, token.NEQ: graph.OpNe, token.LSS: graph.OpLt,
	token.LEQ: graph.OpLe, token.GTR: graph.OpGt, token.GEQ: graph.OpGe, token.LAND: graph.OpAnd,
	token.LOR: graph.OpOr, token.AND: graph.OpAnd, token.OR: graph.OpOr,
}

// Functions lists the function names Parse knows, sorted.
func Functions() []string {
	out := []string{"where", "fill_null", "is_null", "is_valid"}
	out = slices.AppendSeq(out, maps.Keys(parseUnary))
	out = slices.AppendSeq(out, maps.Keys(parseBinary))
	out = slices.AppendSeq(out, maps.Keys(parseAggs))
	slices.Sort(out)
	return out
}

// Parse reads a column expression in Go syntax: identifiers are columns
// (true and false are literals), numbers are literals, the operators are
// + - * / % == != < <= > >= && || & | and unary - !, and the functions
// are those Functions lists: sum(price*qty*(1-discount)),
// where(qty > 0, price, 0), variance(x, 1) (ddof; var is a Go keyword), fill_null(x, 0). The
// expression is named by its text. Errors give the column of the
// expression where they are found: "1:5: unknown function "frob"
// (known: abs, ceil, ...)". Comments are errors ('a // b' would hide b).
func Parse(src string) (*Expr, error) {
	if err := noComments(src); err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	x, err := parser.ParseExprFrom(fset, "", src, 0)
	if err != nil {
		if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
			return nil, fmt.Errorf("%d:%d: %s", el[0].Pos.Line, el[0].Pos.Column, el[0].Msg)
		}
		return nil, err
	}
	p := &exprParser{fset: fset, src: src}
	e, err := p.expr(x)
	if err != nil {
		return nil, err
	}
	if !hasColumn(e) {
		return nil, fmt.Errorf("1:1: %q reads no column", src)
	}
	return e.As(strings.TrimSpace(src)), nil
}

func hasColumn(e *Expr) bool {
	if e.kind == kindCol {
		return true
	}
	for _, a := range e.args {
		if hasColumn(a) {
			return true
		}
	}
	return false
}

// noComments reports a Go comment in src.
func noComments(src string) error {
	if p, _, ok := goexpr.FirstComment(src); ok {
		return fmt.Errorf("%d:%d: a Go comment would hide the rest of the expression; expressions take none", p.Line, p.Column)
	}
	return nil
}

type exprParser struct {
	fset *token.FileSet
	src  string
}

// errorf returns an error at n's position.
func (p *exprParser) errorf(n ast.Node, format string, args ...any) error {
	pos := p.fset.Position(n.Pos())
	return fmt.Errorf("%d:%d: %s", pos.Line, pos.Column, fmt.Sprintf(format, args...))
}

func (p *exprParser) text(n ast.Node) string {
	return p.src[p.fset.Position(n.Pos()).Offset:p.fset.Position(n.End()).Offset]
}

func (p *exprParser) expr(x ast.Expr) (*Expr, error) {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return p.expr(x.X)
	case *ast.Ident:
		switch x.Name {
		case "true", "false":
			return Lit(x.Name == "true"), nil
		}
		return Col(x.Name), nil
	case *ast.BasicLit:
		return p.literal(x, false)
	case *ast.UnaryExpr:
		if lit, ok := x.X.(*ast.BasicLit); ok && x.Op == token.SUB {
			return p.literal(lit, true)
		}
		e, err := p.expr(x.X)
		if err != nil {
			return nil, err
		}
		switch x.Op {
		case token.ADD:
			return e, nil
		case token.SUB:
			return e.Neg(), nil
		case token.NOT:
			return e.Not(), nil
		}
		return nil, p.errorf(x, "unsupported operator %v", x.Op)
	case *ast.BinaryExpr:
		op, ok := parseOps[x.Op]
		if !ok {
			return nil, p.errorf(x, "unsupported operator %v", x.Op)
		}
		l, err := p.expr(x.X)
		if err != nil {
			return nil, err
		}
		r, err := p.expr(x.Y)
		if err != nil {
			return nil, err
		}
		if l.kind == kindLit && r.kind == kindLit {
			return nil, p.errorf(x, "%s: an op of two numbers: use at least one column", p.text(x))
		}
		return binary(op, l, r), nil
	case *ast.CallExpr:
		return p.call(x)
	}
	return nil, p.errorf(x, "unsupported expression %s", p.text(x))
}

// literal returns the number lit (negated with neg) as a literal.
func (p *exprParser) literal(lit *ast.BasicLit, neg bool) (*Expr, error) {
	v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
	if neg {
		v = constant.UnaryOp(token.SUB, v, 0)
	}
	switch v.Kind() {
	case constant.Int:
		i, exact := constant.Int64Val(v)
		if !exact {
			return nil, p.errorf(lit, "integer %s overflows int64", lit.Value)
		}
		return Lit(i), nil
	case constant.Float:
		f, _ := constant.Float64Val(v)
		if math.IsInf(f, 0) {
			return nil, p.errorf(lit, "number %s overflows float64", lit.Value)
		}
		if f == 0 && neg {
			f = math.Copysign(0, -1)
		}
		return Lit(f), nil
	}
	return nil, p.errorf(lit, "unsupported literal %s: only numbers", lit.Value)
}

func (p *exprParser) call(x *ast.CallExpr) (*Expr, error) {
	fn, ok := x.Fun.(*ast.Ident)
	if !ok {
		return nil, p.errorf(x, "unsupported call %s", p.text(x.Fun))
	}
	args := make([]*Expr, len(x.Args))
	for i, a := range x.Args {
		e, err := p.expr(a)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	need := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			want := fmt.Sprint(lo)
			if hi > lo {
				want = fmt.Sprintf("%d or %d", lo, hi)
			}
			return p.errorf(x, "%s takes %s arguments, got %d", fn.Name, want, len(args))
		}
		return nil
	}
	if op, ok := parseUnary[fn.Name]; ok {
		if err := need(1, 1); err != nil {
			return nil, err
		}
		return unary(op, args[0]), nil
	}
	if op, ok := parseBinary[fn.Name]; ok {
		if err := need(2, 2); err != nil {
			return nil, err
		}
		return binary(op, args[0], args[1]), nil
	}
	if a, ok := parseAggs[fn.Name]; ok {
		hi := 1
		if a == AggVar {
			hi = 2
		}
		if err := need(1, hi); err != nil {
			return nil, err
		}
		ddof := 0
		if len(args) == 2 {
			if args[1].kind != kindLit || args[1].lit.Kind != graph.KindInt || args[1].lit.Int < 0 || args[1].lit.Int > math.MaxInt32 {
				return nil, p.errorf(x.Args[1], "variance: ddof must be a non-negative integer, not %s", p.text(x.Args[1]))
			}
			ddof = int(args[1].lit.Int)
		}
		return aggregate(a, args[0], ddof), nil
	}
	switch fn.Name {
	case "where":
		if err := need(3, 3); err != nil {
			return nil, err
		}
		return Where(args[0], args[1], args[2]), nil
	case "fill_null":
		if err := need(2, 2); err != nil {
			return nil, err
		}
		return args[0].FillNull(args[1]), nil
	case "is_null", "is_valid":
		if err := need(1, 1); err != nil {
			return nil, err
		}
		if fn.Name == "is_null" {
			return args[0].IsNull(), nil
		}
		return args[0].IsValid(), nil
	}
	return nil, p.errorf(fn, "unknown function %q (known: %s)", fn.Name, strings.Join(Functions(), ", "))
}
