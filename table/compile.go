// Planning expressions into graphs: each expression becomes a value node
// and a validity node (nil: no row is null), nulls propagating as Arrow
// compute propagates them; aggregates become per-batch partial states
// (masked reductions, so that they still fuse), combined on the host.

package table

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// val is a compiled expression: values and validity (nil: all valid).
type val struct{ v, ok *graph.Node }

// colIn is a column bound into a graph: its value input and its validity
// input (nil when the batch has no nulls in it).
type colIn struct {
	name  string
	index int // in the source schema
	dtype graph.DType
	v, ok *graph.Node
}

// partial is an aggregate's per-batch state as graph outputs: the count
// of rows it saw (nil: every row of the batch), a sum or the min or max,
// and for Var the sum of squared deviations from the batch's mean.
type partial struct {
	e          *Expr
	count, acc *graph.Node
	m2         *graph.Node
	in         graph.DType // the dtype the aggregate reads
}

// compiler builds the graph of one batch shape: n rows, with the columns
// that have nulls in it.
type compiler struct {
	n      int
	schema schemaInfo
	nulls  map[string]bool
	cols   map[string]*colIn
	order  []*colIn
	mask   *graph.Node // rows a filter keeps (nil: all)
	parts  []*partial
	final  map[*Expr]val // stage 2: aggregates bound as 0-d inputs
	// With GroupBy: the number of groups and the rows' group codes
	// (int32, 0..groups-1); aggregates reduce over rows per group.
	groups int
	codes  *graph.Node
	// hostGroups: too many groups for the broadcast; the kernels compute
	// each aggregate's row values and validity, the host adds them up
	// per group.
	hostGroups bool
}

func newCompiler(n int, s schemaInfo, nulls map[string]bool) *compiler {
	return &compiler{n: n, schema: s, nulls: nulls, cols: map[string]*colIn{}}
}

// and returns the validity of both (nil where both are all valid).
func and(a, b *graph.Node) *graph.Node {
	return bothValid(a, b, func(a, b *graph.Node) *graph.Node { return graph.Binary(graph.OpAnd, a, b) })
}

// column returns the inputs of the named column, creating them.
func (c *compiler) column(name string) (val, error) {
	if in, ok := c.cols[name]; ok {
		return val{in.v, in.ok}, nil
	}
	idx, d, err := c.schema.lookup(name)
	if err != nil {
		return val{}, err
	}
	in := &colIn{name: name, index: idx, dtype: d, v: graph.Input(d, graph.Shape{c.n}, name)}
	if c.nulls[name] {
		in.ok = graph.Input(graph.Bool, graph.Shape{c.n}, name+".valid")
	}
	c.cols[name] = in
	c.order = append(c.order, in)
	return val{in.v, in.ok}, nil
}

// build compiles e over rows.
func (c *compiler) build(e *Expr) (val, error) {
	if e == nil {
		return val{}, fmt.Errorf("nil *Expr")
	}
	if e.err != nil {
		return val{}, e.err
	}
	if c.final != nil && e.kind == kindAgg {
		return c.final[e], nil
	}
	if e.kind == kindAgg {
		return val{}, fmt.Errorf("%v: an aggregate inside a row expression (use it in an aggregate query)", e)
	}
	args := make([]val, len(e.args))
	for i, a := range e.args {
		if a.err != nil {
			return val{}, a.err
		}
		if e.kind == kindBinary || e.kind == kindWhere || e.kind == kindFillNull {
			if a.kind == kindLit {
				continue // weak literals are folded below
			}
		}
		v, err := c.build(a)
		if err != nil {
			return val{}, err
		}
		args[i] = v
	}
	var out val
	switch e.kind {
	case kindCol:
		if c.final != nil {
			return val{}, fmt.Errorf("column %q is read outside an aggregate in an aggregate query", e.name)
		}
		return c.column(e.name)
	case kindLit:
		return val{}, fmt.Errorf("literal %v alone is not a column: use it with a column", e.lit)
	case kindUnary:
		out = val{graph.Unary(e.op, args[0].v), args[0].ok}
	case kindCast:
		out = val{graph.Cast(args[0].v, e.dtype), args[0].ok}
	case kindBinary:
		l, r := e.args[0], e.args[1]
		switch {
		case l.kind == kindLit && r.kind == kindLit:
			return val{}, fmt.Errorf("%v: an op of two literals: use at least one column", e)
		case r.kind == kindLit:
			out = val{graph.BinaryWeak(e.op, args[0].v, r.lit, false), args[0].ok}
		case l.kind == kindLit:
			out = val{graph.BinaryWeak(e.op, args[1].v, l.lit, true), args[1].ok}
		default:
			out = val{graph.Binary(e.op, args[0].v, args[1].v), and(args[0].ok, args[1].ok)}
		}
	case kindWhere:
		cond := args[0]
		if e.args[0].kind == kindLit {
			return val{}, fmt.Errorf("%v: the condition must be a column expression", e)
		}
		a, b, err := c.pair(e.args[1], e.args[2], args[1], args[2])
		if err != nil {
			return val{}, err
		}
		okv := a.ok
		if a.ok != nil || b.ok != nil {
			okv = graph.Where(cond.v, orTrue(a.ok), orTrue(b.ok))
		}
		out = val{graph.Where(cond.v, a.v, b.v), and(cond.ok, okv)}
	case kindFillNull:
		x := args[0]
		if x.ok == nil {
			return x, nil
		}
		_, f, err := c.pair(e.args[0], e.args[1], x, args[1])
		if err != nil {
			return val{}, err
		}
		out = val{graph.Where(x.ok, x.v, f.v), graph.Where(x.ok, orTrue(nil), orTrue(f.ok))}
		if f.ok == nil {
			out.ok = nil
		}
	case kindIsNull:
		x := args[0]
		if x.ok == nil {
			out = val{graph.BroadcastTo(graph.Const(graph.ScalarOf(graph.Bool, 0)), x.v.Shape()), nil}
		} else {
			out = val{graph.Unary(graph.OpNot, x.ok), nil}
		}
	}
	if err := out.v.Err(); err != nil {
		return val{}, err
	}
	return out, nil
}

