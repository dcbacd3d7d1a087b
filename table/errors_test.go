package table

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	rec, _ := genRecord(t, memory.DefaultAllocator, 5000, 9)
	defer rec.Release()
	writeParquet(t, good, 1000, rec)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// A string column, which no kernel computes in yet.
	sb := arrowarray.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{{Name: "sym", Type: arrow.BinaryTypes.String}}, nil))
	sb.Field(0).(*arrowarray.StringBuilder).AppendValues([]string{"a", "b"}, nil)
	srec := sb.NewRecord()
	sb.Release()
	defer srec.Release()
	strs := filepath.Join(dir, "strings.parquet")
	writeParquet(t, strs, 10, srec)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	truncated := write("truncated.parquet", data[:len(data)/2])
	garbage := write("garbage.parquet", []byte("PAR1 this is not a parquet file at all PAR1"))
	midway := append([]byte{}, data...)
	for i := len(midway) / 3; i < len(midway)*2/3; i++ { // pages of the middle row groups
		midway[i] ^= 0x5a
	}
	damaged := write("damaged.parquet", midway)
	trIPC := filepath.Join(dir, "t.arrow")
	writeIPC(t, trIPC, false, rec)
	ipcData, _ := os.ReadFile(trIPC)
	trIPC = write("t2.arrow", ipcData[:len(ipcData)-100])

	ctx := context.Background()
	tests := []struct {
		name string
		run  func() error
		want []string
	}{
		{"missing column", func() error {
			_, err := ScanParquet(good, Options{}).Aggregate(ctx, Sum(Col("price")))
			return err
		}, []string{"good.parquet", `no column "price"`, `"x"`}},
		{"string column", func() error {
			_, err := ScanParquet(strs, Options{}).Aggregate(ctx, Count(Col("sym")))
			return err
		}, []string{"strings.parquet", `column "sym" has type utf8`}},
		{"missing file", func() error {
			_, err := ScanParquet(filepath.Join(dir, "nope.parquet"), Options{}).Aggregate(ctx, Sum(Col("x")))
			return err
		}, []string{"nope.parquet", "no such file"}},
		{"truncated parquet", func() error {
			_, err := ScanParquet(truncated, Options{}).Aggregate(ctx, Sum(Col("x")))
			return err
		}, []string{"truncated.parquet"}},
		{"garbage parquet", func() error {
			_, err := ScanParquet(garbage, Options{}).Aggregate(ctx, Sum(Col("x")))
			return err
		}, []string{"garbage.parquet"}},
		{"truncated ipc", func() error {
			_, err := ScanIPC(trIPC, Options{}).Aggregate(ctx, Sum(Col("x")))
			return err
		}, []string{"t2.arrow"}},
		{"bool filter", func() error {
			_, err := ScanParquet(good, Options{}).Filter(Col("x")).Aggregate(ctx, Sum(Col("x")))
			return err
		}, []string{"filter x", "want bool"}},
		{"mixed", func() error {
			_, err := ScanParquet(good, Options{}).Aggregate(ctx, Sum(Col("x")).Add(Col("x")))
			return err
		}, []string{`column "x" is read outside an aggregate`}},
		{"bad op", func() error {
			_, err := ScanParquet(good, Options{}).Aggregate(ctx, Sum(Col("b").Sqrt()))
			return err
		}, []string{"Sqrt", "bool"}},
	}
	for _, tt := range tests {
		err := tt.run()
		for _, w := range tt.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: got:%v want an error containing %q", tt.name, err, w)
			}
		}
	}
	// A write that fails midway leaves nothing at its path.
	out := filepath.Join(dir, "out.parquet")
	err = ScanParquet(damaged, Options{BatchRows: 1000}).WriteParquet(ctx, out, Col("x").Mul(2))
	if err == nil {
		t.Fatalf("damaged file got:nil want an error")
	}
	t.Logf("damaged: %v", err)
	if ents, _ := os.ReadDir(dir); len(ents) != 7 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("files after a failed write got:%v want the 7 inputs only", names)
	}
}

// TestBudgetExceeded: an IPC batch larger than the budget fails the scan
// with *exec.MemoryError naming the file, not a corrupt-file error.
func TestBudgetExceeded(t *testing.T) {
	rec, _ := genRecord(t, memory.DefaultAllocator, 300_000, 1)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "one.arrow")
	writeIPC(t, path, false, rec)
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	_, err := ScanIPC(path, Options{Alloc: alloc, Budget: 2 << 20}).Aggregate(context.Background(), Sum(Col("x")))
	var me *exec.MemoryError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "one.arrow") || strings.Contains(err.Error(), "corrupt") {
		t.Errorf("got:%v want a *exec.MemoryError naming one.arrow", err)
	}
}

// TestNilExprs: nil expressions anywhere are errors, not panics.
func TestNilExprs(t *testing.T) {
	rec, _ := genRecord(t, memory.DefaultAllocator, 10, 1)
	defer rec.Release()
	tbl, _ := FromRecord(rec)
	defer tbl.Release()
	var nilExpr *Expr
	for _, e := range []*Expr{nil, Sum(nil), nilExpr.Add(1), Sum(nilExpr.Sqrt()), Col("x").Mul(nilExpr), nilExpr.As("a")} {
		if _, err := tbl.Eval(context.Background(), e); err == nil || !strings.Contains(err.Error(), "nil *Expr") {
			t.Errorf("%v got:%v want an error naming nil *Expr", e, err)
		}
	}
}
