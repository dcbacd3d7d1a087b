// Reductions over any axes, with or without kept axes: Sum, Prod, Max,
// Min, Any, All, ArgMax, ArgMin, and the composed Mean, Var and Std.

package array

import (
	"github.com/fuseflow/fuseflow/graph"
)

func (a *Array) reduce(op graph.Op, axes []int, keep bool) *Array {
	return a.derive(reduceNode(ctxOf(a), op, nodeFor(a, op.String()), axes, keep))
}

// Sum returns the sum over axes (every axis when none is given; negative
// axes count from the end). Bool and int32 sum in int64. Invalid or
// repeated axes give an Array carrying an error. The reductions below take
// axes the same way.
func (a *Array) Sum(axes ...int) *Array { return a.reduce(graph.OpSum, axes, false) }

// SumKeepDims is Sum keeping the reduced axes with extent 1.
func (a *Array) SumKeepDims(axes ...int) *Array { return a.reduce(graph.OpSum, axes, true) }

// Prod returns the product over axes (bool and int32 in int64).
func (a *Array) Prod(axes ...int) *Array { return a.reduce(graph.OpProd, axes, false) }

// ProdKeepDims is Prod keeping the reduced axes.
func (a *Array) ProdKeepDims(axes ...int) *Array { return a.reduce(graph.OpProd, axes, true) }

// Max returns the maximum over axes; NaN propagates; an empty selection is
// an error.
func (a *Array) Max(axes ...int) *Array { return a.reduce(graph.OpReduceMax, axes, false) }

// MaxKeepDims is Max keeping the reduced axes.
func (a *Array) MaxKeepDims(axes ...int) *Array { return a.reduce(graph.OpReduceMax, axes, true) }

// Min returns the minimum over axes; NaN propagates; an empty selection is
// an error.
func (a *Array) Min(axes ...int) *Array { return a.reduce(graph.OpReduceMin, axes, false) }

// MinKeepDims is Min keeping the reduced axes.
func (a *Array) MinKeepDims(axes ...int) *Array { return a.reduce(graph.OpReduceMin, axes, true) }

// Any reports whether any element over axes is nonzero (a bool array).
func (a *Array) Any(axes ...int) *Array { return a.reduce(graph.OpAny, axes, false) }

// AnyKeepDims is Any keeping the reduced axes.
func (a *Array) AnyKeepDims(axes ...int) *Array { return a.reduce(graph.OpAny, axes, true) }

// All reports whether every element over axes is nonzero.
func (a *Array) All(axes ...int) *Array { return a.reduce(graph.OpAll, axes, false) }

// AllKeepDims is All keeping the reduced axes.
func (a *Array) AllKeepDims(axes ...int) *Array { return a.reduce(graph.OpAll, axes, true) }

// ArgMax returns the int64 index of the first maximum along the one given
// axis, or in the flattened array when no axis is given (a 0-d result).
// More than one axis, or an empty selection, is an error.
func (a *Array) ArgMax(axis ...int) *Array { return a.reduce(graph.OpArgMax, axis, false) }

// ArgMin is ArgMax for the first minimum.
func (a *Array) ArgMin(axis ...int) *Array { return a.reduce(graph.OpArgMin, axis, false) }

// floatDType returns the dtype Mean, Var and Std compute in for d: floats
// keep theirs, bool and integers use Float64.
func floatDType(d DType) DType {
	if d.IsFloat() {
		return d
	}
	return Float64
}

// count returns how many elements each output of a reduction over axes
// combines, or an error node.
func count(name string, x *graph.Node, axes []int) (int, *graph.Node) {
	if x.Err() != nil {
		return 0, x
	}
	norm, err := graph.NormalizeAxes(axes, x.Shape().Rank())
	if err != nil {
		return 0, graph.ErrorNode(graph.OpSum, opErr(name, []*graph.Node{x}, "%v", err))
	}
	n := 1
	for _, ax := range norm {
		n *= x.Shape()[ax]
	}
	return n, nil
}

// mean returns the mean over axes, as Sum / count in the float dtype.
func (a *Array) mean(axes []int, keep bool) *Array {
	x := nodeFor(a, "Mean")
	n, bad := count("Mean", x, axes)
	if bad != nil {
		return a.derive(bad)
	}
	xf := graph.Cast(x, floatDType(x.DType()))
	s := graph.Reduce(graph.OpSum, xf, axes, keep)
	return a.derive(named("Mean", graph.BinaryWeak(graph.OpDiv, s, graph.Weak{Kind: graph.KindFloat, Float: float64(n)}, false), x))
}

// Mean returns the arithmetic mean over axes, in the input's float dtype
// (bool and integers give float64). An empty selection gives NaN, as NumPy
// does (with a warning there).
func (a *Array) Mean(axes ...int) *Array { return a.mean(axes, false) }

// MeanKeepDims is Mean keeping the reduced axes.
func (a *Array) MeanKeepDims(axes ...int) *Array { return a.mean(axes, true) }