// pair returns the branches a and b (compiled as av and bv unless they are
// literals) as nodes of one dtype: a literal takes the other's dtype.
func (c *compiler) pair(a, b *Expr, av, bv val) (val, val, error) {
	lit := func(e *Expr, other val) (val, error) {
		var d graph.DType
		switch {
		case other.v != nil:
			d = graph.PromoteWeak(other.v.DType(), e.lit)
		default: // both literals: the wider kind, as Go constants
			d = weakDType[max(a.lit.Kind, b.lit.Kind)]
		}
		s, err := e.lit.Value(d)
		if err != nil {
			return val{}, err
		}
		return val{graph.Const(s), nil}, nil
	}
	var err error
	if a.kind == kindLit {
		if av, err = lit(a, bv); err != nil {
			return av, bv, err
		}
	}
	if b.kind == kindLit {
		if bv, err = lit(b, av); err != nil {
			return av, bv, err
		}
	}
	return av, bv, nil
}

// weakDType is the dtype of a pair of literals of a kind.
var weakDType = map[graph.Kind]graph.DType{graph.KindBool: graph.Bool, graph.KindInt: graph.Int64, graph.KindFloat: graph.Float64}

// orTrue returns ok, or the constant true for nil (all valid).
func orTrue(ok *graph.Node) *graph.Node {
	if ok == nil {
		return graph.Const(graph.ScalarOf(graph.Bool, 1))
	}
	return ok
}

