package table

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// tradesFile writes n rows of price, qty and discount (float64) in row
// groups of 100k rows and returns the path.
func tradesFile(t *testing.T, n int) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Float64},
		{Name: "discount", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	rng := rand.New(rand.NewPCG(7, 7))
	var recs []arrow.Record
	for done := 0; done < n; done += 100_000 {
		b := arrowarray.NewRecordBuilder(memory.DefaultAllocator, schema)
		for r := 0; r < min(100_000, n-done); r++ {
			b.Field(0).(*arrowarray.Float64Builder).Append(10 + rng.Float64()*90)
			b.Field(1).(*arrowarray.Float64Builder).Append(float64(1 + rng.IntN(100)))
			b.Field(2).(*arrowarray.Float64Builder).Append(rng.Float64() * 0.2)
		}
		recs = append(recs, b.NewRecord())
		b.Release()
	}
	path := filepath.Join(t.TempDir(), "trades.parquet")
	writeParquet(t, path, 100_000, recs...)
	for _, r := range recs {
		r.Release()
	}
	return path
}

func TestStreamWithinBudget(t *testing.T) {
	const budget = 6 << 20
	path := tradesFile(t, 800_000)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() <= budget {
		t.Fatalf("file of %d bytes is not larger than the budget %d", st.Size(), budget)
	}
	rev := Sum(Col("price").Mul(Col("qty")).Mul(Lit(1).Sub(Col("discount"))))
	exprs := []*Expr{rev, Mean(Col("price")), Var(Col("qty"), 1), Max(Col("discount"))}
	whole := ScanParquet(path, Options{BatchRows: 1 << 30})
	want, err := whole.Aggregate(context.Background(), exprs...)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	if whole.Stats().Batches != 1 {
		t.Fatalf("whole-file run got %d batches want 1", whole.Stats().Batches)
	}
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	s := ScanParquet(path, Options{Alloc: alloc, Budget: budget})
	got, err := s.Aggregate(context.Background(), exprs...)
	if err != nil {
		t.Fatal(err)
	}
	stats := s.Stats()
	t.Logf("file %d bytes, budget %d: %+v", st.Size(), budget, stats)
	if stats.Peak > budget || stats.Peak == 0 {
		t.Errorf("peak got:%d want <= %d", stats.Peak, budget)
	}
	if stats.Batches < 4 || stats.Rows != 800_000 {
		t.Errorf("batches got:%d rows:%d want several and 800000", stats.Batches, stats.Rows)
	}
	for i := range exprs {
		g, _ := value1(got, i)
		w, _ := value1(want, i)
		if math.Abs(g-w) > 1e-9*math.Abs(w) {
			t.Errorf("%v got:%v want:%v", exprs[i], g, w)
		}
	}
	got.Release()
	alloc.AssertSize(t, 0)
	// Row results stream within the budget too.
	s = ScanParquet(path, Options{Alloc: alloc, Budget: budget})
	rows := 0
	if err := s.Each(context.Background(), func(r arrow.Record) error { rows += int(r.NumRows()); return nil },
		Col("price").Mul(Col("qty"))); err != nil {
		t.Fatal(err)
	}
	if p := s.Stats().Peak; rows != 800_000 || p > budget {
		t.Errorf("rows got:%d peak:%d want 800000 and <= %d", rows, p, budget)
	}
	alloc.AssertSize(t, 0)
	// A budget too small to hold a batch is an error, not a larger batch.
	if _, err := ScanParquet(path, Options{Budget: 1 << 20}).Aggregate(context.Background(), exprs...); err == nil {
		t.Errorf("1 MiB budget got:nil want an error")
	}
}

// TestIPCWithinBudget streams an IPC file of many batches, larger than the
// budget, and a Table made of arrow.Table chunks, within it.
func TestIPCWithinBudget(t *testing.T) {
	const budget = 4 << 20
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	var recs []arrow.Record
	var want float64
	for i := range 40 {
		r, g := genRecord(t, memory.DefaultAllocator, 20_000, uint64(100+i))
		defer r.Release()
		recs = append(recs, r)
		for j, x := range g.x {
			if g.xo[j] {
				want += x * float64(g.f[j])
			}
		}
	}
	path := filepath.Join(t.TempDir(), "big.arrows")
	writeIPC(t, path, true, recs...)
	if st, _ := os.Stat(path); st.Size() <= budget {
		t.Fatalf("file of %d bytes is not larger than the budget", st.Size())
	}
	e := Sum(Col("x").Mul(Col("f")))
	s := ScanIPC(path, Options{Alloc: alloc, Budget: budget})
	out, err := s.Aggregate(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := value1(out, 0)
	out.Release()
	if st := s.Stats(); st.Peak > budget || st.Batches != 40 || math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("got:%v want:%v; stats %+v (peak within %d)", got, want, st, budget)
	}
	// The same records as an arrow.Table of chunked columns.
	at := arrowarray.NewTableFromRecords(testSchema, recs)
	defer at.Release()
	tbl, err := FromArrowTable(at)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if tbl.NumRows() != 800_000 {
		t.Errorf("rows got:%d want:800000", tbl.NumRows())
	}
	s = tbl.Scan(Options{Alloc: alloc, Budget: budget})
	out, err = s.Aggregate(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = value1(out, 0)
	out.Release()
	if st := s.Stats(); st.Peak > budget || st.Batches < 2 || math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("table got:%v want:%v; stats %+v", got, want, st)
	}
}
