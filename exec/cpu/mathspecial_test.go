// Special values of every math function through the whole executor:
// NaN, infinities, signed zeros, subnormals and the edges of each
// function's range (overflow and underflow thresholds, the ends of the
// argument reductions, poles and saturation points), in float32 and
// float64, with internal/vecmath's vector code and with its portable code
// (cpu.SetVector), against the reference evaluator within the ulps
// randgraph.CPU states (those of codegen/mathlib/ULP.md; where Go's math
// package, the reference's, is itself off for float64, glibc's results
// instead: see libm), counting
// infinity as one step beyond the largest finite value and the smallest
// subnormal as one step from zero: a NaN must come out exactly where the
// reference has one, and a zero where the reference has a zero must have
// its sign.

package cpu_test

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// commonSpecials are the inputs every function gets, per dtype: NaN,
// infinities, signed zeros, the smallest and largest subnormals and the
// smallest normal of both signs, ±1 and the largest finite values.
func commonSpecials(d graph.DType) []float64 {
	sub, maxSub, norm, big := 0x1p-1074, 0x1p-1022-0x1p-1074, 0x1p-1022, math.MaxFloat64
	if d == graph.Float32 {
		sub, maxSub, norm, big = 0x1p-149, 0x1p-126-0x1p-149, 0x1p-126, math.MaxFloat32
	}
	v := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 0.5, -0.5}
	for _, x := range []float64{sub, maxSub, norm, big} {
		v = append(v, x, -x)
	}
	return v
}

// next returns the neighbours of x in dtype d: x and the values one ulp
// below and above.
func next(d graph.DType, xs ...float64) []float64 {
	var v []float64
	for _, x := range xs {
		if d == graph.Float32 {
			f := float32(x)
			v = append(v, float64(math.Nextafter32(f, float32(math.Inf(-1)))), float64(f), float64(math.Nextafter32(f, float32(math.Inf(1)))))
		} else {
			v = append(v, math.Nextafter(x, math.Inf(-1)), x, math.Nextafter(x, math.Inf(1)))
		}
	}
	return v
}

// unaryEdges are each function's range edges by dtype (each taken with
// its neighbours).
var unaryEdges = map[graph.Op][2][]float64{
	// Overflow, the last normal result, the subnormal range's end and the
	// mathlib clamps.
	graph.OpExp: {{88.72283, -87.33654, -103.97208, -104, 89, 1e-8, -1e-8},
		{709.782712893384, -708.3964185322641, -745.1332191019411, -746, 710, 1e-17}},
	graph.OpExp2:  {{128, -126, -149, -150, -151, 129}, {1024, -1022, -1074, -1075, -1076, 1025}},
	graph.OpExpm1: {{88.72283, -17, -50, 1e-8, -1e-8, 0x1p-25}, {709.782712893384, -38, -50, 1e-17, 0x1p-54}},
	graph.OpLog:   {{1, 2, 0.99999994, 1.0000001, 1e-45}, {1, 2, 0.9999999999999999, 1.0000000000000002, 5e-324}},
	graph.OpLog2:  {{1, 2, 0.5, 1e-45, 3}, {1, 2, 0.5, 5e-324, 3}},
	// -1 is the pole, below it NaN.
	graph.OpLog1p: {{-1, -0.99999994, 1e-30, -1e-30, 0x1p-24}, {-1, -0.9999999999999999, 1e-300, -1e-300, 0x1p-53}},
	// π/2, π, the Cody-Waite ends (2^21 and 2^50) and beyond.
	graph.OpSin: {{math.Pi / 2, math.Pi, 0x1p21, 1e5, 1e30}, {math.Pi / 2, math.Pi, 1e9, 0x1p28, 1e-300}},
	graph.OpCos: {{math.Pi / 2, math.Pi, 0x1p21, 1e5, 1e30}, {math.Pi / 2, math.Pi, 1e9, 0x1p28, 1e-300}},
	graph.OpTan: {{math.Pi / 2, math.Pi / 4, 0x1p21, 1e5, 1e30}, {math.Pi / 2, math.Pi / 4, 1e9, 0x1p28, 1e-300}},
	// Saturation to ±1 and the small-argument branch.
	graph.OpTanh:    {{9.010913, 0.5493, 0.625, 1e-5, 20, -20}, {19.06154746539849, 0.55, 0.625, 1e-9, 40, -40}},
	graph.OpSigmoid: {{-88, -103.3, -104, 17, 88.8, -150}, {-708, -745, -746, 37, 750, -800}},
	graph.OpErf:     {{3.92, 4, 6, 1e-5, 0.84375, -3.92}, {5.92, 6, 27, 1e-10, 0.84375, -5.92}},
	graph.OpRsqrt:   {{4, 0.25, 1e-40, 3e38, 2}, {4, 0.25, 1e-310, 1e308, 2}},
}