// identity returns the value Min (max=false) or Max of no row starts from
// in dtype d.
func identity(d graph.DType, isMax bool) graph.Scalar {
	switch {
	case d == graph.Bool:
		return graph.ScalarOf(d, b2f(!isMax))
	case d == graph.Int32 && isMax:
		return graph.Scalar{DType: d, I: math.MinInt32, F: math.MinInt32}
	case d == graph.Int32:
		return graph.Scalar{DType: d, I: math.MaxInt32, F: math.MaxInt32}
	case d == graph.Int64 && isMax:
		return graph.Scalar{DType: d, I: math.MinInt64, F: math.MinInt64}
	case d == graph.Int64:
		return graph.Scalar{DType: d, I: math.MaxInt64, F: math.MaxInt64}
	case d.IsInt(): // the narrow integers and uint64
		lo, hi := -(int64(1) << (d.Bits() - 1)), int64(1)<<(d.Bits()-1)-1
		if d.Unsigned() {
			lo, hi = 0, int64(1)<<d.Bits()-1 // uint64: -1, all bits set
		}
		if isMax {
			return graph.ScalarInt(d, lo)
		}
		return graph.ScalarInt(d, hi)
	case isMax:
		return graph.ScalarOf(d, math.Inf(-1))
	}
	return graph.ScalarOf(d, math.Inf(1))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// meanDType is the dtype Mean and Var compute and return in for d.
func meanDType(d graph.DType) graph.DType {
	if d == graph.Float32 {
		return d
	}
	return graph.Float64
}

// aggregate compiles the partial state of the aggregate e over the rows
// the filter keeps. Rows that are null or dropped take the aggregate's
// identity (Where), so that each partial is one masked reduction. With
// GroupBy the rows are compared with every group's code: the masked
// values form a (rows, groups) broadcast that a column reduction folds
// into one value per group, fused, without storing the broadcast.
func (c *compiler) aggregate(e *Expr) error {
	x, err := c.build(e.args[0])
	if err != nil {
		return err
	}
	ok := and(x.ok, c.mask)
	if c.hostGroups {
		p := &partial{e: e, in: x.v.DType(), count: ok}
		switch e.agg {
		case AggMean, AggVar:
			p.acc = graph.Cast(x.v, meanDType(x.v.DType()))
		case AggSum, AggMin, AggMax:
			p.acc = x.v
		}
		c.parts = append(c.parts, p)
		return nil
	}
	col := func(v *graph.Node) *graph.Node { return v } // a row value as the reductions see it
	var axes []int                                      // nil: every axis
	if c.codes != nil {
		col = func(v *graph.Node) *graph.Node { return graph.Reshape(v, graph.Shape{c.n, 1}) }
		axes = []int{0}
		ok = and(c.member(), mapNil(ok, col))
	}
	p := &partial{e: e, in: x.v.DType()}
	masked := func(v *graph.Node, id graph.Scalar) *graph.Node {
		if ok == nil {
			return v
		}
		return graph.Where(ok, v, graph.Const(id))
	}
	reduce := func(op graph.Op, v *graph.Node) *graph.Node { return graph.Reduce(op, v, axes, false) }
	if ok != nil {
		p.count = reduce(graph.OpSum, graph.Cast(ok, graph.Int64))
	}
	xv := col(x.v)
	switch e.agg {
	case AggCount:
	case AggSum:
		p.acc = reduce(graph.OpSum, masked(xv, graph.ScalarOf(x.v.DType(), 0)))
	case AggMin, AggMax:
		op, isMax := graph.OpReduceMin, e.agg == AggMax
		if isMax {
			op = graph.OpReduceMax
		}
		p.acc = reduce(op, masked(xv, identity(x.v.DType(), isMax)))
	case AggMean, AggVar:
		d := meanDType(x.v.DType())
		xd := graph.Cast(xv, d)
		p.acc = reduce(graph.OpSum, masked(xd, graph.ScalarOf(d, 0)))
		if e.agg == AggVar {
			var cnt *graph.Node
			if p.count != nil {
				cnt = graph.Binary(graph.OpMax, graph.Cast(p.count, d), graph.FloatConst(d, 1))
			} else {
				cnt = graph.FloatConst(d, float64(c.n))
			}
			m := graph.Binary(graph.OpDiv, p.acc, cnt) // per group: broadcast along the groups axis
			dev := graph.Unary(graph.OpSquare, graph.Binary(graph.OpSub, xd, m))
			p.m2 = reduce(graph.OpSum, masked(dev, graph.ScalarOf(d, 0)))
		}
	}
	for _, n := range []*graph.Node{p.count, p.acc, p.m2} {
		if n != nil && n.Err() != nil {
			return fmt.Errorf("%v: %w", e, n.Err())
		}
	}
	c.parts = append(c.parts, p)
	return nil
}

// member returns the (rows, groups) mask of each row's group.
func (c *compiler) member() *graph.Node {
	return graph.Binary(graph.OpEq, graph.Reshape(c.codes, graph.Shape{c.n, 1}), graph.Iota(graph.Int32, c.groups, 0, 1, false, 0))
}

// groupRows stands for the count of each group's rows the filter keeps,
// which a grouped query computes beside its aggregates: a group none of
// whose rows is kept is no group.
var groupRows = &Expr{kind: kindAgg, agg: AggCount}

// rowsPerGroup adds the partial of groupRows.
func (c *compiler) rowsPerGroup() {
	if c.hostGroups {
		c.parts = append(c.parts, &partial{e: groupRows, in: graph.Int64, count: c.mask})
		return
	}
	in := c.member()
	if c.mask != nil {
		in = graph.Binary(graph.OpAnd, in, graph.Reshape(c.mask, graph.Shape{c.n, 1}))
	}
	c.parts = append(c.parts, &partial{e: groupRows, in: graph.Int64,
		count: graph.Reduce(graph.OpSum, graph.Cast(in, graph.Int64), []int{0}, false)})
}

// mapNil returns f(n), or nil for nil.
func mapNil(n *graph.Node, f func(*graph.Node) *graph.Node) *graph.Node {
	if n == nil {
		return nil
	}
	return f(n)
}

// collectAggs appends every aggregate under e to out, outermost first,
// and reports an aggregate inside another.
func collectAggs(e *Expr, out []*Expr, inAgg bool) ([]*Expr, error) {
	if e.kind == kindAgg {
		if inAgg {
			return nil, fmt.Errorf("%v: an aggregate inside an aggregate is not supported", e)
		}
		out = append(out, e)
		inAgg = true
	}
	for _, a := range e.args {
		var err error
		if out, err = collectAggs(a, out, inAgg); err != nil {
			return nil, err
		}
	}
	return out, nil
}
