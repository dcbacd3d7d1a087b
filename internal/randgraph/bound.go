// Error bounds: for every node of a graph, a float64 graph node that
// bounds, element by element, how far a backend's value of it may lie
// from the reference evaluator's, built from the reference's own values
// of the node and its operands (first-order error propagation made
// rigorous with magnitudes and interval end points), so that the
// reference evaluator computes the bound alongside the result.
//
// A bound element is 0 where the backend must give the reference's value
// exactly, a positive number b where |got - want| <= b (and got is NaN or
// infinite exactly where want is the same), and NaN or +Inf where nothing
// can be promised (an interval of possible operand values straddles a
// discontinuity, a pole or the edge of the float range). For int and bool
// nodes a bound element is 0 (exact) or NaN (may differ).

package randgraph

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// Model states how far a backend's results may lie from the reference
// evaluator's (exec/ref) when both compute from the same operands. The
// bounds include the reference's own rounding error.
type Model struct {
	// ULP returns how many units in the last place of the result a
	// float elementwise op or generated leaf of dtype d may differ by (0
	// where the backend rounds as the reference does).
	ULP func(op graph.Op, d graph.DType) float64
	// Sum, Prod and MatMul bound the difference of a float Sum of n
	// values, a Prod of n values and a product with contracted extent k,
	// before the result is rounded to d, relative to the sum of the
	// magnitudes of the terms (for Prod, the product of the magnitudes).
	Sum    func(d graph.DType, n int) float64
	Prod   func(d graph.DType, n int) float64
	MatMul func(d graph.DType, k int) float64
}

// CPU is what exec/cpu documents: the float math functions (Exp to Erf,
// Pow, Atan2, Rsqrt) are the GPU's expansions (internal/vecmath), within
// the GPU's ulps; every other elementwise op, random numbers included,
// rounded as the reference; float32 Sum within 2^-20 of the sum of
// magnitudes (float32 partial sums of 16 terms, block totals in float64),
// float64 Sum and every Prod in float64 in some order; MatMul
// accumulating in the operands' dtype. The reference accumulates in
// float64 in index order. (2n+4)*2^-53 covers two float64 sums of n terms
// in any order.
var CPU = Model{
	ULP: func(op graph.Op, d graph.DType) float64 {
		if op == graph.OpRandN {
			return 0
		}
		return gpuULP(op, d)
	},
	Sum: func(d graph.DType, n int) float64 {
		b := float64(2*n+4) * 0x1p-53
		if d == graph.Float32 || d.Narrow() { // float16, bfloat16: summed in float32
			b += 0x1p-20
		}
		return b
	},
	Prod: func(d graph.DType, n int) float64 {
		if d.Narrow() { // in float32
			return float64(n+1) * 0x1p-23
		}
		return float64(2*n+4) * 0x1p-53
	},
	MatMul: func(d graph.DType, k int) float64 {
		if d == graph.Float32 || d.Narrow() {
			return float64(k+1) * 0x1p-23
		}
		return float64(2*k+4) * 0x1p-53
	},
}

// gpuULP32 and gpuULP64 are the bounds of codegen/mathlib/ULP.md: the
// generated math library's largest difference from Go's math package
// (rounded to float32 for float32), which the reference uses. Go's
// float64 functions are themselves up to about 1 ulp from the correctly
// rounded result where the table compared with a 200-bit reference, so
// float64 bounds get 1 more. Normal random numbers take log, sqrt and cos
// in float64: a few float64 ulps, at most 1 once rounded to float32.
var (
	gpuULP32 = map[graph.Op]float64{
		graph.OpExp: 1, graph.OpExp2: 1, graph.OpLog: 1, graph.OpLog2: 1, graph.OpLog1p: 1, graph.OpExpm1: 2,
		graph.OpSin: 1, graph.OpCos: 1, graph.OpTan: 2, graph.OpTanh: 2, graph.OpSigmoid: 2, graph.OpErf: 1,
		graph.OpPow: 1, graph.OpRsqrt: 1, graph.OpAtan2: 2, graph.OpRandN: 1,
	}
	gpuULP64 = map[graph.Op]float64{
		graph.OpExp: 2, graph.OpExp2: 2, graph.OpLog: 2, graph.OpLog2: 2, graph.OpLog1p: 2, graph.OpExpm1: 3,
		graph.OpSin: 2, graph.OpCos: 2, graph.OpTan: 3, graph.OpTanh: 3, graph.OpSigmoid: 3, graph.OpErf: 2,
		graph.OpPow: 3, graph.OpRsqrt: 1, graph.OpAtan2: 3, graph.OpRandN: 5,
	}
)

