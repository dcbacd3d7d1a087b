// Constants of command-line expressions: literals, true and false, and
// their unary + and -, kept exact as Go's untyped constants are
// (go/constant) and converted to weak scalars, with range checks, only
// where they meet an array. So -9223372036854775808 is the minimum int64
// (the literal alone is out of range), and -(-9223372036854775808) is an
// error rather than a wrapped value.

package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"math"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/goexpr"
)

// konst is an exact constant. negZero records a float zero negated an odd
// number of times: constants have no -0, but -0.0 written in an
// expression means IEEE negative zero, as it does in NumPy.
type konst struct {
	v       constant.Value
	negZero bool
	src     string // the constant as written, for messages
}

// literal returns the constant of a number literal.
func literal(x *ast.BasicLit) (*konst, error) {
	switch x.Kind {
	case token.INT, token.FLOAT:
		v := constant.MakeFromLiteral(x.Value, x.Kind, 0)
		if v.Kind() == constant.Unknown {
			return nil, fmt.Errorf("malformed number %s", x.Value)
		}
		return &konst{v: v, src: x.Value}, nil
	}
	return nil, fmt.Errorf("unsupported literal %s: only integer and floating-point numbers", x.Value)
}

// boolConst returns the constant true or false.
func boolConst(b bool) *konst {
	return &konst{v: constant.MakeBool(b), src: fmt.Sprint(b)}
}

// as returns k written as src (k in parentheses).
func (k *konst) as(src string) *konst {
	c := *k
	c.src = src
	return &c
}

// unary applies + or - to k, giving the constant written as src. Bool
// constants have neither, as in Go.
func (k *konst) unary(op token.Token, src string) (*konst, error) {
	if k.v.Kind() == constant.Bool {
		return nil, fmt.Errorf("operator %v not defined on %s (a bool constant)", op, k.src)
	}
	switch op {
	case token.ADD:
		return &konst{v: k.v, negZero: k.negZero, src: src}, nil
	case token.SUB:
		neg := k.negZero
		if k.v.Kind() == constant.Float && constant.Sign(k.v) == 0 {
			neg = !neg
		}
		return &konst{v: constant.UnaryOp(token.SUB, k.v, 0), negZero: neg, src: src}, nil
	}
	return nil, fmt.Errorf("operator %v of the constant %s is not supported", op, k.src)
}

// weak returns k as a Go number operand: an int64 for integer constants,
// a float64 for floating-point ones. A constant outside those ranges is
// an error, as it is for a Go compiler.
func (k *konst) weak() (graph.Weak, error) {
	switch k.v.Kind() {
	case constant.Bool:
		return graph.Weak{Kind: graph.KindBool, Bool: constant.BoolVal(k.v)}, nil
	case constant.Int:
		i, exact := constant.Int64Val(k.v)
		if !exact {
			return graph.Weak{}, fmt.Errorf("integer constant %s overflows int64 (the range is -9223372036854775808 to 9223372036854775807)", k.src)
		}
		return graph.Weak{Kind: graph.KindInt, Int: i}, nil
	case constant.Float:
		f, _ := constant.Float64Val(k.v)
		if math.IsInf(f, 0) {
			return graph.Weak{}, fmt.Errorf("floating-point constant %s overflows float64", k.src)
		}
		if f == 0 && k.negZero {
			f = math.Copysign(0, -1)
		}
		return graph.Weak{Kind: graph.KindFloat, Float: f}, nil
	}
	return graph.Weak{}, fmt.Errorf("unsupported constant %s", k.src)
}

// rejectComments returns an error when src holds a Go comment: the parser
// would drop it silently, and 'a // b' would evaluate a alone.
func rejectComments(src string) error {
	if pos, lit, ok := goexpr.FirstComment(src); ok {
		return fmt.Errorf("%q: %s at offset %d starts a Go comment, which would hide the rest of the expression; "+
			"expressions take no comments (floor division is floordiv(a, b), modulo a %% b)",
			src, lit[:2], pos.Offset)
	}
	return nil
}
