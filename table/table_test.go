package table

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

// naiveAgg computes an aggregate of the valid values vs (valid nil: all).
func naiveAgg(a Agg, vs []float64, valid []bool, ddof int) (float64, bool) {
	var sel []float64
	for i, v := range vs {
		if valid == nil || valid[i] {
			sel = append(sel, v)
		}
	}
	n := float64(len(sel))
	switch a {
	case AggCount:
		return n, true
	}
	if len(sel) == 0 {
		return 0, false
	}
	sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for _, v := range sel {
		sum += v
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	switch a {
	case AggSum:
		return sum, true
	case AggMean:
		return sum / n, true
	case AggMin:
		return lo, true
	case AggMax:
		return hi, true
	}
	if len(sel) <= ddof {
		return 0, false
	}
	m, ss := sum/n, 0.0
	for _, v := range sel {
		ss += (v - m) * (v - m)
	}
	return ss / (n - float64(ddof)), true
}

func f64s[T int32 | int64 | float32 | float64](xs []T) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func and2(a, b []bool) []bool {
	out := make([]bool, len(a))
	for i := range a {
		out[i] = a[i] && b[i]
	}
	return out
}

func TestAggregatesSkipNulls(t *testing.T) {
	alloc := checkedAlloc(t)
	tbl, g := genTable(t, alloc, 1000, 1)
	xf := make([]float64, len(g.x))
	for i := range xf {
		xf[i] = g.x[i] * float64(g.f[i])
	}
	cases := []struct {
		e     *Expr
		vals  []float64
		valid []bool
		agg   Agg
		ddof  int
	}{
		{Sum(Col("x")), g.x, g.xo, AggSum, 0},
		{Mean(Col("x")), g.x, g.xo, AggMean, 0},
		{Min(Col("x")), g.x, g.xo, AggMin, 0},
		{Max(Col("x")), g.x, g.xo, AggMax, 0},
		{Count(Col("x")), g.x, g.xo, AggCount, 0},
		{Var(Col("x"), 1), g.x, g.xo, AggVar, 1},
		{Var(Col("k"), 0), f64s(g.k), g.kok, AggVar, 0},
		{Sum(Col("k")), f64s(g.k), g.kok, AggSum, 0},
		{Min(Col("k")), f64s(g.k), g.kok, AggMin, 0},
		{Max(Col("i")), f64s(g.i), nil, AggMax, 0},
		{Sum(Col("i")), f64s(g.i), nil, AggSum, 0},
		{Mean(Col("f")), f64s(g.f), nil, AggMean, 0},
		{Sum(Col("x").Mul(Col("f"))), xf, g.xo, AggSum, 0},
		{Count(Col("x").Add(Col("k"))), g.x, and2(g.xo, g.kok), AggCount, 0},
	}
	exprs := make([]*Expr, len(cases))
	for i, c := range cases {
		exprs[i] = c.e
	}
	onHostBackends(t, func(dev string, be exec.Backend) {
		for _, batch := range []int{1000, 128, 7} {
			s := tbl.Scan(Options{Backend: be, Alloc: alloc, BatchRows: batch})
			out, err := s.Aggregate(context.Background(), exprs...)
			if err != nil {
				t.Fatalf("%s batch %d: %v", dev, batch, err)
			}
			for i, c := range cases {
				want, wok := naiveAgg(c.agg, c.vals, c.valid, c.ddof)
				got, gok := value1(out, i)
				tol := 1e-9
				if c.e.args[0].kind == kindCol && c.e.args[0].name == "f" {
					tol = 1e-6
				}
				if gok != wok || (wok && math.Abs(got-want) > tol*math.Max(1, math.Abs(want))) {
					t.Errorf("%s batch %d %v got:%v %v want:%v %v", dev, batch, c.e, got, gok, want, wok)
				}
			}
			if st := s.Stats(); st.Rows != 1000 || st.Batches != (1000+batch-1)/batch {
				t.Errorf("%s batch %d stats got:%+v", dev, batch, st)
			}
			out.Release()
		}
	})
}

func TestAggregateArithmeticAndNullResults(t *testing.T) {
	alloc := checkedAlloc(t)
	tbl, g := genTable(t, alloc, 300, 2)
	s := tbl.Scan(Options{Alloc: alloc, BatchRows: 64})
	// Weighted mean, and aggregates of a filter that keeps nothing.
	out, err := s.Aggregate(context.Background(), Sum(Col("x").Mul(Col("f"))).Div(Sum(Col("f"))).As("wmean"))
	if err != nil {
		t.Fatal(err)
	}
	num, den := 0.0, 0.0
	for i := range g.x {
		if g.xo[i] {
			num += g.x[i] * float64(g.f[i])
		}
		den += float64(g.f[i])
	}
	if got, ok := value1(out, 0); !ok || math.Abs(got-num/den) > 1e-6 /* sum(f) is float32 */ || out.Schema().Field(0).Name != "wmean" {
		t.Errorf("wmean got:%v %v %q want:%v", got, ok, out.Schema().Field(0).Name, num/den)
	}
	out.Release()
	none := s.Filter(Col("i").Gt(1000))
	out, err = none.Aggregate(context.Background(), Sum(Col("x")), Count(Col("x")), Max(Col("k")), Sum(Col("x")).Add(1))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	for i, wantValid := range []bool{false, true, false, false} {
		if out.Column(i).IsValid(0) != wantValid {
			t.Errorf("column %d (%s) valid got:%v want:%v", i, out.Schema().Field(i).Name, out.Column(i).IsValid(0), wantValid)
		}
	}
	if got, _ := value1(out, 1); got != 0 {
		t.Errorf("count of nothing got:%v want:0", got)
	}
}

func TestRowExpressionsPropagateNulls(t *testing.T) {
	alloc := checkedAlloc(t)
	tbl, g := genTable(t, alloc, 500, 3)
	s := tbl.Scan(Options{Alloc: alloc, BatchRows: 100}).Filter(Col("i").Ge(0))
	res, err := s.Collect(context.Background(),
		Col("x").Mul(Col("k")).Add(1).As("xk1"),
		Col("x").FillNull(-1).As("xfill"),
		Col("k").IsNull().As("knull"),
		Where(Col("b"), Col("x"), Col("k")).As("pick"),
		Col("x").Gt(1).As("xgt"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	rr, err := res.ToRecord(alloc)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	j := 0
	for r := range g.x {
		if g.i[r] < 0 {
			continue
		}
		xk1 := rr.Column(0).(*arrowarray.Float64)
		if ok := g.xo[r] && g.kok[r]; xk1.IsValid(j) != ok || (ok && !close(xk1.Value(j), g.x[r]*float64(g.k[r])+1)) {
			t.Errorf("row %d xk1 got:%v %v want valid %v", r, xk1.Value(j), xk1.IsValid(j), ok)
		}
		fill := rr.Column(1).(*arrowarray.Float64)
		want := -1.0
		if g.xo[r] {
			want = g.x[r]
		}
		if fill.IsNull(j) || fill.Value(j) != want {
			t.Errorf("row %d xfill got:%v want:%v", r, fill.Value(j), want)
		}
		if kn := rr.Column(2).(*arrowarray.Boolean); kn.IsNull(j) || kn.Value(j) != !g.kok[r] {
			t.Errorf("row %d knull got:%v want:%v", r, kn.Value(j), !g.kok[r])
		}
		pick := rr.Column(3).(*arrowarray.Float64)
		wok, wv := g.kok[r], float64(g.k[r])
		if g.b[r] {
			wok, wv = g.xo[r], g.x[r]
		}
		if pick.IsValid(j) != wok || (wok && pick.Value(j) != wv) {
			t.Errorf("row %d pick got:%v %v want:%v %v", r, pick.Value(j), pick.IsValid(j), wv, wok)
		}
		if gt := rr.Column(4).(*arrowarray.Boolean); gt.IsValid(j) != g.xo[r] || (g.xo[r] && gt.Value(j) != (g.x[r] > 1)) {
			t.Errorf("row %d xgt got:%v %v", r, gt.Value(j), gt.IsValid(j))
		}
		j++
	}
	if j != int(rr.NumRows()) {
		t.Errorf("rows got:%d want:%d", rr.NumRows(), j)
	}
}

func TestParquetAndIPCRoundTrip(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	dir := t.TempDir()
	r1, _ := genRecord(t, alloc, 700, 4)
	r2, _ := genRecord(t, alloc, 300, 5)
	defer r1.Release()
	defer r2.Release()
	want, _ := FromRecords(testSchema, []arrow.Record{r1, r2})
	defer want.Release()
	wantRec, _ := want.ToRecord(alloc)
	defer wantRec.Release()
	writeParquet(t, filepath.Join(dir, "in.parquet"), 256, r1, r2)
	writeIPC(t, filepath.Join(dir, "in.arrow"), false, r1, r2)
	writeIPC(t, filepath.Join(dir, "in.arrows"), true, r1, r2)
	all := []*Expr{Col("b"), Col("i"), Col("k"), Col("f"), Col("x")}
	for _, name := range []string{"in.parquet", "in.arrow", "in.arrows"} {
		s := ScanFile(filepath.Join(dir, name), Options{Alloc: alloc, BatchRows: 300})
		got, err := s.Collect(context.Background(), all...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		gotRec, err := got.ToRecord(alloc)
		if err != nil {
			t.Fatal(err)
		}
		if !arrowarray.RecordEqual(gotRec, wantRec) {
			t.Errorf("%s: records differ:\ngot:%v\nwant:%v", name, gotRec, wantRec)
		}
		gotRec.Release()
		got.Release()
		// Written back out and read again.
		for _, out := range []string{"out.parquet", "out.arrow", "out.arrows"} {
			path := filepath.Join(dir, out)
			if err := s.WriteFile(context.Background(), path, all...); err != nil {
				t.Fatalf("%s -> %s: %v", name, out, err)
			}
			back, err := ScanFile(path, Options{Alloc: alloc}).Collect(context.Background(), all...)
			if err != nil {
				t.Fatalf("%s -> %s: %v", name, out, err)
			}
			backRec, _ := back.ToRecord(alloc)
			if !arrowarray.RecordEqual(backRec, wantRec) {
				t.Errorf("%s -> %s: records differ", name, out)
			}
			backRec.Release()
			back.Release()
		}
	}
}