// gpuULP is the bound of op on dtype d in gpuULP32 or gpuULP64. float16
// and bfloat16 compute in float32 and round: an approximate float32
// result near a tie of the 16-bit type rounds either way, 1 ulp of it.
func gpuULP(op graph.Op, d graph.DType) float64 {
	switch {
	case d == graph.Float32:
		return gpuULP32[op]
	case d.Narrow():
		return min(gpuULP32[op], 1)
	}
	return gpuULP64[op]
}

// GPU is what the generated GPU code promises (exec/cuda, and codegen's
// kernels on the IR interpreter): the math library within the ulps of
// codegen/mathlib/ULP.md, other elementwise ops rounded as the
// reference; float Sum and Prod accumulate in float64 and MatMul in the
// operands' dtype, within CPU's bounds.
var GPU = Model{
	ULP:    gpuULP,
	Sum:    CPU.Sum,
	Prod:   CPU.Prod,
	MatMul: CPU.MatMul,
}

// Bounds returns, for each of outs, the float64 node of its error bound
// under m, or nil where the output must equal the reference's exactly
// (every value it depends on is computed exactly). It fails on an op it
// has no rule for.
func Bounds(outs []*graph.Node, m Model) ([]*graph.Node, error) {
	b := &bounder{m: m, e: map[*graph.Node]*graph.Node{}}
	for _, n := range graph.Topo(outs...) {
		e, err := b.node(n)
		if err != nil {
			return nil, fmt.Errorf("bound of %v %v %v: %w", n.Op(), n.Shape(), n.DType(), err)
		}
		if e != nil && e.Err() == nil && !e.Shape().Equal(n.Shape()) {
			// An operand's bound broadcasts as the operand does.
			e = graph.BroadcastTo(e, n.Shape())
		}
		if e != nil {
			if err := e.Err(); err != nil {
				return nil, fmt.Errorf("bound of %v %v %v: %w", n.Op(), n.Shape(), n.DType(), err)
			}
			if !e.Shape().Equal(n.Shape()) || e.DType() != graph.Float64 {
				return nil, fmt.Errorf("bound of %v %v %v is %v %v", n.Op(), n.Shape(), n.DType(), e.Shape(), e.DType())
			}
		}
		b.e[n] = e
	}
	res := make([]*graph.Node, len(outs))
	for i, o := range outs {
		res[i] = b.e[o]
	}
	return res, nil
}

type bounder struct {
	m Model
	e map[*graph.Node]*graph.Node // nil: exact
}

// Helpers building float64 nodes.

var (
	f64 = graph.Float64
	nan = graph.FloatConst(graph.Float64, math.NaN())
)

func cst(v float64) *graph.Node         { return graph.FloatConst(f64, v) }
func add(x, y *graph.Node) *graph.Node  { return graph.Binary(graph.OpAdd, x, y) }
func sub(x, y *graph.Node) *graph.Node  { return graph.Binary(graph.OpSub, x, y) }
func mul(x, y *graph.Node) *graph.Node  { return graph.Binary(graph.OpMul, x, y) }
func div(x, y *graph.Node) *graph.Node  { return graph.Binary(graph.OpDiv, x, y) }
func maxN(x, y *graph.Node) *graph.Node { return graph.Binary(graph.OpMax, x, y) }
func abs(x *graph.Node) *graph.Node     { return graph.Unary(graph.OpAbs, x) }
func le(x, y *graph.Node) *graph.Node   { return graph.Binary(graph.OpLe, x, y) }
func gt(x, y *graph.Node) *graph.Node   { return graph.Binary(graph.OpGt, x, y) }
func and(x, y *graph.Node) *graph.Node  { return graph.Binary(graph.OpAnd, x, y) }
func or(x, y *graph.Node) *graph.Node   { return graph.Binary(graph.OpOr, x, y) }
func not(x *graph.Node) *graph.Node     { return graph.Unary(graph.OpNot, x) }

// where returns cond ? x : y (y may be nil for 0).
func where(cond, x, y *graph.Node) *graph.Node {
	if y == nil {
		y = cst(0)
	}
	return graph.Where(cond, x, y)
}

// unc returns NaN where cond holds, else 0.
func unc(cond *graph.Node) *graph.Node { return where(cond, nan, nil) }

// val returns n's value as float64.
func val(n *graph.Node) *graph.Node {
	if n.DType() == f64 {
		return n
	}
	return graph.Cast(n, f64)
}

// nonfinite is true where n is NaN or infinite.
func nonfinite(n *graph.Node) *graph.Node {
	v := val(n)
	return or(graph.Unary(graph.OpIsNaN, v), graph.Unary(graph.OpIsInf, v))
}

