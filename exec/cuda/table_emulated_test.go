// Streaming scans of the table package on the emulated device: record
// batches read ahead and uploaded while the previous batch computes, a
// grouped aggregate by a string key and row results, against the CPU
// backend.

package cuda_test

import (
	"context"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cuda"
	"github.com/fuseflow/fuseflow/table"
)

// emuTable is 600 rows in batches of 128: x (float64, null in one row of
// 7), q (int32) and the string key s.
func emuTable(t *testing.T) *table.Table {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "q", Type: arrow.PrimitiveTypes.Int32},
		{Name: "s", Type: arrow.BinaryTypes.String},
	}, nil)
	b := arrowarray.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range 600 {
		if i%7 == 3 {
			b.Field(0).(*arrowarray.Float64Builder).AppendNull()
		} else {
			b.Field(0).(*arrowarray.Float64Builder).Append(float64(i%13) * 0.5)
		}
		b.Field(1).(*arrowarray.Int32Builder).Append(int32(i % 11))
		b.Field(2).(*arrowarray.StringBuilder).Append([]string{"b", "a", "c"}[i%3])
	}
	rec := b.NewRecord()
	defer rec.Release()
	tbl, err := table.FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func TestTableScanEmulated(t *testing.T) {
	be := cuda.EmuBackendForTest(t)
	cpu, err := exec.Open("cpu")
	if err != nil {
		t.Fatal(err)
	}
	tbl := emuTable(t)
	defer tbl.Release()
	ctx := context.Background()
	exprs := []*table.Expr{table.Sum(table.Col("x").Mul(table.Col("q"))), table.Count(table.Col("x")), table.Max(table.Col("q"))}
	before, launches := be.Stats().Uploaded, be.Stats().Launches
	for _, by := range []string{"", "s"} {
		scan := func(b exec.Backend) arrow.Record {
			s := tbl.Scan(table.Options{Backend: b, BatchRows: 128})
			if by != "" {
				s = s.GroupBy(by)
			}
			rec, err := s.Aggregate(ctx, exprs...)
			if err != nil {
				t.Fatalf("by %q on %s: %v", by, b.Name(), err)
			}
			return rec
		}
		got, want := scan(be), scan(cpu)
		if got.NumRows() != want.NumRows() || got.NumCols() != want.NumCols() {
			t.Fatalf("by %q: %dx%d want %dx%d", by, got.NumRows(), got.NumCols(), want.NumRows(), want.NumCols())
		}
		for c := range int(want.NumCols()) {
			for r := range int(want.NumRows()) {
				g, w := got.Column(c).ValueStr(r), want.Column(c).ValueStr(r)
				if g != w {
					gf, _ := got.Column(c).(*arrowarray.Float64)
					wf, _ := want.Column(c).(*arrowarray.Float64)
					if gf == nil || wf == nil || math.Abs(gf.Value(r)-wf.Value(r)) > 1e-9*math.Abs(wf.Value(r)) {
						t.Errorf("by %q column %d row %d got:%s want:%s", by, c, r, g, w)
					}
				}
			}
		}
		got.Release()
		want.Release()
	}
	// Each of the 5 batches of each scan uploaded x, its validity and q
	// ahead of its evaluation (8+1+4 bytes a row), besides what the
	// evaluations themselves upload (the key codes, the final values).
	if n := be.Stats().Launches - launches; n < 10 {
		t.Errorf("kernel launches got:%d want at least one per batch (10)", n)
	}
	if up := be.Stats().Uploaded - before; up < 2*600*13 {
		t.Errorf("uploaded got:%d bytes want at least %d", up, 2*600*13)
	}
}
