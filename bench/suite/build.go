// Build: a workload's expression as array calls, from one table of
// function names; and the inputs' random data from a fixed seed.

package suite

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/graph"
)

type arr = array.Array

// unaryFuncs are the one-operand elementwise functions.
var unaryFuncs = map[string]func(*arr) *arr{
	"neg": (*arr).Neg, "abs": (*arr).Abs, "sign": (*arr).Sign, "sqrt": (*arr).Sqrt,
	"rsqrt": (*arr).Rsqrt, "exp": (*arr).Exp, "exp2": (*arr).Exp2, "log": (*arr).Log,
	"log2": (*arr).Log2, "log1p": (*arr).Log1p, "expm1": (*arr).Expm1, "sin": (*arr).Sin,
	"cos": (*arr).Cos, "tan": (*arr).Tan, "tanh": (*arr).Tanh, "sigmoid": (*arr).Sigmoid,
	"erf": (*arr).Erf, "floor": (*arr).Floor, "ceil": (*arr).Ceil, "round": (*arr).Round,
	"trunc": (*arr).Trunc, "recip": (*arr).Reciprocal, "square": (*arr).Square,
	"isnan": (*arr).IsNaN, "isinf": (*arr).IsInf, "not": (*arr).Not,
	"T": (*arr).Transpose, "copy": (*arr).Contiguous,
	"f32":  func(a *arr) *arr { return a.AsType(graph.Float32) },
	"f64":  func(a *arr) *arr { return a.AsType(graph.Float64) },
	"i32":  func(a *arr) *arr { return a.AsType(graph.Int32) },
	"i64":  func(a *arr) *arr { return a.AsType(graph.Int64) },
	"bool": func(a *arr) *arr { return a.AsType(graph.Bool) },
}

// binaryFuncs are the two-operand elementwise functions and matmul; the
// second operand may be a number.
var binaryFuncs = map[string]func(*arr, any) *arr{
	"add": (*arr).Add, "sub": (*arr).Sub, "mul": (*arr).Mul, "div": (*arr).Div,
	"floordiv": (*arr).FloorDiv, "mod": (*arr).Mod, "pow": (*arr).Pow,
	"maximum": (*arr).Maximum, "minimum": (*arr).Minimum, "atan2": (*arr).Atan2,
	"eq": (*arr).Eq, "ne": (*arr).Ne, "lt": (*arr).Lt, "le": (*arr).Le, "gt": (*arr).Gt,
	"ge": (*arr).Ge, "and": (*arr).And, "or": (*arr).Or, "xor": (*arr).Xor,
	"matmul": func(a *arr, b any) *arr {
		if bb, ok := b.(*arr); ok {
			return array.MatMul(a, bb)
		}
		return array.MatMul(a, nil)
	},
	"einsum_bij_bjk_bik":    einsum2("bij,bjk->bik"),
	"einsum_bhqd_bhkd_bhqk": einsum2("bhqd,bhkd->bhqk"),
	"einsum_ij_ij_i":        einsum2("ij,ij->i"),
}

// einsum2 returns the Einsum of two operands over subscripts (the
// function name spells the subscripts: einsum_<term>_<term>_<output>).
func einsum2(subscripts string) func(*arr, any) *arr {
	return func(a *arr, b any) *arr {
		bb, _ := b.(*arr)
		return array.Einsum(subscripts, a, bb)
	}
}