// fin returns |n| where n is finite, else 0.
func fin(n *graph.Node) *graph.Node { return where(nonfinite(n), cst(0), abs(val(n))) }

// keep returns 0 where e is finite and NaN where it is not (nil for a nil
// e): added to a bound, it passes on that nothing is promised.
func keep(e *graph.Node) *graph.Node {
	if e == nil {
		return nil
	}
	return mul(e, cst(0))
}

// sum adds the non-nil terms (nil when all are nil).
func sum(terms ...*graph.Node) *graph.Node {
	var s *graph.Node
	for _, t := range terms {
		switch {
		case t == nil:
		case s == nil:
			s = t
		default:
			s = add(s, t)
		}
	}
	return s
}

// orZero returns e, or a 0 constant for nil.
func orZero(e *graph.Node) *graph.Node {
	if e == nil {
		return cst(0)
	}
	return e
}

// spacing returns the relative and absolute parts of a bound on the gap
// between adjacent values of float dtype d (2^-23|v| + 2^-149 for
// float32).
func spacing(d graph.DType) (rel, abs float64) {
	switch d {
	case graph.Float32:
		return 0x1p-23, 0x1p-149
	case graph.Float16:
		return 0x1p-10, 0x1p-24
	case graph.BFloat16:
		return 0x1p-7, 0x1p-133
	}
	return 0x1p-52, 0x1p-1074
}

// ulps returns k units in the last place of dtype d at the magnitude of
// n (plus extra, which may be nil).
func ulps(k float64, d graph.DType, n, extra *graph.Node) *graph.Node {
	rel, a := spacing(d)
	mag := fin(n)
	if extra != nil {
		mag = add(mag, extra)
	}
	return mul(cst(k), add(mul(cst(rel), mag), cst(a)))
}

// threshold returns the magnitude from which float64 values round to
// infinity in float dtype d (the largest finite value plus half an ulp).
func threshold(d graph.DType) float64 {
	switch d {
	case graph.Float32:
		return math.MaxFloat32 + 0x1p103
	case graph.Float16:
		return 65520
	case graph.BFloat16:
		return 0x1.fep127 + 0x1p119
	}
	return math.MaxFloat64
}

// maxFinite returns the largest finite value of float dtype d.
func maxFinite(d graph.DType) float64 {
	switch d {
	case graph.Float32:
		return math.MaxFloat32
	case graph.Float16:
		return 65504
	case graph.BFloat16:
		return 0x1.fep127
	}
	return math.MaxFloat64
}

// Op groups for the rules.
var (
	increasing = map[graph.Op]bool{
		graph.OpExp: true, graph.OpExp2: true, graph.OpExpm1: true, graph.OpLog: true, graph.OpLog2: true,
		graph.OpLog1p: true, graph.OpSqrt: true, graph.OpTanh: true, graph.OpSigmoid: true, graph.OpErf: true,
		graph.OpTan: true,
	}
	decreasing = map[graph.Op]bool{graph.OpRsqrt: true, graph.OpRecip: true}
	steps      = map[graph.Op]bool{graph.OpFloor: true, graph.OpCeil: true, graph.OpRound: true, graph.OpTrunc: true, graph.OpSign: true}
	compares   = map[graph.Op]bool{graph.OpLt: true, graph.OpLe: true, graph.OpGt: true, graph.OpGe: true}
)

// node returns the bound of n from the bounds of its inputs.
func (b *bounder) node(n *graph.Node) (*graph.Node, error) {
	in := n.Inputs()
	es := make([]*graph.Node, len(in))
	inexact := false
	for i, x := range in {
		es[i] = b.e[x]
		inexact = inexact || es[i] != nil
	}
	d := n.DType()
	approx := 0.0
	if d.IsFloat() && b.m.ULP != nil {
		approx = b.m.ULP(n.Op(), d)
	}
	switch c := n.Op().Class(); c {
	case graph.ClassLeaf:
		if approx > 0 {
			return b.finish(n, ulps(approx, d, n, nil), nil), nil
		}
		return nil, nil
	case graph.ClassView, graph.ClassCopy, graph.ClassConcat:
		if !inexact {
			return nil, nil
		}
		return b.view(n, es)
	case graph.ClassReduce:
		return b.reduce(n, es[0])
	case graph.ClassSort:
		return sortBound(n, es[0]), nil
	case graph.ClassMatMul:
		return b.matmul(n, es[0], es[1])
	case graph.ClassScan:
		return b.scan(n, es[0])
	case graph.ClassWhere:
		if !inexact {
			return nil, nil
		}
		return sum(where(in[0], orZero(es[1]), orZero(es[2])), keep(es[0])), nil
	case graph.ClassUnary:
		if !inexact && approx == 0 {
			return nil, nil
		}
		return b.unary(n, es[0], approx)
	case graph.ClassBinary:
		if !inexact && approx == 0 && n.Op() != graph.OpMax && n.Op() != graph.OpMin {
			return nil, nil
		}
		return b.binary(n, es[0], es[1], approx)
	case graph.ClassIndex:
		return b.index(n, es)
	}
	return nil, fmt.Errorf("no rule for op class of %v", n.Op())
}

