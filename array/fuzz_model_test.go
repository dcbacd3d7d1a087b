// The fuzz oracle: NumPy's rules for shapes, dtypes and values, written
// out again here independently of the graph package (with fuseflow's
// documented deviations: bool arithmetic and float math of bool are
// errors, Go numbers are weak scalars, integer division by zero is 0).

package array_test

import (
	"math"
	"slices"

	"github.com/fuseflow/fuseflow/array"
)

// model is what the oracle expects of one array: an error, or a shape, a
// dtype and (when cheap to know exactly) the values in row-major order.
type model struct {
	err   bool
	shape []int
	dt    array.DType
	vals  []float64 // nil when unknown
	tol   bool      // vals are compared with a tolerance (rounding differs)
}

func bad() model { return model{err: true} }

// maxModel is the most elements the oracle computes values for, and the
// largest array a program keeps building on.
const maxModel = 1 << 12

func size(s []int) int {
	n := 1
	for _, e := range s {
		n *= e
	}
	return n
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

// weak is a Go number operand: its kind and value.
type weak struct {
	kind int
	v    float64
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
func strides(s []int) []int {
	st := make([]int, len(s))
	acc := 1
	for i := len(s) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= s[i]
	}
	return st
}

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
func pick(vals []float64, idx []int) []float64 {
	if vals == nil {
		return nil
	}
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = vals[j]
	}
	return out
}

