// Elementwise ops: each graph op is lowered with its definition in
// internal/opdef (the lowering of its operands' lane, with exactly the
// semantics of the reference: NumPy's NaN-propagating Maximum and
// Minimum, Sign with NaN, integer division and modulo by zero giving 0,
// IsNaN and IsInf false for integers), casts with opdef.LowerCast, and
// Where as a select.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// elementwise lowers one InstrOp; dts are the dtypes of args.
func (l *lowerer) elementwise(in *fuse.Instr, args []*ir.Value, dts []graph.DType) (*ir.Value, error) {
	op := in.Op
	switch op {
	case graph.OpCast:
		if len(args) != 1 {
			return nil, fmt.Errorf("cast takes 1 argument, has %d", len(args))
		}
		return l.cast(args[0], dts[0], in.DType)
	case graph.OpWhere:
		if len(args) != 3 || dts[0] != graph.Bool || dts[1] != dts[2] {
			return nil, fmt.Errorf("where needs (bool, T, T), has %v", dts)
		}
		return l.b.Select(args[0], args[1], args[2]), nil
	}
	d := opdef.Lookup(op)
	if d == nil {
		return nil, fmt.Errorf("%v is not an elementwise op", op)
	}
	arity := 1
	if op.Class() == graph.ClassBinary {
		arity = 2
	}
	switch {
	case len(args) != arity:
		return nil, fmt.Errorf("%v takes %d operands, has %d", op, arity, len(args))
	case arity == 2 && dts[0] != dts[1]:
		return nil, fmt.Errorf("%v needs two operands of one dtype, has %v", op, dts)
	}
	lower := d.Lower(dts[0])
	if lower == nil {
		return nil, fmt.Errorf("op %v with %d operands of dtype %v is not supported", op, len(args), dts[0])
	}
	if r := d.Result(dts[0]); r != in.DType {
		return nil, fmt.Errorf("%v of %v gives %v but its result is %v", op, dts[0], r, in.DType)
	}
	return lower(l.b, args), nil
}

// cast converts x of dtype from to dtype to (see opdef.LowerCast).
func (l *lowerer) cast(x *ir.Value, from, to graph.DType) (*ir.Value, error) {
	return opdef.LowerCast(l.b, x, from, to)
}

// maxFloat is NumPy's maximum: a when a >= b or a is NaN, else b.
func (l *lowerer) maxFloat(a, b *ir.Value) *ir.Value { return opdef.MaxFloat(l.b, a, b) }

// minFloat is NumPy's minimum: a when a <= b or a is NaN, else b.
func (l *lowerer) minFloat(a, b *ir.Value) *ir.Value { return opdef.MinFloat(l.b, a, b) }

// extreme returns NumPy's maximum of a and b (max) or their minimum, a
// being the earlier value: or and and on predicates, maxFloat and
// minFloat on floats, max and min on integers.
func (l *lowerer) extreme(max bool, a, b *ir.Value) *ir.Value {
	switch t := a.Type; {
	case t == ir.Pred && max:
		return l.b.Or(a, b)
	case t == ir.Pred:
		return l.b.And(a, b)
	case t.IsFloat() && max:
		return l.maxFloat(a, b)
	case t.IsFloat():
		return l.minFloat(a, b)
	case max:
		return l.b.Max(a, b)
	}
	return l.b.Min(a, b)
}
