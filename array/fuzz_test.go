// FuzzArrayAPI: the fuzz bytes decode into a short program of user API
// calls with random (also invalid) arguments over two Contexts; every
// result is checked against the oracle of fuzz_model_test.go: no panic,
// errors exactly where NumPy's rules say (naming the op), and otherwise
// the shape, the dtype and, where the oracle knows them, the values.

package array_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/ref"
)

// fz reads the fuzz bytes; past the end it reads zeros.
type fz struct {
	b []byte
	i int
}

func (f *fz) byte() byte {
	if f.i >= len(f.b) {
		return 0
	}
	f.i++
	return f.b[f.i-1]
}

func (f *fz) intn(n int) int { return int(f.byte()) % n }

// in returns an int in [lo, hi].
func (f *fz) in(lo, hi int) int { return lo + f.intn(hi-lo+1) }

func (f *fz) done() bool { return f.i >= len(f.b) }

// value decodes an element value: mostly small integers, sometimes the
// float specials.
func (f *fz) value() float64 {
	switch b := f.byte() % 16; b {
	case 9:
		return math.NaN()
	case 10:
		return math.Inf(1)
	case 11:
		return math.Inf(-1)
	case 12:
		return 0.5
	case 13:
		return -2.5
	case 14:
		return 1e10
	case 15:
		return math.Copysign(0, -1)
	default:
		return float64(b) - 4
	}
}

func (f *fz) dtype() array.DType { return dtOrder[f.intn(len(dtOrder))] }

// shape decodes a rank in [0, 3] (rarely 4) and extents in [0, 4],
// mostly non-zero; a byte of 0xf8 or more is one of the hugeExtents.
func (f *fz) shape() []int {
	r := f.intn(9)
	r = []int{0, 1, 1, 2, 2, 2, 3, 3, 4}[r]
	s := make([]int, r)
	for i := range s {
		b := f.byte()
		if b >= 0xf8 {
			s[i] = hugeExtents[b-0xf8]
			continue
		}
		s[i] = []int{1, 2, 3, 2, 0, 1, 3, 4}[b%8]
	}
	return s
}

// hugeExtents are the extents a shape byte of 0xf8 or more decodes to:
// extents whose sums and products overflow int, for shapes that are too
// big (errors), empty ones with enormous extents, and valid ones far too
// big to evaluate.
var hugeExtents = [8]int{math.MaxInt, 1 << 62, 1 << 61, 1 << 32, 1 << 31, 1 << 30, math.MaxInt - 1, 3 << 61}

// node is one array of the program and what the oracle expects of it.
type node struct {
	a    *array.Array
	ctx  int
	m    model
	gone bool // released, or reads an input that was released
	big  bool // more than maxModel elements, or built from such an array: never evaluated
}

// prog runs one decoded program.
type prog struct {
	t     *testing.T
	f     *fz
	ctxs  [2]*array.Context
	mems  [2]*memory.CheckedAllocator
	pool  []*node
	all   []*array.Array
	trace []string
}

func (p *prog) fail(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("%s\nprogram:\n  %s", fmt.Sprintf(format, args...), strings.Join(p.trace, "\n  "))
}

// pick returns a random pool node (nil for an empty pool).
func (p *prog) pick() *node {
	if len(p.pool) == 0 {
		return nil
	}
	return p.pool[p.f.intn(len(p.pool))]
}

// pickSome picks one to three pool nodes and returns those keep accepts
// with their arrays.
func (p *prog) pickSome(keep func(*node) bool) ([]*node, []*array.Array) {
	var xs []*node
	var as []*array.Array
	for range p.f.in(1, 3) {
		if x := p.pick(); x != nil && keep(x) {
			xs = append(xs, x)
			as = append(as, x.a)
		}
	}
	return xs, as
}