// stretch returns m's values broadcast to shape s.
func stretch(m model, s []int) []float64 {
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

// fit rounds v to what dtype d holds, or reports that the model cannot
// say exactly (integers past the range where float64 and the dtype agree).
func fit(vals []float64, d array.DType) []float64 {
	if vals == nil {
		return nil
	}
	out := make([]float64, len(vals))
	for i, v := range vals {
		switch d {
		case array.Float32:
			out[i] = float64(float32(v))
		case array.Bool:
			out[i] = b2f(v != 0)
		case array.Int32:
			if v != v || math.Abs(v) >= 1<<31 {
				return nil
			}
			out[i] = v + 0 // integers have no -0
		case array.Int64:
			if v != v || math.Abs(v) >= 1<<53 {
				return nil
			}
			out[i] = v + 0
		default:
			out[i] = v
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// castVal is AsType's documented conversion of one value to d.
func castVal(v float64, from, d array.DType) float64 {
	switch {
	case d == array.Bool:
		return b2f(v != 0)
	case kindOf(d) == kInt && kindOf(from) == kFloat:
		if v != v {
			return 0
		}
		lim := math.Ldexp(1, 63)
		if d == array.Int32 {
			lim = math.Ldexp(1, 31)
		}
		switch {
		case v >= lim:
			return lim - 1
		case v <= -lim:
			return -lim
		}
		return math.Trunc(v) + 0 // integers have no -0
	case d == array.Int32 && (v >= 1<<31 || v < -(1<<31)):
		return math.NaN() // wraps: fit gives up
	}
	return v
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

// unaryOp is one unary method: its rule and its value (nil: values unknown).
type unaryOp struct {
	name string
	call func(*array.Array) *array.Array
	rule unaryRule
	f    func(v float64, d array.DType) float64
	tol  bool // transcendental: compare with a tolerance
}

func isNaN(v float64) bool { return v != v }

var unaryOps = []unaryOp{
	{"Neg", (*array.Array).Neg, numeric, func(v float64, _ array.DType) float64 { return -v }, false},
	{"Abs", (*array.Array).Abs, anyDT, func(v float64, _ array.DType) float64 { return math.Abs(v) }, false},
	{"Sign", (*array.Array).Sign, numeric, func(v float64, _ array.DType) float64 {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return v // 0, -0 or NaN
	}, false},
	{"Sqrt", (*array.Array).Sqrt, fmath, func(v float64, _ array.DType) float64 { return math.Sqrt(v) }, true},
	{"Rsqrt", (*array.Array).Rsqrt, fmath, func(v float64, _ array.DType) float64 { return 1 / math.Sqrt(v) }, true},
	{"Exp", (*array.Array).Exp, fmath, func(v float64, _ array.DType) float64 { return math.Exp(v) }, true},
	{"Exp2", (*array.Array).Exp2, fmath, func(v float64, _ array.DType) float64 { return math.Exp2(v) }, true},
	{"Log", (*array.Array).Log, fmath, func(v float64, _ array.DType) float64 { return math.Log(v) }, true},
	{"Log2", (*array.Array).Log2, fmath, func(v float64, _ array.DType) float64 { return math.Log2(v) }, true},
	{"Log1p", (*array.Array).Log1p, fmath, func(v float64, _ array.DType) float64 { return math.Log1p(v) }, true},
	{"Expm1", (*array.Array).Expm1, fmath, func(v float64, _ array.DType) float64 { return math.Expm1(v) }, true},
	{"Sin", (*array.Array).Sin, fmath, func(v float64, _ array.DType) float64 { return math.Sin(v) }, true},
	{"Cos", (*array.Array).Cos, fmath, func(v float64, _ array.DType) float64 { return math.Cos(v) }, true},
	{"Tan", (*array.Array).Tan, fmath, nil, true},
	{"Tanh", (*array.Array).Tanh, fmath, func(v float64, _ array.DType) float64 { return math.Tanh(v) }, true},
	{"Sigmoid", (*array.Array).Sigmoid, fmath, func(v float64, _ array.DType) float64 { return 1 / (1 + math.Exp(-v)) }, true},
	{"Erf", (*array.Array).Erf, fmath, func(v float64, _ array.DType) float64 { return math.Erf(v) }, true},
	{"Floor", (*array.Array).Floor, numeric, func(v float64, _ array.DType) float64 { return math.Floor(v) }, false},
	{"Ceil", (*array.Array).Ceil, numeric, func(v float64, _ array.DType) float64 { return math.Ceil(v) }, false},
	{"Round", (*array.Array).Round, numeric, func(v float64, _ array.DType) float64 { return math.RoundToEven(v) }, false},
	{"Trunc", (*array.Array).Trunc, numeric, func(v float64, _ array.DType) float64 { return math.Trunc(v) }, false},
	{"Reciprocal", (*array.Array).Reciprocal, fmath, func(v float64, _ array.DType) float64 { return 1 / v }, true},
	{"Square", (*array.Array).Square, numeric, func(v float64, _ array.DType) float64 { return v * v }, false},
	{"IsNaN", (*array.Array).IsNaN, pred, func(v float64, _ array.DType) float64 { return b2f(isNaN(v)) }, false},
	{"IsInf", (*array.Array).IsInf, pred, func(v float64, _ array.DType) float64 { return b2f(math.IsInf(v, 0)) }, false},
	{"Not", (*array.Array).Not, logical, func(v float64, d array.DType) float64 {
		if d == array.Bool {
			return b2f(v == 0)
		}
		return float64(^int64(v))
	}, false},
}

// binaryOp is one binary method.
type binaryOp struct {
	name    string
	call    func(*array.Array, any) *array.Array
	rule    unaryRule // applied to the promoted dtype
	noBool  bool      // bool operands (after promotion) are an error
	f       func(a, b float64, d array.DType) float64
	compare bool
}

// floorDiv and mod follow NumPy for floats and fuseflow's documented
// choice (0) for integer division by zero.
func floorDiv(a, b float64, d array.DType) float64 {
	if kindOf(d) != kFloat {
		if b == 0 {
			return 0
		}
		return math.Floor(a / b)
	}
	if b == 0 {
		if a == 0 || isNaN(a) {
			return math.NaN()
		}
		return a / b
	}
	return math.NaN() // float floor division: left to the value-free checks
}

func mod(a, b float64, d array.DType) float64 {
	if kindOf(d) != kFloat {
		if b == 0 {
			return 0
		}
		return a - math.Floor(a/b)*b
	}
	return math.NaN()
}

func maxNaN(a, b float64, _ array.DType) float64 {
	if isNaN(a) || isNaN(b) {
		return math.NaN()
	}
	return math.Max(a, b)
}

func minNaN(a, b float64, _ array.DType) float64 {
	if isNaN(a) || isNaN(b) {
		return math.NaN()
	}
	return math.Min(a, b)
}

var binaryOps = []binaryOp{
	{"Add", (*array.Array).Add, anyDT, true, func(a, b float64, _ array.DType) float64 { return a + b }, false},
	{"Sub", (*array.Array).Sub, anyDT, true, func(a, b float64, _ array.DType) float64 { return a - b }, false},
	{"Mul", (*array.Array).Mul, anyDT, true, func(a, b float64, _ array.DType) float64 { return a * b }, false},
	{"Div", (*array.Array).Div, divRule, false, func(a, b float64, _ array.DType) float64 { return a / b }, false},
	{"FloorDiv", (*array.Array).FloorDiv, anyDT, true, floorDiv, false},
	{"Mod", (*array.Array).Mod, anyDT, true, mod, false},
	{"Pow", (*array.Array).Pow, anyDT, true, nil, false},
	{"Maximum", (*array.Array).Maximum, anyDT, false, maxNaN, false},
	{"Minimum", (*array.Array).Minimum, anyDT, false, minNaN, false},
	{"Atan2", (*array.Array).Atan2, fmath, false, nil, false},
	{"Eq", (*array.Array).Eq, anyDT, false, func(a, b float64, _ array.DType) float64 { return b2f(a == b) }, true},
	{"Ne", (*array.Array).Ne, anyDT, false, func(a, b float64, _ array.DType) float64 { return b2f(a != b) }, true},
	{"Lt", (*array.Array).Lt, anyDT, false, func(a, b float64, _ array.DType) float64 { return b2f(a < b) }, true},
	{"Le", (*array.Array).Le, anyDT, false, func(a, b float64, _ array.DType) float64 { return b2f(a <= b) }, true},
	{"Gt", (*array.Array).Gt, anyDT, false, func(a, b float64, _ array.DType) float64 { return b2f(a > b) }, true},
	{"Ge", (*array.Array).Ge, anyDT, false, func(a, b float64, _ array.DType) float64 { return b2f(a >= b) }, true},
	{"And", (*array.Array).And, logical, false, func(a, b float64, _ array.DType) float64 { return float64(int64(a) & int64(b)) }, false},
	{"Or", (*array.Array).Or, logical, false, func(a, b float64, _ array.DType) float64 { return float64(int64(a) | int64(b)) }, false},
	{"Xor", (*array.Array).Xor, logical, false, func(a, b float64, _ array.DType) float64 { return float64(int64(a) ^ int64(b)) }, false},
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
	a, b := stretch(x, s), stretch(y, s)
	if op.f == nil || a == nil || b == nil {
		return m
	}
	compute := out
	if op.compare {
		compute = p
	}
	vals := make([]float64, len(a))
	for i := range a {
		// The operands are converted to the compute dtype first.
		va, vb := castVal(a[i], x.dt, compute), castVal(b[i], y.dt, compute)
		if compute == array.Float32 {
			va, vb = float64(float32(va)), float64(float32(vb))
		}
		vals[i] = op.f(va, vb, compute)
		if op.name == "FloorDiv" || op.name == "Mod" {
			if kindOf(compute) == kFloat && !(op.name == "FloorDiv" && vb == 0) {
				return m // float floor division and modulo are checked by the tables
			}
		}
	}
	m.vals = fit(vals, out)
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
				m.vals = []float64{argOf(name == "ArgMax", x.vals)}
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
	count := 1
	var out, full []int // kept extents; extents with 1 on reduced axes
	for i, e := range x.shape {
		if red[i] {
			count *= e
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
	if count == 0 && (name == "Max" || name == "Min" || arg) {
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
	if x.vals == nil {
		return m
	}
	// Group the input's elements by output element.
	groups := make([][]float64, size(full))
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
	if arg {
		vals := make([]float64, len(groups))
		for i, g := range groups {
			vals[i] = argOf(name == "ArgMax", g)
		}
		m.vals = vals
		return m
	}
	vals := make([]float64, len(groups))
	for i, g := range groups {
		vals[i] = combine(name, g, x.dt, m.dt, ddof)
	}
	m.vals = fit(vals, m.dt)
	return m
}

// argOf is the index of the first maximum (or minimum); a NaN wins.
func argOf(isMax bool, g []float64) float64 {
	best := 0
	for i, v := range g {
		switch {
		case isNaN(g[best]):
			return float64(best)
		case isNaN(v):
			return float64(i)
		case isMax && v > g[best], !isMax && v < g[best]:
			best = i
		}
	}
	return float64(best)
}

// combine reduces one group: float sums in float64, rounded once.
func combine(name string, g []float64, in, out array.DType, ddof int) float64 {
	switch name {
	case "Sum":
		s := 0.0
		for _, v := range g {
			s += v
		}
		return s
	case "Prod":
		p := 1.0
		for _, v := range g {
			p *= v
		}
		return p
	case "Max", "Min":
		r := g[0]
		for _, v := range g[1:] {
			if name == "Max" {
				r = maxNaN(r, v, in)
			} else {
				r = minNaN(r, v, in)
			}
		}
		return r
	case "Any":
		for _, v := range g {
			if v != 0 {
				return 1
			}
		}
		return 0
	case "All":
		for _, v := range g {
			if v == 0 {
				return 0
			}
		}
		return 1
	}
	// Mean, Var, Std: in the float dtype.
	s := 0.0
	for _, v := range g {
		s += v
	}
	mean := s / float64(len(g))
	if name == "Mean" {
		return mean
	}
	ss := 0.0
	for _, v := range g {
		ss += (v - mean) * (v - mean)
	}
	v := ss / float64(max(len(g)-ddof, 0))
	if name == "Std" {
		return math.Sqrt(v)
	}
	return v
}

// matmulModel is NumPy's matmul (bool operands are an error in fuseflow).
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
	av := stretch(model{shape: a, vals: x.vals}, append(slices.Clone(batch), m, k))
	bv := stretch(model{shape: b, vals: y.vals}, append(slices.Clone(batch), k, n))
	vals := make([]float64, size(full))
	nb := size(batch)
	for p := range nb {
		for i := range m {
			for j := range n {
				acc := 0.0
				for q := range k {
					va := castVal(av[p*m*k+i*k+q], x.dt, d)
					vb := castVal(bv[p*k*n+q*n+j], y.dt, d)
					acc += va * vb
				}
				vals[p*m*n+i*n+j] = acc
			}
		}
	}
	md.vals = fit(vals, d)
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
