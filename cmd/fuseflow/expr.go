// Expressions on the command line: a Go expression over named arrays
// (exp(-a*a)*b + sqrt(c)), parsed with go/parser and built as a graph.

package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"math"
	"sort"

	"github.com/fuseflow/fuseflow/graph"
)

// exprGraph is a parsed expression: its root and its named inputs.
type exprGraph struct {
	root   *graph.Node
	inputs map[string]*graph.Node
}

// names returns the input names in sorted order.
func (e *exprGraph) names() []string {
	var out []string
	for n := range e.inputs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// unaryFuncs maps function names to elementwise ops.
var unaryFuncs = map[string]graph.Op{
	"neg": graph.OpNeg, "abs": graph.OpAbs, "sign": graph.OpSign, "sqrt": graph.OpSqrt,
	"rsqrt": graph.OpRsqrt, "exp": graph.OpExp, "exp2": graph.OpExp2, "log": graph.OpLog,
	"log2": graph.OpLog2, "log1p": graph.OpLog1p, "expm1": graph.OpExpm1, "sin": graph.OpSin,
	"cos": graph.OpCos, "tan": graph.OpTan, "tanh": graph.OpTanh, "sigmoid": graph.OpSigmoid,
	"erf": graph.OpErf, "floor": graph.OpFloor, "ceil": graph.OpCeil, "round": graph.OpRound,
	"trunc": graph.OpTrunc, "reciprocal": graph.OpRecip, "square": graph.OpSquare,
	"isnan": graph.OpIsNaN, "isinf": graph.OpIsInf,
}

// binaryFuncs maps two-argument function names to elementwise ops.
var binaryFuncs = map[string]graph.Op{
	"maximum": graph.OpMax, "minimum": graph.OpMin, "pow": graph.OpPow, "atan2": graph.OpAtan2,
	"mod": graph.OpMod, "floordiv": graph.OpFloorDiv,
}

// reduceFuncs maps reduction names to ops; mean is Sum divided by the count.
var reduceFuncs = map[string]graph.Op{
	"sum": graph.OpSum, "prod": graph.OpProd, "max": graph.OpReduceMax, "min": graph.OpReduceMin,
	"argmax": graph.OpArgMax, "argmin": graph.OpArgMin, "any": graph.OpAny, "all": graph.OpAll,
	"mean": graph.OpSum,
}

// binaryTokens maps Go operators to elementwise ops.
var binaryTokens = map[token.Token]graph.Op{
	token.ADD: graph.OpAdd, token.SUB: graph.OpSub, token.MUL: graph.OpMul, token.QUO: graph.OpDiv,
	token.REM: graph.OpMod, token.EQL: graph.OpEq, token.NEQ: graph.OpNe, token.LSS: graph.OpLt,
	token.LEQ: graph.OpLe, token.GTR: graph.OpGt, token.GEQ: graph.OpGe, token.LAND: graph.OpAnd,
	token.LOR: graph.OpOr, token.AND: graph.OpAnd, token.OR: graph.OpOr, token.XOR: graph.OpXor,
}

// operand is either a graph node or an exact constant, which becomes a
// Go number (weakly typed) where it meets an array.
type operand struct {
	node  *graph.Node
	konst *konst
}

type exprBuilder struct {
	src    string
	fset   *token.FileSet
	dtype  graph.DType
	shape  graph.Shape
	inputs map[string]*graph.Node
}

// parseExpr parses src; every identifier is an input of dtype d and shape s.
// A comment anywhere in src is an error.
func parseExpr(src string, d graph.DType, s graph.Shape) (*exprGraph, error) {
	if err := rejectComments(src); err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	e, err := parser.ParseExprFrom(fset, "", src, 0)
	if err != nil {
		return nil, fmt.Errorf("parsing %q: %v", src, err)
	}
	b := &exprBuilder{src: src, fset: fset, dtype: d, shape: s, inputs: map[string]*graph.Node{}}
	v, err := b.build(e)
	if err != nil {
		return nil, err
	}
	if v.node == nil {
		return nil, fmt.Errorf("%q is a constant: use at least one named array", src)
	}
	if err := v.node.Err(); err != nil {
		return nil, err
	}
	return &exprGraph{root: v.node, inputs: b.inputs}, nil
}

func (b *exprBuilder) build(e ast.Expr) (operand, error) {
	switch x := e.(type) {
	case *ast.ParenExpr:
		v, err := b.build(x.X)
		if v.konst != nil {
			v.konst = v.konst.as(b.text(x))
		}
		return v, err
	case *ast.Ident:
		switch x.Name {
		case "true", "false":
			return operand{konst: boolConst(x.Name == "true")}, nil
		}
		n, ok := b.inputs[x.Name]
		if !ok {
			n = graph.Input(b.dtype, b.shape, x.Name)
			b.inputs[x.Name] = n
		}
		return operand{node: n}, nil
	case *ast.BasicLit:
		k, err := literal(x)
		return operand{konst: k}, err
	case *ast.UnaryExpr:
		v, err := b.build(x.X)
		if err != nil {
			return v, err
		}
		if v.konst != nil {
			k, err := v.konst.unary(x.Op, b.text(x))
			return operand{konst: k}, err
		}
		switch x.Op {
		case token.ADD:
			return v, nil
		case token.SUB:
			return operand{node: graph.Unary(graph.OpNeg, v.node)}, nil
		case token.NOT, token.XOR:
			return operand{node: graph.Unary(graph.OpNot, v.node)}, nil
		}
	case *ast.BinaryExpr:
		op, ok := binaryTokens[x.Op]
		if !ok {
			break
		}
		l, err := b.build(x.X)
		if err != nil {
			return l, err
		}
		r, err := b.build(x.Y)
		if err != nil {
			return r, err
		}
		return binary(op, l, r, b.text(x))
	case *ast.CallExpr:
		return b.call(x)
	}
	return operand{}, fmt.Errorf("unsupported expression %T at offset %d", e, e.Pos())
}

// binary returns op of l and r (written as src), at least one an array.
func binary(op graph.Op, l, r operand, src string) (operand, error) {
	switch {
	case l.node != nil && r.node != nil:
		return operand{node: graph.Binary(op, l.node, r.node)}, nil
	case l.node != nil:
		w, err := r.konst.weak()
		if err != nil {
			return operand{}, err
		}
		return operand{node: graph.BinaryWeak(op, l.node, w, false)}, nil
	case r.node != nil:
		w, err := l.konst.weak()
		if err != nil {
			return operand{}, err
		}
		return operand{node: graph.BinaryWeak(op, r.node, w, true)}, nil
	}
	return operand{}, fmt.Errorf("%s: %v of two constants: use at least one named array", src, op)
}

func (b *exprBuilder) call(x *ast.CallExpr) (operand, error) {
	fn, ok := x.Fun.(*ast.Ident)
	if !ok {
		return operand{}, fmt.Errorf("unsupported call at offset %d", x.Pos())
	}
	args := make([]operand, len(x.Args))
	for i, a := range x.Args {
		v, err := b.build(a)
		if err != nil {
			return v, err
		}
		args[i] = v
	}
	need := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("%s takes %d arguments, got %d", fn.Name, n, len(args))
		}
		if args[0].node == nil {
			return fmt.Errorf("%s: the first argument must be an array", fn.Name)
		}
		return nil
	}
	if op, ok := unaryFuncs[fn.Name]; ok {
		if err := need(1); err != nil {
			return operand{}, err
		}
		return operand{node: graph.Unary(op, args[0].node)}, nil
	}
	if op, ok := binaryFuncs[fn.Name]; ok {
		if err := need(2); err != nil {
			return operand{}, err
		}
		return binary(op, args[0], args[1], b.text(x))
	}
	if op, ok := reduceFuncs[fn.Name]; ok {
		if len(args) == 0 || args[0].node == nil {
			return operand{}, fmt.Errorf("%s takes an array and optional axes", fn.Name)
		}
		var axes []int
		for _, a := range args[1:] {
			if a.konst == nil || a.konst.v.Kind() != constant.Int {
				return operand{}, fmt.Errorf("%s: axes must be integers", fn.Name)
			}
			ax, exact := constant.Int64Val(a.konst.v)
			if !exact || ax < math.MinInt32 || ax > math.MaxInt32 {
				return operand{}, fmt.Errorf("%s: axis %s is out of range", fn.Name, a.konst.src)
			}
			axes = append(axes, int(ax))
		}
		x := args[0].node
		if fn.Name == "mean" && !x.DType().IsFloat() {
			x = graph.Cast(x, graph.Float64)
		}
		r := graph.Reduce(op, x, axes, false)
		if fn.Name == "mean" && r.Err() == nil {
			n := max(x.Size(), 1) / max(r.Size(), 1)
			r = graph.BinaryWeak(graph.OpDiv, r, graph.Weak{Kind: graph.KindInt, Int: int64(n)}, false)
		}
		return operand{node: r}, nil
	}
	switch fn.Name {
	case "where":
		if len(args) != 3 || args[0].node == nil || args[1].node == nil || args[2].node == nil {
			return operand{}, fmt.Errorf("where takes three arrays")
		}
		return operand{node: graph.Where(args[0].node, args[1].node, args[2].node)}, nil
	case "matmul":
		if err := need(2); err != nil {
			return operand{}, err
		}
		if args[1].node == nil {
			return operand{}, fmt.Errorf("matmul takes two arrays")
		}
		return operand{node: graph.MatMul(args[0].node, args[1].node)}, nil
	case "transpose":
		if err := need(1); err != nil {
			return operand{}, err
		}
		r := args[0].node.Shape().Rank()
		perm := make([]int, r)
		for i := range perm {
			perm[i] = r - 1 - i
		}
		return operand{node: graph.Permute(args[0].node, perm)}, nil
	}
	return operand{}, fmt.Errorf("unknown function %q", fn.Name)
}

// text returns the source of e as written.
func (b *exprBuilder) text(e ast.Node) string {
	return b.src[b.fset.Position(e.Pos()).Offset:b.fset.Position(e.End()).Offset]
}
