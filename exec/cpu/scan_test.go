// Scan kernels against the reference evaluator: every op and dtype, along
// rows and columns, short slabs and the two-pass pieces (a small chunk
// makes pieces of small arrays), views, fused prologues and epilogues.

package cpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

// scanInput returns a bound input of dtype d and shape s: floats in
// [-1, 1) (near 1 for products, so they neither vanish nor blow up, with
// a NaN now and then when nan is set), ints in [-50, 50), bools.
func scanInput(t testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape, seed uint64, prod, nan bool) (*graph.Node, *exec.Tensor) {
	n, x := newInput(t, alloc, d, s, "x")
	r := rand.New(rand.NewPCG(seed, 5))
	f := func() float64 {
		v := 2*r.Float64() - 1
		if prod {
			v = 1 + v/64
		}
		if nan && r.IntN(97) == 0 {
			v = math.NaN()
		}
		return v
	}
	switch d {
	case graph.Float32, graph.Float64:
		setFloats(x, f)
	case graph.Int32:
		for i := range exec.Elems[int32](x) {
			exec.Elems[int32](x)[i] = int32(r.IntN(100) - 50)
		}
	case graph.Int64:
		for i := range exec.Elems[int64](x) {
			exec.Elems[int64](x)[i] = int64(r.IntN(100) - 50)
		}
	case graph.Bool:
		for i := range exec.Elems[uint8](x) {
			exec.Elems[uint8](x)[i] = uint8(r.IntN(2))
		}
	}
	return n, x
}

// floats returns a contiguous tensor's elements as float64.
func floats(t *exec.Tensor) []float64 {
	var out []float64
	switch t.DType {
	case graph.Float32:
		for _, v := range exec.Elems[float32](t)[t.Offset:][:t.Size()] {
			out = append(out, float64(v))
		}
	case graph.Float64:
		out = append(out, exec.Elems[float64](t)[t.Offset:][:t.Size()]...)
	case graph.Int32:
		for _, v := range exec.Elems[int32](t)[t.Offset:][:t.Size()] {
			out = append(out, float64(v))
		}
	case graph.Int64:
		for _, v := range exec.Elems[int64](t)[t.Offset:][:t.Size()] {
			out = append(out, float64(v))
		}
	case graph.Bool:
		for _, v := range exec.Elems[uint8](t)[t.Offset:][:t.Size()] {
			out = append(out, float64(v))
		}
	}
	return out
}

// scanTol is the documented tolerance of a float running sum or product
// at an element: the ones a lane split into pieces may differ by (the
// carry-in is a sum of piece totals), 2*n*eps of the running sum of
// magnitudes for sums and 2*n*eps relative for products, n the lane's
// length; max and min, and integers, are exact.
func scanTol(op graph.Op, d graph.DType, n int, want, absRun float64) float64 {
	if !d.IsFloat() || op == graph.OpCumMax || op == graph.OpCumMin {
		return 0
	}
	eps := 0x1p-52
	if d == graph.Float32 {
		eps = 0x1p-23
	}
	if op == graph.OpCumProd {
		return 2 * float64(n) * eps * math.Abs(want)
	}
	return 2 * float64(n) * eps * absRun
}

func ulpOf(d graph.DType) float64 {
	if d == graph.Float32 {
		return 0x1p-23
	}
	return 0x1p-52
}

