// Workloads: the suite's one table, built from lists of ops, dtypes,
// axes and layouts so that nothing a user meets is left out.

package suite

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// Sizes of the suite: elementwise arrays well beyond the last-level
// cache (2^23 elements: 32 MiB in float32), square matrices for
// reductions and layouts, and the shapes of the other reduction cases.
const (
	VecN  = 1 << 23
	MatN  = 4096
	Cube  = 256     // a Cube^3 array for the middle-axis reductions
	Rows  = 1 << 20 // short rows: Rows x RowW
	RowW  = 8
	SoftN = 4096
	SortN = 1 << 24 // one row sorted, and the elements of the short-row sorts
	// BoolScale multiplies the leading dimension of bool-only workloads,
	// so that their one byte per element is as far beyond the cache as
	// float32 data.
	BoolScale = 4
)

var floats = []graph.DType{graph.Float32, graph.Float64}
var intTypes = []graph.DType{graph.Int32, graph.Int64}

// unaryOps are the one-operand float functions and the range their
// input is drawn from (inside each function's domain, where the work is
// typical).
var unaryOps = []struct {
	f      string
	lo, hi float64
}{
	{"neg", -100, 100}, {"abs", -100, 100}, {"sign", -100, 100}, {"square", -100, 100},
	{"sqrt", 0.001, 1000}, {"rsqrt", 0.001, 1000}, {"recip", 0.001, 1000},
	{"exp", -20, 20}, {"exp2", -20, 20}, {"expm1", -20, 20},
	{"log", 0.001, 1000}, {"log2", 0.001, 1000}, {"log1p", -0.5, 1000},
	{"sin", -10, 10}, {"cos", -10, 10}, {"tan", -10, 10},
	{"tanh", -5, 5}, {"sigmoid", -5, 5}, {"erf", -5, 5},
	{"floor", -100, 100}, {"ceil", -100, 100}, {"round", -100, 100}, {"trunc", -100, 100},
	{"isnan", -100, 100}, {"isinf", -100, 100},
}

// binaryOps are the two-operand float functions; b is drawn from blo..bhi.
var binaryOps = []struct {
	f                string
	lo, hi, blo, bhi float64
}{
	{"add", -100, 100, -100, 100}, {"sub", -100, 100, -100, 100},
	{"mul", -100, 100, -100, 100}, {"div", -100, 100, 1, 100},
	{"floordiv", -100, 100, 1, 10}, {"mod", -100, 100, 1, 10},
	{"pow", 0.1, 10, -3, 3}, {"atan2", -100, 100, -100, 100},
	{"maximum", -100, 100, -100, 100}, {"minimum", -100, 100, -100, 100},
	{"eq", -2, 2, -2, 2}, {"ne", -2, 2, -2, 2}, {"lt", -100, 100, -100, 100},
	{"le", -100, 100, -100, 100}, {"gt", -100, 100, -100, 100}, {"ge", -100, 100, -100, 100},
}

// intOps are the integer functions, with b drawn from blo..bhi.
var intOps = []struct {
	f                string
	lo, hi, blo, bhi float64
}{
	{"add", -1000, 1000, -1000, 1000}, {"mul", -1000, 1000, -1000, 1000},
	{"floordiv", -1000, 1000, 1, 100}, {"mod", -1000, 1000, 1, 100},
	{"pow", -10, 10, 0, 5}, {"maximum", -1000, 1000, -1000, 1000},
	{"and", -1000, 1000, -1000, 1000},
}

// casts are the conversions, from and to.
var casts = []struct{ from, to graph.DType }{
	{graph.Float32, graph.Float64}, {graph.Float64, graph.Float32},
	{graph.Float32, graph.Int32}, {graph.Float64, graph.Int64},
	{graph.Int32, graph.Float32}, {graph.Int64, graph.Float64},
	{graph.Int32, graph.Int64}, {graph.Bool, graph.Float32}, {graph.Float32, graph.Bool},
}

// reductions are the float reductions; any and all run over bool inputs
// chosen so that no early exit applies (all false for any, all true for
// all).
var reductions = []string{"sum", "mean", "max", "min", "prod", "argmax", "argmin", "var", "std"}

func vec(name string, d graph.DType, lo, hi float64) Input {
	return Input{Name: name, DType: d, Shape: []int{VecN}, Lo: lo, Hi: hi}
}

func shaped(name string, d graph.DType, lo, hi float64, shape ...int) Input {
	return Input{Name: name, DType: d, Shape: shape, Lo: lo, Hi: hi}
}

