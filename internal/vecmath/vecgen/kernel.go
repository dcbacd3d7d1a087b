// This file implements the kernels the generator compiles: for each math
// function and float type, a one-call ir.Func (scalar operands in, one
// store of the result out) expanded by mathlib.Expand, the same expansion
// the PTX emitter and the IR interpreter run.

package vecgen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
)

// Func is one generated function: a math function on one float type.
type Func struct {
	Fn   ir.MathFn
	Type ir.Type // ir.F32 or ir.F64
}

// Name returns the exported Go name of the function ("ExpF32").
func (f Func) Name() string { return goFnNames[f.Fn] + typeSuffix(f.Type) }

// Arity returns 1 or 2.
func (f Func) Arity() int { return f.Fn.Arity() }

func typeSuffix(t ir.Type) string {
	if t == ir.F32 {
		return "F32"
	}
	return "F64"
}

// goFnNames are the Go names of the generated math functions.
var goFnNames = map[ir.MathFn]string{
	ir.MathExp: "Exp", ir.MathExp2: "Exp2", ir.MathExpm1: "Expm1", ir.MathLog: "Log",
	ir.MathLog2: "Log2", ir.MathLog1p: "Log1p", ir.MathSin: "Sin", ir.MathCos: "Cos",
	ir.MathTan: "Tan", ir.MathTanh: "Tanh", ir.MathSigmoid: "Sigmoid", ir.MathErf: "Erf",
	ir.MathPow: "Pow", ir.MathAtan2: "Atan2", ir.MathRsqrt: "Rsqrt", ir.MathSqrt: "Sqrt",
	ir.MathFloor: "Floor", ir.MathCeil: "Ceil", ir.MathRoundEven: "RoundEven", ir.MathTrunc: "Trunc",
}

// Funcs returns every generated function in a fixed order: the accurate
// functions of mathlib, then the native ones, each in float32 and float64.
func Funcs() []Func {
	fns := []ir.MathFn{
		ir.MathExp, ir.MathExp2, ir.MathExpm1, ir.MathLog, ir.MathLog2, ir.MathLog1p,
		ir.MathSin, ir.MathCos, ir.MathTan, ir.MathTanh, ir.MathSigmoid, ir.MathErf,
		ir.MathPow, ir.MathAtan2, ir.MathRsqrt,
		ir.MathSqrt, ir.MathFloor, ir.MathCeil, ir.MathRoundEven, ir.MathTrunc,
	}
	var out []Func
	for _, fn := range fns {
		for _, t := range []ir.Type{ir.F32, ir.F64} {
			out = append(out, Func{Fn: fn, Type: t})
		}
	}
	return out
}

// Kernel returns the expanded one-call function of f: parameters x (and
// y for two-operand functions) of f's type and out, a global pointer; its
// body stores fn(x[, y]) at out. The math call is expanded by
// mathlib.Expand (native functions stay calls).
func Kernel(f Func) (*ir.Func, error) {
	k := ir.NewFunc("vm_" + f.Fn.String() + "_" + f.Type.String())
	args := []*ir.Value{k.AddParam("x", f.Type)}
	if f.Arity() == 2 {
		args = append(args, k.AddParam("y", f.Type))
	}
	out := k.AddParam("out", ir.PtrTo(ir.SpaceGlobal, f.Type))
	b := ir.NewBuilder(k)
	b.Store(out, b.Math(f.Fn, args...))
	b.Ret()
	if err := k.Verify(); err != nil {
		return nil, fmt.Errorf("vecgen: %s: %w", f.Name(), err)
	}
	if err := mathlib.Expand(k); err != nil {
		return nil, fmt.Errorf("vecgen: %s: %w", f.Name(), err)
	}
	if err := k.Verify(); err != nil {
		return nil, fmt.Errorf("vecgen: %s after Expand: %w", f.Name(), err)
	}
	return k, nil
}

// FastKernel returns the ordinary-input kernel of f, or nil when f has
// none (only pow has one): its body stores the result mathlib's
// PowOrdinary gives and, on the lanes that are not ordinary, branches to
// a block that calls the unexpanded math function, a call Flatten is told
// it cannot compile (see canFast), so that those lanes become the
// program's bail-out predicate. The vector loop computes a vector with
// such a lane by the full program instead (see asm.go).
func FastKernel(f Func) (*ir.Func, error) {
	if f.Fn != ir.MathPow {
		return nil, nil
	}
	k := ir.NewFunc("vm_" + f.Fn.String() + "_" + f.Type.String() + "_ordinary")
	x, y := k.AddParam("x", f.Type), k.AddParam("y", f.Type)
	out := k.AddParam("out", ir.PtrTo(ir.SpaceGlobal, f.Type))
	b := ir.NewBuilder(k)
	r, ok, err := mathlib.PowOrdinary(b, f.Type, x, y)
	if err != nil {
		return nil, fmt.Errorf("vecgen: %s: %w", f.Name(), err)
	}
	b.Store(out, r)
	slow, exit := b.NewBlock("slow"), b.NewBlock("exit")
	b.CondBr(ok, exit, slow)
	b.SetBlock(slow)
	b.Math(f.Fn, x, y)
	b.Br(exit)
	b.SetBlock(exit)
	b.Ret()
	if err := k.Verify(); err != nil {
		return nil, fmt.Errorf("vecgen: %s (ordinary inputs): %w", f.Name(), err)
	}
	return k, nil
}

// canFast is the instruction test for flattening a FastKernel on an ISA:
// what the ISA compiles, except the unexpanded call of the math function
// that marks the lanes left to the full program.
func canFast(isa *ISA) func(*ir.Instr) bool {
	return func(in *ir.Instr) bool {
		if in.Op == ir.OpMath && in.Fn == ir.MathPow {
			return false
		}
		return isa.Supports(in)
	}
}