// buildVariance returns the variance over axes with ddof delta degrees
// of freedom in one pass over the data: with a shift c taken from the data
// (the median of the first, middle and last element of each selection
// along its last axis, see shift), the sums S1 = sum(x-c) and S2 = sum((x-c)^2) are two reductions of one
// kernel, and var = (S2 - S1^2/n) / (n - ddof), the divisor clamped at 0
// (so a non-positive divisor gives Inf or NaN as in NumPy) and a
// rounding below zero clamped at 0. The shift keeps the cancellation of
// the textbook one-pass formula away: the relative error is about
// eps*(1 + (mean-c)^2/var) with eps the accumulation's error (2^-20 for
// float32 sums, 2^-52 for float64), where two passes, which round the
// mean to the dtype first, err by eps + (2^-p*mean)^2/var (p = 24 or
// 53): far better when the data sit on a large offset, as good unless
// two of the three samples lie far out in the same tail. NaN or Inf anywhere
// gives NaN. An empty selection gives NaN.
func (a *Array) buildVariance(name string, ddof int, axes []int, keep bool) *Array {
	x := nodeFor(a, name)
	n, bad := count(name, x, axes)
	if bad != nil {
		return a.derive(bad)
	}
	xf := a.derive(graph.Cast(x, floatDType(x.DType())))
	div := max(float64(n)-float64(ddof), 0)
	if n == 0 || xf.node.Err() != nil {
		dev := xf.Sub(xf.mean(axes, true))
		v := dev.Mul(dev).reduce(graph.OpSum, axes, keep).Div(div)
		return a.derive(named(name, v.node, x))
	}
	c := shift(xf.node, axes)
	d := xf.Sub(xf.derive(c))
	s := d.reduce(graph.OpSum, axes, keep)
	ss := d.Mul(d).reduce(graph.OpSum, axes, keep)
	v := ss.Sub(s.Mul(s).Div(float64(n))).Maximum(0).Div(div)
	return a.derive(named(name, v.node, x))
}

// shift returns Var's shift for each selection of x over axes (kept
// with extent 1): the median of the first, middle and last element,
// computed by a small Reduce (the maximum of min(a,b) and
// min(max(a,b),c) over a Concat of those two), so that the kernel that
// reads x loads one value per selection; with fewer than three elements,
// the first. x must be valid with a nonempty selection.
func shift(x *graph.Node, axes []int) *graph.Node {
	s := x.Shape()
	norm, _ := graph.NormalizeAxes(axes, s.Rank())
	if len(norm) == 0 {
		return x // a 0-d x: its one element
	}
	last := norm[len(norm)-1]
	at := func(p int) *graph.Node {
		r := make([]graph.Range, s.Rank())
		for i := range r {
			r[i] = graph.All
		}
		for _, ax := range norm {
			r[ax] = graph.Range{Start: 0, Stop: 1, Step: 1}
		}
		r[last] = graph.Range{Start: p, Stop: p + 1, Step: 1}
		return graph.Slice(x, r)
	}
	e := s[last]
	if e < 3 {
		return at(0)
	}
	a, b, c := at(0), at(e/2), at(e-1)
	lo := graph.Binary(graph.OpMin, a, b)
	mid := graph.Binary(graph.OpMin, graph.Binary(graph.OpMax, a, b), c)
	return graph.Reduce(graph.OpReduceMax, graph.Concat([]*graph.Node{lo, mid}, last), norm, true)
}

// Var returns the population variance (ddof 0) over axes (every axis
// when none is given), in the input's float dtype: x.Var(1) is the
// variance along axis 1, as NumPy's x.var(1). VarDdof takes the delta
// degrees of freedom explicitly.
func (a *Array) Var(axes ...int) *Array { return a.variance("Var", 0, axes, false) }

// VarKeepDims is Var keeping the reduced axes.
func (a *Array) VarKeepDims(axes ...int) *Array { return a.variance("Var", 0, axes, true) }

// VarDdof returns the variance over axes with ddof delta degrees of
// freedom: the sum of squared deviations divided by n - ddof (1 for the
// sample variance, NumPy's x.var(axes, ddof=1)). A divisor n - ddof <= 0
// gives Inf or NaN as in NumPy.
func (a *Array) VarDdof(ddof int, axes ...int) *Array { return a.variance("Var", ddof, axes, false) }

// VarDdofKeepDims is VarDdof keeping the reduced axes.
func (a *Array) VarDdofKeepDims(ddof int, axes ...int) *Array {
	return a.variance("Var", ddof, axes, true)
}

// Std returns the population standard deviation (ddof 0) over axes, the
// square root of Var: x.Std(0) is the deviation along axis 0.
func (a *Array) Std(axes ...int) *Array { return a.variance("Std", 0, axes, false).Sqrt() }

// StdKeepDims is Std keeping the reduced axes.
func (a *Array) StdKeepDims(axes ...int) *Array {
	return a.variance("Std", 0, axes, true).Sqrt()
}

// StdDdof returns the standard deviation with ddof delta degrees of
// freedom, the square root of VarDdof.
func (a *Array) StdDdof(ddof int, axes ...int) *Array {
	return a.variance("Std", ddof, axes, false).Sqrt()
}

// StdDdofKeepDims is StdDdof keeping the reduced axes.
func (a *Array) StdDdofKeepDims(ddof int, axes ...int) *Array {
	return a.variance("Std", ddof, axes, true).Sqrt()
}
