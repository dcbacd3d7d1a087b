// Reduction accumulators: the register form of each reduction's running
// value (float sums and products in f64, integer ones in s64, ArgMax and
// ArgMin as a value with its s64 index, Any and All as u32 0/1), their
// identities, how an element enters, how two partials combine, and the
// final value in the reduction's dtype.

package codegen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// accum is one reduction's accumulator.
type accum struct {
	op graph.Op
	in graph.DType // the dtype of the reduced value
	// types are the register types of the accumulator's values: one, or
	// two (value, index) for ArgMax and ArgMin.
	types []ir.Type
	out   graph.DType
	// empty is set when the reduced extent is 0: the result is the
	// identity of an empty selection (a float Sum gives +0 there, -0
	// elsewhere so that a sum of -0s stays -0, as the reference).
	empty bool
}

// newAccum describes the accumulator of reduction r over values of dtype
// in.
func newAccum(r fuse.Reduction, in graph.DType) (accum, error) {
	a := accum{op: r.Op, in: in, out: r.DType}
	vt := regType(in)
	if vt == ir.Invalid {
		return a, fmt.Errorf("reduction %v of dtype %v is not supported", r.Op, in)
	}
	if vt == ir.Pred {
		vt = ir.S32
	}
	want := graph.ReduceDType(r.Op, in)
	switch r.Op {
	case graph.OpSum, graph.OpProd:
		if in.IsFloat() {
			a.types = []ir.Type{ir.F64}
		} else {
			a.types = []ir.Type{ir.S64}
		}
	case graph.OpReduceMax, graph.OpReduceMin:
		a.types = []ir.Type{vt}
	case graph.OpArgMax, graph.OpArgMin:
		a.types = []ir.Type{vt, ir.S64}
	case graph.OpAny, graph.OpAll:
		a.types = []ir.Type{ir.U32}
	default:
		return a, fmt.Errorf("%v is not a reduction", r.Op)
	}
	if r.DType != want {
		return a, fmt.Errorf("reduction %v of %v gives %v, the kernel says %v", r.Op, in, want, r.DType)
	}
	return a, nil
}

// identity returns the accumulator's starting values.
func (l *lowerer) identity(a accum) []*ir.Value {
	bb := l.b
	t := a.types[0]
	switch a.op {
	case graph.OpSum:
		if t.IsFloat() && !a.empty {
			return []*ir.Value{l.negZero(t)}
		}
		return []*ir.Value{bb.Zero(t)}
	case graph.OpProd:
		return []*ir.Value{bb.One(t)}
	case graph.OpReduceMax, graph.OpArgMax:
		v := l.lowest(a.in, t)
		if a.op == graph.OpArgMax {
			return []*ir.Value{v, l.maxInt(ir.S64)}
		}
		return []*ir.Value{v}
	case graph.OpReduceMin, graph.OpArgMin:
		v := l.highest(a.in, t)
		if a.op == graph.OpArgMin {
			return []*ir.Value{v, l.maxInt(ir.S64)}
		}
		return []*ir.Value{v}
	case graph.OpAny:
		return []*ir.Value{bb.U32(0)}
	}
	return []*ir.Value{bb.U32(1)} // All
}

// lowest returns the least value of dtype d in register type t, the
// identity of a maximum (false for bool).
func (l *lowerer) lowest(d graph.DType, t ir.Type) *ir.Value {
	switch {
	case t.IsFloat():
		return l.fconst(t, math.Inf(-1))
	case d == graph.Bool:
		return l.b.Zero(t)
	}
	return l.minInt(t)
}

// highest returns the greatest value of dtype d in register type t, the
// identity of a minimum (true for bool).
func (l *lowerer) highest(d graph.DType, t ir.Type) *ir.Value {
	switch {
	case t.IsFloat():
		return l.fconst(t, math.Inf(1))
	case d == graph.Bool:
		return l.b.One(t)
	}
	return l.maxInt(t)
}

// element returns the accumulator form of value x (dtype a.in) at reduced
// index j (s64 or the unsigned index type).
func (l *lowerer) element(a accum, x, j *ir.Value) []*ir.Value {
	bb := l.b
	switch a.op {
	case graph.OpSum, graph.OpProd:
		if a.in == graph.Bool {
			return []*ir.Value{l.boolToInt(x, ir.S64)}
		}
		return []*ir.Value{bb.Cvt(x, a.types[0])}
	case graph.OpAny, graph.OpAll:
		var nz *ir.Value
		switch {
		case a.in == graph.Bool:
			nz = x
		case a.in.IsFloat():
			nz = bb.Cmp(ir.CmpNEU, x, bb.Zero(x.Type))
		default:
			nz = bb.Ne(x, bb.Zero(x.Type))
		}
		return []*ir.Value{l.boolToInt(nz, ir.U32)}
	}
	if a.in == graph.Bool {
		x = l.boolToInt(x, ir.S32)
	}
	if a.op == graph.OpArgMax || a.op == graph.OpArgMin {
		return []*ir.Value{x, bb.Cvt(j, ir.S64)}
	}
	return []*ir.Value{x}
}

// combine returns the accumulator combining partials x and y, x covering
// earlier points than y where that matters (it matters only for the sign
// of a zero Max or Min: ArgMax and ArgMin break ties by index).
func (l *lowerer) combine(a accum, x, y []*ir.Value) []*ir.Value {
	bb := l.b
	t := a.types[0]
	switch a.op {
	case graph.OpSum:
		return []*ir.Value{bb.Add(x[0], y[0])}
	case graph.OpProd:
		return []*ir.Value{bb.Mul(x[0], y[0])}
	case graph.OpAny:
		return []*ir.Value{bb.Or(x[0], y[0])}
	case graph.OpAll:
		return []*ir.Value{bb.And(x[0], y[0])}
	case graph.OpReduceMax, graph.OpReduceMin:
		return []*ir.Value{l.extreme(a.op == graph.OpReduceMax, x[0], y[0])}
	}
	// ArgMax, ArgMin: y wins when it is better, or as good with a smaller
	// index; a NaN is better than any number.
	better := bb.Gt(y[0], x[0])
	if a.op == graph.OpArgMin {
		better = bb.Lt(y[0], x[0])
	}
	tie := bb.And(bb.Eq(y[0], x[0]), bb.Lt(y[1], x[1]))
	take := bb.Or(better, tie)
	if t.IsFloat() {
		xn, yn := bb.Cmp(ir.CmpNAN, x[0], x[0]), bb.Cmp(ir.CmpNAN, y[0], y[0])
		both := bb.And(xn, yn)
		take = bb.Select(both, bb.Lt(y[1], x[1]), bb.Select(xn, bb.Bool(false), bb.Or(yn, take)))
	}
	return []*ir.Value{bb.Select(take, y[0], x[0]), bb.Select(take, y[1], x[1])}
}

// final returns the reduction's result in register form of dtype a.out.
func (l *lowerer) final(a accum, x []*ir.Value) *ir.Value {
	bb := l.b
	switch a.op {
	case graph.OpSum, graph.OpProd:
		return bb.Cvt(x[0], regType(a.out))
	case graph.OpArgMax, graph.OpArgMin:
		return x[1]
	case graph.OpAny, graph.OpAll:
		return bb.Ne(x[0], bb.U32(0))
	}
	if a.in == graph.Bool {
		return bb.Ne(x[0], bb.Zero(x[0].Type))
	}
	return x[0]
}
