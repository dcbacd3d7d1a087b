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

// value is an evaluated subexpression: an array or a number. A number
// compiled from the expression's text carries its operand (box) made
// once, so that a call does not box it again.
type value struct {
	a     *arr
	box   any
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

// operand returns the value as an operand of the array API: the Array,
// or the number as scalar gives it.
func (v value) operand() any {
	if v.box != nil {
		return v.box
	}
	if v.isNum {
		return v.scalar()
	}
	return v.a
}

// Build returns the workload's expression over env (the inputs by name),
// unevaluated: Compile, then one call. It returns an error for an
// unknown function or name, a wrong number of arguments, or an
// expression the array package rejects.
func Build(stmts []Stmt, env map[string]*arr) (*arr, error) {
	f, err := Compile(stmts, env)
	if err != nil {
		return nil, err
	}
	return f()
}

// Func builds a compiled workload's expression over the inputs bound at
// Compile, unevaluated; each call builds a new expression (the caller
// releases it).
type Func func() (*arr, error)

// thunk computes one compiled subexpression from the statement slots.
type thunk func(slots []value) (value, error)

// Compile resolves the workload's statements over env once (names,
// functions, operand counts, integer arguments), as NumPy's peer
// compiles its workload into a Python function, so that a call of the
// returned Func only calls the array API. It returns an error for an
// unknown function or name, or a wrong number or kind of arguments.
func Compile(stmts []Stmt, env map[string]*arr) (Func, error) {
	slotOf := map[string]int{}
	var init []value
	for n, a := range env {
		slotOf[n] = len(init)
		init = append(init, value{a: a})
	}
	steps := make([]thunk, len(stmts))
	binds := make([]int, len(stmts))
	for i, st := range stmts {
		th, err := compile(st.Value, slotOf)
		if err != nil {
			return nil, err
		}
		steps[i], binds[i] = th, -1
		if st.Bind != "" {
			slotOf[st.Bind], binds[i] = len(init), len(init)
			init = append(init, value{})
		}
	}
	return func() (*arr, error) {
		slots := init // read only unless a statement binds a name
		if len(init) > len(env) {
			slots = append([]value(nil), init...)
		}
		var res value
		for i, step := range steps {
			v, err := step(slots)
			if err != nil {
				return nil, err
			}
			if binds[i] >= 0 {
				slots[binds[i]] = v
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
	}, nil
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

// compile returns the thunk of e over the named slots.
func compile(e *Expr, slotOf map[string]int) (thunk, error) {
	switch {
	case e.IsNum:
		v := value{num: e.Num, isNum: true, isInt: e.IsInt}
		v.box = v.scalar()
		return func([]value) (value, error) { return v, nil }, nil
	case e.Func == "":
		i, ok := slotOf[e.Name]
		if !ok {
			return nil, fmt.Errorf("suite: unknown name %q", e.Name)
		}
		return func(slots []value) (value, error) { return slots[i], nil }, nil
	}
	if len(e.Args) == 0 {
		return nil, fmt.Errorf("suite: %s() needs arguments", e.Func)
	}
	nArrays := 1 // how many leading arguments are expressions
	switch {
	case binaryFuncs[e.Func] != nil, indexFuncs[e.Func] != nil:
		nArrays = 2
	case e.Func == "where":
		nArrays = 3
	}
	if len(e.Args) < nArrays {
		return nil, fmt.Errorf("suite: %s takes %d operands, got %d", e.Func, nArrays, len(e.Args))
	}
	operands := make([]thunk, nArrays)
	for i, a := range e.Args[:nArrays] {
		th, err := compile(a, slotOf)
		if err != nil {
			return nil, err
		}
		operands[i] = th
	}
	rest, err := ints(e.Func, e.Args[nArrays:])
	if err != nil {
		return nil, err
	}
	apply, err := applier(e.Func, rest)
	if err != nil {
		return nil, err
	}
	f := e.Func
	return func(slots []value) (value, error) {
		var args callArgs
		for i, th := range operands {
			v, err := th(slots)
			if err != nil {
				return value{}, err
			}
			args[i] = v
		}
		if args[0].isNum {
			return value{}, fmt.Errorf("suite: %s: the first operand must be an array", f)
		}
		out, err := apply(args)
		if err != nil {
			return value{}, err
		}
		return value{a: out}, nil
	}, nil
}

// callArgs are a call's evaluated operands, the first an array; those
// past the function's operand count are zero. An array passed by value:
// a slice or pointer handed to the call would move each call's operands
// to the heap.
type callArgs = [3]value

// applier returns the call of function f with its integer arguments
// rest on evaluated operands.
func applier(f string, rest []int) (func(a callArgs) (*arr, error), error) {
	arity := func(want int) error {
		if len(rest) != want {
			return fmt.Errorf("suite: %s takes %d integer arguments, got %d", f, want, len(rest))
		}
		return nil
	}
	switch {
	case unaryFuncs[f] != nil:
		fn := unaryFuncs[f]
		return func(a callArgs) (*arr, error) { return fn(a[0].a), nil }, arity(0)
	case binaryFuncs[f] != nil:
		fn := binaryFuncs[f]
		return func(a callArgs) (*arr, error) { return fn(a[0].a, a[1].operand()), nil }, arity(0)
	case reduceFuncs[f] != nil:
		fn := reduceFuncs[f]
		return func(a callArgs) (*arr, error) { return fn(a[0].a, rest...), nil }, nil
	case indexFuncs[f] != nil:
		fn := indexFuncs[f]
		return func(a callArgs) (*arr, error) {
			if a[1].isNum {
				return nil, fmt.Errorf("suite: %s: the second operand must be an array", f)
			}
			return fn(a[0].a, a[1].a, rest...), nil
		}, nil
	case f == "bincount", f == "hist": // bincount(i[, minlength]); hist(x, bins)
		return func(a callArgs) (*arr, error) { return countFunc(f, a[0].a, rest) }, nil
	case f == "where":
		return func(a callArgs) (*arr, error) {
			return array.Where(a[0].a, a[1].operand(), a[2].operand()), nil
		}, arity(0)
	case f == "rev", f == "step": // rev(x, axis); step(x, axis, k)
		want, k := 1, -1
		if f == "step" {
			want = 2
		}
		if err := arity(want); err != nil {
			return nil, err
		}
		if rest[0] < 0 {
			return nil, fmt.Errorf("suite: %s: axis %d must be given as 0 or more", f, rest[0])
		}
		if f == "step" {
			k = rest[1]
		}
		ranges := make([]array.Range, rest[0]+1)
		for i := range ranges {
			ranges[i] = array.All
		}
		ranges[rest[0]] = array.Stride(k)
		return func(a callArgs) (*arr, error) { return a[0].a.Slice(ranges...), nil }, nil
	}
	return nil, fmt.Errorf("suite: unknown function %q", f)
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
