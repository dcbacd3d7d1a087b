// Interpreter agreement for every elementwise op and cast on every dtype,
// over special values (signed zeros, NaN, infinities, extreme integers,
// zero divisors), against the reference evaluator.

package codegen_test

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// specials are the values each dtype's inputs cycle through.
var specials = map[graph.DType][]float64{
	graph.Bool:  {0, 1, 1, 0, 1},
	graph.Int32: {0, 1, -1, 2, -7, 7, 3, -3, 100, math.MaxInt32, math.MinInt32, 13, -2, 5, 31},
	graph.Int64: {0, 1, -1, 2, -7, 7, 3, -3, 100, math.MaxInt64, math.MinInt64, 13, -2, 5, 63, 1 << 40},
	graph.Float32: {0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 0.5, 1.5, math.NaN(), math.Inf(1), math.Inf(-1),
		1e30, -1e30, 3, -7, 1e-3, 100, 0.75, -0.3, 7.25, 1e-40, 2147483648, -9.3e18},
	graph.Float64: {0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 0.5, 1.5, math.NaN(), math.Inf(1), math.Inf(-1),
		1e300, -1e300, 3, -7, 1e-3, 100, 0.75, -0.3, 7.25, 3e-300, 1e20, -3.5e18, 9.3e18, 1e17 + 3},
	graph.Int8:   {0, 1, -1, 2, -7, 7, 3, -3, 100, 127, -128, 13, -2, 5, 64},
	graph.Int16:  {0, 1, -1, 2, -7, 7, 3, -3, 300, 32767, -32768, 13, -2, 5, 255},
	graph.Uint8:  {0, 1, 255, 2, 254, 7, 3, 128, 100, 127, 16, 13, 200, 5},
	graph.Uint16: {0, 1, 65535, 2, 60000, 7, 3, 32768, 300, 255, 16, 13, 256, 5},
	graph.Uint32: {0, 1, 4294967295, 2, 3e9, 7, 3, 2147483648, 300, 65536, 16, 13, 31, 5},
	graph.Uint64: {0, 1, 0x1p64 - 0x1p11, 2, 1e19, 7, 3, 0x1p63, 300, 1 << 40, 63, 13, 64, 5},
	graph.Float16: {0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 0.5, 1.5, math.NaN(), math.Inf(1), math.Inf(-1),
		65504, -65504, 3, -7, 1e-3, 100, 0.75, -0.3, 7.25, 1e-7, 2048, -300},
	graph.BFloat16: {0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 0.5, 1.5, math.NaN(), math.Inf(1), math.Inf(-1),
		1e30, -1e30, 3, -7, 1e-3, 100, 0.75, -0.3, 7.25, 1e-40, 2147483648, -9.3e18},
}

// floatTol is the tolerance of elementwise float results (the
// interpreter's math is Go's, so only double rounding of float32 shows).
var floatTol = tolerance{abs: 1e-300, rel: 1e-6}

func specialTensor(t *testing.T, d graph.DType, s graph.Shape) *exec.Tensor {
	vals := specials[d]
	return tensorOf(t, d, s, func(i int) float64 { return vals[i%len(vals)] })
}

func unaryOps() []graph.Op {
	var out []graph.Op
	for _, op := range graph.Ops() {
		if op.Class() == graph.ClassUnary && op != graph.OpCast {
			out = append(out, op)
		}
	}
	return out
}

func binaryOps() []graph.Op {
	var out []graph.Op
	for _, op := range graph.Ops() {
		if op.Class() == graph.ClassBinary {
			out = append(out, op)
		}
	}
	return out
}

// boolOps are the elementwise ops that take bool operands: bool has no
// arithmetic but these (graph's dtype rules). logicOps refuse floats.
var (
	boolOps = map[graph.Op]bool{graph.OpAbs: true, graph.OpIsNaN: true, graph.OpIsInf: true, graph.OpNot: true,
		graph.OpDiv: true, graph.OpMax: true, graph.OpMin: true, graph.OpEq: true, graph.OpNe: true,
		graph.OpLt: true, graph.OpLe: true, graph.OpGt: true, graph.OpGe: true,
		graph.OpAnd: true, graph.OpOr: true, graph.OpXor: true}
	logicOps = map[graph.Op]bool{graph.OpNot: true, graph.OpAnd: true, graph.OpOr: true, graph.OpXor: true}
)

