package trades

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestWrite writes a small dataset and reads it back: the rows, the row
// groups, the schema and the null discounts.
func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	if _, err := Write(path, Options{Rows: 1000, RowGroup: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.NumRows() != 1000 || r.NumRowGroups() != 4 {
		t.Errorf("rows, row groups got:%d %d want:1000 4", r.NumRows(), r.NumRowGroups())
	}
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	for i, f := range Schema.Fields() {
		g := tbl.Schema().Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) || g.Nullable != f.Nullable {
			t.Errorf("field %d got:%v want:%v", i, g, f)
		}
	}
	if n := tbl.Column(4).NullN(); n != 63 { // ids 5, 21, ..., 997
		t.Errorf("null discounts got:%d want:63", n)
	}
	// Each row's ticker is its sym's name, and the names are distinct.
	names := map[string]int32{}
	for c := range tbl.Column(1).Data().Chunks() {
		syms := tbl.Column(1).Data().Chunk(c).(*arrowarray.Int32)
		ticks := tbl.Column(6).Data().Chunk(c).(*arrowarray.String)
		for i := range syms.Len() {
			if got, want := ticks.Value(i), Ticker(syms.Value(i)); got != want {
				t.Fatalf("row %d ticker got:%q want:%q", i, got, want)
			}
			if s, ok := names[ticks.Value(i)]; ok && s != syms.Value(i) {
				t.Fatalf("ticker %q names syms %d and %d", ticks.Value(i), s, syms.Value(i))
			}
			names[ticks.Value(i)] = syms.Value(i)
		}
	}
	if len(names) != 100 {
		t.Errorf("distinct tickers got:%d want:100", len(names))
	}
}
