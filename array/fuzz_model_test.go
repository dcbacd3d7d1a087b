// The fuzz oracle: NumPy's rules for shapes, dtypes and values, written
// out again here independently of the graph package but for integer
// floor division, modulo and powers with a negative exponent, taken from
// the reference (with fuseflow's documented deviations: bool arithmetic
// and float math of bool are errors, Go numbers are weak scalars,
// integer division by zero is 0, and an op whose operands cast to its
// compute dtype would be too big is an error). Integer values are exact:
// int64 arithmetic with wraparound, never float64, so the oracle is
// right at MinInt64 and MaxInt64 too.

package array_test

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

// model is what the oracle expects of one array: an error, or a shape, a
// dtype and (when cheap to know exactly) the values in row-major order.
type model struct {
	err   bool
	shape []int
	dt    array.DType
	vals  []num // nil when unknown
	tol   bool  // vals are compared with a tolerance (rounding differs)
}

// num is one element as the oracle knows it, exactly: in i for bool (0 or
// 1) and the integer dtypes (int32 values sign-extended), in f for the
// float dtypes (float32 values rounded to float32). The dtype of the
// array says which. Integer arithmetic is done in int64 and wrapped to
// the dtype, never in float64, which cannot hold every int64.
type num struct {
	i int64
	f float64
}

func bad() model { return model{err: true} }

// maxModel is the most elements the oracle computes values for, and the
// largest array a program evaluates.
const maxModel = 1 << 12

// size returns the number of elements of shape s, saturating at
// math.MaxInt for shapes too big for an int (an extent of 0 gives 0).
func size(s []int) int {
	if slices.Contains(s, 0) {
		return 0
	}
	n := 1
	for _, e := range s {
		if e < 0 {
			return 0
		}
		if n > math.MaxInt/e {
			return math.MaxInt
		}
		n *= e
	}
	return n
}

// itemSize is the size of one element of d in bytes.
func itemSize(d array.DType) int64 {
	switch d {
	case array.Bool:
		return 1
	case array.Int32, array.Float32:
		return 4
	}
	return 8
}

// validShape is NumPy's rule for a shape of dtype d: no negative extent,
// and the product of the non-zero extents times the element size within
// the largest int (math/big, so that nothing here can overflow).
func validShape(s []int, d array.DType) bool {
	p := big.NewInt(itemSize(d))
	for _, e := range s {
		if e < 0 {
			return false
		}
		if e > 0 {
			p.Mul(p, big.NewInt(int64(e)))
		}
	}
	return p.Cmp(big.NewInt(math.MaxInt)) <= 0
}

// dtOrder lists the dtypes in promotion order.
var dtOrder = []array.DType{array.Bool, array.Int32, array.Int64, array.Float32, array.Float64}

func rank(d array.DType) int { return slices.Index(dtOrder, d) }

const (
	kBool = iota
	kInt
	kFloat
)

func kindOf(d array.DType) int {
	switch d {
	case array.Bool:
		return kBool
	case array.Int32, array.Int64:
		return kInt
	}
	return kFloat
}

// promote is NumPy 2's table for two arrays (int with float32 is float64).
func promote(a, b array.DType) array.DType {
	if rank(a) > rank(b) {
		a, b = b, a
	}
	if kindOf(a) == kInt && b == array.Float32 {
		return array.Float64
	}
	return b
}

// weak is a Go number operand: its kind and its exact value (in i for
// bool and int, in f for float).
type weak struct {
	kind int
	i    int64
	f    float64
}

// weakDT is the dtype of a Go number's kind on its own.
func weakDT(k int) array.DType {
	return []array.DType{array.Bool, array.Int64, array.Float64}[k]
}

// weakNum returns w converted to dtype d.
func weakNum(w weak, d array.DType) num {
	return castNum(num{i: w.i, f: w.f}, weakDT(w.kind), d)
}

// promoteWeak is NEP 50: the array's dtype unless the Go number's kind is
// higher (then int64 or float64).
func promoteWeak(d array.DType, w weak) array.DType {
	switch {
	case w.kind <= kindOf(d):
		return d
	case w.kind == kInt:
		return array.Int64
	}
	return array.Float64
}

