// Package gokernel compiles explicit kernels, Go functions marked
// //fuseflow:kernel (see package kernel for the Go subset), from Go SSA
// (golang.org/x/tools/go/ssa) to fuseflow's kernel IR (codegen/ir), whose
// PTX codegen/ptx emits. cmd/kernelgen drives it at go generate time; the
// generated files, and so the programs that launch kernels, never import
// this package or golang.org/x/tools.
//
// # Translation
//
// Compile loads the package (go/packages), builds its SSA, and translates
// each kernel's blocks in reverse postorder. Every SSA value becomes a
// list of IR values: one for a scalar or pointer, three for a slice
// (pointer, length, capacity) and for a kernel.Dim3, none for the
// kernel.Thread. SSA phis become block parameters; branches' edges are
// filled once every block exists. Calls of the package's own functions
// are inlined (the IR has no calls): each call instance gets its own copy
// of the callee's blocks, its returns branch to a continuation block
// whose parameters are the results. Slice parameters are two IR
// parameters, a global pointer and an s64 length; a bool parameter is a
// u32. Local arrays (and address-taken locals) live in local memory,
// zeroed where Go zeroes them; package-level arrays of constants become
// constant arrays (the const space). Intrinsics of package kernel and the
// math functions map through tables (intrinsics.go, mathfn.go); float
// math becomes IR math calls, which the PTX emitter expands with the math
// library (codegen/mathlib) as it does for the lazy arrays.
//
// # Checks
//
// Indexing and slicing are bounds-checked, integer division checked for
// zero and shift counts for sign, as Go does; a check a dominating block
// of the same function instance already made is not repeated, and
// constant cases are not checked. A failed check stores its site's number
// in the check word (a last u32 pointer parameter) and traps; Kernel.Checks
// maps the numbers to "file.go:line:col: what". //fuseflow:nobounds
// compiles no checks.
//
// # Diagnostics
//
// Everything outside the subset is diagnosed where it occurs, with what
// to write instead; all diagnostics of a package come back at once in an
// *Error, sorted by position, each once. The IR verifier runs on every
// kernel; its barrier-divergence problems come back as diagnostics at the
// barrier's line, naming the branch.
//
// # Running the IR
//
// Kernel.Interpret runs a kernel's IR on the IR interpreter with the
// arguments a launch takes; the tests run every test kernel both natively
// (the Go function on the CPU device) and this way, and require the same
// results bit for bit.
package gokernel