// reduceFuncs are the reductions over the listed axes (none: all of
// them); the names ending in "k" keep the reduced axes. Var and Std use
// ddof 0, as NumPy's default.
var reduceFuncs = map[string]func(*arr, ...int) *arr{
	"sum": (*arr).Sum, "sumk": (*arr).SumKeepDims, "prod": (*arr).Prod,
	"max": (*arr).Max, "maxk": (*arr).MaxKeepDims, "min": (*arr).Min, "mink": (*arr).MinKeepDims,
	"any": (*arr).Any, "all": (*arr).All, "argmax": (*arr).ArgMax, "argmin": (*arr).ArgMin,
	"mean": (*arr).Mean, "meank": (*arr).MeanKeepDims,
	"var":  func(a *arr, axes ...int) *arr { return a.Var(axes...) },
	"std":  func(a *arr, axes ...int) *arr { return a.Std(axes...) },
	"stdk": func(a *arr, axes ...int) *arr { return a.StdKeepDims(axes...) },
	// sort and argsort take one axis (the last when none is given).
	"sort": (*arr).Sort, "argsort": (*arr).ArgSort,
	// topk(x, k, axis) is TopK's values; k is at most the axis' extent
	// (so that the scaled-down inputs of the suite's test run it).
	"topk": func(a *arr, r ...int) *arr {
		if len(r) != 2 {
			v, _ := a.TopK(-1) // an Array carrying an error: topk takes k and an axis
			return v
		}
		k := r[0]
		if s := a.Shape(); len(s) > 0 {
			k = min(k, s[(r[1]+len(s))%len(s)])
		}
		v, _ := a.TopK(k, r[1])
		return v
	},
}

// Funcs returns the names of every function expressions may call.
func Funcs() []string {
	names := []string{"where", "rev", "step", "bincount", "hist"}
	names = slices.AppendSeq(names, maps.Keys(indexFuncs))
	names = slices.AppendSeq(names, maps.Keys(unaryFuncs))
	names = slices.AppendSeq(names, maps.Keys(binaryFuncs))
	return slices.AppendSeq(names, maps.Keys(reduceFuncs))
}

// value is an evaluated subexpression: an array or a number.
type value struct {
	a     *arr
	num   float64
	isNum bool
	isInt bool
}

// scalar returns the number as the Go value the array API takes (int
// stays weakly an integer).
func (v value) scalar() any {
	if v.isInt {
		return int(v.num)
	}
	return v.num
}

func (v value) operand() any {
	if v.isNum {
		return v.scalar()
	}
	return v.a
}

// Build returns the workload's expression over env (the inputs by name),
// unevaluated. It returns an error for an unknown function or name, a
// wrong number of arguments, or an expression the array package rejects.
func Build(stmts []Stmt, env map[string]*arr) (*arr, error) {
	vars := map[string]value{}
	for n, a := range env {
		vars[n] = value{a: a}
	}
	var res value
	for _, st := range stmts {
		v, err := eval(st.Value, vars)
		if err != nil {
			return nil, err
		}
		if st.Bind != "" {
			vars[st.Bind] = v
		}
		res = v
	}
	if res.isNum {
		return nil, fmt.Errorf("suite: the result is a number, not an array")
	}
	if err := res.a.Err(); err != nil {
		return nil, err
	}
	return res.a, nil
}

// ints returns the integer arguments args.
func ints(f string, args []*Expr) ([]int, error) {
	out := make([]int, len(args))
	for i, a := range args {
		if !a.IsNum || !a.IsInt {
			return nil, fmt.Errorf("suite: %s: argument %d must be an integer", f, i+2)
		}
		out[i] = int(a.Num)
	}
	return out, nil
}