// binaryEdges are pow's and atan2's operand pairs beyond the products of
// the special values: integer and half-integer exponents of negative
// bases, overflow and underflow, ±1 with infinities, the axes and
// diagonals of atan2.
var binaryEdges = map[graph.Op][][2]float64{
	graph.OpPow: {{-2, 3}, {-2, 4}, {-2, -3}, {-2, 0.5}, {-8, 1.0 / 3}, {2, 127.99}, {2, 128}, {2, -149}, {2, -150},
		{2, 1023.99}, {2, 1024}, {2, -1074}, {2, -1075}, {10, 38.5}, {10, 308.25}, {-1, math.Inf(1)}, {-1, math.Inf(-1)},
		{0.5, math.Inf(1)}, {1.5, math.Inf(-1)}, {math.Inf(-1), 3}, {math.Inf(-1), -3}, {math.Copysign(0, -1), -3},
		{math.Copysign(0, -1), 3}, {math.Copysign(0, -1), -2}, {1, math.NaN()}, {math.NaN(), 0}, {3, 0.5}, {7.5, -2.25}},
	graph.OpAtan2: {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {1e-30, 1e30}, {1e30, 1e-30}, {-1e-30, -1e30}, {3, 0}, {-3, math.Copysign(0, -1)},
		{0, -3}, {math.Copysign(0, -1), -3}, {5e-324, 1}, {1, 5e-324}},
}

var (
	specialUnary = []graph.Op{graph.OpExp, graph.OpExp2, graph.OpExpm1, graph.OpLog, graph.OpLog2, graph.OpLog1p,
		graph.OpSin, graph.OpCos, graph.OpTan, graph.OpTanh, graph.OpSigmoid, graph.OpErf, graph.OpRsqrt, graph.OpSqrt,
		graph.OpFloor, graph.OpCeil, graph.OpRound, graph.OpTrunc}
	specialBinary = []graph.Op{graph.OpPow, graph.OpAtan2}
)

