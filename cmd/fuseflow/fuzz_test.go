// FuzzParseExpr: any command-line expression parses into a valid graph or
// an error, never a panic, and never silently drops part of itself; any
// int64 or float64 written as a literal is read back exactly.

package main

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func FuzzParseExpr(f *testing.F) {
	for _, seed := range []struct {
		src string
		i   int64
		x   float64
	}{
		{"exp(-a*a)*b + sqrt(c)", 2, 0.5},
		{"sum(a, 1) // comment", math.MinInt64, math.Copysign(0, -1)},
		{"floordiv(a, b) % 3", math.MaxInt64, math.MaxFloat64},
		{"a*-9223372036854775808 + -(-0.0)", -1, 5e-324},
		{"where(a > b, a, -b) /* c */", 0, math.Inf(1)},
		{"matmul(a, transpose(b))", 7, math.NaN()},
	} {
		f.Add(seed.src, seed.i, seed.x)
	}
	f.Fuzz(func(t *testing.T, src string, i int64, x float64) {
		e, err := parseExpr(src, graph.Float32, graph.Shape{2, 2})
		if err == nil {
			if e.root.Err() != nil || graph.Verify(e.root) != nil {
				t.Fatalf("%q: no error, but the graph carries %v / %v", src, e.root.Err(), graph.Verify(e.root))
			}
			if strings.Contains(src, "//") || strings.Contains(src, "/*") {
				t.Fatalf("%q has a comment but parsed: part of it was ignored", src)
			}
		}
		// Every int64, written as Go writes it, is that int64.
		is := strconv.FormatInt(i, 10)
		e, err = parseExpr("a*"+is, graph.Int64, graph.Shape{2})
		if err != nil {
			t.Fatalf("a*%s: %v", is, err)
		}
		if v := constOf(t, e.root); v.I != i {
			t.Fatalf("a*%s: constant %d", is, v.I)
		}
		// Every finite float64, written in the shortest form that reads
		// back exactly, is that float64 (negative zero included).
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		xs := strconv.FormatFloat(x, 'e', -1, 64)
		e, err = parseExpr("a+"+xs, graph.Float64, graph.Shape{2})
		if err != nil {
			t.Fatalf("a+%s: %v", xs, err)
		}
		if v := constOf(t, e.root); v.F != x || math.Signbit(v.F) != math.Signbit(x) {
			t.Fatalf("a+%s: constant %v", xs, v.F)
		}
	})
}
