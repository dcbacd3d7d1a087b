// Columns of the narrow and unsigned dtypes: read from Arrow, Parquet and
// IPC, aggregated with nulls skipped, and written back unchanged.

package table

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

// narrowRecord returns a record of n rows with one column of each narrow
// or unsigned type, every third row null, and the values as float64.
func narrowRecord(alloc memory.Allocator, n int) (arrow.Record, map[string][]float64, []bool) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "h", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
	}, nil)
	b := arrowarray.NewRecordBuilder(alloc, schema)
	defer b.Release()
	vals := map[string][]float64{}
	valid := make([]bool, n)
	for i := range n {
		ok := i%3 != 1
		valid[i] = ok
		x := int64(i*37%251) - 125 // -125..125
		put := func(col int, name string, v float64, app func()) {
			vals[name] = append(vals[name], v)
			if ok {
				app()
			} else {
				b.Field(col).AppendNull()
			}
		}
		put(0, "i8", float64(int8(x)), func() { b.Field(0).(*arrowarray.Int8Builder).Append(int8(x)) })
		put(1, "i16", float64(x*200), func() { b.Field(1).(*arrowarray.Int16Builder).Append(int16(x * 200)) })
		put(2, "u8", float64(uint8(x+125)), func() { b.Field(2).(*arrowarray.Uint8Builder).Append(uint8(x + 125)) })
		put(3, "u16", float64(uint16((x+125)*250)), func() { b.Field(3).(*arrowarray.Uint16Builder).Append(uint16((x + 125) * 250)) })
		put(4, "u32", float64(uint32((x+125)*1e7)), func() { b.Field(4).(*arrowarray.Uint32Builder).Append(uint32((x + 125) * 1e7)) })
		put(5, "u64", float64(uint64(x+125)<<40), func() { b.Field(5).(*arrowarray.Uint64Builder).Append(uint64(x+125) << 40) })
		h := float16.New(float32(x) / 4) // exact in float16
		put(6, "h", float64(h.Float32()), func() { b.Field(6).(*arrowarray.Float16Builder).Append(h) })
	}
	return b.NewRecord(), vals, valid
}

func TestNarrowDTypes(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	rec, vals, valid := narrowRecord(alloc, 500)
	defer rec.Release()
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "in.parquet"), 200, rec)
	writeIPC(t, filepath.Join(dir, "in.arrow"), false, rec)
	names := []string{"i8", "i16", "u8", "u16", "u32", "u64", "h"}
	var exprs []*Expr
	var aggs []Agg
	var cols []string
	for _, name := range names {
		for _, a := range []Agg{AggSum, AggMin, AggMax, AggCount} {
			exprs = append(exprs, aggregate(a, Col(name), 0))
			aggs = append(aggs, a)
			cols = append(cols, name)
		}
	}
	all := make([]*Expr, len(names))
	for i, n := range names {
		all[i] = Col(n)
	}
	onHostBackends(t, func(dev string, be exec.Backend) {
		for _, file := range []string{"in.parquet", "in.arrow"} {
			s := ScanFile(filepath.Join(dir, file), Options{Backend: be, Alloc: alloc, BatchRows: 128})
			out, err := s.Aggregate(context.Background(), exprs...)
			if err != nil {
				t.Fatalf("%s %s: %v", dev, file, err)
			}
			for i := range exprs {
				want, wok := naiveAgg(aggs[i], vals[cols[i]], valid, 0)
				got, gok := value1(out, i)
				if gok != wok || got != want {
					t.Errorf("%s %s %v of %s got:%v %v want:%v %v", dev, file, aggs[i], cols[i], got, gok, want, wok)
				}
			}
			out.Release()
			got, err := s.Collect(context.Background(), all...)
			if err != nil {
				t.Fatalf("%s %s: collect: %v", dev, file, err)
			}
			gotRec, err := got.ToRecord(alloc)
			if err != nil {
				t.Fatal(err)
			}
			if !arrowarray.RecordEqual(gotRec, rec) {
				t.Errorf("%s %s: records differ:\ngot:%v\nwant:%v", dev, file, gotRec, rec)
			}
			gotRec.Release()
			got.Release()
		}
	})
}
