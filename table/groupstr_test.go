// Tests of GroupBy by string keys: plain utf8 and large_utf8 columns and
// dictionaries whose batches have different dictionaries, with nulls,
// against a naive grouping.

package table

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

// strBatches returns batches of rows with a float64 column "x" and the
// same string keys as "d" (a dictionary of utf8, each batch with its own
// dictionary: the keys it uses in a shuffled order, an unused entry and a
// null entry), "s" (utf8) and "l" (large_utf8); keys are null in one row
// of 9 (and, with dictNull, where d's index points at its null entry,
// which Parquet writers refuse). It returns the keys (nil: null) and
// values row by row. The batches are released when t ends.
func strBatches(t *testing.T, alloc memory.Allocator, sizes []int, seed uint64, dictNull bool) ([]arrow.Record, []*string, []float64) {
	t.Helper()
	names := []string{"AAPL", "MSFT", "GOOG", "", "IBM", "ORCL", "a much longer key than the others", "Zeta", "zeta"}
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Float64},
		{Name: "d", Type: dt, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.BinaryTypes.LargeString, Nullable: true},
	}, nil)
	rng := rand.New(rand.NewPCG(seed, 3))
	var recs []arrow.Record
	var keys []*string
	var xs []float64
	row := 0
	for b, n := range sizes {
		// This batch's dictionary: a shuffled subset, an unused entry,
		// a null entry.
		perm := rng.Perm(len(names))[:3+rng.IntN(len(names)-3)]
		dict := arrowarray.NewStringBuilder(alloc)
		for _, p := range perm {
			dict.Append(names[p])
		}
		dict.Append(fmt.Sprintf("unused %d", b))
		if dictNull {
			dict.AppendNull()
		}
		dv := dict.NewArray()
		dict.Release()
		idx := arrowarray.NewInt16Builder(alloc)
		sb := arrowarray.NewStringBuilder(alloc)
		lb := arrowarray.NewLargeStringBuilder(alloc)
		xb := arrowarray.NewFloat64Builder(alloc)
		for range n {
			x := math.Round(rng.NormFloat64()*100) / 4
			xb.Append(x)
			xs = append(xs, x)
			nj := len(perm)
			if dictNull {
				nj++
			}
			switch j := rng.IntN(nj); {
			case row%9 == 4:
				idx.AppendNull()
				sb.AppendNull()
				lb.AppendNull()
				keys = append(keys, nil)
			case j == len(perm): // the dictionary's null entry
				idx.Append(int16(len(perm) + 1))
				sb.AppendNull()
				lb.AppendNull()
				keys = append(keys, nil)
			default:
				k := names[perm[j]]
				idx.Append(int16(j))
				sb.Append(k)
				lb.Append(k)
				keys = append(keys, &k)
			}
			row++
		}
		ia := idx.NewArray()
		da := arrowarray.NewDictionaryArray(dt, ia, dv)
		sa, la, xa := sb.NewArray(), lb.NewArray(), xb.NewArray()
		recs = append(recs, arrowarray.NewRecord(schema, []arrow.Array{xa, da, sa, la}, int64(n)))
		for _, a := range []arrow.Array{ia, dv, da, sa, la, xa} {
			a.Release()
		}
		idx.Release()
		sb.Release()
		lb.Release()
		xb.Release()
	}
	t.Cleanup(func() {
		for _, r := range recs {
			r.Release()
		}
	})
	return recs, keys, xs
}

