package table

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fuseflow/fuseflow/exec"
)

func TestGroupBy(t *testing.T) {
	onGroupPaths(t, testGroupBy)
}

func testGroupBy(t *testing.T) {
	alloc := checkedAlloc(t)
	tbl, g := genTable(t, alloc, 600, 31)
	ctx := context.Background()
	onHostBackends(t, func(dev string, be exec.Backend) {
		for _, key := range []string{"i", "k"} {
			s := tbl.Scan(Options{Backend: be, Alloc: alloc, BatchRows: 128}).Filter(Col("f").Lt(8)).GroupBy(key)
			out, err := s.Aggregate(ctx, Sum(Col("x")), Count(Col("x")), Mean(Col("f")), Max(Col("x")), Min(Col("i")),
				Var(Col("x"), 1), Sum(Col("x")).Div(Count(Col("f"))).As("ratio"))
			if err != nil {
				t.Fatalf("%s by %s: %v", dev, key, err)
			}
			// The naive groups: key value (or null) -> rows.
			type gk struct {
				v     int64
				valid bool
			}
			groups := map[gk][]int{}
			for r := range g.x {
				if g.f[r] >= 8 {
					continue
				}
				k := gk{int64(g.i[r]), true}
				if key == "k" && g.kok[r] {
					k = gk{g.k[r], true}
				} else if key == "k" {
					k = gk{}
				}
				groups[k] = append(groups[k], r)
			}
			if int(out.NumRows()) != len(groups) {
				t.Fatalf("%s by %s: %d groups want %d", dev, key, out.NumRows(), len(groups))
			}
			kc := out.Column(0)
			prev := int64(math.MinInt64)
			for j := range int(out.NumRows()) {
				var k gk
				switch a := kc.(type) {
				case *arrowarray.Int32:
					k = gk{int64(a.Value(j)), a.IsValid(j)}
				case *arrowarray.Int64:
					k = gk{a.Value(j), a.IsValid(j)}
				}
				if !k.valid {
					k.v = 0
					if j != int(out.NumRows())-1 {
						t.Errorf("%s by %s: null key at %d, want it last", dev, key, j)
					}
				} else if k.v <= prev {
					t.Errorf("%s by %s: keys not ascending at %d", dev, key, j)
				} else {
					prev = k.v
				}
				rows, ok := groups[k]
				if !ok {
					t.Fatalf("%s by %s: unexpected key %+v", dev, key, k)
				}
				sel := func(vs []float64, valid []bool) ([]float64, []bool) {
					var xs []float64
					var ok []bool
					for _, r := range rows {
						xs = append(xs, vs[r])
						ok = append(ok, valid == nil || valid[r])
					}
					return xs, ok
				}
				xs, xok := sel(g.x, g.xo)
				fs, fok := sel(f64s(g.f), nil)
				is, iok := sel(f64s(g.i), nil)
				sum, _ := naiveAgg(AggSum, xs, xok, 0)
				cntF, _ := naiveAgg(AggCount, fs, fok, 0)
				wants := []func() (float64, bool){
					func() (float64, bool) { return naiveAgg(AggSum, xs, xok, 0) },
					func() (float64, bool) { return naiveAgg(AggCount, xs, xok, 0) },
					func() (float64, bool) { return naiveAgg(AggMean, fs, fok, 0) },
					func() (float64, bool) { return naiveAgg(AggMax, xs, xok, 0) },
					func() (float64, bool) { return naiveAgg(AggMin, is, iok, 0) },
					func() (float64, bool) { return naiveAgg(AggVar, xs, xok, 1) },
					func() (float64, bool) { return sum / cntF, true },
				}
				for c, wf := range wants {
					want, wok := wf()
					got, gok := valueAt(out.Column(c+1), j)
					if c == 6 {
						_, wok = naiveAgg(AggSum, xs, xok, 0)
					}
					if gok != wok || (wok && math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want))) {
						t.Errorf("%s by %s key %+v %s got:%v %v want:%v %v", dev, key, k, out.Schema().Field(c+1).Name, got, gok, want, wok)
					}
				}
			}
			out.Release()
		}
	})
	// Errors: a float key, row expressions, too many groups.
	if _, err := tbl.Scan(Options{}).GroupBy("x").Aggregate(ctx, Sum(Col("i"))); err == nil || !strings.Contains(err.Error(), `GroupBy: key column "x" is float64, want int32, int64, utf8 or a dictionary of utf8`) {
		t.Errorf("float key got:%v", err)
	}
	if _, err := tbl.Scan(Options{}).GroupBy("i").Collect(ctx, Col("x")); err == nil {
		t.Errorf("grouped row expression got:nil want an error")
	}
	bt, _ := genTable(t, alloc, 3000, 5)
	if _, err := bt.Scan(Options{}).GroupBy("k").Aggregate(ctx, Count(Col("k"))); err != nil {
		t.Errorf("1000 keys got:%v", err)
	}
	kb := arrowarray.NewRecordBuilder(alloc, arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil))
	for i := range 2000 {
		kb.Field(0).(*arrowarray.Int64Builder).Append(int64(i))
	}
	ids := kb.NewRecord()
	kb.Release()
	defer ids.Release()
	it, _ := FromRecord(ids)
	defer it.Release()
	defer func(m int) { maxGroups = m }(maxGroups)
	maxGroups = 1024
	if _, err := it.Scan(Options{Alloc: alloc}).GroupBy("id").Aggregate(ctx, Count(Col("id"))); err == nil || !strings.Contains(err.Error(), "more than 1024 distinct keys") {
		t.Errorf("more than 1024 keys got:%v", err)
	}
}

// valueAt returns row j of a as float64 and whether it is valid.
func valueAt(a interface {
	IsNull(int) bool
}, j int) (float64, bool) {
	if a.IsNull(j) {
		return 0, false
	}
	switch x := a.(type) {
	case *arrowarray.Float64:
		return x.Value(j), true
	case *arrowarray.Float32:
		return float64(x.Value(j)), true
	case *arrowarray.Int64:
		return float64(x.Value(j)), true
	case *arrowarray.Int32:
		return float64(x.Value(j)), true
	}
	return math.NaN(), false
}
