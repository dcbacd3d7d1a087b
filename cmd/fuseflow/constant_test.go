package main

import (
	"math"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

// constOf returns the value of the constant operand of a binary root
// (after the casts the graph inserts), or fails.
func constOf(t *testing.T, n *graph.Node) graph.Scalar {
	t.Helper()
	for _, in := range n.Inputs() {
		for in.Op() == graph.OpCast {
			in = in.Input(0)
		}
		if in.Op() == graph.OpConst {
			return in.Attr().Value
		}
	}
	t.Fatalf("%v has no constant operand", n.Op())
	return graph.Scalar{}
}

func TestConstants(t *testing.T) {
	tests := []struct {
		src   string
		dtype graph.DType
		i     int64   // the constant's value for integer results
		f     float64 // for float results
		err   string
	}{
		{src: "a*-9223372036854775808", dtype: graph.Int64, i: math.MinInt64},
		{src: "a - -9223372036854775808", dtype: graph.Int64, i: math.MinInt64},
		{src: "a*-(9223372036854775808)", dtype: graph.Int64, i: math.MinInt64},
		{src: "a + +-+9223372036854775807", dtype: graph.Int64, i: -math.MaxInt64},
		{src: "a*9223372036854775807", dtype: graph.Int64, i: math.MaxInt64},
		{src: "a*1_000", dtype: graph.Int64, i: 1000},
		{src: "a*0x7fffffffffffffff", dtype: graph.Int64, i: math.MaxInt64},
		{src: "a*0b101", dtype: graph.Int64, i: 5},
		{src: "a*-0", dtype: graph.Int64, i: 0},
		{src: "a*0x1p-2", dtype: graph.Float64, f: 0.25},
		{src: "a*1e-400", dtype: graph.Float64, f: 0},
		{src: "a*-1.7976931348623157e308", dtype: graph.Float64, f: -math.MaxFloat64},
		{src: "a*9223372036854775808", err: "integer constant 9223372036854775808 overflows int64"},
		{src: "a*-(-9223372036854775808)", err: "integer constant -(-9223372036854775808) overflows int64"},
		{src: "a*- -9223372036854775808", err: "integer constant - -9223372036854775808 overflows int64"},
		{src: "a*(-(9223372036854775807)-1)", err: "-(9223372036854775807)-1: Sub of two constants"},
		{src: "a*18446744073709551615", err: "integer constant 18446744073709551615 overflows int64"},
		{src: "a*-18446744073709551615", err: "integer constant -18446744073709551615 overflows int64"},
		{src: "a*1e400", err: "floating-point constant 1e400 overflows float64"},
		{src: "a*-1e309", err: "floating-point constant -1e309 overflows float64"},
		{src: "a + -true", err: "operator - not defined on true (a bool constant)"},
		{src: "a + +false", err: "operator + not defined on false"},
		{src: "a + !true", err: "operator ! not defined on true"},
		{src: "a + ^3", err: "operator ^ of the constant 3 is not supported"},
		{src: "a + 'x'", err: "unsupported literal 'x'"},
		{src: "a + 2i", err: "unsupported literal 2i"},
		{src: `a + "2"`, err: `unsupported literal "2"`},
		{src: "sum(a, 99999999999999999999)", err: "sum: axis 99999999999999999999 is out of range"},
		{src: "sum(a, 1.0)", err: "sum: axes must be integers"},
	}
	for _, tt := range tests {
		e, err := parseExpr(tt.src, tt.dtype, graph.Shape{3})
		if parseFailed(t, tt.src, err, tt.err) {
			continue
		}
		v := constOf(t, e.root)
		if v.DType.IsFloat() {
			if v.F != tt.f {
				t.Errorf("%q got:%v want:%v", tt.src, v.F, tt.f)
			}
		} else if v.I != tt.i {
			t.Errorf("%q got:%v want:%v", tt.src, v.I, tt.i)
		}
	}
}

// TestNegativeZero checks that -0.0 written in an expression is IEEE
// negative zero and that each further minus flips its sign.
func TestNegativeZero(t *testing.T) {
	for _, tt := range []struct {
		src string
		neg bool
	}{{"a + -0.0", true}, {"a + -(-0.0)", false}, {"a + 0.0", false}, {"a + -0e5", true}} {
		e, err := parseExpr(tt.src, graph.Float32, graph.Shape{3})
		if err != nil {
			t.Fatalf("%q got:%v", tt.src, err)
		}
		v := constOf(t, e.root)
		if v.F != 0 || math.Signbit(v.F) != tt.neg {
			t.Errorf("%q got:%v signbit %v want signbit %v", tt.src, v.F, math.Signbit(v.F), tt.neg)
		}
	}
}

func TestComments(t *testing.T) {
	for _, src := range []string{"a // b", "a//b", "a /* b */ + c", "a + b /* unterminated", "sum(a) // 1"} {
		_, err := parseExpr(src, graph.Float32, graph.Shape{3})
		if err == nil || !strings.Contains(err.Error(), "starts a Go comment") || !strings.Contains(err.Error(), "floordiv(a, b)") {
			t.Errorf("%q got:%v want an error about the comment offering floordiv", src, err)
		}
	}
	// The message names where the comment starts.
	_, err := parseExpr("a // b", graph.Float32, graph.Shape{3})
	if want := `"a // b": // at offset 2 starts a Go comment`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got:%v want:%q", err, want)
	}
	// A slash inside an operator sequence is not a comment.
	if _, err := parseExpr("a / b / c", graph.Float32, graph.Shape{3}); err != nil {
		t.Errorf("a / b / c got:%v want:nil", err)
	}
}

// TestEvalConstants runs the fixed cases end to end: floordiv, the
// minimum int64 and the comment error through the command.
func TestEvalConstants(t *testing.T) {
	tests := []runCase{
		{[]string{"eval", "-shape", "3", "-dtype", "int64", "a*0 + -9223372036854775808"}, 0,
			"values: [-9223372036854775808 -9223372036854775808 -9223372036854775808]"},
		{[]string{"eval", "-shape", "2", "-dtype", "int32", "floordiv(a*0 - 7, 2)"}, 0, "values: [-4 -4]"},
		{[]string{"eval", "-shape", "2", "-dtype", "int32", "a // b"}, 1, "starts a Go comment"},
		{[]string{"eval", "-shape", "2", "a * 1e999"}, 1, "floating-point constant 1e999 overflows float64"},
	}
	checkRuns(t, tests)
}