// add checks a's build against the oracle and puts it into the pool.
// names are the op names an error of this call may carry; operands are
// the pool nodes it was built from.
func (p *prog) add(desc string, a *array.Array, ctx int, m model, names []string, operands ...*node) *node {
	p.t.Helper()
	p.trace = append(p.trace, desc)
	p.all = append(p.all, a)
	// Values computed from values known only within a tolerance stay so
	// through views and are unknown after anything else.
	for _, o := range operands {
		if o.m.tol && m.vals != nil {
			if slices.Contains(viewNames, names[0]) {
				m.tol = true
			} else {
				m.vals = nil
			}
		}
	}
	n := &node{a: a, ctx: ctx, m: m}
	err := a.Err()
	sticky, mixed := false, false
	for _, o := range operands {
		if o.m.err {
			sticky = true
		}
		if o.ctx != ctx {
			mixed = true
		}
		n.gone = n.gone || o.gone
		n.big = n.big || o.big
	}
	// NumPy's size rule holds for every result (the models check the
	// arrays an op casts its operands to).
	if !m.err && !validShape(m.shape, m.dt) {
		m, n.m = bad(), bad()
	}
	switch {
	case sticky:
		if err == nil {
			p.fail("%s: no error, but an operand carries one", desc)
		}
		n.m = bad()
	case mixed:
		named := err != nil && m.err && slices.ContainsFunc(names, func(s string) bool { return strings.Contains(err.Error(), s) })
		if err == nil || !strings.Contains(err.Error(), "different Contexts") && !named {
			p.fail("%s: got %v, want an error about different Contexts", desc, err)
		}
		n.m = bad()
	case m.err:
		if err == nil {
			p.fail("%s: no error; want one (result %v %v)", desc, a.Shape(), a.DType())
		}
		if !slices.ContainsFunc(names, func(s string) bool { return strings.Contains(err.Error(), s) }) {
			p.fail("%s: error %q names none of %v", desc, err, names)
		}
	default:
		if err != nil {
			p.fail("%s: unexpected error %v", desc, err)
		}
		if !slices.Equal([]int(a.Shape()), m.shape) || a.DType() != m.dt {
			p.fail("%s: got %v %v, want %v %v", desc, a.Shape(), a.DType(), array.Shape(m.shape), m.dt)
		}
		if a.Size() != size(m.shape) {
			p.fail("%s: Size %d, want %d", desc, a.Size(), size(m.shape))
		}
	}
	// Arrays too big to evaluate are built on, never evaluated (nor is
	// anything built from them, which may read them).
	n.big = n.big || !n.m.err && size(n.m.shape) > maxModel
	if len(p.pool) < 12 {
		p.pool = append(p.pool, n)
	} else {
		p.pool[p.f.intn(len(p.pool))] = n
	}
	return n
}

// viewNames are the ops that move elements without computing.
var viewNames = []string{"Reshape", "Permute", "Slice", "Index", "Squeeze", "ExpandDims", "BroadcastTo",
	"Transpose", "Flatten", "Contiguous", "Concat", "Stack", "Where"}

// weakOperand decodes a Go number (or an invalid operand) for a binary op.
func (p *prog) weakOperand() (any, *weak, string) {
	v := p.f.value()
	// The oracle records the Go value exactly as converted here (int of
	// NaN or Inf is whatever the platform gives).
	switch p.f.intn(10) {
	case 0:
		return int(v), &weak{kind: kInt, i: int64(int(v))}, fmt.Sprintf("int(%d)", int(v))
	case 1:
		return int32(v), &weak{kind: kInt, i: int64(int32(v))}, fmt.Sprintf("int32(%d)", int32(v))
	case 2:
		return uint8(3), &weak{kind: kInt, i: 3}, "uint8(3)"
	case 3:
		return 1 << 40, &weak{kind: kInt, i: 1 << 40}, "1<<40"
	case 4:
		return float32(v), &weak{kind: kFloat, f: float64(float32(v))}, fmt.Sprintf("float32(%v)", v)
	case 5, 6:
		return v, &weak{kind: kFloat, f: v}, fmt.Sprintf("%v", v)
	case 7:
		return v != 0, &weak{kind: kBool, i: b2i(v != 0)}, fmt.Sprintf("%v", v != 0)
	case 8:
		return "2", nil, `"2"`
	}
	return (*array.Array)(nil), nil, "nil"
}

// weakModel is the 0-d model of w meeting an array of dtype d, or an
// error when the value does not fit (a Go int out of int32's range).
func weakModel(w weak, d array.DType) model {
	wd := promoteWeak(d, w)
	if wd == array.Int32 && w.kind == kInt && (w.i < math.MinInt32 || w.i > math.MaxInt32) {
		return bad()
	}
	return scalarOf(w, wd)
}

// evalSome evaluates one to three pool arrays in one call (possibly of
// both Contexts), checks their results, and sometimes releases one.
func (p *prog) evalSome() {
	f := p.f
	ns, as := p.pickSome(func(x *node) bool { return !x.big })
	if len(ns) == 0 {
		return
	}
	p.trace = append(p.trace, fmt.Sprintf("Eval of %d", len(ns)))
	err := array.Eval(context.Background(), as...)
	wantErr, gone := false, false
	for _, n := range ns {
		wantErr = wantErr || n.m.err
		gone = gone || n.gone
	}
	switch {
	case err == nil && wantErr:
		p.fail("Eval: no error for an array carrying one")
	case err != nil && !wantErr && !(gone && strings.Contains(err.Error(), "released")):
		p.fail("Eval: unexpected error %v", err)
	}
	for _, n := range ns {
		p.check(n)
	}
	if f.intn(3) == 0 {
		x := ns[0]
		x.a.Release()
		p.trace = append(p.trace, "Release")
		x.gone = true
		// Arrays built on x's input data may now fail to evaluate.
		for _, o := range p.pool {
			o.gone = true
		}
	}
}