// finish returns the bound e of float node n with NaN where the backend
// may overflow where the reference does not, or the reverse (see
// overflow).
func (b *bounder) finish(n, e, mag *graph.Node, inf ...*graph.Node) *graph.Node {
	if !n.DType().IsFloat() || e == nil {
		return e
	}
	return where(overflow(n, e, mag, inf...), nan, e)
}

// overflow is true where float node n's value and its bound e reach the
// largest finite value, where mag (the magnitude of what a reduction or
// product adds up, nil for others) does, or where the value is infinite
// but no operand is (inf: true where some operand is infinite).
func overflow(n, e, mag *graph.Node, inf ...*graph.Node) *graph.Node {
	lim := cst(maxFinite(n.DType()) * (1 - 0x1p-20))
	over := le(lim, add(fin(n), e))
	if mag != nil {
		over = or(over, le(lim, mag))
	}
	inherited := cst(0)
	for _, x := range inf {
		inherited = add(inherited, graph.Cast(x, f64))
	}
	return or(over, and(anyInf(n), not(gt(inherited, cst(0)))))
}

// anyInf is true where n is infinite.
func anyInf(n *graph.Node) *graph.Node { return graph.Unary(graph.OpIsInf, val(n)) }

// crosses is true where n's interval [n-e, n+e] holds 0 and is not a
// point.
func crosses(n, e *graph.Node) *graph.Node {
	if e == nil {
		return graph.BroadcastTo(graph.Const(graph.ScalarOf(graph.Bool, 0)), n.Shape())
	}
	return and(le(abs(val(n)), e), gt(e, cst(0)))
}

// unary applies the rule of a unary op to operand bound ea.
func (b *bounder) unary(n, ea *graph.Node, approx float64) (*graph.Node, error) {
	op, d := n.Op(), n.DType()
	a := n.Input(0)
	ad := a.DType()
	x := val(a)
	// own is the node's own rounding: approx ulps, one more when the
	// operand may differ (both round a different value), at the
	// magnitude of the value plus prop, the propagated error; and the
	// reference's own error where it is larger (refSlack).
	own := func(prop *graph.Node) *graph.Node {
		if !d.IsFloat() {
			return nil
		}
		k := approx
		if ea != nil {
			k++
		}
		return sum(ulps(k, d, n, prop), refSlack(n))
	}
	switch {
	case op == graph.OpCast:
		switch {
		case !ad.IsFloat():
			return keep(ea), nil
		case d.IsFloat():
			if d.Size() < ad.Size() && ea != nil {
				return b.finish(n, sum(ea, ulps(1, d, n, ea)), nil, anyInf(a)), nil
			}
			return b.finish(n, ea, nil, anyInf(a)), nil
		case d == graph.Bool:
			return sum(unc(crosses(a, ea)), keep(ea)), nil
		}
		// To an integer: truncation is monotone.
		return b.step(n, x, ea), nil
	case op == graph.OpNeg || op == graph.OpAbs:
		if !d.IsFloat() {
			return keep(ea), nil
		}
		return sum(ea, ulpsIf(approx, d, n)), nil
	case op == graph.OpNot:
		return keep(ea), nil
	case op == graph.OpIsNaN || op == graph.OpIsInf:
		// A finite bound keeps NaN and infinities where they are.
		return keep(ea), nil
	case !ad.IsFloat():
		// Integer Square, Sign and the like of a value that may differ.
		return keep(ea), nil
	case op == graph.OpSquare:
		if ea == nil {
			return b.finish(n, own(nil), nil, anyInf(a)), nil
		}
		prop := sum(mul(cst(2), mul(fin(a), ea)), mul(ea, ea))
		return b.finish(n, sum(prop, own(prop)), nil, anyInf(a)), nil
	case op == graph.OpSin || op == graph.OpCos:
		// Lipschitz 1.
		return b.finish(n, sum(ea, own(ea)), nil), nil
	case increasing[op] || decreasing[op]:
		// The function of the interval's end points, in float64; it must
		// be monotone over the interval (no pole or edge of the domain).
		mid := graph.Unary(op, x)
		lo := graph.Unary(op, sub(x, orZero(ea)))
		hi := graph.Unary(op, add(x, orZero(ea)))
		if decreasing[op] {
			lo, hi = hi, lo
		}
		bad := not(and(le(lo, mid), le(mid, hi)))
		if op == graph.OpTan {
			// End points a period apart or more say nothing: the
			// interval must be shorter than the period to hold at most
			// one pole, which the order of the end points then shows.
			bad = or(bad, le(cst(math.Pi/2), orZero(ea)))
		}
		// Where the value is NaN or infinite the interval is the point.
		bad = and(bad, not(nonfinite(a)))
		spread := maxN(sub(hi, mid), sub(mid, lo))
		spread = where(nonfinite(a), cst(0), spread)
		slack := mul(cst(0x1p-50), fin(mid))
		e := sum(spread, slack, own(spread), keep(ea), unc(bad))
		// Overflow is in doubt only where the end points' magnitudes
		// come near the rounding threshold (the float64 values of a
		// float32 result are finite there; a float64 result that
		// overflows float64 from a finite operand is in doubt).
		rel, _ := spacing(d)
		t := threshold(d)
		k := (approx + 4) * rel
		top, bottom := maxN(abs(lo), abs(hi)), graph.Binary(graph.OpMin, abs(lo), abs(hi))
		over := and(le(cst(t*(1-k)), top), le(bottom, cst(t*(1+k))))
		if d == f64 {
			over = or(over, and(graph.Unary(graph.OpIsInf, top), not(nonfinite(a))))
		}
		return where(over, nan, e), nil
	case steps[op]:
		if ea == nil {
			return nil, nil
		}
		return b.step(n, x, ea), nil
	}
	if ea == nil {
		return b.finish(n, own(nil), nil, anyInf(a)), nil
	}
	// No rule: nothing is promised where the operand may differ; where
	// it does not, the op's own rounding when that is approximate.
	var e *graph.Node
	if approx > 0 {
		e = own(nil)
	}
	return sum(unc(gt(ea, cst(0))), keep(ea), e), nil
}