func eval(e *Expr, vars map[string]value) (value, error) {
	switch {
	case e.IsNum:
		return value{num: e.Num, isNum: true, isInt: e.IsInt}, nil
	case e.Func == "":
		v, ok := vars[e.Name]
		if !ok {
			return value{}, fmt.Errorf("suite: unknown name %q", e.Name)
		}
		return v, nil
	}
	if len(e.Args) == 0 {
		return value{}, fmt.Errorf("suite: %s() needs arguments", e.Func)
	}
	var args []value
	nArrays := 1 // how many leading arguments are expressions
	switch {
	case binaryFuncs[e.Func] != nil, indexFuncs[e.Func] != nil:
		nArrays = 2
	case e.Func == "where":
		nArrays = 3
	}
	if len(e.Args) < nArrays {
		return value{}, fmt.Errorf("suite: %s takes %d operands, got %d", e.Func, nArrays, len(e.Args))
	}
	for _, a := range e.Args[:nArrays] {
		v, err := eval(a, vars)
		if err != nil {
			return value{}, err
		}
		args = append(args, v)
	}
	if args[0].isNum {
		return value{}, fmt.Errorf("suite: %s: the first operand must be an array", e.Func)
	}
	x := args[0].a
	rest, err := ints(e.Func, e.Args[nArrays:])
	if err != nil {
		return value{}, err
	}
	arity := func(want int) error {
		if len(rest) != want {
			return fmt.Errorf("suite: %s takes %d integer arguments, got %d", e.Func, want, len(rest))
		}
		return nil
	}
	var out *arr
	switch {
	case unaryFuncs[e.Func] != nil:
		if err := arity(0); err != nil {
			return value{}, err
		}
		out = unaryFuncs[e.Func](x)
	case binaryFuncs[e.Func] != nil:
		if err := arity(0); err != nil {
			return value{}, err
		}
		out = binaryFuncs[e.Func](x, args[1].operand())
	case reduceFuncs[e.Func] != nil:
		out = reduceFuncs[e.Func](x, rest...)
	case indexFuncs[e.Func] != nil:
		if args[1].isNum {
			return value{}, fmt.Errorf("suite: %s: the second operand must be an array", e.Func)
		}
		out = indexFuncs[e.Func](x, args[1].a, rest...)
	case e.Func == "bincount", e.Func == "hist": // bincount(i[, minlength]); hist(x, bins)
		if out, err = countFunc(e.Func, x, rest); err != nil {
			return value{}, err
		}
	case e.Func == "where":
		if err := arity(0); err != nil {
			return value{}, err
		}
		out = array.Where(x, args[1].operand(), args[2].operand())
	case e.Func == "rev", e.Func == "step": // rev(x, axis); step(x, axis, k)
		want, k := 1, -1
		if e.Func == "step" {
			want = 2
		}
		if err := arity(want); err != nil {
			return value{}, err
		}
		if e.Func == "step" {
			k = rest[1]
		}
		ranges := make([]array.Range, rest[0]+1)
		for i := range ranges {
			ranges[i] = array.All
		}
		ranges[rest[0]] = array.Stride(k)
		out = x.Slice(ranges...)
	default:
		return value{}, fmt.Errorf("suite: unknown function %q", e.Func)
	}
	return value{a: out}, nil
}

// Seed returns the seed of an input's data: a hash of its text, so that
// the same input in two workloads has the same data and two inputs of
// one workload differ by name.
func (in Input) Seed() uint64 {
	h := fnv.New64a()
	h.Write([]byte(in.String()))
	return h.Sum64()
}

// Data returns the input's values, uniform in [Lo, Hi) from its seed:
// a []float32, []float64, []int32, []int64 or []bool.
func (in Input) Data() any {
	r := rand.New(rand.NewPCG(in.Seed(), 1))
	n := 1
	for _, d := range in.Shape {
		n *= d
	}
	draw := func() float64 { return in.Lo + (in.Hi-in.Lo)*r.Float64() }
	switch in.DType {
	case graph.Float32:
		return fill(n, func() float32 { return float32(draw()) })
	case graph.Float64:
		return fill(n, draw)
	case graph.Int32:
		return fill(n, func() int32 { return int32(math.Floor(draw())) })
	case graph.Int64:
		return fill(n, func() int64 { return int64(math.Floor(draw())) })
	}
	return fill(n, func() bool { return draw() >= 0.5 })
}

func fill[T any](n int, f func() T) []T {
	v := make([]T, n)
	for i := range v {
		v[i] = f()
	}
	return v
}

// NewArray returns the input as an array of Context c, its data from
// Data; the caller releases it. It returns an error for a dtype the text
// form does not name or one the array package rejects.
func NewArray(c *array.Context, in Input) (*arr, error) {
	if dtypeNames[in.DType] == "" {
		return nil, fmt.Errorf("suite: input %s: unsupported dtype %v", in.Name, in.DType)
	}
	var a *arr
	switch v := in.Data().(type) {
	case []float32:
		a = array.FromSlice(c, v, in.Shape...)
	case []float64:
		a = array.FromSlice(c, v, in.Shape...)
	case []int32:
		a = array.FromSlice(c, v, in.Shape...)
	case []int64:
		a = array.FromSlice(c, v, in.Shape...)
	case []bool:
		a = array.FromSlice(c, v, in.Shape...)
	}
	if err := a.Err(); err != nil {
		return nil, fmt.Errorf("suite: input %s: %w", in.Name, err)
	}
	return a, nil
}