// specialInputs returns op's operand columns on dtype d.
func specialInputs(op graph.Op, d graph.DType) [][]float64 {
	common := commonSpecials(d)
	if op.Class() == graph.ClassUnary {
		di := 0
		if d == graph.Float64 {
			di = 1
		}
		var edges []float64
		for _, x := range unaryEdges[op][di] {
			edges = append(edges, x, -x)
		}
		v := append(common, next(d, edges...)...)
		v = append(v, next(d, 0.5, 1.5, 2.5, -2.5, 1e7+0.5, 0x1p23, 0x1p52)...) // the rounding ops
		return [][]float64{v}
	}
	var xs, ys []float64
	for _, x := range common {
		for _, y := range common {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	for _, p := range binaryEdges[op] {
		xs, ys = append(xs, p[0]), append(ys, p[1])
	}
	return [][]float64{xs, ys}
}

// f64Unreliable reports the float64 inputs where the reference's Go math
// is itself off by more than an ulp or two (see defULP in ops_test.go):
// sin, cos and tan beyond 2^29, pow of a subnormal base. The math
// library's tests compare those with a 200-bit reference instead.
func f64Unreliable(op graph.Op, args []float64) bool {
	switch op {
	case graph.OpSin, graph.OpCos, graph.OpTan:
		return math.Abs(args[0]) >= 0x1p29
	case graph.OpPow:
		return args[0] != 0 && math.Abs(args[0]) < 0x1p-1022
	}
	return false
}

// libmKey is a float64 input of op (y 0 for unary ops).
type libmKey struct {
	op   graph.Op
	x, y float64
}

// libm holds, for float64 inputs among the special values where Go's
// math package (the reference's) is off by more than the bound, glibc
// 2.36's results, which are correctly rounded there: sin and cos near π
// and π/2, where Go's Cody-Waite reduction keeps too few bits of π for
// the cancellation; exp and expm1 just below the overflow threshold,
// which Go's math.Exp sends to +Inf; log2 just above 1, where math.Log2
// cancels; pow(10, 308.25), several ulps off in math.Pow.
var libm = map[libmKey]float64{
	{graph.OpSin, 3.1415926535897927, 0}:  5.66553889764798e-16,
	{graph.OpSin, 3.141592653589793, 0}:   1.2246467991473532e-16,
	{graph.OpSin, 3.1415926535897936, 0}:  -3.216245299353273e-16,
	{graph.OpCos, 1.5707963267948963, 0}:  2.83276944882399e-16,
	{graph.OpCos, 1.5707963267948966, 0}:  6.123233995736766e-17,
	{graph.OpCos, 1.5707963267948968, 0}:  -1.6081226496766364e-16,
	{graph.OpTan, 1.5707963267948963, 0}:  3530114321217157.5,
	{graph.OpTan, 1.5707963267948966, 0}:  1.633123935319537e+16,
	{graph.OpTan, 1.5707963267948968, 0}:  -6218431163823738.0,
	{graph.OpExp, 709.782712893384, 0}:    1.7976931348622732e+308,
	{graph.OpExp, 709.7827128933839, 0}:   1.7976931348620688e+308,
	{graph.OpExpm1, 709.782712893384, 0}:  1.7976931348622732e+308,
	{graph.OpExpm1, 709.7827128933839, 0}: 1.7976931348620688e+308,
	{graph.OpLog2, 1.0000000000000002, 0}: 3.203426503814917e-16,
	{graph.OpLog2, 0.9999999999999999, 0}: -1.6017132519074588e-16,
	{graph.OpPow, 10, 308.25}:             1.7782794100389228e+308,
}

// libmWant returns the value a float64 result of op at args is compared
// with: the reference's w, or glibc's (libm; sin is odd, cos even, tan
// odd), or for Atan2(y, x) w with y's sign, which the result always has
// (Go's math.Atan2 loses it where y/x underflows to zero for a negative
// x).
func libmWant(op graph.Op, args []float64, w float64) float64 {
	x, y := args[0], 0.0
	if len(args) > 1 {
		y = args[1]
	}
	if op == graph.OpAtan2 && x == x && w == w { // Atan2(x, y): the angle of (y, x)
		return math.Copysign(w, x)
	}
	if v, ok := libm[libmKey{op, x, y}]; ok {
		return v
	}
	if v, ok := libm[libmKey{op, -x, y}]; ok && (op == graph.OpSin || op == graph.OpCos || op == graph.OpTan) {
		if op == graph.OpCos {
			return v
		}
		return -v
	}
	return w
}

func floatAt(x *exec.Tensor, i int) float64 {
	if x.DType == graph.Float32 {
		return float64(exec.Elems[float32](x)[i])
	}
	return exec.Elems[float64](x)[i]
}

// ulpDist counts the values of dtype d between a and b (finite, or equal
// infinities).
func ulpDist(d graph.DType, a, b float64) float64 {
	if a == b {
		return 0
	}
	ord := func(x float64) int64 {
		var u, sign int64
		if d == graph.Float32 {
			u, sign = int64(math.Float32bits(float32(x))), 1<<31
		} else {
			u, sign = int64(math.Float64bits(x)), math.MinInt64
		}
		if u&sign != 0 {
			return -(u &^ sign) - 1
		}
		return u
	}
	return math.Abs(float64(ord(a) - ord(b)))
}

func TestMathSpecialValues(t *testing.T) {
	alloc := checkedAlloc(t)
	was := cpu.SetVector(true)
	defer cpu.SetVector(was)
	for _, vec := range []bool{true, false} {
		cpu.SetVector(vec)
		// Chunks of 5 points cut every input into partial vectors; the
		// default chunk runs whole ones.
		for _, be := range []exec.Backend{cpu.New(cpu.Options{Chunk: 5}), cpu.New(cpu.Options{})} {
			for _, d := range []graph.DType{graph.Float32, graph.Float64} {
				for _, op := range append(append([]graph.Op(nil), specialUnary...), specialBinary...) {
					cols := specialInputs(op, d)
					n := len(cols[0])
					bound := map[*graph.Node]*exec.Tensor{}
					var ins []*graph.Node
					for k, c := range cols {
						x := graph.Input(d, graph.Shape{n}, string(rune('x'+k)))
						bound[x] = floatTensor(t, alloc, d, graph.Shape{n}, c)
						ins = append(ins, x)
					}
					var out *graph.Node
					if len(ins) == 1 {
						out = graph.Unary(op, ins[0])
					} else {
						out = graph.Binary(op, ins[0], ins[1])
					}
					got := evalOn(t, be, []*graph.Node{out}, bound, alloc, "%v %v: cpu", op, d)
					want := evalOn(t, ref.New(), []*graph.Node{out}, bound, alloc, "%v %v: ref", op, d)
					lim := randgraph.CPU.ULP(op, d)
					for i := range n {
						args := make([]float64, len(cols))
						for k := range cols {
							args[k] = floatAt(bound[ins[k]], i)
						}
						if d == graph.Float64 && f64Unreliable(op, args) {
							continue
						}
						g, w := floatAt(got[0], i), floatAt(want[0], i)
						if d == graph.Float64 {
							w = libmWant(op, args, w)
						}
						var ok bool
						switch {
						case w != w || g != g:
							ok = w != w && g != g
						case w == 0 && g == 0:
							ok = math.Signbit(g) == math.Signbit(w)
						default:
							ok = ulpDist(d, g, w) <= lim
						}
						if !ok {
							t.Errorf("%v %v%v (vector %v) got:%v want:%v (%v ulp allowed)", op, d, args, vec, g, w, lim)
						}
					}
					release(append(got, want...))
					releaseBound(bound)
				}
			}
		}
	}
}
