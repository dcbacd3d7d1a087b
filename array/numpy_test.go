// Table tests against NumPy: every case of testdata/numpy_cases.json
// (written by testdata/gen_numpy.py with NumPy 1.24) is a small program
// that this file runs with the array package, comparing dtype, shape and
// values within a per-op tolerance; plus the promotion, weak-scalar and
// broadcasting tables, and the documented places where fuseflow defines
// what NumPy leaves platform-defined or rejects.

package array_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/graph"
)

// npArray is an array as the generator encodes it: floats as strings
// ("0.1", "nan", "-inf"), ints as JSON numbers, bools as JSON booleans.
type npArray struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  []any  `json:"data"`
}

// npCase is one program with its inputs and NumPy's result.
type npCase struct {
	Name   string    `json:"name"`
	Inputs []npArray `json:"inputs"`
	Prog   []any     `json:"prog"`
	Want   npArray   `json:"want"`
}

type npFile struct {
	NumPyVersion string   `json:"numpy_version"`
	Skipped      []string `json:"skipped"`
	Cases        []npCase `json:"cases"`
}

func loadNumPyCases(t *testing.T) *npFile {
	t.Helper()
	f, err := os.Open("testdata/numpy_cases.json")
	require.NoError(t, err, "regenerate with /usr/bin/python3 array/testdata/gen_numpy.py")
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	var file npFile
	require.NoError(t, dec.Decode(&file))
	require.NotEmpty(t, file.Cases)
	require.True(t, strings.HasPrefix(file.NumPyVersion, "1.24"), "numpy_version %q", file.NumPyVersion)
	return &file
}

// npTol is how far a float result may be from NumPy's: within ulps units in
// the last place of the result dtype, or within rel relative error.
type npTol struct {
	ulps float64
	rel  float64
}

// npOpTol gives the tolerance of each step for float32 and float64 results.
// Ops missing here are exact. A case gets the loosest tolerance of its
// steps.
//
//   - IEEE arithmetic (Add, Sub, Mul, Square) is correctly rounded on
//     both sides; 1 ulp leaves room for backends that contract a*b+c.
//   - Div, Reciprocal, Sqrt and Rsqrt: 2 ulps in float32 (GPU
//     approximations), 1 in float64.
//   - Transcendental functions: NumPy uses its own SIMD float32 kernels
//     and glibc; fuseflow uses Go's math package or its PTX library:
//     4 ulps either way. Float64 Sin, Cos and Tan get 16: for arguments
//     beyond 2^29 Go's math package reduces by pi/2 with an absolute error
//     near 4e-17, which is ~11 ulps of a result near 0.01 (the data has
//     sin(3e38)); glibc, which NumPy uses, is correctly rounded there.
//   - Float reductions: NumPy sums float32 pairwise in float32, fuseflow's
//     reference accumulates in float64, so float32 sums, means and
//     products differ by up to about n*eps32 relative, and variances more
//     (they square a difference of means); float64 ones within 1e-12.
//   - MatMul: dot products, as sums.
//   - HistogramWith: sums of float weights in another order than
//     NumPy's, and a density's divisions.
//   - Arange and Linspace: NumPy fills float32 arange in float32
//     arithmetic, fuseflow computes start+i*step in float64 then rounds:
//     1 ulp.
var npOpTol = map[string][2]npTol{
	"Add": {{ulps: 1}, {ulps: 1}}, "Sub": {{ulps: 1}, {ulps: 1}}, "Mul": {{ulps: 1}, {ulps: 1}},
	"Square": {{ulps: 1}, {ulps: 1}}, "FloorDiv": {{ulps: 1}, {ulps: 1}}, "Mod": {{ulps: 1}, {ulps: 1}},
	"Div": {{ulps: 2}, {ulps: 1}}, "Reciprocal": {{ulps: 2}, {ulps: 1}},
	"Sqrt": {{ulps: 2}, {ulps: 1}}, "Rsqrt": {{ulps: 2}, {ulps: 1}},

	"Exp": {{ulps: 4}, {ulps: 4}}, "Exp2": {{ulps: 4}, {ulps: 4}}, "Expm1": {{ulps: 4}, {ulps: 4}},
	"Log": {{ulps: 4}, {ulps: 4}}, "Log2": {{ulps: 4}, {ulps: 4}}, "Log1p": {{ulps: 4}, {ulps: 4}},
	"Sin": {{ulps: 4}, {ulps: 16}}, "Cos": {{ulps: 4}, {ulps: 16}}, "Tan": {{ulps: 4}, {ulps: 16}},
	"Tanh": {{ulps: 4}, {ulps: 4}}, "Sigmoid": {{ulps: 4}, {ulps: 4}}, "Erf": {{ulps: 4}, {ulps: 4}},
	"Pow": {{ulps: 4}, {ulps: 4}}, "Atan2": {{ulps: 4}, {ulps: 4}},

	"Sum": {{rel: 1e-5}, {rel: 1e-12}}, "Mean": {{rel: 1e-5}, {rel: 1e-12}},
	"Prod": {{rel: 1e-5}, {rel: 1e-12}},
	"Var":  {{rel: 1e-4}, {rel: 1e-12}}, "Std": {{rel: 1e-4}, {rel: 1e-12}},
	"MatMul": {{rel: 1e-5}, {rel: 1e-12}},

	"HistogramWith": {{rel: 1e-6}, {rel: 1e-12}},

	"Arange": {{ulps: 1}, {ulps: 1}}, "Linspace": {{ulps: 1}, {ulps: 1}},
}

// npCaseTol returns the loosest tolerance of the steps of prog (nested
// programs included) for result dtype d.
func npCaseTol(prog []any, d array.DType) npTol {
	var out npTol
	npEachStep(prog, func(st []any) {
		name, _ := st[0].(string)
		if tt, ok := npOpTol[name]; ok {
			x := tt[1]
			if d == array.Float32 {
				x = tt[0]
			}
			out.ulps = max(out.ulps, x.ulps)
			out.rel = max(out.rel, x.rel)
		}
	})
	return out
}