// strTable returns the rows of strBatches as a Table, released (with
// the batches) when t ends.
func strTable(t *testing.T, alloc memory.Allocator, sizes []int, seed uint64, dictNull bool) (*Table, []*string, []float64) {
	t.Helper()
	recs, keys, xs := strBatches(t, alloc, sizes, seed, dictNull)
	tbl, err := FromRecords(recs[0].Schema(), recs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	return tbl, keys, xs
}

func TestGroupByStrings(t *testing.T) {
	onGroupPaths(t, testGroupByStrings)
}

func testGroupByStrings(t *testing.T) {
	alloc := checkedAlloc(t)
	recs, keys, xs := strBatches(t, alloc, []int{50, 1, 120, 77}, 9, true)
	// The naive groups: key (null as a nil pointer) -> rows.
	type agg struct {
		n   int
		sum float64
		min float64
	}
	want := map[string]*agg{}
	const nullKey = "\x00null"
	for i, k := range keys {
		name := nullKey
		if k != nil {
			name = *k
		}
		a := want[name]
		if a == nil {
			a = &agg{min: math.Inf(1)}
			want[name] = a
		}
		a.n++
		a.sum += xs[i]
		a.min = math.Min(a.min, xs[i])
	}
	var order []string
	for k := range want {
		if k != nullKey {
			order = append(order, k)
		}
	}
	slices.Sort(order)
	order = append(order, nullKey)

	ctx := context.Background()
	onHostBackends(t, func(dev string, be exec.Backend) {
		for _, key := range []string{"d", "s", "l"} {
			rr, err := arrowarray.NewRecordReader(recs[0].Schema(), recs)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ScanRecords(rr, Options{Backend: be, Alloc: alloc}).GroupBy(key).
				Aggregate(ctx, Count(Col("x")), Sum(Col("x")), Min(Col("x")))
			rr.Release()
			if err != nil {
				t.Fatalf("%s by %s: %v", dev, key, err)
			}
			kc, ok := out.Column(0).(*arrowarray.String)
			if !ok || out.Schema().Field(0).Name != key {
				t.Fatalf("%s by %s: key column %v %T, want %s utf8", dev, key, out.Schema().Field(0), out.Column(0), key)
			}
			if got := int(out.NumRows()); got != len(order) {
				t.Fatalf("%s by %s: groups got:%d want:%d", dev, key, got, len(order))
			}
			for j, k := range order {
				gotKey := nullKey
				if kc.IsValid(j) {
					gotKey = kc.Value(j)
				}
				w := want[k]
				n, _ := valueAt(out.Column(1), j)
				sum, _ := valueAt(out.Column(2), j)
				mn, _ := valueAt(out.Column(3), j)
				if gotKey != k || int(n) != w.n || !close(sum, w.sum) || mn != w.min {
					t.Errorf("%s by %s row %d got:%q %v %v %v want:%q %v %v %v", dev, key, j, gotKey, n, sum, mn, k, w.n, w.sum, w.min)
				}
			}
			out.Release()
		}
	})
}

func TestGroupByStringsFilterAndErrors(t *testing.T) {
	alloc := checkedAlloc(t)
	tbl, keys, xs := strTable(t, alloc, []int{40, 60}, 4, true)
	ctx := context.Background()
	// A filter that keeps only positive x: groups without a kept row go.
	out, err := tbl.Scan(Options{Alloc: alloc, BatchRows: 16}).Filter(Col("x").Gt(0)).GroupBy("d").Aggregate(ctx, Sum(Col("x")))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	sums := map[string]float64{}
	for i, k := range keys {
		if xs[i] > 0 && k != nil {
			sums[*k] += xs[i]
		}
	}
	kc := out.Column(0).(*arrowarray.String)
	for j := range int(out.NumRows()) {
		if kc.IsNull(j) {
			continue
		}
		got, _ := valueAt(out.Column(1), j)
		if w, ok := sums[kc.Value(j)]; !ok || !close(got, w) {
			t.Errorf("key %q got:%v want:%v (%v)", kc.Value(j), got, w, ok)
		}
		delete(sums, kc.Value(j))
	}
	if len(sums) != 0 {
		t.Errorf("keys missing from the result: %v", sums)
	}
	// Too many distinct strings.
	defer func(m int) { maxGroups = m }(maxGroups)
	maxGroups = 3
	if _, err := tbl.Scan(Options{Alloc: alloc}).GroupBy("s").Aggregate(ctx, Count(Col("x"))); err == nil || !strings.Contains(err.Error(), "more than 3 distinct keys") {
		t.Errorf("too many string keys got:%v", err)
	}
	maxGroups = MaxGroups
	// A binary key is not a string key.
	bb := arrowarray.NewBinaryBuilder(alloc, arrow.BinaryTypes.Binary)
	bb.Append([]byte("a"))
	ba := bb.NewArray()
	bb.Release()
	defer ba.Release()
	brec := arrowarray.NewRecord(arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.BinaryTypes.Binary}}, nil), []arrow.Array{ba}, 1)
	defer brec.Release()
	bin, _ := FromRecord(brec)
	defer bin.Release()
	if _, err := bin.Scan(Options{}).GroupBy("b").Aggregate(ctx, Count(Col("b"))); err == nil || !strings.Contains(err.Error(), `"b" has type binary`) {
		t.Errorf("binary key got:%v", err)
	}
}