// buildRefused reports whether op on operands of dtype d is one the
// dtype rules refuse, and fails the test when building y, op's node,
// disagrees: a case that should build and does not fails, never skips.
func buildRefused(t *testing.T, y *graph.Node, op graph.Op, d graph.DType) bool {
	t.Helper()
	refused := (d.IsBool() && !boolOps[op]) || (d.IsFloat() && logicOps[op])
	if err := y.Err(); (err != nil) != refused {
		t.Errorf("%v of %v: build error got:%v want refused:%v", op, d, err, refused)
		return true
	}
	return refused
}

func TestElementwiseUnary(t *testing.T) {
	for _, d := range graph.DTypes() {
		n := len(specials[d])
		for _, op := range unaryOps() {
			x := graph.Input(d, graph.Shape{n}, "x")
			y := graph.Unary(op, x)
			if buildRefused(t, y, op, d) {
				continue
			}
			t.Run(d.String()+"/"+op.String(), func(t *testing.T) {
				check(t, []*graph.Node{y}, bindings{x: specialTensor(t, d, graph.Shape{n})}, codegen.SmallGPU(), floatTol)
			})
		}
	}
}

func TestElementwiseBinary(t *testing.T) {
	for _, d := range graph.DTypes() {
		n := len(specials[d])
		for _, op := range binaryOps() {
			// All pairs: a (n, 1) against b (1, n), b a rotation of the
			// specials so that zero divisors meet every value.
			a := graph.Input(d, graph.Shape{n, 1}, "a")
			b := graph.Input(d, graph.Shape{1, n}, "b")
			y := graph.Binary(op, a, b)
			if buildRefused(t, y, op, d) {
				continue
			}
			t.Run(d.String()+"/"+op.String(), func(t *testing.T) {
				bound := bindings{
					a: specialTensor(t, d, graph.Shape{n, 1}),
					b: specialTensor(t, d, graph.Shape{1, n}),
				}
				check(t, []*graph.Node{y}, bound, codegen.SmallGPU(), floatTol)
			})
		}
	}
}

func TestCastsAndWhere(t *testing.T) {
	for _, from := range graph.DTypes() {
		n := len(specials[from])
		for _, to := range graph.DTypes() {
			x := graph.Input(from, graph.Shape{n}, "x")
			y := graph.Cast(x, to)
			t.Run(from.String()+"->"+to.String(), func(t *testing.T) {
				check(t, []*graph.Node{y}, bindings{x: specialTensor(t, from, graph.Shape{n})}, codegen.SmallGPU(), floatTol)
			})
		}
		c := graph.Input(graph.Bool, graph.Shape{n}, "c")
		a := graph.Input(from, graph.Shape{n}, "a")
		w := graph.Where(c, a, graph.Unary(graph.OpAbs, a))
		t.Run("where/"+from.String(), func(t *testing.T) {
			bound := bindings{c: specialTensor(t, graph.Bool, graph.Shape{n}), a: specialTensor(t, from, graph.Shape{n})}
			check(t, []*graph.Node{w}, bound, codegen.SmallGPU(), floatTol)
		})
	}
}

func TestGeneratedLeaves(t *testing.T) {
	outs := []*graph.Node{
		graph.Iota(graph.Float32, 1000, -3, 0.37, false, 0),
		graph.Iota(graph.Float64, 101, 0, 0.1, true, 10),
		graph.Iota(graph.Int32, 77, 5, -2.5, false, 0),
		graph.Eye(graph.Float32, 17, 23, 2),
		graph.Eye(graph.Bool, 9, 5, -3),
		graph.Random(graph.OpRandU, graph.Float32, graph.Shape{33, 65}, 42),
		graph.Random(graph.OpRandU, graph.Float64, graph.Shape{1000}, 1<<40+7),
		graph.Random(graph.OpRandN, graph.Float32, graph.Shape{500}, 3),
		graph.Random(graph.OpRandN, graph.Float64, graph.Shape{7, 70}, 9),
	}
	for _, o := range outs {
		t.Run(o.Op().String()+o.DType().String(), func(t *testing.T) {
			// Fused with a cheap op so that the leaf lives in a body.
			y := graph.Binary(graph.OpAdd, o, o)
			if o.DType() == graph.Bool {
				y = graph.Unary(graph.OpNot, o)
			}
			check(t, []*graph.Node{y}, nil, codegen.SmallGPU(), tolerance{abs: 1e-300, rel: 1e-15})
		})
	}
}
