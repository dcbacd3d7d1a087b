// Expressions on the command line: a Go expression over named arrays
// (exp(-a*a)*b + sqrt(c)), parsed with go/parser and built as a graph.

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"

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

// operand is either a graph node or a Go number (weakly typed).
type operand struct {
	node *graph.Node
	weak *graph.Weak
}

type exprBuilder struct {
	dtype  graph.DType
	shape  graph.Shape
	inputs map[string]*graph.Node
}

// parseExpr parses src; every identifier is an input of dtype d and shape s.
func parseExpr(src string, d graph.DType, s graph.Shape) (*exprGraph, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("parsing %q: %v", src, err)
	}
	b := &exprBuilder{dtype: d, shape: s, inputs: map[string]*graph.Node{}}
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
		return b.build(x.X)
	case *ast.Ident:
		switch x.Name {
		case "true", "false":
			return operand{weak: &graph.Weak{Kind: graph.KindBool, Bool: x.Name == "true"}}, nil
		}
		n, ok := b.inputs[x.Name]
		if !ok {
			n = graph.Input(b.dtype, b.shape, x.Name)
			b.inputs[x.Name] = n
		}
		return operand{node: n}, nil
	case *ast.BasicLit:
		switch x.Kind {
		case token.INT:
			v, err := strconv.ParseInt(x.Value, 0, 64)
			if err != nil {
				return operand{}, fmt.Errorf("integer %s: %v", x.Value, err)
			}
			return operand{weak: &graph.Weak{Kind: graph.KindInt, Int: v}}, nil
		case token.FLOAT:
			v, err := strconv.ParseFloat(x.Value, 64)
			if err != nil {
				return operand{}, fmt.Errorf("number %s: %v", x.Value, err)
			}
			return operand{weak: &graph.Weak{Kind: graph.KindFloat, Float: v}}, nil
		}
	case *ast.UnaryExpr:
		v, err := b.build(x.X)
		if err != nil {
			return v, err
		}
		switch x.Op {
		case token.ADD:
			return v, nil
		case token.SUB:
			if v.weak != nil {
				w := *v.weak
				w.Int, w.Float = -w.Int, -w.Float
				return operand{weak: &w}, nil
			}
			return operand{node: graph.Unary(graph.OpNeg, v.node)}, nil
		case token.NOT, token.XOR:
			if v.node == nil {
				return v, fmt.Errorf("%v of a constant is not supported", x.Op)
			}
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
		return binary(op, l, r)
	case *ast.CallExpr:
		return b.call(x)
	}
	return operand{}, fmt.Errorf("unsupported expression %T at offset %d", e, e.Pos())
}

func binary(op graph.Op, l, r operand) (operand, error) {
	switch {
	case l.node != nil && r.node != nil:
		return operand{node: graph.Binary(op, l.node, r.node)}, nil
	case l.node != nil:
		return operand{node: graph.BinaryWeak(op, l.node, *r.weak, false)}, nil
	case r.node != nil:
		return operand{node: graph.BinaryWeak(op, r.node, *l.weak, true)}, nil
	}
	return operand{}, fmt.Errorf("%v of two constants: use at least one named array", op)
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
		return binary(op, args[0], args[1])
	}
	if op, ok := reduceFuncs[fn.Name]; ok {
		if len(args) == 0 || args[0].node == nil {
			return operand{}, fmt.Errorf("%s takes an array and optional axes", fn.Name)
		}
		var axes []int
		for _, a := range args[1:] {
			if a.weak == nil || a.weak.Kind != graph.KindInt {
				return operand{}, fmt.Errorf("%s: axes must be integers", fn.Name)
			}
			axes = append(axes, int(a.weak.Int))
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
