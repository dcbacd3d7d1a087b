// This file implements calls: builtins (len, cap, min, max), the kernel
// package's intrinsics and the math functions (intrinsics.go,
// mathfn.go), and calls of the package's own functions, which are
// inlined (the IR has no calls): each call instance gets its own copy of
// the callee's blocks, its results joined as parameters of a continuation
// block. Everything else is diagnosed.

package gokernel

import (
	"go/types"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"golang.org/x/tools/go/ssa"
)

// call translates a call.
func (c *compiler) call(fr *frame, in *ssa.Call) {
	com := in.Common()
	if com.IsInvoke() {
		c.diag(in.Pos(), "interface method calls are not supported in kernels; call functions of concrete types")
		fr.fail(in)
		return
	}
	switch fn := com.Value.(type) {
	case *ssa.Builtin:
		c.builtin(fr, in, fn)
		return
	case *ssa.Function:
		c.staticCall(fr, in, fn)
		return
	case *ssa.MakeClosure:
		// Diagnosed where the closure is made.
	default:
		c.diag(in.Pos(), "calls through function values are not supported in kernels; call the function directly")
	}
	fr.fail(in)
}

// args returns the IR values of the call's arguments.
func (c *compiler) args(fr *frame, in *ssa.Call) ([][]*ir.Value, bool) {
	out := make([][]*ir.Value, len(in.Common().Args))
	for i, a := range in.Common().Args {
		if why := unsupportedType(a.Type()); why != "" {
			c.diag(in.Pos(), "%s", why)
			return nil, false
		}
		r, ok := c.value(fr, a)
		if !ok {
			return nil, false
		}
		out[i] = r
	}
	return out, true
}

// funcObject returns the package path and name of a function (of its
// generic origin for an instantiation) and whether it is a method.
func funcObject(fn *ssa.Function) (path, name string, method bool) {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		if o := fn.Origin(); o != nil {
			obj, _ = o.Object().(*types.Func)
		}
	}
	if obj == nil || obj.Pkg() == nil {
		return "", fn.Name(), false
	}
	sig, _ := obj.Type().(*types.Signature)
	return obj.Pkg().Path(), obj.Name(), sig != nil && sig.Recv() != nil
}

// staticCall translates a call of a known function.
func (c *compiler) staticCall(fr *frame, in *ssa.Call, fn *ssa.Function) {
	path, name, method := funcObject(fn)
	if funcPackage(fn) == c.l.ssa && (path == "" || path == c.l.ssa.Pkg.Path()) {
		args, ok := c.args(fr, in)
		if !ok {
			fr.fail(in)
			return
		}
		if rep, ok := c.inline(fn, args, in); ok {
			fr.set(in, rep...)
		} else {
			fr.fail(in)
		}
		return
	}
	var h handler
	qual := name
	switch path {
	case kernelPath:
		if method {
			qual = "Thread." + name
		}
		h = intrinsics[qual]
		qual = "kernel." + qual
	case math32Path:
		h = math32Funcs[name]
		qual = "math32." + name
	case "math":
		h = math64Funcs[name]
		qual = "math." + name
	default:
		pkg := path
		if fn.Pkg != nil {
			pkg = fn.Pkg.Pkg.Name()
		} else if o := fn.Object(); o != nil && o.Pkg() != nil {
			pkg = o.Pkg().Name()
		}
		c.diag(in.Pos(), "call of %s.%s: a kernel calls only functions of its own package, kernel intrinsics, and math and math32 functions", pkg, name)
		fr.fail(in)
		return
	}
	if h == nil {
		c.diag(in.Pos(), "%s is not supported in kernels%s", qual, hostHint(path, name))
		fr.fail(in)
		return
	}
	args, ok := c.args(fr, in)
	if !ok {
		fr.fail(in)
		return
	}
	rep, ok := h(c, in, fn.TypeArgs(), args)
	if !ok {
		fr.fail(in)
		return
	}
	fr.set(in, rep...)
}

// hostHint says what to use instead of a function kernels cannot call.
func hostHint(path, name string) string {
	switch path {
	case kernelPath:
		return "; it is for the host (launches, device arrays)"
	case "math", math32Path:
		return "; the math functions of kernels are Sqrt, Exp, Exp2, Expm1, Log, Log2, Log1p, Sin, Cos, Tan, Tanh, Erf, Pow, Atan2, Floor, Ceil, Trunc, RoundToEven, Abs, FMA, Min, Max, Copysign, Signbit, Inf, NaN, IsNaN, IsInf and the bit conversions (math32 adds Sigmoid and Rsqrt)"
	}
	return ""
}