// zeroSign returns, for a float Maximum, Minimum, Max or Min, the
// smallest positive bound where the result is zero, else 0: which zero an
// extreme of -0 and +0 is depends on the order of the operands (the
// reference follows NumPy: the first of equal values; Go's max orders -0
// below +0), so a zero extreme may have either sign.
func zeroSign(n *graph.Node) *graph.Node {
	if !n.DType().IsFloat() {
		return nil
	}
	return where(graph.Binary(graph.OpEq, val(n), cst(0)), cst(0x1p-1074), nil)
}

// refSlack returns where the reference evaluator's value of n may be
// further from the exact one than its rounding, how far (nil where it
// never is), for float64 results (those of float32 are rounded from
// float64 values far more accurate):
//
//   - Sigmoid, 1/(1+Exp(-x)), is 0 below x = -709.78, where e^-x
//     overflows, though the exact value there is a subnormal (the GPU's
//     math library computes it);
//   - Pow (math.Pow) raises to the integer part of y by repeated
//     squaring, each squaring doubling the relative error so far, and the
//     fraction by Exp(yf*Log(x)): some |y| + |log x| ulps;
//   - Log2 (math.Log2) adds the exponent to Log(frac)/Ln2, which cancels
//     just above 1: an absolute error of an ulp of 1;
//   - Sin, Cos and Tan (math.Sin, ...) reduce arguments from 2^29 up by
//     Payne-Hanek to within about an ulp of 1, an absolute error of
//     2^-53 in the reduced argument, which Tan multiplies by its
//     derivative 1 + tan^2 (seen: tan(1.4624559390618032e308) off by 8
//     ulps of 72, glibc and the vector code agreeing with each other).
func refSlack(n *graph.Node) *graph.Node {
	if n.DType() != graph.Float64 {
		return nil
	}
	switch n.Op() {
	case graph.OpSigmoid:
		return where(le(fin(n), cst(0x1p-1022)), cst(0x1p-1022), nil)
	case graph.OpPow:
		x, y := val(n.Input(0)), val(n.Input(1))
		k := add(add(fin(y), fin(graph.Unary(graph.OpLog, abs(x)))), cst(4))
		rel, a := spacing(graph.Float64)
		return mul(k, add(mul(cst(rel), fin(n)), cst(a)))
	case graph.OpLog2:
		return cst(0x1p-51)
	case graph.OpSin, graph.OpCos, graph.OpTan:
		big := le(cst(0x1p29), abs(val(n.Input(0))))
		e := cst(0x1p-53)
		if n.Op() == graph.OpTan {
			e = mul(e, add(cst(1), mul(fin(n), fin(n))))
		}
		return where(big, e, nil)
	}
	return nil
}

