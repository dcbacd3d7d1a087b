// The op definition: what one elementwise op computes on each dtype (its
// scalar functions, the one definition the fast paths share) and how the
// code generator lowers it to IR, looked up by graph.Op.

package opdef

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
)

// Wide marks a float32 function computed in float64: the operand is
// widened exactly and the result rounded once to float32, the
// reference's rule for float math.
type Wide func(float64) float64

// Wide2 is Wide for binary ops.
type Wide2 func(a, b float64) float64

// Fns holds an op's scalar function for each dtype it is defined for,
// nil elsewhere. A unary op's function is a func(T) R, a binary op's a
// func(T, T) R, where T is the operand's Go type (bool, int32, int64,
// float32, float64) and R the result's: T, or bool for predicates and
// comparisons. A Float32 entry may instead be a Wide (Wide2) function.
// Uint64 is the one unsigned lane: ops on the narrow dtypes (int8 ...
// uint32, float16, bfloat16) never reach a backend, which computes them
// in their lanes (graph.DType.Lane), so they have no entry here.
type Fns struct {
	Bool, Int32, Int64, Float32, Float64 any
	Uint64                               any
}

// fnsDTypes are the dtypes of the fields of Fns, in the order of slots.
var fnsDTypes = [...]graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64, graph.Uint64}

// slots returns the fields of f, one per dtype of fnsDTypes.
func (f *Fns) slots() [len(fnsDTypes)]*any {
	return [...]*any{&f.Bool, &f.Int32, &f.Int64, &f.Float32, &f.Float64, &f.Uint64}
}

// Get returns the function for operands of dtype d, or nil.
func (f *Fns) Get(d graph.DType) any {
	for i, p := range f.slots() {
		if fnsDTypes[i] == d {
			return *p
		}
	}
	return nil
}

// with returns f with the functions of g added where f has none.
func (f Fns) with(g Fns) Fns {
	from := g.slots()
	for i, p := range f.slots() {
		if *p == nil {
			*p = *from[i]
		}
	}
	return f
}