// TestGroupByStringsParquet groups a Parquet file's string and dictionary
// columns (row groups with dictionaries of their own) and checks that
// they give the groups of the records written.
func TestGroupByStringsParquet(t *testing.T) {
	alloc := checkedAlloc(t)
	recs, keys, xs := strBatches(t, alloc, []int{300, 200, 500}, 17, false)
	path := t.TempDir() + "/keys.parquet"
	writeParquet(t, path, 256, recs...)
	sums := map[string]float64{}
	for i, k := range keys {
		if k != nil {
			sums[*k] += xs[i]
		}
	}
	for _, key := range []string{"d", "s", "l"} {
		out, err := ScanParquet(path, Options{Alloc: alloc, BatchRows: 100}).GroupBy(key).Aggregate(context.Background(), Sum(Col("x")))
		if err != nil {
			t.Fatalf("by %s: %v", key, err)
		}
		kc := out.Column(0).(*arrowarray.String)
		if got, want := int(out.NumRows()), len(sums)+1; got != want {
			t.Errorf("by %s: groups got:%d want:%d", key, got, want)
		}
		for j := range int(out.NumRows()) {
			if kc.IsNull(j) {
				continue
			}
			got, _ := valueAt(out.Column(1), j)
			if w := sums[kc.Value(j)]; !close(got, w) {
				t.Errorf("by %s key %q got:%v want:%v", key, kc.Value(j), got, w)
			}
		}
		out.Release()
	}
}

// TestGroupByCountOnly: counts of a column without nulls, by more keys
// than the kernels reduce per group, need no kernel at all (the plan of
// a batch has no outputs); they are the rows per key.
func TestGroupByCountOnly(t *testing.T) {
	alloc := checkedAlloc(t)
	tbl, keys, _ := strTable(t, alloc, []int{30, 70}, 5, false)
	want := map[string]float64{}
	for _, k := range keys {
		if k != nil {
			want[*k]++
		}
	}
	defer func(b int) { BroadcastGroups = b }(BroadcastGroups)
	BroadcastGroups = 1
	for _, by := range []string{"s", "d"} {
		out, err := tbl.Scan(Options{Alloc: alloc, BatchRows: 32}).GroupBy(by).Aggregate(context.Background(), Count(Col("x")))
		if err != nil {
			t.Fatalf("by %s: %v", by, err)
		}
		kc := out.Column(0).(*arrowarray.String)
		if got := int(out.NumRows()); got != len(want)+1 {
			t.Errorf("by %s: groups got:%d want:%d", by, got, len(want)+1)
		}
		for j := range int(out.NumRows()) {
			got, _ := valueAt(out.Column(1), j)
			if kc.IsValid(j) && got != want[kc.Value(j)] {
				t.Errorf("by %s key %q got:%v want:%v", by, kc.Value(j), got, want[kc.Value(j)])
			}
		}
		out.Release()
	}
}