func broadcast(shapes ...[]int) ([]int, bool) {
	r := 0
	for _, s := range shapes {
		r = max(r, len(s))
	}
	out := make([]int, r)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		for i, e := range s {
			j := r - len(s) + i
			switch {
			case out[j] == e || e == 1:
			case out[j] == 1:
				out[j] = e
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// strides returns row-major strides.
func strides(s []int) []int { return array.Shape(s).ContiguousStrides() }

// gatherIdx returns, for every element of out (row-major), the flat index
// into an array of shape in read through strides st and offset off.
func walk(out []int, st []int, off int) []int {
	n := size(out)
	idx := make([]int, 0, n)
	if n == 0 {
		return idx
	}
	cur := make([]int, len(out))
	for range n {
		o := off
		for k, c := range cur {
			o += c * st[k]
		}
		idx = append(idx, o)
		for k := len(out) - 1; k >= 0; k-- {
			cur[k]++
			if cur[k] < out[k] {
				break
			}
			cur[k] = 0
		}
	}
	return idx
}

// pick returns vals at idx (nil stays nil).
func pick(vals []num, idx []int) []num {
	if vals == nil {
		return nil
	}
	out := make([]num, len(idx))
	for i, j := range idx {
		out[i] = vals[j]
	}
	return out
}

// stretch returns m's values broadcast to shape s.
func stretch(m model, s []int) []num {
	if m.vals == nil || size(s) > maxModel {
		return nil
	}
	st := strides(m.shape)
	bs := make([]int, len(s))
	for i := range m.shape {
		j := len(s) - len(m.shape) + i
		if m.shape[i] == s[j] {
			bs[j] = st[i]
		}
	}
	return pick(m.vals, walk(s, bs, 0))
}

// gather returns vals (of a small array) read through strides st and
// offset off as an array of shape out; nil when vals is nil.
func gather(vals []num, out, st []int, off int) []num {
	if vals == nil {
		return nil
	}
	return pick(vals, walk(out, st, off))
}

// normAxis maps axis into [0, r).
func normAxis(axis, r int) (int, bool) {
	if axis < -r || axis >= r {
		return 0, false
	}
	if axis < 0 {
		axis += r
	}
	return axis, true
}

// normAxes normalizes axes (every axis when empty), rejecting repeats.
func normAxes(axes []int, r int) ([]bool, bool) {
	red := make([]bool, r)
	if len(axes) == 0 {
		for i := range red {
			red[i] = true
		}
		return red, true
	}
	for _, a := range axes {
		n, ok := normAxis(a, r)
		if !ok || red[n] {
			return nil, false
		}
		red[n] = true
	}
	return red, true
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func isFloat(d array.DType) bool { return kindOf(d) == kFloat }

// castNum converts v of dtype from to dtype to as AsType documents it:
// floats to integers truncate toward zero and saturate, NaN to 0;
// integers to narrower integers wrap; anything to bool is v != 0 (NaN is
// true); integers to float32 round once.
func castNum(v num, from, to array.DType) num {
	if isFloat(from) {
		switch to {
		case array.Bool:
			return num{i: b2i(v.f != 0)}
		case array.Int32:
			return num{i: satTrunc(v.f, 31)}
		case array.Int64:
			return num{i: satTrunc(v.f, 63)}
		case array.Float32:
			return num{f: float64(float32(v.f))}
		}
		return num{f: v.f}
	}
	switch to {
	case array.Bool:
		return num{i: b2i(v.i != 0)}
	case array.Int32:
		return num{i: int64(int32(v.i))}
	case array.Int64:
		return num{i: v.i}
	case array.Float32:
		return num{f: float64(float32(v.i))}
	}
	return num{f: float64(v.i)}
}

// satTrunc truncates v toward zero into the range of a signed integer of
// bits+1 bits, saturating at its ends; NaN gives 0.
func satTrunc(v float64, bits int) int64 {
	lim := math.Ldexp(1, bits) // exactly 2^bits
	switch {
	case v != v:
		return 0
	case v >= lim:
		if bits == 63 {
			return math.MaxInt64
		}
		return int64(1)<<bits - 1
	case v <= -lim:
		return -int64(1) << bits
	}
	return int64(v) // |v| < 2^bits: exact truncation
}

// fromFloat returns the Go float64 v converted to d (as Full converts it).
func fromFloat(v float64, d array.DType) num { return castNum(num{f: v}, array.Float64, d) }

// castAll converts vals of dtype from to dtype to (nil stays nil).
func castAll(vals []num, from, to array.DType) []num {
	if vals == nil {
		return nil
	}
	out := make([]num, len(vals))
	for i, v := range vals {
		out[i] = castNum(v, from, to)
	}
	return out
}

// toFloat returns v of dtype d as a float64 (rounded for big integers),
// for messages and for Value.
func toFloat(v num, d array.DType) float64 {
	if isFloat(d) {
		return v.f
	}
	return float64(v.i)
}

// showNums formats vals of dtype d exactly.
func showNums(vals []num, d array.DType) string {
	parts := make([]string, len(vals))
	for k, v := range vals {
		if isFloat(d) {
			parts[k] = fmt.Sprint(v.f)
		} else {
			parts[k] = fmt.Sprint(v.i)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// unaryRule says what dtype a unary op gives for d, or false.
type unaryRule func(d array.DType) (array.DType, bool)

var (
	numeric = func(d array.DType) (array.DType, bool) { return d, d != array.Bool }
	anyDT   = func(d array.DType) (array.DType, bool) { return d, true }
	fmath   = func(d array.DType) (array.DType, bool) {
		switch kindOf(d) {
		case kFloat:
			return d, true
		case kInt:
			return array.Float64, true
		}
		return 0, false
	}
	pred    = func(array.DType) (array.DType, bool) { return array.Bool, true }
	logical = func(d array.DType) (array.DType, bool) { return d, kindOf(d) != kFloat }
	divRule = func(d array.DType) (array.DType, bool) {
		if kindOf(d) == kFloat {
			return d, true
		}
		return array.Float64, true
	}
)

// unaryOp is one unary method: its rule and its value on the int64 lane
// (bool and integer operands, d their dtype) and on the float64 lane
// (nil: values unknown).
type unaryOp struct {
	name string
	call func(*array.Array) *array.Array
	rule unaryRule
	fi   func(x int64, d array.DType) int64
	ff   func(x float64) float64
	tol  bool // transcendental: compare with a tolerance
}

func isNaN(v float64) bool { return v != v }

func same(x int64, _ array.DType) int64 { return x }

var unaryOps = []unaryOp{
	{"Neg", (*array.Array).Neg, numeric, func(x int64, _ array.DType) int64 { return -x }, func(v float64) float64 { return -v }, false},
	{"Abs", (*array.Array).Abs, anyDT, func(x int64, _ array.DType) int64 {
		if x < 0 {
			return -x // the minimum value wraps to itself, as in NumPy
		}
		return x
	}, math.Abs, false},
	{"Sign", (*array.Array).Sign, numeric, func(x int64, _ array.DType) int64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}, func(v float64) float64 {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return v // 0, -0 or NaN
	}, false},
	{"Sqrt", (*array.Array).Sqrt, fmath, nil, math.Sqrt, true},
	{"Rsqrt", (*array.Array).Rsqrt, fmath, nil, func(v float64) float64 { return 1 / math.Sqrt(v) }, true},
	{"Exp", (*array.Array).Exp, fmath, nil, math.Exp, true},
	{"Exp2", (*array.Array).Exp2, fmath, nil, math.Exp2, true},
	{"Log", (*array.Array).Log, fmath, nil, math.Log, true},
	{"Log2", (*array.Array).Log2, fmath, nil, math.Log2, true},
	{"Log1p", (*array.Array).Log1p, fmath, nil, math.Log1p, true},
	{"Expm1", (*array.Array).Expm1, fmath, nil, math.Expm1, true},
	{"Sin", (*array.Array).Sin, fmath, nil, math.Sin, true},
	{"Cos", (*array.Array).Cos, fmath, nil, math.Cos, true},
	{"Tan", (*array.Array).Tan, fmath, nil, nil, true},
	{"Tanh", (*array.Array).Tanh, fmath, nil, math.Tanh, true},
	{"Sigmoid", (*array.Array).Sigmoid, fmath, nil, func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }, true},
	{"Erf", (*array.Array).Erf, fmath, nil, math.Erf, true},
	{"Floor", (*array.Array).Floor, numeric, same, math.Floor, false},
	{"Ceil", (*array.Array).Ceil, numeric, same, math.Ceil, false},
	{"Round", (*array.Array).Round, numeric, same, math.RoundToEven, false},
	{"Trunc", (*array.Array).Trunc, numeric, same, math.Trunc, false},
	{"Reciprocal", (*array.Array).Reciprocal, fmath, nil, func(v float64) float64 { return 1 / v }, true},
	{"Square", (*array.Array).Square, numeric, func(x int64, _ array.DType) int64 { return x * x }, func(v float64) float64 { return v * v }, false},
	{"IsNaN", (*array.Array).IsNaN, pred, func(int64, array.DType) int64 { return 0 }, func(v float64) float64 { return b2f(isNaN(v)) }, false},
	{"IsInf", (*array.Array).IsInf, pred, func(int64, array.DType) int64 { return 0 }, func(v float64) float64 { return b2f(math.IsInf(v, 0)) }, false},
	{"Not", (*array.Array).Not, logical, func(x int64, d array.DType) int64 {
		if d == array.Bool {
			return x ^ 1
		}
		return ^x
	}, nil, false},
}

// unaryModel models op over x.
func unaryModel(u unaryOp, x model) model {
	out, ok := u.rule(x.dt)
	if !ok {
		return bad()
	}
	m := model{shape: x.shape, dt: out, tol: u.tol}
	// The operand is cast to the dtype the op computes in: the result's,
	// except for the predicates, which look at the operand as it is.
	compute := out
	if out == array.Bool && x.dt != array.Bool {
		compute = x.dt
	}
	if !validShape(x.shape, compute) || !validShape(x.shape, out) {
		return bad()
	}
	if x.vals == nil {
		return m
	}
	vals := make([]num, len(x.vals))
	for k, v := range x.vals {
		v = castNum(v, x.dt, compute)
		switch {
		case isFloat(compute) && u.ff != nil:
			vals[k] = castNum(num{f: u.ff(v.f)}, array.Float64, out)
		case !isFloat(compute) && u.fi != nil:
			vals[k] = castNum(num{i: u.fi(v.i, compute)}, array.Int64, out)
		default:
			return m
		}
	}
	m.vals = vals
	return m
}

// binaryOp is one binary method: its rule and its value on the int64
// lane (bool and integer compute dtypes, wrapping) and on the float64
// lane; nil: values unknown. Comparisons give 0 or 1.
type binaryOp struct {
	name    string
	call    func(*array.Array, any) *array.Array
	rule    unaryRule // applied to the promoted dtype
	noBool  bool      // bool operands (after promotion) are an error
	fi      func(a, b int64) int64
	ff      func(a, b float64) float64
	compare bool
}

// powInt is a**b modulo 2^64 (two's complement wraparound), computed
// with math/big; a negative exponent follows the reference (0 except for
// bases 1 and -1: fuseflow's documented choice where NumPy raises).
func powInt(a, b int64) int64 {
	if b < 0 {
		return ref.IntOp(graph.OpPow)(a, b)
	}
	mod := new(big.Int).Lsh(big.NewInt(1), 64)
	base := new(big.Int).SetUint64(uint64(a))
	r := new(big.Int).Exp(base, big.NewInt(b), mod)
	return int64(r.Uint64())
}

// floorDivFloat is NumPy's float floor division where the oracle knows
// it without NumPy's divmod algorithm: division by zero (a / b, NaN for
// 0 // 0). Otherwise NaN stands for "unknown" (the tables of
// numpy_test.go check the rest).
func floorDivFloat(a, b float64) float64 {
	if b == 0 {
		if a == 0 || isNaN(a) {
			return math.NaN()
		}
		return a / b
	}
	return math.NaN()
}

func maxNaN(a, b float64) float64 {
	if isNaN(a) || isNaN(b) {
		return math.NaN()
	}
	return math.Max(a, b)
}

func minNaN(a, b float64) float64 {
	if isNaN(a) || isNaN(b) {
		return math.NaN()
	}
	return math.Min(a, b)
}

func cmpOp(fi func(a, b int64) bool, ff func(a, b float64) bool) (func(a, b int64) int64, func(a, b float64) float64) {
	return func(a, b int64) int64 { return b2i(fi(a, b)) }, func(a, b float64) float64 { return b2f(ff(a, b)) }
}

var (
	eqI, eqF = cmpOp(func(a, b int64) bool { return a == b }, func(a, b float64) bool { return a == b })
	neI, neF = cmpOp(func(a, b int64) bool { return a != b }, func(a, b float64) bool { return a != b })
	ltI, ltF = cmpOp(func(a, b int64) bool { return a < b }, func(a, b float64) bool { return a < b })
	leI, leF = cmpOp(func(a, b int64) bool { return a <= b }, func(a, b float64) bool { return a <= b })
	gtI, gtF = cmpOp(func(a, b int64) bool { return a > b }, func(a, b float64) bool { return a > b })
	geI, geF = cmpOp(func(a, b int64) bool { return a >= b }, func(a, b float64) bool { return a >= b })
)

var binaryOps = []binaryOp{
	{"Add", (*array.Array).Add, anyDT, true, func(a, b int64) int64 { return a + b }, func(a, b float64) float64 { return a + b }, false},
	{"Sub", (*array.Array).Sub, anyDT, true, func(a, b int64) int64 { return a - b }, func(a, b float64) float64 { return a - b }, false},
	{"Mul", (*array.Array).Mul, anyDT, true, func(a, b int64) int64 { return a * b }, func(a, b float64) float64 { return a * b }, false},
	{"Div", (*array.Array).Div, divRule, false, nil, func(a, b float64) float64 { return a / b }, false},
	// integer // and % by zero are 0 and MinInt // -1 wraps, as the
	// reference defines them
	{"FloorDiv", (*array.Array).FloorDiv, anyDT, true, ref.IntOp(graph.OpFloorDiv), floorDivFloat, false},
	{"Mod", (*array.Array).Mod, anyDT, true, ref.IntOp(graph.OpMod), nil, false},
	{"Pow", (*array.Array).Pow, anyDT, true, powInt, nil, false},
	{"Maximum", (*array.Array).Maximum, anyDT, false, func(a, b int64) int64 { return max(a, b) }, maxNaN, false},
	{"Minimum", (*array.Array).Minimum, anyDT, false, func(a, b int64) int64 { return min(a, b) }, minNaN, false},
	{"Atan2", (*array.Array).Atan2, fmath, false, nil, nil, false},
	{"Eq", (*array.Array).Eq, anyDT, false, eqI, eqF, true},
	{"Ne", (*array.Array).Ne, anyDT, false, neI, neF, true},
	{"Lt", (*array.Array).Lt, anyDT, false, ltI, ltF, true},
	{"Le", (*array.Array).Le, anyDT, false, leI, leF, true},
	{"Gt", (*array.Array).Gt, anyDT, false, gtI, gtF, true},
	{"Ge", (*array.Array).Ge, anyDT, false, geI, geF, true},
	{"And", (*array.Array).And, logical, false, func(a, b int64) int64 { return a & b }, nil, false},
	{"Or", (*array.Array).Or, logical, false, func(a, b int64) int64 { return a | b }, nil, false},
	{"Xor", (*array.Array).Xor, logical, false, func(a, b int64) int64 { return a ^ b }, nil, false},
}

// binaryModel models op over x and y (already of dtype-promoted kinds
// when one is a weak scalar: pass it as a 0-d model of dtype p).
func binaryModel(op binaryOp, x, y model, p array.DType) model {
	s, ok := broadcast(x.shape, y.shape)
	if !ok || (op.noBool && p == array.Bool) {
		return bad()
	}
	out, ok := op.rule(p)
	if !ok {
		return bad()
	}
	if op.compare {
		out = array.Bool
	}
	m := model{shape: s, dt: out}
	compute := out
	if op.compare {
		compute = p
	}
	// fuseflow casts the operands to the compute dtype as arrays of their
	// own: too big for it is an error even when the result is not.
	if !validShape(s, out) || !validShape(s, compute) {
		return bad()
	}
	a, b := stretch(x, s), stretch(y, s)
	if a == nil || b == nil {
		return m
	}
	vals := make([]num, len(a))
	for k := range a {
		// The operands are converted to the compute dtype first.
		va, vb := castNum(a[k], x.dt, compute), castNum(b[k], y.dt, compute)
		switch {
		case !isFloat(compute) && op.fi != nil:
			vals[k] = castNum(num{i: op.fi(va.i, vb.i)}, array.Int64, out)
		case isFloat(compute) && op.ff != nil:
			r := op.ff(va.f, vb.f)
			if op.name == "FloorDiv" && vb.f != 0 {
				return m // float floor division: left to the value-free checks
			}
			vals[k] = castNum(num{f: r}, array.Float64, out)
		default:
			return m
		}
	}
	m.vals = vals
	return m
}

// reduceModel models a reduction over axes (every axis when empty).
func reduceModel(name string, x model, axes []int, keep bool, ddof int) model {
	r := len(x.shape)
	arg := name == "ArgMax" || name == "ArgMin"
	var red []bool
	if arg {
		switch len(axes) {
		case 0:
			if size(x.shape) == 0 {
				return bad()
			}
			m := model{shape: []int{}, dt: array.Int64}
			if x.vals != nil {
				m.vals = []num{{i: argOf(name == "ArgMax", x.vals, x.dt)}}
			}
			return m
		case 1:
			ax, ok := normAxis(axes[0], r)
			if !ok {
				return bad()
			}
			red = make([]bool, r)
			red[ax] = true
		default:
			return bad()
		}
	} else {
		var ok bool
		if red, ok = normAxes(axes, r); !ok {
			return bad()
		}
	}
	empty := false
	var out, full []int // kept extents; extents with 1 on reduced axes
	for i, e := range x.shape {
		if red[i] {
			empty = empty || e == 0
			full = append(full, 1)
			if keep {
				out = append(out, 1)
			}
		} else {
			out = append(out, e)
			full = append(full, e)
		}
	}
	if out == nil {
		out = []int{}
	}
	if empty && (name == "Max" || name == "Min" || arg) {
		return bad()
	}
	m := model{shape: out}
	switch name {
	case "Sum", "Prod":
		m.dt = x.dt
		if x.dt == array.Bool || x.dt == array.Int32 {
			m.dt = array.Int64
		}
	case "Any", "All":
		m.dt = array.Bool
	case "ArgMax", "ArgMin":
		m.dt = array.Int64
	case "Mean", "Var", "Std":
		m.dt = x.dt
		if kindOf(x.dt) != kFloat {
			m.dt = array.Float64
		}
	default:
		m.dt = x.dt
	}
	// Sum and Prod accumulate in the input cast to int64, and Mean, Var
	// and Std in the input cast to their float dtype: arrays as big as
	// the input.
	if name != "Max" && name != "Min" && name != "Any" && name != "All" && !arg && !validShape(x.shape, m.dt) {
		return bad()
	}
	if !validShape(out, m.dt) {
		return bad()
	}
	if x.vals == nil || size(full) > maxModel {
		return m // unknown, or empty input with enormous kept extents
	}
	// Group the input's elements by output element.
	groups := make([][]num, size(full))
	fst := strides(full)
	for i := range size(x.shape) {
		o := 0
		rem := i
		for ax := len(x.shape) - 1; ax >= 0; ax-- {
			c := rem % x.shape[ax]
			rem /= x.shape[ax]
			if !red[ax] {
				o += c * fst[ax]
			}
		}
		groups[o] = append(groups[o], x.vals[i])
	}
	vals := make([]num, len(groups))
	for i, g := range groups {
		if arg {
			vals[i] = num{i: argOf(name == "ArgMax", g, x.dt)}
		} else {
			vals[i] = combine(name, g, x.dt, m.dt, ddof)
		}
	}
	m.vals = vals
	return m
}

// argOf is the index of the first maximum (or minimum) of g of dtype d;
// a NaN wins.
func argOf(isMax bool, g []num, d array.DType) int64 {
	best := 0
	for k, v := range g {
		if isFloat(d) {
			switch {
			case isNaN(g[best].f):
				return int64(best)
			case isNaN(v.f):
				return int64(k)
			case isMax && v.f > g[best].f, !isMax && v.f < g[best].f:
				best = k
			}
		} else if isMax && v.i > g[best].i || !isMax && v.i < g[best].i {
			best = k
		}
	}
	return int64(best)
}

// combine reduces one group of dtype in to dtype out: integer sums and
// products in int64 with wraparound, float ones in float64 rounded once,
// Mean, Var and Std in float64 from the values cast to float64.
func combine(name string, g []num, in, out array.DType, ddof int) num {
	switch name {
	case "Sum", "Prod":
		if isFloat(out) {
			acc := 0.0
			if name == "Prod" {
				acc = 1
			}
			for _, v := range g {
				if name == "Sum" {
					acc += v.f
				} else {
					acc *= v.f
				}
			}
			return castNum(num{f: acc}, array.Float64, out)
		}
		acc := int64(0)
		if name == "Prod" {
			acc = 1
		}
		for _, v := range g {
			if name == "Sum" {
				acc += v.i
			} else {
				acc *= v.i
			}
		}
		return num{i: acc}
	case "Max", "Min":
		r := g[0]
		for _, v := range g[1:] {
			switch {
			case isFloat(in) && name == "Max":
				r.f = maxNaN(r.f, v.f)
			case isFloat(in):
				r.f = minNaN(r.f, v.f)
			case name == "Max":
				r.i = max(r.i, v.i)
			default:
				r.i = min(r.i, v.i)
			}
		}
		return r
	case "Any", "All":
		want := name == "Any" // the value that decides
		for _, v := range g {
			if (isFloat(in) && v.f != 0 || !isFloat(in) && v.i != 0) == want {
				return num{i: b2i(want)}
			}
		}
		return num{i: b2i(!want)}
	}
	// Mean, Var, Std: in float64 from the values cast to float64.
	fs := make([]float64, len(g))
	for k, v := range g {
		fs[k] = castNum(v, in, array.Float64).f
	}
	s := 0.0
	for _, v := range fs {
		s += v
	}
	mean := s / float64(len(fs))
	res := mean
	if name != "Mean" {
		ss := 0.0
		for _, v := range fs {
			ss += (v - mean) * (v - mean)
		}
		res = ss / float64(max(len(fs)-ddof, 0))
		if name == "Std" {
			res = math.Sqrt(res)
		}
	}
	return castNum(num{f: res}, array.Float64, out)
}

// matmulModel is NumPy's matmul (bool operands are an error in fuseflow):
// integer products accumulate in int64 with wraparound, float ones in
// float64 rounded once.
func matmulModel(x, y model) model {
	if len(x.shape) == 0 || len(y.shape) == 0 {
		return bad()
	}
	a, b := x.shape, y.shape
	vecA, vecB := len(a) == 1, len(b) == 1
	if vecA {
		a = []int{1, a[0]}
	}
	if vecB {
		b = []int{b[0], 1}
	}
	m, k := a[len(a)-2], a[len(a)-1]
	k2, n := b[len(b)-2], b[len(b)-1]
	if k != k2 {
		return bad()
	}
	batch, ok := broadcast(a[:len(a)-2], b[:len(b)-2])
	if !ok {
		return bad()
	}
	d := promote(x.dt, y.dt)
	if d == array.Bool {
		return bad()
	}
	full := append(slices.Clone(batch), m, n)
	if !validShape(full, d) || !validShape(a, d) || !validShape(b, d) {
		return bad()
	}
	out := slices.Clone(batch)
	if !vecA {
		out = append(out, m)
	}
	if !vecB {
		out = append(out, n)
	}
	md := model{shape: out, dt: d}
	if x.vals == nil || y.vals == nil || size(full) > maxModel {
		return md
	}
	if size(full) == 0 {
		md.vals = []num{} // the batch extents may be enormous
		return md
	}
	av := stretch(model{shape: a, vals: castAll(x.vals, x.dt, d)}, append(slices.Clone(batch), m, k))
	bv := stretch(model{shape: b, vals: castAll(y.vals, y.dt, d)}, append(slices.Clone(batch), k, n))
	vals := make([]num, size(full))
	nb := size(batch)
	for p := range nb {
		for i := range m {
			for j := range n {
				var acc num
				for q := range k {
					va, vb := av[p*m*k+i*k+q], bv[p*k*n+q*n+j]
					acc.i += va.i * vb.i
					acc.f += va.f * vb.f
				}
				if isFloat(d) {
					acc = castNum(num{f: acc.f}, array.Float64, d)
				} else {
					acc = castNum(num{i: acc.i}, array.Int64, d)
				}
				vals[p*m*n+i*n+j] = acc
			}
		}
	}
	md.vals = vals
	return md
}

// sliceIndices is Python's slice.indices(n): start, step and length.
func sliceIndices(r array.Range, n int) (start, step, length int, ok bool) {
	step = r.Step
	if step == 0 {
		return 0, 0, 0, false
	}
	lower, upper := 0, n
	if step < 0 {
		lower, upper = -1, n-1
	}
	adj := func(v int) int {
		if v < 0 {
			v += n
			if v < lower {
				v = lower
			}
		} else if v > upper {
			v = upper
		}
		return v
	}
	var stop int
	if r.NoStart {
		start = lower
		if step > 0 {
			start = 0
		} else {
			start = upper
		}
	} else {
		start = adj(r.Start)
	}
	if r.NoStop {
		if step > 0 {
			stop = upper
		} else {
			stop = lower
		}
	} else {
		stop = adj(r.Stop)
	}
	switch {
	case step > 0 && stop > start:
		length = (stop - start + step - 1) / step
	case step < 0 && start > stop:
		length = (start - stop - step - 1) / -step
	}
	return start, step, length, true
}