// Workloads returns the suite, in the order the table prints it.
func Workloads() []Workload {
	var ws []Workload
	add := func(name, expr string, ins ...Input) {
		ws = append(ws, Workload{Name: name, Inputs: ins, Expr: expr})
	}
	for _, op := range unaryOps {
		for _, d := range floats {
			add(op.f+"."+dtypeNames[d], op.f+"(x)", vec("x", d, op.lo, op.hi))
		}
	}
	for _, d := range intTypes {
		add("neg."+dtypeNames[d], "neg(x)", vec("x", d, -1000, 1000))
		add("abs."+dtypeNames[d], "abs(x)", vec("x", d, -1000, 1000))
	}
	add("not.bool", "not(x)", shaped("x", graph.Bool, 0, 1, BoolScale*VecN))
	for _, op := range binaryOps {
		for _, d := range floats {
			add(op.f+"."+dtypeNames[d], op.f+"(a, b)", vec("a", d, op.lo, op.hi), vec("b", d, op.blo, op.bhi))
		}
	}
	for _, d := range floats {
		n := dtypeNames[d]
		add("add_scalar."+n, "add(a, 1)", vec("a", d, -100, 100))
		add("mul_scalar."+n, "mul(a, 0.5)", vec("a", d, -100, 100))
		add("where."+n, "where(c, a, b)", vec("c", graph.Bool, 0, 1), vec("a", d, -100, 100), vec("b", d, -100, 100))
	}
	for _, op := range intOps {
		for _, d := range intTypes {
			add(op.f+"."+dtypeNames[d], op.f+"(a, b)", vec("a", d, op.lo, op.hi), vec("b", d, op.blo, op.bhi))
		}
	}
	for _, op := range []string{"and", "or", "xor"} {
		add(op+".bool", op+"(a, b)", shaped("a", graph.Bool, 0, 1, BoolScale*VecN), shaped("b", graph.Bool, 0, 1, BoolScale*VecN))
	}
	for _, c := range casts {
		add(fmt.Sprintf("cast.%s_%s", dtypeNames[c.from], dtypeNames[c.to]),
			dtypeNames[c.to]+"(x)", vec("x", c.from, -1000, 1000))
	}

	// Reductions: both axes and the whole of a matrix, the middle axis of
	// a cube, and rows of RowW elements.
	layouts := []struct {
		name  string
		shape []int
		axes  string
	}{
		{"ax0", []int{MatN, MatN}, ", 0"}, {"ax1", []int{MatN, MatN}, ", 1"}, {"all", []int{MatN, MatN}, ""},
		{"mid3d", []int{Cube, Cube, Cube}, ", 1"}, {"rows8", []int{Rows, RowW}, ", 1"},
	}
	for _, l := range layouts {
		for _, r := range reductions {
			for _, d := range floats {
				add(fmt.Sprintf("%s.%s.%s", r, l.name, dtypeNames[d]), r+"(x"+l.axes+")",
					shaped("x", d, 0.95, 1.05, l.shape...))
			}
		}
		bs := append([]int{l.shape[0] * BoolScale}, l.shape[1:]...)
		add(fmt.Sprintf("any.%s.bool", l.name), "any(x"+l.axes+")", shaped("x", graph.Bool, 0, 0.5, bs...))
		add(fmt.Sprintf("all.%s.bool", l.name), "all(x"+l.axes+")", shaped("x", graph.Bool, 0.5, 1, bs...))
	}

	// Strided operands and broadcasts.
	for _, d := range floats {
		n := dtypeNames[d]
		m := func(name string, shape ...int) Input {
			if len(shape) == 0 {
				shape = []int{MatN, MatN}
			}
			return shaped(name, d, -1, 1, shape...)
		}
		add("add_T."+n, "add(a, T(b))", m("a"), m("b"))
		add("add_TT."+n, "add(T(a), T(b))", m("a"), m("b"))
		add("copy_T."+n, "copy(T(a))", m("a"))
		add("exp_T."+n, "exp(T(a))", shaped("a", d, -20, 20, MatN, MatN))
		add("add_rev."+n, "add(rev(a, 0), b)", vec("a", d, -100, 100), vec("b", d, -100, 100))
		add("add_rev2d."+n, "add(rev(a, 1), b)", m("a"), m("b"))
		add("add_step."+n, "add(step(a, 1, 2), b)", m("a"), m("b", MatN, MatN/2))
		add("add_row."+n, "add(a, r)", m("a"), m("r", MatN))
		add("add_col."+n, "add(a, c)", m("a"), m("c", MatN, 1))
		add("copy."+n, "copy(a)", vec("a", d, -100, 100))
	}

	// Sorting: one long row (SortN elements), many short rows, and the
	// columns of a matrix (a strided axis).
	for _, d := range []graph.DType{graph.Float32, graph.Int32, graph.Float64, graph.Int64} {
		n := dtypeNames[d]
		for _, f := range []string{"sort", "argsort"} {
			add(fmt.Sprintf("%s.%s", f, n), f+"(x, 0)", shaped("x", d, -1e6, 1e6, SortN))
			if d == graph.Float32 || d == graph.Int32 {
				add(fmt.Sprintf("%s.rows128.%s", f, n), f+"(x, 1)", shaped("x", d, -1e6, 1e6, SortN/128, 128))
				add(fmt.Sprintf("%s.rows8.%s", f, n), f+"(x, 1)", shaped("x", d, -1e6, 1e6, Rows, RowW))
				add(fmt.Sprintf("%s.ax0.%s", f, n), f+"(x, 0)", shaped("x", d, -1e6, 1e6, MatN, MatN))
			}
		}
		if d == graph.Float32 || d == graph.Int32 {
			// The 16 largest of one long row and the 8 largest of rows
			// of 128 (NumPy: argpartition, then a sort of the winners).
			add("topk16."+n, "topk(x, 16, 0)", shaped("x", d, -1e6, 1e6, SortN))
			add("topk8.rows128."+n, "topk(x, 8, 1)", shaped("x", d, -1e6, 1e6, SortN/128, 128))
		}
	}

	// Small arrays: per-call latency.
	for _, n := range []int{10, 1000, 100000} {
		add(fmt.Sprintf("small_add.%d.f32", n), "add(a, b)",
			shaped("a", graph.Float32, -1, 1, n), shaped("b", graph.Float32, -1, 1, n))
	}
	add("small_add.1000.f64", "add(a, b)", shaped("a", graph.Float64, -1, 1, 1000), shaped("b", graph.Float64, -1, 1, 1000))
	add("small_exp.1000.f32", "exp(a)", shaped("a", graph.Float32, -1, 1, 1000))
	add("small_sum.1000.f32", "sum(a)", shaped("a", graph.Float32, -1, 1, 1000))
	add("small_chain.1000.f32", "sub(add(mul(a, 2), mul(mul(b, 3), a)), b)",
		shaped("a", graph.Float32, -1, 1, 1000), shaped("b", graph.Float32, -1, 1, 1000))

	// Matrix products.
	for _, d := range floats {
		n := dtypeNames[d]
		for _, s := range []int{64, 256, 1024, 2048} {
			add(fmt.Sprintf("matmul.%d.%s", s, n), "matmul(a, b)", shaped("a", d, -1, 1, s, s), shaped("b", d, -1, 1, s, s))
		}
		add("matmul_batched.64x64x64."+n, "matmul(a, b)", shaped("a", d, -1, 1, 64, 64, 64), shaped("b", d, -1, 1, 64, 64, 64))
		add("matmul_tall.4096x256x4096."+n, "matmul(a, b)", shaped("a", d, -1, 1, 4096, 256), shaped("b", d, -1, 1, 256, 4096))
		// Einsum: a batched contraction (beside matmul of the same
		// shapes), attention scores (the second operand transposed) and
		// row dot products.
		add("matmul_batched.64x128x128."+n, "matmul(a, b)", shaped("a", d, -1, 1, 64, 128, 128), shaped("b", d, -1, 1, 64, 128, 128))
		add("einsum.bij_bjk_bik.64x128x128."+n, "einsum_bij_bjk_bik(a, b)", shaped("a", d, -1, 1, 64, 128, 128), shaped("b", d, -1, 1, 64, 128, 128))
		add("einsum.bhqd_bhkd_bhqk.8x8x256x64."+n, "einsum_bhqd_bhkd_bhqk(a, b)", shaped("a", d, -1, 1, 8, 8, 256, 64), shaped("b", d, -1, 1, 8, 8, 256, 64))
		add("einsum.ij_ij_i.4096x1024."+n, "einsum_ij_ij_i(a, b)", shaped("a", d, -1, 1, 4096, 1024), shaped("b", d, -1, 1, 4096, 1024))
	}

	// Fused expressions.
	for _, d := range floats {
		n := dtypeNames[d]
		v := func(name string, lo, hi float64) Input { return vec(name, d, lo, hi) }
		x := shaped("x", d, -4, 4, SoftN, SoftN)
		add("chain."+n, "sub(add(mul(a, 2), mul(mul(b, 3), c)), d)", v("a", 0, 1), v("b", 0, 1), v("c", 0, 1), v("d", 0, 1))
		add("expr."+n, "add(mul(exp(neg(mul(a, a))), b), sqrt(c))", v("a", 0, 1), v("b", 0, 1), v("c", 0, 1))
		add("softmax."+n, "m = maxk(x, 1); e = exp(sub(x, m)); div(e, sumk(e, 1))", x)
		add("logsumexp."+n, "m = maxk(x, 1); add(log(sumk(exp(sub(x, m)), 1)), m)", x)
		add("standardize."+n, "div(sub(x, meank(x, 1)), stdk(x, 1))", x)
		add("center_cols."+n, "sub(x, meank(x, 0))", x)
		add("gelu."+n, "mul(mul(a, 0.5), add(tanh(mul(add(a, mul(mul(mul(a, a), a), 0.044715)), 0.7978845608)), 1))", v("a", -5, 5))
		add("leaky_relu."+n, "where(gt(a, 0), a, mul(a, 0.01))", v("a", -1, 1))
		add("hypot."+n, "sqrt(add(square(sub(a, b)), square(sub(c, d))))", v("a", -1, 1), v("b", -1, 1), v("c", -1, 1), v("d", -1, 1))
		add("poly."+n, "add(mul(add(mul(add(mul(a, 0.25), 1.5), a), -2.5), a), 3)", v("a", -2, 2))
		add("sumsq."+n, "sum(square(a))", v("a", -1, 1))
		add("clip."+n, "minimum(maximum(a, -0.5), 0.5)", v("a", -1, 1))
	}
	ws = append(ws, scanWorkloads()...)
	indexWorkloads(add)
	return ws
}
