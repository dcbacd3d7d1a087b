// This file implements the mapping of the kernel subset's Go types to IR
// types: scalars (bool is a pred in registers and a byte in memory),
// slices, pointers and arrays of scalars, and kernel.Dim3.

package gokernel

import (
	"go/types"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/kernel"
)

// basicIR gives the IR type of each supported basic kind in registers.
var basicIR = map[types.BasicKind]ir.Type{
	types.Bool:    ir.Pred,
	types.Int:     ir.S64,
	types.Int32:   ir.S32,
	types.Int64:   ir.S64,
	types.Uint:    ir.U64,
	types.Uint32:  ir.U32,
	types.Uint64:  ir.U64,
	types.Float32: ir.F32,
	types.Float64: ir.F64,
	// Untyped constants take their default types.
	types.UntypedBool:  ir.Pred,
	types.UntypedInt:   ir.S64,
	types.UntypedRune:  ir.S32,
	types.UntypedFloat: ir.F64,
}

// basicKernel gives the kernel.Type of each kind a parameter may have.
var basicKernel = map[types.BasicKind]kernel.Type{
	types.Bool:    kernel.Bool,
	types.Int:     kernel.Int,
	types.Int32:   kernel.Int32,
	types.Int64:   kernel.Int64,
	types.Uint32:  kernel.Uint32,
	types.Uint64:  kernel.Uint64,
	types.Float32: kernel.Float32,
	types.Float64: kernel.Float64,
}

// scalarIR returns the register IR type of a supported scalar Go type.
func scalarIR(t types.Type) (ir.Type, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return ir.Invalid, false
	}
	it, ok := basicIR[b.Kind()]
	return it, ok
}

// memIR returns the in-memory IR type of a scalar Go type: bool is a
// byte (0 or 1), the others as in registers.
func memIR(t types.Type) (ir.Type, bool) {
	it, ok := scalarIR(t)
	if it == ir.Pred {
		return ir.U8, ok
	}
	return it, ok
}

// isBasic reports whether t's underlying type is a basic type.
func isBasic(t types.Type) bool { _, ok := t.Underlying().(*types.Basic); return ok }

// isNamed reports whether t is the named type pkg.name (pointers are not
// followed).
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == pkg && o.Name() == name
}

// isThread reports whether t is kernel.Thread.
func isThread(t types.Type) bool { return isNamed(t, kernelPath, "Thread") }

// isDim3 reports whether t is kernel.Dim3.
func isDim3(t types.Type) bool { return isNamed(t, kernelPath, "Dim3") }

// unsupportedType returns why t has no place in a kernel and what to use
// instead, or "" when t is supported as a value.
func unsupportedType(t types.Type) string {
	if isThread(t) || isDim3(t) {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if _, ok := basicIR[u.Kind()]; ok {
			return ""
		}
		switch u.Kind() {
		case types.String, types.UntypedString:
			return "strings are not supported in kernels; pass the text as a []int32 of code points"
		case types.Int8, types.Int16, types.Uint8, types.Uint16:
			return u.Name() + " is not supported in kernels; use int32 or uint32 (or int)"
		case types.Complex64, types.Complex128, types.UntypedComplex:
			return "complex numbers are not supported in kernels; keep the real and imaginary parts in two floats"
		case types.Uintptr, types.UnsafePointer:
			return "unsafe pointers are not supported in kernels; index slices instead"
		case types.UntypedNil:
			return "nil is not supported in kernels; pass an empty slice"
		}
		return u.Name() + " is not supported in kernels"
	case *types.Slice:
		if _, ok := scalarIR(u.Elem()); ok {
			return ""
		}
		return "slices of " + u.Elem().String() + " are not supported in kernels; use slices of bool, int, int32, int64, uint32, uint64, float32 or float64"
	case *types.Array:
		if _, ok := scalarIR(u.Elem()); ok {
			return ""
		}
		return "arrays of " + u.Elem().String() + " are not supported in kernels; use arrays of scalars"
	case *types.Pointer:
		if _, ok := scalarIR(u.Elem()); ok {
			return ""
		}
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			if _, ok := scalarIR(a.Elem()); ok {
				return ""
			}
		}
		return "pointers to " + u.Elem().String() + " are not supported in kernels"
	case *types.Map:
		return "maps are not supported in kernels; use a slice indexed by an integer key"
	case *types.Chan:
		return "channels are not supported in kernels; threads communicate through shared memory, barriers and atomics"
	case *types.Interface:
		return "interfaces are not supported in kernels; call functions of concrete types"
	case *types.Struct:
		return "struct types are not supported in kernels; pass or keep their fields as separate values"
	case *types.Signature:
		return "function values are not supported in kernels; call functions directly"
	case *types.Tuple:
		return ""
	}
	return t.String() + " is not supported in kernels"
}
