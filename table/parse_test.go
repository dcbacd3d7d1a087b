package table

import (
	"context"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		src, want, err string
	}{
		{src: "sum(price*qty*(1-discount))", want: "sum(((price * qty) * (1 - discount)))"},
		{src: "where(qty > 0, price, -1.5)", want: "where((qty > 0), price, -1.5)"},
		{src: "variance(x, 1) / count(x)", want: "(variance(x, 1) / count(x))"},
		{src: "fill_null(x, 0) + is_null(k)", want: "(fill_null(x, 0) + is_null(k))"},
		{src: "!b && x >= 2", want: "(!b && (x >= 2))"},
		{src: "sqrt(abs(-x))", want: "sqrt(abs(-x))"},
		{src: "x * 2.0 + -0.0", want: "((x * 2.0) + -0.0)"},
		{src: "frob(x)", err: `1:1: unknown function "frob" (known: abs,`},
		{src: "x + frob(x)", err: `1:5: unknown function "frob"`},
		{src: "sum(x", err: "1:6: missing ','"},
		{src: "x[1]", err: "1:1: unsupported expression x[1]"},
		{src: "1 + 2", err: "1:1: 1 + 2: an op of two numbers"},
		{src: "variance(x, y)", err: "1:13: variance: ddof must be a non-negative integer"},
		{src: "sum(x, 1)", err: "1:1: sum takes 1 arguments, got 2"},
		{src: "x // y", err: "1:3: a Go comment"},
		{src: "x << 2", err: "1:1: unsupported operator <<"},
		{src: "99999999999999999999 * x", err: "1:1: integer 99999999999999999999 overflows int64"},
		{src: "3", err: `reads no column`},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) got:%v want error containing %q", tt.src, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q) got:%v", tt.src, err)
			continue
		}
		if got := e.String(); got != tt.want || e.Name() != tt.src {
			t.Errorf("Parse(%q) got:%q named %q want:%q", tt.src, got, e.Name(), tt.want)
		}
	}
}

func TestParsedExpressionsEvaluate(t *testing.T) {
	alloc := checkedAlloc(t)
	tbl, g := genTable(t, alloc, 200, 11)
	var exprs []*Expr
	for _, src := range []string{"sum(where(x > 0, 1, 0))", "count(x)", "sum(fill_null(k, 0) * 2)", "max(i) - min(i)"} {
		e, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		exprs = append(exprs, e)
	}
	out, err := tbl.Scan(Options{Alloc: alloc, BatchRows: 64}).Aggregate(context.Background(), exprs...)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	var pos, cnt, ks float64
	lo, hi := int32(1<<30), int32(-1<<30)
	for r := range g.x {
		if g.xo[r] {
			cnt++
			if g.x[r] > 0 {
				pos++
			}
		}
		if g.kok[r] {
			ks += 2 * float64(g.k[r])
		}
		lo, hi = min(lo, g.i[r]), max(hi, g.i[r])
	}
	for i, want := range []float64{pos, cnt, ks, float64(hi - lo)} {
		if got, ok := value1(out, i); !ok || got != want {
			t.Errorf("%s got:%v %v want:%v", exprs[i].Name(), got, ok, want)
		}
	}
}