func TestScanAgainstRef(t *testing.T) {
	type tc struct {
		shape graph.Shape
		axis  int
		view  string // "", "T" (transposed input)
		fused bool   // exp prologue, *2 epilogue
	}
	shapes := []tc{
		{graph.Shape{7}, 0, "", false},
		{graph.Shape{3, 5, 4}, 1, "", false},     // short slabs, columns
		{graph.Shape{4, 37}, 1, "", false},       // short rows
		{graph.Shape{3, 2500}, 1, "", false},     // long rows, two passes
		{graph.Shape{2, 1200, 10}, 1, "", false}, // columns, two passes
		{graph.Shape{300, 150}, 0, "", false},    // column blocks wider than the chunk
		{graph.Shape{100, 65}, 0, "", false},     // a last column block of one column
		{graph.Shape{150, 300}, 0, "T", false},   // transposed input
		{graph.Shape{5000}, -1, "", true},        // fused, long
		{graph.Shape{40, 30}, 0, "", true},       // fused, columns
		{graph.Shape{0, 4}, 1, "", false},        // empty
	}
	ops := []graph.Op{graph.OpCumSum, graph.OpCumProd, graph.OpCumMax, graph.OpCumMin}
	dts := []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64, graph.Bool}
	backends := map[string]exec.Backend{
		"chunk64":  cpu.New(cpu.Options{Chunk: 64, Workers: 3}),
		"default":  cpu.New(cpu.Options{}),
		"serial64": cpu.New(cpu.Options{Chunk: 64, Workers: 1}),
	}
	for bname, be := range backends {
		for _, c := range shapes {
			for _, op := range ops {
				for _, d := range dts {
					if c.fused && (!d.IsFloat() || op == graph.OpCumProd) {
						continue
					}
					name := fmt.Sprintf("%s/%v%s/axis%d/%v/%v/fused=%v", bname, c.shape, c.view, c.axis, op, d, c.fused)
					t.Run(name, func(t *testing.T) {
						checkScan(t, be, c.shape, c.axis, c.view == "T", c.fused, op, d)
					})
				}
			}
		}
	}
}

func checkScan(t *testing.T, be exec.Backend, shape graph.Shape, axis int, transposed, fused bool, op graph.Op, d graph.DType) {
	alloc := checkedAlloc(t)
	x, xt := scanInput(t, alloc, d, shape, uint64(shape.Size())*7+uint64(op), op == graph.OpCumProd, d.IsFloat() && op != graph.OpCumSum)
	defer xt.Release()
	v := x
	if transposed {
		v = graph.Permute(v, []int{1, 0})
	}
	if fused {
		v = graph.Unary(graph.OpExp, graph.Binary(graph.OpMul, v, graph.FloatConst(d, 0.5)))
	}
	out := graph.Scan(op, v, axis)
	if fused {
		out = graph.Binary(graph.OpMul, out, graph.FloatConst(d, 2))
	}
	if out.Err() != nil {
		t.Fatal(out.Err())
	}
	bound := map[*graph.Node]*exec.Tensor{x: xt}
	want := evalOn(t, ref.New(), []*graph.Node{out}, bound, alloc)
	defer release(want)
	got := evalOn(t, be, []*graph.Node{out}, bound, alloc)
	defer release(got)
	// Magnitudes along each lane (for the sum tolerance), by the ref on
	// |value|.
	absIn := graph.Unary(graph.OpAbs, graph.Cast(v, out.DType()))
	absRun := evalOn(t, ref.New(), []*graph.Node{graph.Scan(graph.OpCumSum, absIn, axis)}, bound, alloc)
	defer release(absRun)
	g, w, a := floats(got[0]), floats(want[0]), floats(absRun[0])
	if len(g) != len(w) {
		t.Fatalf("size got:%d want:%d", len(g), len(w))
	}
	n := 0
	if len(shape) > 0 {
		ax, _ := graph.NormalizeAxis(axis, len(shape))
		n = out.Shape()[ax]
	}
	bad := 0
	for i := range g {
		tol := scanTol(op, out.DType(), n, w[i], a[i])
		if fused {
			// exp: 4 ulps each side (the backends' exp may differ), and
			// the sum's bound for the larger values.
			tol = 2*tol + 8*ulpOf(out.DType())*math.Abs(w[i])
		}
		same := g[i] == w[i] || math.IsNaN(g[i]) && math.IsNaN(w[i]) || math.Abs(g[i]-w[i]) <= tol
		if !same {
			if bad++; bad <= 5 {
				t.Errorf("element %d: got:%v want:%v (tolerance %g)", i, g[i], w[i], tol)
			}
		}
	}
}