// inline translates a call of a function of the package: a new frame for
// the callee whose returns branch to a continuation block, where the
// caller goes on with the callee's results as its parameters.
func (c *compiler) inline(callee *ssa.Function, args [][]*ir.Value, in *ssa.Call) ([]*ir.Value, bool) {
	for _, s := range c.stack {
		if s == callee {
			c.diag(in.Pos(), "recursive call of %s is not supported in kernels (calls are inlined); write it as a loop", callee.Name())
			return nil, false
		}
	}
	if len(callee.FreeVars) > 0 {
		c.diag(in.Pos(), "closures that capture variables are not supported in kernels; pass the values as arguments to a package-level function")
		return nil, false
	}
	if len(callee.Blocks) == 0 {
		c.diag(in.Pos(), "%s has no Go body (assembly or linkname); kernels call only functions written in Go", callee.Name())
		return nil, false
	}
	for _, p := range callee.Params {
		if why := unsupportedType(p.Type()); why != "" {
			c.diag(p.Pos(), "parameter %s of %s: %s", p.Name(), callee.Name(), why)
			return nil, false
		}
	}
	nf := newFrame(callee)
	for i, p := range callee.Params {
		nf.vals[p] = args[i]
	}
	entry := c.b.NewBlock(callee.Name())
	c.b.Br(entry)
	nf.blocks[0] = entry
	c.stack = append(c.stack, callee)
	c.translateFrame(nf)
	c.stack = c.stack[:len(c.stack)-1]
	c.setPos(in.Pos())
	if nf.cont == nil {
		// The callee never returns (every path traps or loops): go on in
		// a block nothing reaches.
		c.b.SetBlock(c.b.NewBlock(callee.Name() + "_noreturn"))
		if callee.Signature.Results().Len() > 0 {
			c.diag(in.Pos(), "%s never returns; kernels need functions that return", callee.Name())
			return nil, false
		}
		return nil, true
	}
	c.b.SetBlock(nf.cont)
	return nf.cont.Params, true
}

// builtin translates len, cap, min and max.
func (c *compiler) builtin(fr *frame, in *ssa.Call, fn *ssa.Builtin) {
	args := in.Common().Args
	b := c.b
	switch fn.Name() {
	case "len", "cap":
		x := args[0]
		switch u := x.Type().Underlying().(type) {
		case *types.Slice:
			rep, ok := c.value(fr, x)
			if !ok {
				fr.fail(in)
				return
			}
			if fn.Name() == "len" {
				fr.set(in, rep[1])
			} else {
				fr.set(in, rep[2])
			}
			return
		case *types.Array:
			fr.set(in, c.f.ConstInt(ir.S64, u.Len()))
			return
		case *types.Pointer:
			if a, ok := u.Elem().Underlying().(*types.Array); ok {
				fr.set(in, c.f.ConstInt(ir.S64, a.Len()))
				return
			}
		}
		c.diagType(in.Pos(), x.Type(), fn.Name())
	case "min", "max":
		reps, ok := c.args(fr, in)
		if !ok {
			fr.fail(in)
			return
		}
		r := reps[0][0]
		for _, a := range reps[1:] {
			r = c.minMax(fn.Name() == "max", r, a[0])
		}
		fr.set(in, r)
		return
	case "append":
		c.diag(in.Pos(), "append is not supported in kernels; write into a slice parameter at an index")
	case "copy":
		c.diag(in.Pos(), "copy is not supported in kernels; copy the elements in a loop")
	case "print", "println":
		c.diag(in.Pos(), "%s is not supported in kernels; write values into a slice parameter and print them on the host", fn.Name())
	case "recover":
		c.diag(in.Pos(), "recover is not supported in kernels")
	case "real", "imag", "complex":
		c.diag(in.Pos(), "complex numbers are not supported in kernels; keep the real and imaginary parts in two floats")
	case "clear":
		c.diag(in.Pos(), "clear is not supported in kernels; zero the elements in a loop")
	default:
		c.diag(in.Pos(), "the builtin %s is not supported in kernels", fn.Name())
	}
	_ = b
	fr.fail(in)
}

// minMax returns min(x, y) or max(x, y) with Go's semantics: for floats
// a NaN operand gives NaN, and min(-0, +0) is -0, max(-0, +0) is +0.
func (c *compiler) minMax(isMax bool, x, y *ir.Value) *ir.Value {
	b := c.b
	pick := b.Min
	if isMax {
		pick = b.Max
	}
	r := pick(x, y)
	if !x.Type.IsFloat() {
		return r
	}
	bt := ir.U32
	if x.Type == ir.F64 {
		bt = ir.U64
	}
	xb, yb := b.Bitcast(x, bt), b.Bitcast(y, bt)
	z := b.Or(xb, yb) // equal operands: -0 wins for min
	if isMax {
		z = b.And(xb, yb) // +0 wins for max
	}
	r = b.Select(b.Eq(x, y), b.Bitcast(z, x.Type), r)
	return b.Select(b.Cmp(ir.CmpNAN, x, y), b.Add(x, y), r)
}
