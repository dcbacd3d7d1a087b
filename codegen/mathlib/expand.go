// This file implements Expand: it finds the accurate math calls PTX has no
// correctly rounded instruction for, splits their blocks, and inlines the
// expansion of each in its place.

package mathlib

import (
	"fmt"
	"slices"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// expander builds the expansion of one function for the emitter's type
// from the call's operands and returns the result.
type expander func(e em, args []*ir.Value) *ir.Value

// expanders maps each expanded function to its expansion; the functions
// absent here are native (see IsNative).
var expanders = [ir.NumMathFns]expander{
	ir.MathExp:     expandExp,
	ir.MathExp2:    expandExp2,
	ir.MathLog:     expandLog,
	ir.MathLog2:    expandLog2,
	ir.MathLog1p:   expandLog1p,
	ir.MathExpm1:   expandExpm1,
	ir.MathSin:     expandSin,
	ir.MathCos:     expandCos,
	ir.MathTan:     expandTan,
	ir.MathTanh:    expandTanh,
	ir.MathSigmoid: expandSigmoid,
	ir.MathErf:     expandErf,
	ir.MathPow:     expandPow,
	ir.MathRsqrt:   expandRsqrt,
	ir.MathAtan2:   expandAtan2,
}

// expandRsqrt is 1/sqrt(x): sqrt.rn then div.rn, as Go computes it.
func expandRsqrt(e em, a []*ir.Value) *ir.Value { return e.div(e.c(1), e.sqrt(a[0])) }

// IsNative reports whether an accurate call of fn stays a math call after
// Expand because PTX computes it in one correctly rounded instruction:
// sqrt (sqrt.rn), floor, ceil, trunc and round-half-even (cvt.rmi, cvt.rpi,
// cvt.rzi, cvt.rni).
func IsNative(fn ir.MathFn) bool {
	return int(fn) < len(expanders) && expanders[fn] == nil
}

// Expand rewrites, in place, every math call of fn that is not approximate
// (Instr.Approx false) and not native (IsNative) into the inline
// expansion of the math library: plain arithmetic, compares, selects,
// integer and bit operations and conversions, with branches only for erf
// and for the large arguments of sin, cos and tan.
// Calls marked approximate are left for the PTX emitter. The uses of each
// call's result are redirected to the expansion's result; the call's block
// is split at the call. Expand returns an error, and leaves fn partly
// rewritten, when a call has operands that are not one float type of the
// right count (fn should verify first). It is not safe for concurrent use
// on one function.
func Expand(fn *ir.Func) error {
	if fn == nil {
		return fmt.Errorf("mathlib: Expand of a nil function")
	}
	var calls []*ir.Instr
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			if in.Op == ir.OpMath && !in.Approx && int(in.Fn) < len(expanders) && expanders[in.Fn] != nil {
				calls = append(calls, in)
			}
		}
	}
	if len(calls) == 0 {
		return nil
	}
	repl := map[*ir.Value]*ir.Value{}
	resolve := func(v *ir.Value) *ir.Value {
		for {
			r, ok := repl[v]
			if !ok {
				return v
			}
			v = r
		}
	}
	for _, in := range calls {
		for i, a := range in.Args {
			in.Args[i] = resolve(a)
		}
		if err := checkCall(fn, in); err != nil {
			return err
		}
		repl[in.Result()] = expandCall(fn, in)
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			for i, a := range in.Args {
				in.Args[i] = resolve(a)
			}
			for _, s := range in.Succs {
				for i, a := range s.Args {
					s.Args[i] = resolve(a)
				}
			}
		}
	}
	return nil
}

// checkCall checks the operands of a call before it is expanded.
func checkCall(fn *ir.Func, in *ir.Instr) error {
	where := func() string { return fmt.Sprintf("kernel %s, block %s: math.%s", fn.Name, in.Block.Name, in.Fn) }
	if len(in.Args) != in.Fn.Arity() {
		return fmt.Errorf("mathlib: %s: %d operands, want %d", where(), len(in.Args), in.Fn.Arity())
	}
	for i, a := range in.Args {
		if a == nil || (a.Type != ir.F32 && a.Type != ir.F64) || a.Type != in.Args[0].Type {
			return fmt.Errorf("mathlib: %s: operand %d is %v, want f32 or f64 like operand 0", where(), i, a)
		}
	}
	if r := in.Result(); r == nil || r.Type != in.Args[0].Type {
		return fmt.Errorf("mathlib: %s: the result type differs from the operands'", where())
	}
	return nil
}

// expandCall splits the call's block at the call, emits the expansion at
// the end of the first half, branches to the second half, and lays the
// new blocks out between the two halves. It returns the expansion's
// result.
func expandCall(fn *ir.Func, in *ir.Instr) *ir.Value {
	blk := in.Block
	pos, layoutAt := slices.Index(blk.Instrs, in), slices.Index(fn.Blocks, blk)
	if pos < 0 || layoutAt < 0 {
		panic("mathlib: a math call is not in its block") // broken IR invariant
	}
	b := ir.NewBuilder(fn)
	cont := b.NewBlock(blk.Name + "_" + in.Fn.String() + "_end")
	tail := blk.Instrs[pos+1:]
	cont.Instrs = append(cont.Instrs, tail...)
	for _, x := range tail {
		x.Block = cont
		for _, r := range x.Results {
			r.Block = cont
		}
	}
	blk.Instrs = blk.Instrs[:pos:pos]
	before := len(fn.Blocks)

	b.SetBlock(blk)
	b.SetComment(in.Comment)
	e := em{b: b, t: in.Args[0].Type}
	r := expanders[in.Fn](e, in.Args)
	b.Br(cont)
	b.SetBlock(cont)
	b.SetComment("")

	added := append([]*ir.Block(nil), fn.Blocks[before:]...)
	rest := append([]*ir.Block(nil), fn.Blocks[layoutAt+1:before]...)
	fn.Blocks = append(append(fn.Blocks[:layoutAt+1], added...), rest...)
	if old := in.Result(); old.Name != "" {
		b.Name(r, old.Name)
	}
	return r
}