// check reads a result every way there is and compares it with the oracle.
func (p *prog) check(n *node) {
	a := n.a
	s := a.String()
	_ = a.Repr()
	if n.m.err {
		if !strings.Contains(s, "error") {
			p.fail("String of an array carrying an error: %q", s)
		}
		return
	}
	if err := a.Eval(); err != nil {
		if n.gone && strings.Contains(err.Error(), "released") {
			return
		}
		p.fail("Eval: %v", err)
	}
	got, err := readNums(a)
	if err != nil {
		if n.gone && strings.Contains(err.Error(), "released") {
			return
		}
		p.fail("ToSlice: %v", err)
	}
	if len(got) != a.Size() {
		p.fail("ToSlice: %d elements, Size %d", len(got), a.Size())
	}
	if n.m.vals != nil && !sameVals(got, n.m.vals, n.m.tol, n.m.dt) {
		p.fail("values of %v %v: got %v want %v", a.Shape(), a.DType(), showNums(got, a.DType()), showNums(n.m.vals, n.m.dt))
	}
	if a.Size() == 0 && s != "[]" {
		p.fail("String of an empty array: %q", s)
	}
	arr, err := a.ToArrow()
	if err != nil {
		if n.gone && strings.Contains(err.Error(), "released") {
			return
		}
		p.fail("ToArrow: %v", err)
	}
	if arr.Len() != a.Size() {
		p.fail("ToArrow: %d elements, Size %d", arr.Len(), a.Size())
	}
	arr.Release()
	v, err := a.Value()
	switch {
	case a.Size() == 1 && err != nil && !(n.gone && strings.Contains(err.Error(), "released")):
		p.fail("Value: %v", err)
	case a.Size() == 1 && err == nil && !sameVals([]num{{f: v}}, []num{{f: toFloat(got[0], a.DType())}}, false, array.Float64):
		p.fail("Value %v, ToSlice %v", v, showNums(got, a.DType()))
	case a.Size() != 1 && (err == nil || !strings.Contains(err.Error(), "Value")):
		p.fail("Value of %d elements: %v", a.Size(), err)
	}
}

// readNums reads a's elements exactly with ToSlice of a's own dtype.
func readNums(a *array.Array) ([]num, error) {
	switch a.DType() {
	case array.Bool:
		s, err := array.ToSlice[bool](a)
		return convert(s, func(v bool) num { return num{i: b2i(v)} }), err
	case array.Int32:
		s, err := array.ToSlice[int32](a)
		return convert(s, func(v int32) num { return num{i: int64(v)} }), err
	case array.Int64:
		s, err := array.ToSlice[int64](a)
		return convert(s, func(v int64) num { return num{i: v} }), err
	case array.Float32:
		s, err := array.ToSlice[float32](a)
		return convert(s, func(v float32) num { return num{f: float64(v)} }), err
	}
	s, err := array.ToSlice[float64](a)
	return convert(s, func(v float64) num { return num{f: v} }), err
}

// sameVals compares elements of dtype d: integers and bool exactly,
// floats exactly (NaN equal to NaN) or with a tolerance.
func sameVals(got, want []num, tol bool, d array.DType) bool {
	if len(got) != len(want) {
		return false
	}
	eps := 1e-12
	if d == array.Float32 {
		eps = 1e-5
	}
	for i := range got {
		if !isFloat(d) {
			if got[i].i != want[i].i {
				return false
			}
			continue
		}
		g, w := got[i].f, want[i].f
		switch {
		case isNaN(g) || isNaN(w):
			if isNaN(g) != isNaN(w) {
				return false
			}
		case g == w:
		case tol && math.Abs(g-w) <= eps*max(1, math.Abs(w)):
		default:
			return false
		}
	}
	return true
}

func runProgram(t *testing.T, data []byte) {
	p := &prog{t: t, f: &fz{b: data}}
	for i := range p.ctxs {
		p.mems[i] = memory.NewCheckedAllocator(memory.NewGoAllocator())
		p.ctxs[i] = array.MustContext(array.WithBackend(ref.New()), array.WithAllocator(p.mems[i]))
	}
	for steps := 0; steps < 40 && !p.f.done(); steps++ {
		p.step()
	}
	for _, n := range p.pool {
		if !n.big {
			p.check(n)
		}
	}
	for _, a := range p.all {
		a.Release()
	}
	for i, c := range p.ctxs {
		if c.Live() != 0 || p.mems[i].CurrentAlloc() != 0 {
			p.fail("context %d: %d results and %d bytes left after releasing everything", i, c.Live(), p.mems[i].CurrentAlloc())
		}
	}
}

func FuzzArrayAPI(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 3, 2, 1, 2, 3, 4, 5, 6, 7, 3, 0, 13},
		{0, 4, 4, 3, 1, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 4, 0, 0, 1, 8, 0, 2, 1, 13},
		{2, 4, 0, 3, 2, 9, 5, 1, 1, 1, 6, 0, 0, 2, 8, 1, 0, 1, 13, 1},
		{0, 3, 5, 3, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 9, 0, 0, 10, 1, 0, 0, 13, 2},
		{0, 0, 6, 2, 3, 5, 6, 7, 1, 2, 6, 2, 1, 3, 3, 1, 2, 0, 1, 12, 2, 0, 9, 13, 0},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runProgram(t, data)
	})
}