// ulpsIf returns k ulps of d at n when k > 0, else nil.
func ulpsIf(k float64, d graph.DType, n *graph.Node) *graph.Node {
	if k == 0 {
		return nil
	}
	return ulps(k, d, n, nil)
}

// step is the rule of a monotone piecewise-constant op (Floor, Ceil,
// Round, Trunc, Sign, a cast to an integer): exact where the op gives
// the same at both ends of the operand's interval, else nothing.
func (b *bounder) step(n, x, ea *graph.Node) *graph.Node {
	rebuild := func(v *graph.Node) *graph.Node {
		if n.Op() == graph.OpCast {
			return val(graph.Cast(v, n.DType()))
		}
		return graph.Unary(n.Op(), v)
	}
	lo, hi := rebuild(sub(x, ea)), rebuild(add(x, ea))
	same := graph.Binary(graph.OpEq, lo, hi)
	if n.DType().IsFloat() {
		// Zeros of both signs compare equal: tell them apart by their
		// reciprocals.
		same = and(same, graph.Binary(graph.OpEq, graph.Unary(graph.OpRecip, lo), graph.Unary(graph.OpRecip, hi)))
	}
	// NaN operands stay NaN (finite bound): the op gives the same.
	same = or(same, graph.Unary(graph.OpIsNaN, x))
	return sum(unc(not(same)), keep(ea))
}

// binary applies the rule of a binary op to operand bounds ea and eb.
func (b *bounder) binary(n, ea, eb *graph.Node, approx float64) (*graph.Node, error) {
	op, d := n.Op(), n.DType()
	a, c := n.Input(0), n.Input(1)
	x, y := val(a), val(c)
	keeps := sum(keep(ea), keep(eb))
	own := func(prop *graph.Node) *graph.Node { // as in unary
		if !d.IsFloat() {
			return nil
		}
		k := approx
		if ea != nil || eb != nil {
			k++
		}
		return sum(ulps(k, d, n, prop), refSlack(n))
	}
	infs := []*graph.Node{anyInf(a), anyInf(c)}
	switch {
	case op == graph.OpAnd || op == graph.OpOr || op == graph.OpXor:
		return keeps, nil
	case !d.IsFloat() && !compares[op] && op != graph.OpEq && op != graph.OpNe:
		return keeps, nil // integer arithmetic of values that may differ
	case op == graph.OpAdd || op == graph.OpSub:
		return b.finish(n, sum(ea, eb, own(sum(ea, eb))), nil, infs...), nil
	case op == graph.OpMul:
		var prop, flips *graph.Node
		if eb != nil {
			prop = mul(fin(a), eb)
			flips = unc(and(nonfinite(a), crosses(c, eb)))
		}
		if ea != nil {
			prop = sum(prop, mul(fin(c), ea))
			flips = sum(flips, unc(and(nonfinite(c), crosses(a, ea))))
		}
		if ea != nil && eb != nil {
			prop = add(prop, mul(ea, eb))
		}
		return b.finish(n, sum(prop, own(prop), flips, keeps), nil, infs...), nil
	case op == graph.OpDiv:
		if ea == nil && eb == nil {
			return b.finish(n, own(nil), nil, infs...), nil
		}
		ez, fz := orZero(ea), orZero(eb)
		// (ea + |q|*eb) / (|y| - eb), with the divisor's interval away
		// from 0; an infinite divisor stays infinite (finite bound).
		den := sub(abs(y), fz)
		prop := div(add(ez, mul(fin(n), fz)), den)
		prop = where(graph.Unary(graph.OpIsInf, y), cst(0), prop)
		bad := or(crosses(c, eb), and(not(nonfinite(c)), le(den, cst(0))))
		return b.finish(n, sum(prop, own(prop), keeps, unc(bad)), nil, infs...), nil
	case op == graph.OpMax || op == graph.OpMin:
		var e *graph.Node
		if ea != nil || eb != nil {
			e = maxN(orZero(ea), orZero(eb))
		}
		return sum(e, ulpsIf(approx, d, n), zeroSign(n)), nil
	case compares[op]:
		// a < b is monotone in a - b: the same at both ends of the
		// difference's interval, or nothing is promised.
		ez, fz := orZero(ea), orZero(eb)
		lo := graph.Binary(op, sub(x, ez), add(y, fz))
		hi := graph.Binary(op, add(x, ez), sub(y, fz))
		same := or(graph.Binary(graph.OpEq, lo, hi), or(graph.Unary(graph.OpIsNaN, x), graph.Unary(graph.OpIsNaN, y)))
		return sum(unc(not(same)), keeps), nil
	case op == graph.OpEq || op == graph.OpNe:
		// Equal only if the intervals meet.
		sep := gt(abs(sub(x, y)), add(orZero(ea), orZero(eb)))
		exact := or(sep, graph.Binary(graph.OpEq, add(orZero(ea), orZero(eb)), cst(0)))
		exact = or(exact, or(nonfinite(a), nonfinite(c)))
		return sum(unc(not(exact)), keeps), nil
	}
	if ea == nil && eb == nil {
		return b.finish(n, own(nil), nil, infs...), nil
	}
	// No rule (Pow, Atan2, FloorDiv, Mod of values that may differ):
	// nothing is promised where an operand may differ; where neither
	// does, the op's own rounding when that is approximate.
	var e *graph.Node
	if approx > 0 {
		e = own(nil)
	}
	return sum(unc(gt(add(orZero(ea), orZero(eb)), cst(0))), keeps, e), nil
}

