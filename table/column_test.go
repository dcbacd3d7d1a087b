package table

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/array"
)

func TestColumnNulls(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	rec, g := genRecord(t, alloc, 300, 21)
	defer rec.Release()
	c := array.MustContext()
	cols := map[string]*Column{}
	for i, f := range rec.Schema().Fields() {
		col, err := ColumnFromArrow(c, f.Name, rec.Column(i))
		if err != nil {
			t.Fatal(err)
		}
		defer col.Release()
		cols[f.Name] = col
		// Back to Arrow: the same values and validity.
		back, err := col.ToArrow()
		if err != nil {
			t.Fatal(err)
		}
		if !arrowarray.Equal(back, rec.Column(i)) {
			t.Errorf("%s: ToArrow got:%v want:%v", f.Name, back, rec.Column(i))
		}
		back.Release()
	}
	x, k := cols["x"], cols["k"]
	xk := Map2(x, k, func(a, b *array.Array) *array.Array { return a.Mul(b) })
	checks := []struct {
		name  string
		got   *array.Array
		want  float64
		valid []bool
		agg   Agg
		vals  []float64
		ddof  int
	}{
		{name: "sum x", got: x.Sum(), vals: g.x, valid: g.xo, agg: AggSum},
		{name: "mean x", got: x.Mean(), vals: g.x, valid: g.xo, agg: AggMean},
		{name: "min x", got: x.Min(), vals: g.x, valid: g.xo, agg: AggMin},
		{name: "max k", got: k.Max(), vals: f64s(g.k), valid: g.kok, agg: AggMax},
		{name: "count k", got: k.Count(), vals: f64s(g.k), valid: g.kok, agg: AggCount},
		{name: "var x", got: x.Var(1), vals: g.x, valid: g.xo, agg: AggVar, ddof: 1},
		{name: "count x*k", got: xk.Count(), vals: g.x, valid: and2(g.xo, g.kok), agg: AggCount},
		{name: "count i", got: cols["i"].Count(), vals: f64s(g.i), agg: AggCount},
	}
	for _, ck := range checks {
		want, _ := naiveAgg(ck.agg, ck.vals, ck.valid, ck.ddof)
		got, err := ck.got.AsType(array.Float64).Value()
		if err != nil || math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s got:%v %v want:%v", ck.name, got, err, want)
		}
	}
	fill, err := array.ToSlice[float64](x.FillNull(-1))
	if err != nil {
		t.Fatal(err)
	}
	isNull, _ := array.ToSlice[bool](k.IsNull())
	none, _ := array.ToSlice[bool](cols["i"].IsNull())
	for r := range g.x {
		want := -1.0
		if g.xo[r] {
			want = g.x[r]
		}
		if fill[r] != want || isNull[r] != !g.kok[r] || none[r] {
			t.Errorf("row %d: fill got:%v want:%v; isNull got:%v want:%v; i null got:%v", r, fill[r], want, isNull[r], !g.kok[r], none[r])
		}
	}
	// Null propagation written back to Arrow.
	out, err := xk.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	for r := range g.x {
		if out.IsValid(r) != (g.xo[r] && g.kok[r]) {
			t.Errorf("row %d of x*k: valid got:%v want:%v", r, out.IsValid(r), g.xo[r] && g.kok[r])
		}
	}
	// A type fuseflow does not compute in.
	sb := arrowarray.NewStringBuilder(alloc)
	sb.Append("a")
	s := sb.NewArray()
	sb.Release()
	defer s.Release()
	if _, err := ColumnFromArrow(c, "sym", s); err == nil || err.Error() != `column "sym" has type utf8, which fuseflow cannot compute in yet (bool, the signed and unsigned integers of 8 to 64 bits, float16, float32, float64)` {
		t.Errorf("string column got:%v", err)
	}
	ch := arrow.NewChunked(arrow.PrimitiveTypes.Int64, []arrow.Array{rec.Column(2), rec.Column(2)})
	defer ch.Release()
	cc, err := ColumnFromChunked(c, "k2", ch)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Release()
	if n, _ := cc.Count().ValueInt(); n != 2*int64(len(g.k)-countFalse(g.kok)) {
		t.Errorf("chunked count got:%d", n)
	}
}

func countFalse(b []bool) int {
	n := 0
	for _, v := range b {
		if !v {
			n++
		}
	}
	return n
}