// npEachStep calls f with each step of prog, then with the steps of the
// programs nested in its operands.
func npEachStep(prog []any, f func(st []any)) {
	for _, s := range prog {
		if st, ok := s.([]any); ok && len(st) > 0 {
			f(st)
			for _, a := range st[1:] {
				npEachOperandStep(a, f)
			}
		}
	}
}

// npEachOperandStep is npEachStep for the programs nested in operand a.
func npEachOperandStep(a any, f func(st []any)) {
	switch x := a.(type) {
	case map[string]any:
		if p, ok := x["prog"].([]any); ok {
			npEachStep(p, f)
		}
	case []any:
		for _, e := range x {
			npEachOperandStep(e, f)
		}
	}
}

// npStepsUsed returns the names of the steps the generated cases use,
// nested programs included.
func npStepsUsed(t *testing.T) map[string]bool {
	seen := map[string]bool{}
	for _, c := range loadNumPyCases(t).Cases {
		npEachStep(c.Prog, func(st []any) {
			name, _ := st[0].(string)
			seen[name] = true
		})
	}
	return seen
}

// TestNumPyCases runs every generated case on the reference evaluator,
// on the CPU executor, and on the default backend when that is another
// one (CUDA where a GPU is present).
func TestNumPyCases(t *testing.T) {
	file := loadNumPyCases(t)
	backends := map[string]func() exec.Backend{
		"ref": func() exec.Backend { return ref.New() },
		"cpu": func() exec.Backend { return cpu.New(cpu.Options{}) },
	}
	if d := array.Default(); d.Err() == nil && backends[d.Backend()] == nil {
		backends[d.Backend()] = nil // the default backend, chosen by NewContext
	}
	for name, mk := range backends {
		t.Run(name, func(t *testing.T) {
			for _, c := range file.Cases {
				t.Run(c.Name, func(t *testing.T) {
					npRunNumPyCase(t, c, mk)
				})
			}
		})
	}
}

func npRunNumPyCase(t *testing.T, c npCase, backend func() exec.Backend) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	opts := []array.Option{array.WithAllocator(mem)}
	if backend != nil {
		opts = append(opts, array.WithBackend(backend()))
	}
	ctx, err := array.NewContext(opts...)
	require.NoError(t, err)
	r := &npRunner{ctx: ctx}
	defer func() {
		r.releaseAll()
		if n := mem.CurrentAlloc(); n != 0 {
			t.Errorf("case %s: %d bytes left allocated after Release", c.Name, n)
		}
	}()
	for i, in := range c.Inputs {
		a, err := r.input(in)
		require.NoError(t, err, "case %s: input %d", c.Name, i)
		r.inputs = append(r.inputs, a)
	}
	got, err := r.run(c.Prog)
	require.NoError(t, err, "case %s: building the program", c.Name)
	if err := got.Err(); err != nil {
		t.Fatalf("case %s: build error: %v", c.Name, err)
	}
	if err := array.Eval(context.Background(), got); err != nil {
		t.Fatalf("case %s: Eval: %v", c.Name, err)
	}
	wantD, err := graph.ParseDType(c.Want.DType)
	require.NoError(t, err)
	if got.DType() != wantD {
		t.Fatalf("case %s: dtype got:%v want:%v", c.Name, got.DType(), wantD)
	}
	if !got.Shape().Equal(graph.Shape(c.Want.Shape)) {
		t.Fatalf("case %s: shape got:%v want:%v", c.Name, got.Shape(), graph.Shape(c.Want.Shape))
	}
	npCompareValues(t, c.Name, got, c.Want, npCaseTol(c.Prog, wantD))
}

// npCompareValues compares got's values with want's: exactly for ints and
// bools, within tl for floats (NaN equals NaN). It reports at most a few
// elements per case.
func npCompareValues(t *testing.T, name string, got *array.Array, want npArray, tl npTol) {
	t.Helper()
	shape := graph.Shape(want.Shape)
	bad := 0
	report := func(i int, g, w any) {
		bad++
		if bad > 5 {
			return
		}
		if got.DType().IsFloat() {
			t.Errorf("case %s: element %d %v: got:%v want:%v (tolerance %v ulps, rel %g)",
				name, i, npUnravel(i, shape), g, w, tl.ulps, tl.rel)
		} else {
			t.Errorf("case %s: element %d %v: got:%v want:%v", name, i, npUnravel(i, shape), g, w)
		}
	}
	switch got.DType() {
	case array.Bool:
		g, err := array.ToSlice[bool](got)
		require.NoError(t, err)
		require.Len(t, g, len(want.Data))
		for i, wv := range want.Data {
			if w := wv.(bool); g[i] != w {
				report(i, g[i], w)
			}
		}
	case array.Int32:
		g, err := array.ToSlice[int32](got)
		require.NoError(t, err)
		require.Len(t, g, len(want.Data))
		for i, wv := range want.Data {
			if w := npMustInt(t, wv); int64(g[i]) != w {
				report(i, g[i], w)
			}
		}
	case array.Int64:
		g, err := array.ToSlice[int64](got)
		require.NoError(t, err)
		require.Len(t, g, len(want.Data))
		for i, wv := range want.Data {
			if w := npMustInt(t, wv); g[i] != w {
				report(i, g[i], w)
			}
		}
	case array.Float32:
		g, err := array.ToSlice[float32](got)
		require.NoError(t, err)
		require.Len(t, g, len(want.Data))
		for i, wv := range want.Data {
			w := float32(npMustFloat(t, wv))
			if !npCloseFloat(float64(g[i]), float64(w), npUlps32(g[i], w), tl) {
				report(i, g[i], w)
			}
		}
	case array.Float64:
		g, err := array.ToSlice[float64](got)
		require.NoError(t, err)
		require.Len(t, g, len(want.Data))
		for i, wv := range want.Data {
			w := npMustFloat(t, wv)
			if !npCloseFloat(g[i], w, npUlps64(g[i], w), tl) {
				report(i, g[i], w)
			}
		}
	default:
		npCompareNew(t, name, got, want, tl, report)
	}
	if bad > 5 {
		t.Errorf("case %s: %d of %d elements differ", name, bad, len(want.Data))
	}
}