// total returns the bound of n, a sum of the elements of its operand x
// (Sum, or CumSum's running sums) whose bound is ex: sumOf adds values
// as n does, anyOf tells whether any of them is true as far as sumOf
// goes (Any, or a running max), and k is the multiple of the magnitude
// that the rounding of the steps costs.
func (b *bounder) total(n, ex *graph.Node, sumOf, anyOf func(*graph.Node) *graph.Node, k float64) *graph.Node {
	x := n.Input(0)
	mag := sumOf(sum(fin(x), ex))
	e := sum(mul(cst(k), mag), ulps(1, n.DType(), n, nil))
	if ex != nil {
		e = add(e, sumOf(ex))
	}
	return b.finish(n, e, mag, anyOf(anyInf(x)))
}

// product returns the bound of n, a product of the elements of its
// operand x (Prod, or CumProd's running products) whose bound is ex:
// prod multiplies values as n does, anyOf tells whether any of them is
// true as far as prod goes (Any, or a running max), k is the multiple of
// the magnitude that the rounding of the steps costs, and floor the
// smallest normal number of the range a partial product may underflow
// from. A partial product may underflow (to a subnormal or 0, which an
// infinity then makes NaN) in one order and not in another, unless a
// factor is 0: the product of the magnitudes below 1 says whether some
// order can go below floor.
func (b *bounder) product(n, ex *graph.Node, prod, anyOf func(*graph.Node) *graph.Node, k, floor float64) *graph.Node {
	x := n.Input(0)
	fx := fin(x)
	up := prod(sum(fx, ex))
	e := sum(mul(cst(k), up), ulps(1, n.DType(), n, nil))
	if ex != nil {
		e = sum(e, sub(up, prod(fx)), unc(and(anyOf(nonfinite(x)), anyOf(crosses(x, ex)))))
	}
	mag := prod(maxN(sum(fx, ex), cst(1)))
	small := graph.Binary(graph.OpMin, sub(fx, orZero(ex)), cst(1))
	small = where(or(nonfinite(x), le(small, cst(0))), cst(1), small)
	zero := anyOf(graph.Binary(graph.OpEq, val(x), cst(0)))
	under := and(gt(cst(floor), prod(small)), not(zero))
	return where(under, nan, b.finish(n, e, mag, anyOf(anyInf(x))))
}

// reduce applies the rule of a reduction to its operand's bound ex.
func (b *bounder) reduce(n, ex *graph.Node) (*graph.Node, error) {
	op, a := n.Op(), n.Attr()
	x := n.Input(0)
	cnt := 1
	for _, ax := range a.Axes {
		cnt *= x.Shape()[ax]
	}
	red := func(op graph.Op, v *graph.Node) *graph.Node {
		if a.Flat {
			return graph.BroadcastTo(graph.Reduce(op, v, nil, false), n.Shape())
		}
		return graph.Reduce(op, v, a.Axes, a.KeepDims)
	}
	anyOf := func(v *graph.Node) *graph.Node { return red(graph.OpAny, v) }
	var keeps *graph.Node
	if ex != nil {
		keeps = red(graph.OpSum, keep(ex))
	}
	d := n.DType()
	if cnt == 0 {
		// An empty selection gives the identity (Sum +0, Prod 1, Any
		// false, All true) exactly.
		return nil, nil
	}
	switch op {
	case graph.OpSum:
		if !d.IsFloat() {
			return keeps, nil
		}
		total := func(v *graph.Node) *graph.Node { return red(graph.OpSum, v) }
		return b.total(n, ex, total, anyOf, b.m.Sum(d, cnt)), nil
	case graph.OpProd:
		if !d.IsFloat() {
			return keeps, nil
		}
		prod := func(v *graph.Node) *graph.Node { return red(graph.OpProd, v) }
		// A partial product may underflow below float64's normal range.
		return b.product(n, ex, prod, anyOf, b.m.Prod(d, cnt), 0x1p-1022), nil
	case graph.OpReduceMax, graph.OpReduceMin:
		if !d.IsFloat() {
			return keeps, nil
		}
		var e *graph.Node
		if ex != nil {
			e = red(graph.OpReduceMax, ex)
		}
		return sum(e, zeroSign(n)), nil
	case graph.OpArgMax, graph.OpArgMin:
		if ex == nil {
			return nil, nil
		}
		// Near ties the index may move: nothing is promised where any
		// value of the selection may differ.
		return sum(unc(gt(red(graph.OpReduceMax, ex), cst(0))), keeps), nil
	case graph.OpAny, graph.OpAll:
		if ex == nil {
			return nil, nil
		}
		var flip *graph.Node
		if x.DType().IsFloat() {
			flip = unc(red(graph.OpAny, crosses(x, ex)))
		}
		return sum(flip, keeps), nil
	}
	return nil, fmt.Errorf("no rule for %v", op)
}

