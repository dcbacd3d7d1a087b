// Casts (AsType) between every pair of dtypes with the reference's rules:
// float to integer truncates toward zero, saturates at the target's range
// and maps NaN to 0 (graph.CastFloatToInt64 and CastFloatToInt32);
// integer to integer wraps; integer to float rounds to nearest once;
// anything to bool is x != 0 (NaN is true); bool to a number is 0 or 1.

package codegen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
)

// cast converts x of dtype from to dtype to.
func (l *lowerer) cast(x *ir.Value, from, to graph.DType) (*ir.Value, error) {
	ft, tt := regType(from), regType(to)
	if ft == ir.Invalid || tt == ir.Invalid {
		return nil, fmt.Errorf("cast from %v to %v is not supported", from, to)
	}
	bb := l.b
	switch {
	case from == to:
		return x, nil
	case from == graph.Bool:
		return bb.Select(x, bb.One(tt), bb.Zero(tt)), nil
	case to == graph.Bool && from.IsFloat():
		return bb.Cmp(ir.CmpNEU, x, bb.Zero(ft)), nil
	case to == graph.Bool:
		return bb.Ne(x, bb.Zero(ft)), nil
	case from.IsFloat() && to.IsInt():
		return l.floatToInt(x, tt), nil
	}
	// int <-> int wraps (cvt truncates or extends); int -> float and
	// float <-> float round to nearest (cvt.rn).
	return bb.Cvt(x, tt), nil
}

// floatToInt truncates x toward zero into s32 or s64, saturating at the
// range with NaN giving 0. PTX's cvt.rzi saturates and maps NaN to 0; the
// NaN case is still made explicit so that the result never depends on it.
func (l *lowerer) floatToInt(x *ir.Value, t ir.Type) *ir.Value {
	bb := l.b
	hi := math.Ldexp(1, t.Bits()-1) // exclusive
	r := bb.CvtRnd(x, t, ir.RndRZ)
	r = bb.Select(bb.Ge(x, l.fconst(x.Type, hi)), l.maxInt(t), r)
	r = bb.Select(bb.Le(x, l.fconst(x.Type, -hi)), l.minInt(t), r)
	return bb.Select(bb.Cmp(ir.CmpNAN, x, x), bb.Zero(t), r)
}