func npCloseFloat(g, w, ulps float64, tl npTol) bool {
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		return math.IsNaN(w) && math.IsNaN(g)
	case g == w:
		return true
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		return false
	case ulps <= tl.ulps:
		return true
	}
	return math.Abs(g-w) <= tl.rel*math.Max(math.Abs(g), math.Abs(w))
}

// npUlps32 returns the distance between a and b in float32 units in the
// last place (the number of float32 values between them).
func npUlps32(a, b float32) float64 {
	return math.Abs(float64(npOrderedBits32(a)) - float64(npOrderedBits32(b)))
}

func npOrderedBits32(f float32) int64 {
	b := int64(int32(math.Float32bits(f)))
	if b < 0 {
		b = math.MinInt32 - b
	}
	return b
}

// npUlps64 returns the distance between a and b in float64 units in the
// last place.
func npUlps64(a, b float64) float64 {
	x, y := npOrderedBits64(a), npOrderedBits64(b)
	if (x < 0) != (y < 0) {
		return math.Abs(float64(x)) + math.Abs(float64(y))
	}
	d := x - y
	if d < 0 {
		d = -d
	}
	return float64(d)
}

func npOrderedBits64(f float64) int64 {
	b := int64(math.Float64bits(f))
	if b < 0 {
		b = math.MinInt64 - b
	}
	return b
}

func npUnravel(i int, s graph.Shape) []int {
	idx := make([]int, len(s))
	for k := len(s) - 1; k >= 0; k-- {
		if s[k] > 0 {
			idx[k] = i % s[k]
			i /= s[k]
		}
	}
	return idx
}

func npMustInt(t *testing.T, v any) int64 {
	t.Helper()
	n, err := npAsInt64(v)
	require.NoError(t, err)
	return n
}

func npMustFloat(t *testing.T, v any) float64 {
	t.Helper()
	f, err := npAsFloat(v)
	require.NoError(t, err)
	return f
}