// matmul applies the rule of a matrix product to operand bounds ea, eb.
func (b *bounder) matmul(n, ea, eb *graph.Node) (*graph.Node, error) {
	d := n.DType()
	if !d.IsFloat() {
		return keepMM(ea, eb, n.Input(0), n.Input(1)), nil
	}
	a, c := n.Input(0), n.Input(1)
	sa := a.Shape()
	k := sa[len(sa)-1]
	mm := graph.MatMul
	fa, fc := fin(a), fin(c)
	ma, mc := sum(fa, ea), sum(fc, eb)
	mag := mm(ma, mc)
	// Each of the k products may underflow: k units of the smallest
	// subnormal besides the relative bound.
	_, tiny := spacing(d)
	e := sum(mul(cst(b.m.MatMul(d, k)), mm(fa, fc)), ulps(1, d, n, nil), cst(float64(k)*tiny))
	nfa, nfc := graph.Cast(nonfinite(a), f64), graph.Cast(nonfinite(c), f64)
	if eb != nil {
		e = sum(e, mm(fa, eb), unc(gt(mm(nfa, graph.Cast(crosses(c, eb), f64)), cst(0))))
	}
	if ea != nil {
		e = sum(e, mm(ea, fc), unc(gt(mm(graph.Cast(crosses(a, ea), f64), nfc), cst(0))))
	}
	if ea != nil && eb != nil {
		e = add(e, mm(ea, eb))
	}
	ones := func(x *graph.Node) *graph.Node { return add(mul(fin(x), cst(0)), cst(1)) }
	inf := add(mm(graph.Cast(anyInf(a), f64), ones(c)), mm(ones(a), graph.Cast(anyInf(c), f64)))
	return b.finish(n, e, mag, gt(inf, cst(0))), nil
}

// keepMM passes on, for an integer product, that an operand may differ
// (NaN in a row of a or a column of b).
func keepMM(ea, eb, a, c *graph.Node) *graph.Node {
	zero := func(x *graph.Node) *graph.Node { return mul(val(x), cst(0)) }
	var e *graph.Node
	if ea != nil {
		e = graph.MatMul(keep(ea), zero(c))
	}
	if eb != nil {
		e = sum(e, graph.MatMul(zero(a), keep(eb)))
	}
	return e
}

// view applies a view, copy or concatenation to the operand bounds.
func (b *bounder) view(n *graph.Node, es []*graph.Node) (*graph.Node, error) {
	e := es[0]
	switch n.Op() {
	case graph.OpReshape:
		return graph.Reshape(e, n.Shape()), nil
	case graph.OpPermute:
		return graph.Permute(e, n.Attr().Perm), nil
	case graph.OpBroadcast:
		return graph.BroadcastTo(e, n.Shape()), nil
	case graph.OpCopy:
		return e, nil
	case graph.OpSlice:
		rs := make([]graph.Range, len(n.Attr().Slices))
		for i, s := range n.Attr().Slices {
			stop := s.Start + s.Step*s.Len
			rs[i] = graph.Range{Start: s.Start, Stop: stop, Step: s.Step, NoStop: stop < 0}
		}
		return graph.Slice(e, rs), nil
	case graph.OpConcat:
		parts := make([]*graph.Node, len(es))
		for i, p := range es {
			if p == nil {
				p = graph.BroadcastTo(cst(0), n.Input(i).Shape())
			}
			parts[i] = p
		}
		return graph.Concat(parts, n.Attr().Axis), nil
	}
	return nil, fmt.Errorf("no rule for view %v", n.Op())
}