// Call applies fn, a scalar function of Fns or Cast, to operands of its
// Go types and returns the result; a Wide (Wide2) function takes float32
// operands through float64. It panics when args do not fit fn.
func Call(fn any, args ...any) any {
	switch f := fn.(type) {
	case Wide:
		return float32(f(float64(args[0].(float32))))
	case Wide2:
		return float32(f(float64(args[0].(float32)), float64(args[1].(float32))))
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	return reflect.ValueOf(fn).Call(in)[0].Interface()
}

// Lowering emits an op in IR on register values of one dtype (pred for
// bool, s32, s64, f32 or f64) and returns the result in the register
// type of the op's result dtype.
type Lowering func(b *ir.Builder, args []*ir.Value) *ir.Value

// Def is the definition of one elementwise op for the fast paths: the
// CPU executor builds its loops from Fns, and the code generator lowers
// the op with the Lowering of the operands' lane. The reference evaluator
// keeps its own definitions; the tests check that Fns, the CPU's loops
// and the lowered IR (run on the IR interpreter) agree with it.
type Def struct {
	Op  graph.Op
	Fns Fns
	// Float, Int and Bool lower the op on float, integer and bool
	// operands; each is set exactly where Fns has a function for a dtype
	// of that lane.
	Float, Int, Bool Lowering
	// Uint lowers the op on uint64 operands where Int's instructions
	// need signed operands (nil: Int does for both); see uint64.go.
	Uint Lowering
	// LowerULP bounds how far, in units in the last place, the result of
	// Float (run on the IR interpreter, with math calls as Go's math
	// package computes them) may be from Fns: 0 for a lowering that
	// computes Fns exactly, as all math calls do.
	LowerULP float64
}

// Lower returns the lowering of d on operands of dtype dt, or nil where
// d is not defined for dt.
func (d *Def) Lower(dt graph.DType) Lowering {
	if d.Fns.Get(dt) == nil {
		return nil
	}
	switch {
	case dt.IsFloat():
		return d.Float
	case dt == graph.Uint64 && d.Uint != nil:
		return d.Uint
	case dt.IsInt():
		return d.Int
	case dt == graph.Bool:
		return d.Bool
	}
	return nil
}

// Result returns the dtype of d's result on operands of dtype dt, or
// graph.Invalid where d is not defined for dt.
func (d *Def) Result(dt graph.DType) graph.DType {
	f := d.Fns.Get(dt)
	if f == nil {
		return graph.Invalid
	}
	if reflect.TypeOf(f).Out(0).Kind() == reflect.Bool {
		return graph.Bool
	}
	return dt
}

// defs holds every Def by op; filled by the files of each op class.
var defs = map[graph.Op]*Def{}

// Lookup returns the definition of op, or nil when op is not an
// elementwise op defined here (Where and AsType have their own rules:
// see Cast). The Def must not be modified.
func Lookup(op graph.Op) *Def { return defs[op] }

// Ops returns the ops with a definition, in op order.
func Ops() []graph.Op {
	ops := make([]graph.Op, 0, len(defs))
	for op := range defs {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	return ops
}

// register adds the definitions of one op class, checking each against
// the op's arity and the dtypes' Go types: a malformed entry is a broken
// invariant of this package and panics at init.
func register(class graph.Class, ds map[graph.Op]Def) {
	for op, d := range ds {
		d.Op = op
		if d.Fns.Int64 != nil && d.Fns.Uint64 == nil {
			d.Fns.Uint64 = uint64Fns[op]
			d.Uint = uint64Lowerings[op]
		}
		if op.Class() != class {
			panic(fmt.Sprintf("opdef: %v registered as %v", op, class))
		}
		if err := d.check(); err != nil {
			panic(fmt.Sprintf("opdef: %v: %v", op, err))
		}
		defs[op] = &d
	}
}

// goTypes maps a dtype to its Go element type in scalar functions.
var goTypes = map[graph.DType]reflect.Type{
	graph.Bool:    reflect.TypeFor[bool](),
	graph.Int32:   reflect.TypeFor[int32](),
	graph.Int64:   reflect.TypeFor[int64](),
	graph.Float32: reflect.TypeFor[float32](),
	graph.Float64: reflect.TypeFor[float64](),
	graph.Uint64:  reflect.TypeFor[uint64](),
}

// check verifies d's function types and lowerings.
func (d *Def) check() error {
	arity := 1
	if d.Op.Class() == graph.ClassBinary {
		arity = 2
	}
	lanes := map[string]bool{}
	for dt, gt := range goTypes {
		f := d.Fns.Get(dt)
		if f == nil {
			continue
		}
		ft := reflect.TypeOf(f)
		if dt == graph.Float32 && (ft == reflect.TypeFor[Wide]() || ft == reflect.TypeFor[Wide2]()) {
			gt = reflect.TypeFor[float64]()
		}
		if ft.Kind() != reflect.Func || ft.NumIn() != arity || ft.NumOut() != 1 {
			return fmt.Errorf("%v function %v does not take %d operands to one result", dt, ft, arity)
		}
		for i := range arity {
			if ft.In(i) != gt {
				return fmt.Errorf("%v function %v does not take %v", dt, ft, gt)
			}
		}
		if out := ft.Out(0); out != gt && out.Kind() != reflect.Bool {
			return fmt.Errorf("%v function %v returns neither %v nor bool", dt, ft, gt)
		}
		switch {
		case dt.IsFloat():
			lanes["Float"] = true
		case dt.IsInt():
			lanes["Int"] = true
		default:
			lanes["Bool"] = true
		}
	}
	for lane, l := range map[string]Lowering{"Float": d.Float, "Int": d.Int, "Bool": d.Bool} {
		if lanes[lane] != (l != nil) {
			return fmt.Errorf("%s lowering set %v, functions for the lane %v", lane, l != nil, lanes[lane])
		}
	}
	return nil
}