func npAsInt64(v any) (int64, error) {
	switch x := v.(type) {
	case json.Number:
		return strconv.ParseInt(string(x), 10, 64)
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("not an integer: %v (%T)", v, v)
}

func npAsInt(v any) (int, error) {
	n, err := npAsInt64(v)
	return int(n), err
}

func npAsFloat(v any) (float64, error) {
	switch x := v.(type) {
	case string:
		return strconv.ParseFloat(x, 64)
	case json.Number:
		return strconv.ParseFloat(string(x), 64)
	}
	return 0, fmt.Errorf("not a float: %v (%T)", v, v)
}

func npAsInts(v any) ([]int, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("not a list of ints: %v", v)
	}
	out := make([]int, len(l))
	for i, e := range l {
		n, err := npAsInt(e)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func npAsDType(v any) (array.DType, error) {
	s, ok := v.(string)
	if !ok {
		return 0, fmt.Errorf("not a dtype name: %v", v)
	}
	return graph.ParseDType(s)
}

// npRunner interprets the generator's programs with the array package.
type npRunner struct {
	ctx    *array.Context
	inputs []*array.Array
	made   []*array.Array
}

func (r *npRunner) keep(a *array.Array) *array.Array {
	r.made = append(r.made, a)
	return a
}

func (r *npRunner) releaseAll() {
	for _, a := range r.made {
		a.Release()
	}
	for _, a := range r.inputs {
		a.Release()
	}
}

// input builds an input array with FromSlice.
func (r *npRunner) input(in npArray) (*array.Array, error) {
	d, err := graph.ParseDType(in.DType)
	if err != nil {
		return nil, err
	}
	shape := in.Shape
	n := len(in.Data)
	var a *array.Array
	switch d {
	case array.Bool:
		v := make([]bool, n)
		for i, e := range in.Data {
			b, ok := e.(bool)
			if !ok {
				return nil, fmt.Errorf("not a bool: %v", e)
			}
			v[i] = b
		}
		a = npInputFrom(r, v, shape)
	case array.Int32, array.Int64:
		v := make([]int64, n)
		for i, e := range in.Data {
			if v[i], err = npAsInt64(e); err != nil {
				return nil, err
			}
		}
		if d == array.Int32 {
			w := make([]int32, n)
			for i, x := range v {
				w[i] = int32(x)
			}
			a = npInputFrom(r, w, shape)
		} else {
			a = npInputFrom(r, v, shape)
		}
	case array.Float32, array.Float64:
		v := make([]float64, n)
		for i, e := range in.Data {
			if v[i], err = npAsFloat(e); err != nil {
				return nil, err
			}
		}
		if d == array.Float32 {
			w := make([]float32, n)
			for i, x := range v {
				w[i] = float32(x)
			}
			a = npInputFrom(r, w, shape)
		} else {
			a = npInputFrom(r, v, shape)
		}
	default:
		return npInputNew(r, d, in)
	}
	return a, a.Err()
}

// npFromSlice returns data laid out in shape; a 0-d shape is a reshape of a
// one-element vector. The caller releases both returned arrays (base is
// the FromSlice array that holds the data; it is a for other shapes).
func npFromSlice[T array.Number](c *array.Context, data []T, shape []int) (a, base *array.Array) {
	if len(shape) == 0 {
		base = array.FromSlice(c, data)
		return base.Reshape(), base
	}
	a = array.FromSlice(c, data, shape...)
	return a, a
}

// npInputFrom returns npFromSlice's array and leaves its base for r to
// release.
func npInputFrom[T array.Number](r *npRunner, data []T, shape []int) *array.Array {
	a, base := npFromSlice(r.ctx, data, shape)
	if base != a {
		r.keep(base)
	}
	return a
}

var npUnaryOps = map[string]func(*array.Array) *array.Array{
	"Neg": (*array.Array).Neg, "Abs": (*array.Array).Abs, "Sign": (*array.Array).Sign,
	"Sqrt": (*array.Array).Sqrt, "Rsqrt": (*array.Array).Rsqrt, "Exp": (*array.Array).Exp,
	"Exp2": (*array.Array).Exp2, "Log": (*array.Array).Log, "Log2": (*array.Array).Log2,
	"Log1p": (*array.Array).Log1p, "Expm1": (*array.Array).Expm1, "Sin": (*array.Array).Sin,
	"Cos": (*array.Array).Cos, "Tan": (*array.Array).Tan, "Tanh": (*array.Array).Tanh,
	"Sigmoid": (*array.Array).Sigmoid, "Erf": (*array.Array).Erf, "Floor": (*array.Array).Floor,
	"Ceil": (*array.Array).Ceil, "Round": (*array.Array).Round, "Trunc": (*array.Array).Trunc,
	"Reciprocal": (*array.Array).Reciprocal, "Square": (*array.Array).Square,
	"IsNaN": (*array.Array).IsNaN, "IsInf": (*array.Array).IsInf, "Not": (*array.Array).Not,
	"Transpose": (*array.Array).Transpose, "Flatten": (*array.Array).Flatten,
	"Contiguous": (*array.Array).Contiguous,
}

var npBinaryOps = map[string]func(*array.Array, any) *array.Array{
	"Add": (*array.Array).Add, "Sub": (*array.Array).Sub, "Mul": (*array.Array).Mul,
	"Div": (*array.Array).Div, "FloorDiv": (*array.Array).FloorDiv, "Mod": (*array.Array).Mod,
	"Pow": (*array.Array).Pow, "Maximum": (*array.Array).Maximum, "Minimum": (*array.Array).Minimum,
	"Atan2": (*array.Array).Atan2, "Eq": (*array.Array).Eq, "Ne": (*array.Array).Ne,
	"Lt": (*array.Array).Lt, "Le": (*array.Array).Le, "Gt": (*array.Array).Gt, "Ge": (*array.Array).Ge,
	"And": (*array.Array).And, "Or": (*array.Array).Or, "Xor": (*array.Array).Xor,
}

type npReduceFns struct {
	plain, keep func(*array.Array, ...int) *array.Array
}

var npReduceOps = map[string]npReduceFns{
	"Sum":  {(*array.Array).Sum, (*array.Array).SumKeepDims},
	"Prod": {(*array.Array).Prod, (*array.Array).ProdKeepDims},
	"Mean": {(*array.Array).Mean, (*array.Array).MeanKeepDims},
	"Max":  {(*array.Array).Max, (*array.Array).MaxKeepDims},
	"Min":  {(*array.Array).Min, (*array.Array).MinKeepDims},
	"Any":  {(*array.Array).Any, (*array.Array).AnyKeepDims},
	"All":  {(*array.Array).All, (*array.Array).AllKeepDims},
}

type npMomentFns struct {
	plain, keep func(*array.Array, int, ...int) *array.Array
}

var npMomentOps = map[string]npMomentFns{
	"Var": {(*array.Array).VarDdof, (*array.Array).VarDdofKeepDims},
	"Std": {(*array.Array).StdDdof, (*array.Array).StdDdofKeepDims},
}

var npArgOps = map[string]func(*array.Array, ...int) *array.Array{
	"ArgMax": (*array.Array).ArgMax, "ArgMin": (*array.Array).ArgMin,
}

// run evaluates a program: it starts from inputs[0], from inputs[k] for
// a first step ["Input", k], or from a constructor step.
func (r *npRunner) run(prog []any) (*array.Array, error) {
	if len(prog) == 0 {
		return nil, fmt.Errorf("empty program")
	}
	steps := make([][]any, len(prog))
	for i, s := range prog {
		st, ok := s.([]any)
		if !ok || len(st) == 0 {
			return nil, fmt.Errorf("step %d is not [name, args...]: %v", i, s)
		}
		if _, ok := st[0].(string); !ok {
			return nil, fmt.Errorf("step %d has no name: %v", i, s)
		}
		steps[i] = st
	}
	x, rest, err := r.start(steps)
	if err != nil {
		return nil, err
	}
	for _, st := range rest {
		if x, err = r.step(x, st); err != nil {
			return nil, fmt.Errorf("step %v: %w", st, err)
		}
		r.keep(x)
	}
	return x, nil
}

func (r *npRunner) start(steps [][]any) (*array.Array, [][]any, error) {
	st := steps[0]
	name, args := st[0].(string), st[1:]
	c := r.ctx
	var x *array.Array
	switch name {
	case "Input":
		k, err := npAsInt(args[0])
		if err != nil || k >= len(r.inputs) {
			return nil, nil, fmt.Errorf("bad input reference %v", args)
		}
		return r.inputs[k], steps[1:], nil
	case "Arange":
		start, err1 := npAsFloat(args[0])
		stop, err2 := npAsFloat(args[1])
		step, err3 := npAsFloat(args[2])
		d, err4 := npAsDType(args[3])
		if err := npFirstError(err1, err2, err3, err4); err != nil {
			return nil, nil, err
		}
		x = c.ArangeStep(d, start, stop, step)
	case "Linspace":
		start, err1 := npAsFloat(args[0])
		stop, err2 := npAsFloat(args[1])
		n, err3 := npAsInt(args[2])
		d, err4 := npAsDType(args[3])
		if err := npFirstError(err1, err2, err3, err4); err != nil {
			return nil, nil, err
		}
		x = c.Linspace(d, start, stop, n)
	case "Eye":
		n, err1 := npAsInt(args[0])
		m, err2 := npAsInt(args[1])
		k, err3 := npAsInt(args[2])
		d, err4 := npAsDType(args[3])
		if err := npFirstError(err1, err2, err3, err4); err != nil {
			return nil, nil, err
		}
		x = c.Eye(d, n, m, k)
	case "Full":
		d, err1 := npAsDType(args[0])
		var v any
		var err2 error
		if n, ok := args[1].(json.Number); ok && !strings.ContainsAny(string(n), ".eE") {
			v, err2 = npAsInt64(n) // an integer value, exact
		} else {
			v, err2 = npAsFloat(args[1])
		}
		s, err3 := npAsInts(args[2])
		if err := npFirstError(err1, err2, err3); err != nil {
			return nil, nil, err
		}
		x = c.Full(d, v, s...)
	case "Zeros", "Ones":
		d, err1 := npAsDType(args[0])
		s, err2 := npAsInts(args[1])
		if err := npFirstError(err1, err2); err != nil {
			return nil, nil, err
		}
		if name == "Zeros" {
			x = c.Zeros(d, s...)
		} else {
			x = c.Ones(d, s...)
		}
	default:
		if len(r.inputs) == 0 {
			return nil, nil, fmt.Errorf("program starts with %q but has no inputs", name)
		}
		return r.inputs[0], steps, nil
	}
	return r.keep(x), steps[1:], nil
}

func npFirstError(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// operand returns a binary step's operand: an input, a nested program's
// result, or a Go number (int, float64 or bool: weakly typed).
func (r *npRunner) operand(v any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return nil, fmt.Errorf("bad operand %v", v)
	}
	for k, e := range m {
		switch k {
		case "in":
			i, err := npAsInt(e)
			if err != nil || i >= len(r.inputs) {
				return nil, fmt.Errorf("bad input reference %v", v)
			}
			return r.inputs[i], nil
		case "prog":
			p, ok := e.([]any)
			if !ok {
				return nil, fmt.Errorf("bad nested program %v", v)
			}
			return r.run(p)
		case "int":
			return npAsInt(e)
		case "float":
			return npAsFloat(e)
		case "bool":
			b, ok := e.(bool)
			if !ok {
				return nil, fmt.Errorf("bad bool %v", v)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("bad operand %v", v)
}

func (r *npRunner) arrayOperands(v any) ([]*array.Array, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("not a list of operands: %v", v)
	}
	var out []*array.Array
	for _, e := range l {
		o, err := r.operand(e)
		if err != nil {
			return nil, err
		}
		a, ok := o.(*array.Array)
		if !ok {
			return nil, fmt.Errorf("operand %v is not an array", e)
		}
		out = append(out, a)
	}
	return out, nil
}

// npAxesArg returns a reduction's axes: nil for JSON null (every axis).
func npAxesArg(v any) ([]int, error) {
	if v == nil {
		return nil, nil
	}
	return npAsInts(v)
}

func npRangeArg(v any) (graph.Range, error) {
	l, ok := v.([]any)
	if !ok || len(l) != 3 {
		return graph.Range{}, fmt.Errorf("bad slice %v", v)
	}
	rg := graph.Range{Step: 1}
	var err error
	if l[0] == nil {
		rg.NoStart = true
	} else if rg.Start, err = npAsInt(l[0]); err != nil {
		return rg, err
	}
	if l[1] == nil {
		rg.NoStop = true
	} else if rg.Stop, err = npAsInt(l[1]); err != nil {
		return rg, err
	}
	if l[2] != nil {
		if rg.Step, err = npAsInt(l[2]); err != nil {
			return rg, err
		}
	}
	return rg, nil
}

// step applies one step to x.
func (r *npRunner) step(x *array.Array, st []any) (*array.Array, error) {
	name, args := st[0].(string), st[1:]
	if f, ok := npIndexSteps[name]; ok {
		return f(r, x, args)
	}
	if f, ok := npUnaryOps[name]; ok {
		return f(x), nil
	}
	if f, ok := npBinaryOps[name]; ok {
		o, err := r.operand(args[0])
		if err != nil {
			return nil, err
		}
		return f(x, o), nil
	}
	if f, ok := npReduceOps[name]; ok {
		axes, err := npAxesArg(args[0])
		if err != nil {
			return nil, err
		}
		if keep, _ := args[1].(bool); keep {
			return f.keep(x, axes...), nil
		}
		return f.plain(x, axes...), nil
	}
	if f, ok := npMomentOps[name]; ok {
		ddof, err1 := npAsInt(args[0])
		axes, err2 := npAxesArg(args[1])
		if err := npFirstError(err1, err2); err != nil {
			return nil, err
		}
		if keep, _ := args[2].(bool); keep {
			return f.keep(x, ddof, axes...), nil
		}
		return f.plain(x, ddof, axes...), nil
	}
	if f, ok := npScanOps[name]; ok {
		return npScan(x, f, args)
	}
	if f, ok := npSortSteps[name]; ok {
		return f(x, args)
	}
	if f, ok := npArgOps[name]; ok {
		if args[0] == nil {
			return f(x), nil
		}
		ax, err := npAsInt(args[0])
		if err != nil {
			return nil, err
		}
		return f(x, ax), nil
	}
	switch name {
	case "AsType":
		d, err := npAsDType(args[0])
		if err != nil {
			return nil, err
		}
		return x.AsType(d), nil
	case "Where", "Clip":
		a, err1 := r.operand(args[0])
		b, err2 := r.operand(args[1])
		if err := npFirstError(err1, err2); err != nil {
			return nil, err
		}
		if name == "Where" {
			return array.Where(x, a, b), nil
		}
		return x.Clip(a, b), nil
	case "Reshape", "Permute", "BroadcastTo", "Squeeze":
		s, err := npAsInts(args[0])
		if err != nil {
			return nil, err
		}
		switch name {
		case "Reshape":
			return x.Reshape(s...), nil
		case "Permute":
			return x.Permute(s...), nil
		case "BroadcastTo":
			return x.BroadcastTo(s...), nil
		}
		return x.Squeeze(s...), nil
	case "ExpandDims":
		ax, err := npAsInt(args[0])
		if err != nil {
			return nil, err
		}
		return x.ExpandDims(ax), nil
	case "Slice":
		l, ok := args[0].([]any)
		if !ok {
			return nil, fmt.Errorf("bad slice list %v", args[0])
		}
		ranges := make([]graph.Range, len(l))
		for i, e := range l {
			rg, err := npRangeArg(e)
			if err != nil {
				return nil, err
			}
			ranges[i] = rg
		}
		return x.Slice(ranges...), nil
	case "Concat", "Stack":
		ax, err1 := npAsInt(args[0])
		rest, err2 := r.arrayOperands(args[1])
		if err := npFirstError(err1, err2); err != nil {
			return nil, err
		}
		xs := append([]*array.Array{x}, rest...)
		if name == "Concat" {
			return array.Concat(ax, xs...), nil
		}
		return array.Stack(ax, xs...), nil
	case "MatMul":
		o, err := r.operand(args[0])
		if err != nil {
			return nil, err
		}
		b, ok := o.(*array.Array)
		if !ok {
			return nil, fmt.Errorf("MatMul operand %v is not an array", args[0])
		}
		return array.MatMul(x, b), nil
	}
	if f, ok := npRearrangeSteps[name]; ok {
		return f(r, x, args)
	}
	return nil, fmt.Errorf("unknown step %q", name)
}

// TestNumPyCasesCoverEveryOp checks that the generated data exercises every
// op of the API at least once.
func TestNumPyCasesCoverEveryOp(t *testing.T) {
	seen := npStepsUsed(t)
	want := slices.Collect(maps.Keys(npUnaryOps))
	want = slices.AppendSeq(want, maps.Keys(npBinaryOps))
	want = slices.AppendSeq(want, maps.Keys(npReduceOps))
	want = append(want, "Var", "Std", "ArgMax", "ArgMin", "AsType", "Where", "Clip", "Reshape",
		"Permute", "BroadcastTo", "Squeeze", "ExpandDims", "Slice", "Concat", "Stack", "MatMul",
		"Arange", "Linspace", "Eye", "Full", "Zeros", "Ones")
	for n := range npRearrangeSteps {
		want = append(want, n)
	}
	for _, n := range want {
		if !seen[n] {
			t.Errorf("no NumPy case uses %s", n)
		}
	}
}

// npPromoteTable is graph/promote.go's array-with-array table, which NumPy
// 1.24 follows for arrays (value-based casting only affects scalars).
var npPromoteTable = map[[2]array.DType]array.DType{}

func init() {
	d := []array.DType{array.Bool, array.Int32, array.Int64, array.Float32, array.Float64}
	rows := [5][5]array.DType{
		{array.Bool, array.Int32, array.Int64, array.Float32, array.Float64},
		{array.Int32, array.Int32, array.Int64, array.Float64, array.Float64},
		{array.Int64, array.Int64, array.Int64, array.Float64, array.Float64},
		{array.Float32, array.Float64, array.Float64, array.Float32, array.Float64},
		{array.Float64, array.Float64, array.Float64, array.Float64, array.Float64},
	}
	for i, a := range d {
		for j, b := range d {
			npPromoteTable[[2]array.DType{a, b}] = rows[i][j]
		}
	}
}

// TestPromotionTable checks the result dtype of ops over every dtype pair:
// Maximum gives the promoted dtype, Add too except bool+bool (an error,
// graph/build.go), Div gives float64 for ints and bools, comparisons give
// bool, and the result of Eval has the dtype reported before it.
func TestPromotionTable(t *testing.T) {
	ctx := array.MustContext()
	for pair, want := range npPromoteTable {
		a := ctx.Ones(pair[0], 2, 1)
		b := ctx.Ones(pair[1], 3)
		name := fmt.Sprintf("%v,%v", pair[0], pair[1])
		t.Run(name, func(t *testing.T) {
			m := a.Maximum(b)
			require.NoError(t, m.Err())
			if m.DType() != want {
				t.Errorf("Maximum(%s) got:%v want:%v", name, m.DType(), want)
			}
			require.NoError(t, m.Eval())
			if m.DType() != want {
				t.Errorf("Maximum(%s) after Eval got:%v want:%v", name, m.DType(), want)
			}
			add := a.Add(b)
			if want == array.Bool {
				// Intended deviation (graph/build.go Binary): bool arithmetic is
				// an error; NumPy's bool + bool is logical or.
				require.Error(t, add.Err(), "Add(%s)", name)
			} else if add.DType() != want {
				t.Errorf("Add(%s) got:%v want:%v", name, add.DType(), want)
			}
			div := a.Div(b)
			wantDiv := want
			if !want.IsFloat() {
				wantDiv = array.Float64
			}
			if div.DType() != wantDiv {
				t.Errorf("Div(%s) got:%v want:%v", name, div.DType(), wantDiv)
			}
			if eq := a.Eq(b); eq.DType() != array.Bool {
				t.Errorf("Eq(%s) got:%v want:bool", name, eq.DType())
			}
			if w := array.Where(ctx.Ones(array.Bool, 1), a, b); w.DType() != want {
				t.Errorf("Where(%s) got:%v want:%v", name, w.DType(), want)
			}
			if c := array.Concat(0, a.Reshape(2), b); c.DType() != want {
				t.Errorf("Concat(%s) got:%v want:%v", name, c.DType(), want)
			}
			if want != array.Bool {
				if mm := array.MatMul(ctx.Ones(pair[0], 2, 3), ctx.Ones(pair[1], 3, 2)); mm.DType() != want {
					t.Errorf("MatMul(%s) got:%v want:%v", name, mm.DType(), want)
				}
			}
		})
	}
}

// TestWeakScalarPromotion checks graph/promote.go's table for an array
// with a Go number (NEP 50, as NumPy 2 and JAX; NumPy 1.24 casts by value
// instead, which is why the generated data leaves some of these out).
func TestWeakScalarPromotion(t *testing.T) {
	ctx := array.MustContext()
	tests := []struct {
		d      array.DType
		scalar any
		want   array.DType
	}{
		{array.Bool, true, array.Bool},
		{array.Bool, 2, array.Int64},
		{array.Bool, 2.5, array.Float64},
		{array.Int32, true, array.Int32},
		{array.Int32, 2, array.Int32},
		{array.Int32, int64(-7), array.Int32},
		{array.Int32, uint8(200), array.Int32},
		{array.Int32, 2.5, array.Float64},
		{array.Int32, float32(2.5), array.Float64},
		{array.Int64, true, array.Int64},
		{array.Int64, 1 << 40, array.Int64},
		{array.Int64, 2.5, array.Float64},
		{array.Int64, uint64(math.MaxUint64), array.Float64}, // beyond int64: a float
		{array.Float32, true, array.Float32},
		{array.Float32, 2, array.Float32},
		{array.Float32, 1 << 40, array.Float32}, // NumPy 1.24: float64 (value-based)
		{array.Float32, 2.5, array.Float32},
		{array.Float32, 1e300, array.Float32}, // NumPy 1.24: float64 (value-based)
		{array.Float64, true, array.Float64},
		{array.Float64, 2, array.Float64},
		{array.Float64, float32(0.5), array.Float64},
	}
	for _, tt := range tests {
		x := ctx.Ones(tt.d, 3)
		got := x.Maximum(tt.scalar)
		require.NoError(t, got.Err(), "%v with %T %v", tt.d, tt.scalar, tt.scalar)
		if got.DType() != tt.want {
			t.Errorf("Maximum(%v array, %T %v) got:%v want:%v", tt.d, tt.scalar, tt.scalar, got.DType(), tt.want)
		}
		require.NoError(t, got.Eval())
	}

	// The example: float32 array * 2 stays float32, with the value.
	x := ctx.ArangeStep(array.Float32, 0, 4, 1).Mul(2)
	require.Equal(t, array.Float32, x.DType())
	v, err := array.ToSlice[float32](x)
	require.NoError(t, err)
	require.Equal(t, []float32{0, 2, 4, 6}, v)

	// A Go int that does not fit an int32 array is an error, as in NumPy 2
	// (graph/promote.go Weak.Value).
	bad := ctx.Ones(array.Int32, 3).Add(1 << 40)
	require.Error(t, bad.Err())
	require.Error(t, bad.Eval())
	require.Contains(t, bad.Err().Error(), "int32")

	// Not a number: an error naming the type.
	bad = ctx.Ones(array.Int32, 3).Add("2")
	require.Error(t, bad.Err())
	require.Contains(t, bad.Err().Error(), "string")

	// Where with Go numbers takes the array's dtype (two Go numbers: by kind).
	c := ctx.Ones(array.Bool, 2)
	require.Equal(t, array.Float32, array.Where(c, ctx.Ones(array.Float32, 2), 2).DType())
	require.Equal(t, array.Int32, array.Where(c, 1, ctx.Ones(array.Int32, 2)).DType())
	require.Equal(t, array.Float64, array.Where(c, 1, 2.5).DType())
	require.Equal(t, array.Int64, array.Where(c, 1, 2).DType())
	// Clip of an int32 array with Go floats computes in float64, as NumPy.
	require.Equal(t, array.Float64, ctx.Ones(array.Int32, 2).Clip(0.5, 1.5).DType())
	require.Equal(t, array.Int32, ctx.Ones(array.Int32, 2).Clip(0, 1).DType())
}

// TestBroadcastTable checks NumPy's broadcasting rules on shapes and on
// values: Sub of two arange arrays, against the element at the broadcast
// index computed here.
func TestBroadcastTable(t *testing.T) {
	ctx := array.MustContext()
	tests := []struct {
		a, b []int
		want []int // nil: an error
	}{
		{[]int{3, 1}, []int{4}, []int{3, 4}},
		{[]int{2, 1, 3}, []int{1, 4, 1}, []int{2, 4, 3}},
		{[]int{}, []int{3}, []int{3}},
		{[]int{}, []int{}, []int{}},
		{[]int{5, 1, 4}, []int{3, 1}, []int{5, 3, 4}},
		{[]int{1}, []int{2, 3}, []int{2, 3}},
		{[]int{4, 1}, []int{1, 1}, []int{4, 1}},
		{[]int{1, 2, 1, 3}, []int{2, 5, 1}, []int{1, 2, 5, 3}},
		{[]int{0}, []int{1}, []int{0}},
		{[]int{0, 3}, []int{1}, []int{0, 3}},
		{[]int{0}, []int{3}, nil},
		{[]int{3}, []int{4}, nil},
		{[]int{2, 3}, []int{3, 2}, nil},
		{[]int{2, 1}, []int{8, 4, 3}, nil},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%v x %v", graph.Shape(tt.a), graph.Shape(tt.b))
		a := npIotaArray(ctx, tt.a, 1)
		b := npIotaArray(ctx, tt.b, 100)
		got := a.Sub(b)
		if tt.want == nil {
			require.Error(t, got.Err(), name)
			require.Contains(t, got.Err().Error(), "broadcast", name)
			require.Error(t, got.Eval(), name)
			continue
		}
		require.NoError(t, got.Err(), name)
		if !got.Shape().Equal(graph.Shape(tt.want)) {
			t.Errorf("%s: shape got:%v want:%v", name, got.Shape(), graph.Shape(tt.want))
			continue
		}
		v, err := array.ToSlice[int64](got)
		require.NoError(t, err, name)
		for i := range v {
			idx := npUnravel(i, graph.Shape(tt.want))
			want := int64(npFlatAt(idx, tt.a)+1) - int64(npFlatAt(idx, tt.b)+100)
			if v[i] != want {
				t.Errorf("%s: element %d %v got:%v want:%v", name, i, idx, v[i], want)
			}
		}
		// The same shapes through BroadcastTo and Where.
		bt := a.BroadcastTo(tt.want...)
		require.NoError(t, bt.Err(), name)
		require.True(t, bt.Shape().Equal(graph.Shape(tt.want)), name)
		w := array.Where(ctx.Ones(array.Bool), a, b)
		require.NoError(t, w.Err(), name)
		require.True(t, w.Shape().Equal(graph.Shape(tt.want)), name)
	}
	// BroadcastTo does not broadcast the target: (3,) to (1,) is an error.
	require.Error(t, npIotaArray(ctx, []int{3}, 0).BroadcastTo(1).Err())
	require.Error(t, npIotaArray(ctx, []int{2, 3}, 0).BroadcastTo(3).Err())
}

// npIotaArray returns off, off+1, ... as an int64 array of shape s.
func npIotaArray(ctx *array.Context, s []int, off int64) *array.Array {
	n := graph.Shape(s).Size()
	v := make([]int64, n)
	for i := range v {
		v[i] = off + int64(i)
	}
	a, _ := npFromSlice(ctx, v, s)
	return a
}

// npFlatAt returns the row-major flat index in shape s of the broadcast
// index idx (aligned on the right, extent-1 axes pinned to 0).
func npFlatAt(idx []int, s []int) int {
	off := len(idx) - len(s)
	flat := 0
	for k, e := range s {
		i := idx[off+k]
		if e == 1 {
			i = 0
		}
		flat = flat*e + i
	}
	return flat
}

// TestDocumentedDeviations checks what fuseflow defines where NumPy
// raises, warns, or gives a platform-defined result; the generated data
// leaves these out.
func TestDocumentedDeviations(t *testing.T) {
	ctx := array.MustContext()

	// ARRAY_API.md: integer Pow with a negative exponent gives 0 except
	// for base 1 (1) and base -1 (+-1). NumPy raises ValueError.
	base := array.FromSlice(ctx, []int32{1, -1, -1, 2, -2, 0, 5})
	exp := array.FromSlice(ctx, []int32{-3, -3, -2, -1, -1, -1, -2})
	p, err := array.ToSlice[int32](base.Pow(exp))
	require.NoError(t, err)
	require.Equal(t, []int32{1, -1, 1, 0, 0, 0, 0}, p, "int32 Pow with negative exponents")
	p64, err := array.ToSlice[int64](array.FromSlice(ctx, []int64{1, -1, 3}).Pow(-1))
	require.NoError(t, err)
	require.Equal(t, []int64{1, -1, 0}, p64, "int64 Pow by Go int -1")

	// graph/promote.go CastFloatToInt64: float to int truncates toward
	// zero, saturates, and NaN gives 0 (platform-defined in NumPy).
	f := array.FromSlice(ctx, []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e30, -1e30, -2.9, 2.9})
	i32, err := array.ToSlice[int32](f.AsType(array.Int32))
	require.NoError(t, err)
	require.Equal(t, []int32{0, math.MaxInt32, math.MinInt32, math.MaxInt32, math.MinInt32, -2, 2}, i32)
	i64, err := array.ToSlice[int64](f.AsType(array.Int64))
	require.NoError(t, err)
	require.Equal(t, []int64{0, math.MaxInt64, math.MinInt64, math.MaxInt64, math.MinInt64, -2, 2}, i64)
	f32 := array.FromSlice(ctx, []float32{float32(math.NaN()), 3e9, -3e9})
	i32, err = array.ToSlice[int32](f32.AsType(array.Int32))
	require.NoError(t, err)
	require.Equal(t, []int32{0, math.MaxInt32, math.MinInt32}, i32)

	// graph/op.go ruleRounding: Floor, Ceil, Round and Trunc of integers
	// keep the integer dtype (NumPy 1.24 gives float64 for all but Round).
	for _, op := range []string{"Floor", "Ceil", "Round", "Trunc"} {
		x := npUnaryOps[op](array.FromSlice(ctx, []int32{-3, 4}))
		require.Equal(t, array.Int32, x.DType(), op)
		v, err := array.ToSlice[int32](x)
		require.NoError(t, err, op)
		require.Equal(t, []int32{-3, 4}, v, op)
	}

	// graph/op.go ruleFloatMath: Reciprocal of integers is float64 (NumPy:
	// integer reciprocal, 1/2 == 0).
	rc := array.FromSlice(ctx, []int32{2, -4}).Reciprocal()
	require.Equal(t, array.Float64, rc.DType())
	rv, err := array.ToSlice[float64](rc)
	require.NoError(t, err)
	require.Equal(t, []float64{0.5, -0.25}, rv)

	// graph/build.go Binary and graph/op.go: arithmetic of two bools and
	// numeric or float math of bools are errors (NumPy: logical or,
	// float16, ...), each naming the op.
	b := array.FromSlice(ctx, []bool{true, false})
	for name, x := range map[string]*array.Array{
		"Add": b.Add(b), "Sub": b.Sub(b), "Mul": b.Mul(true), "FloorDiv": b.FloorDiv(b),
		"Mod": b.Mod(b), "Pow": b.Pow(b), "Neg": b.Neg(), "Sign": b.Sign(), "Square": b.Square(),
		"Sqrt": b.Sqrt(), "Exp": b.Exp(), "Atan2": b.Atan2(b), "MatMul": array.MatMul(b.Reshape(1, 2), b.Reshape(2, 1)),
	} {
		require.Error(t, x.Err(), name)
		require.Contains(t, x.Err().Error(), name, "the error names the op")
		require.Error(t, x.Eval(), name)
	}
	// Bitwise ops of floats are errors, as in NumPy.
	fl := array.FromSlice(ctx, []float32{1, 2})
	for name, x := range map[string]*array.Array{"And": fl.And(fl), "Or": fl.Or(1), "Xor": fl.Xor(fl), "Not": fl.Not()} {
		require.Error(t, x.Err(), name)
	}
}
