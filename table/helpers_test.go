// Test helpers: generated records of every primitive type with nulls,
// written as Parquet and IPC, and a naive evaluation to compare with.

package table

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/fuseflow/fuseflow/exec"
	_ "github.com/fuseflow/fuseflow/exec/all"
)

// checkedAlloc returns a checked allocator that must hold no bytes once
// t and its cleanups are done.
func checkedAlloc(t *testing.T) *memory.CheckedAllocator {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { alloc.AssertSize(t, 0) })
	return alloc
}

// genTable returns genRecord's rows as a Table, released with the
// record when t ends.
func genTable(t testing.TB, alloc memory.Allocator, n int, seed uint64) (*Table, rows) {
	t.Helper()
	rec, g := genRecord(t, alloc, n, seed)
	t.Cleanup(rec.Release)
	tbl, err := FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	return tbl, g
}

// genParquet writes genRecord's rows to a Parquet file in t's temporary
// directory in row groups of rowGroup rows and returns its path.
func genParquet(t testing.TB, alloc memory.Allocator, n int, seed uint64, rowGroup int64) string {
	t.Helper()
	rec, _ := genRecord(t, alloc, n, seed)
	defer rec.Release()
	path := t.TempDir() + "/t.parquet"
	writeParquet(t, path, rowGroup, rec)
	return path
}

// onHostBackends calls f with the CPU executor and with the reference
// evaluator, each closed after its call.
func onHostBackends(t *testing.T, f func(dev string, be exec.Backend)) {
	t.Helper()
	for _, dev := range []string{"cpu", "ref"} {
		be, err := exec.Open(dev)
		if err != nil {
			t.Fatal(err)
		}
		f(dev, be)
		if c, ok := be.(interface{ Close() error }); ok {
			c.Close()
		}
	}
}

// onGroupPaths runs test as two subtests: every group aggregated by the
// host ("host"), then by the kernels ("kernels").
func onGroupPaths(t *testing.T, test func(*testing.T)) {
	defer func(b int) { BroadcastGroups = b }(BroadcastGroups)
	for _, b := range []int{0, 1 << 20} {
		BroadcastGroups = b
		t.Run(map[bool]string{true: "host", false: "kernels"}[b == 0], test)
	}
}

// testSchema has a column of every type the package computes in; "x" and
// "k" have nulls.
var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// rows is the Go side of a generated record: values and validity.
type rows struct {
	b       []bool
	i       []int32
	k       []int64
	f       []float32
	x       []float64
	kok, xo []bool
}

// genRecord returns n rows from seed: x null every 7th row, k every 5th.
func genRecord(t testing.TB, alloc memory.Allocator, n int, seed uint64) (arrow.Record, rows) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var g rows
	bb := arrowarray.NewRecordBuilder(alloc, testSchema)
	defer bb.Release()
	for r := range n {
		g.b = append(g.b, rng.IntN(2) == 0)
		g.i = append(g.i, int32(rng.IntN(200)-100))
		g.k = append(g.k, int64(rng.IntN(1000)))
		g.f = append(g.f, float32(rng.Float64()*10))
		g.x = append(g.x, rng.NormFloat64()*3+1)
		g.kok = append(g.kok, r%5 != 3)
		g.xo = append(g.xo, r%7 != 2)
	}
	bb.Field(0).(*arrowarray.BooleanBuilder).AppendValues(g.b, nil)
	bb.Field(1).(*arrowarray.Int32Builder).AppendValues(g.i, nil)
	bb.Field(2).(*arrowarray.Int64Builder).AppendValues(g.k, g.kok)
	bb.Field(3).(*arrowarray.Float32Builder).AppendValues(g.f, nil)
	bb.Field(4).(*arrowarray.Float64Builder).AppendValues(g.x, g.xo)
	return bb.NewRecord(), g
}

// writeParquet writes recs to a Parquet file in dir with row groups of
// rowGroup rows and small pages.
func writeParquet(t testing.TB, path string, rowGroup int64, recs ...arrow.Record) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rowGroup), parquet.WithDataPageSize(64<<10),
		parquet.WithDictionaryDefault(false))
	w, err := pqarrow.NewFileWriter(recs[0].Schema(), f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	writeRecords(t, w.WriteBuffered, w.Close, recs)
}

// writeIPC writes recs as an IPC file (stream: the stream format).
func writeIPC(t testing.TB, path string, stream bool, recs ...arrow.Record) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w interface {
		Write(arrow.Record) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(f, ipc.WithSchema(recs[0].Schema()))
	} else if w, err = ipc.NewFileWriter(f, ipc.WithSchema(recs[0].Schema())); err != nil {
		t.Fatal(err)
	}
	writeRecords(t, w.Write, w.Close, recs)
}

// writeRecords writes recs with write, then finishes the file, failing t
// at the first error.
func writeRecords(t testing.TB, write func(arrow.Record) error, finish func() error, recs []arrow.Record) {
	t.Helper()
	for _, r := range recs {
		if err := write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
}

// close reports whether got is within a relative tolerance of want.
func close(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// value1 returns element 0 of column i of a one-row record as float64
// and whether it is valid.
func value1(rec arrow.Record, i int) (float64, bool) {
	c := rec.Column(i)
	if c.IsNull(0) {
		return 0, false
	}
	s, err := scalar.GetScalar(c, 0)
	if err != nil {
		return math.NaN(), false
	}
	f, err := s.CastTo(arrow.PrimitiveTypes.Float64)
	if err != nil {
		return math.NaN(), false
	}
	return f.(*scalar.Float64).Value, true
}
