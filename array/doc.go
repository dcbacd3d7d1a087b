// Package array is fuseflow's user API: lazy NumPy-style arrays.
//
// An Array is an immutable handle on a node of an expression graph.
// Building one computes nothing; Eval, ToSlice, Value, ToArrow and String
// compute it, all the arrays asked for in one backend request, so shared
// work is done once:
//
//	c := array.Default()
//	x := c.Arange(array.Float32, 12).Reshape(3, 4)
//	y := x.Transpose().Mul(2).Sum(0) // nothing has run yet
//	fmt.Println(y)                   // evaluates: [12. 44. 76.]
//
// # Contexts
//
// A Context says which backend evaluates its arrays and which Arrow
// allocator their host buffers come from (NewContext with WithBackend and
// WithAllocator; Default for the process-wide one, whose backend the
// FUSEFLOW_DEVICE environment variable picks through exec.OpenDefault).
// The package links every backend (it imports exec/all, where each backend
// registers itself), so a program needs no import of its own to run on
// the CPU or a GPU. Arrays of two Contexts cannot be combined. A nil or zero Context (&Context{}) is not one:
// arrays built on it carry an error saying to make one with NewContext.
//
// # Operands and promotion
//
// Binary ops take an *Array or a Go number. Go numbers are weakly typed:
// float32 array * 2 stays float32 (the full promotion table is in package
// graph). Shapes broadcast as in NumPy.
//
// # Errors
//
// Nothing panics across the API (except the documented Must helpers). An
// invalid operation — mismatched shapes, an invalid axis, a reshape to
// another size, a zero slice step, an index out of range, an unsupported
// dtype, arrays of two Contexts — gives an Array that carries the error
// ("Add((3,) float32, (4,) float32): shapes (3,) (4,) cannot be broadcast
// together"); everything built on it carries the same error, and it comes
// back from Err, Eval, ToSlice and the other results.
//
// An evaluation that would need more memory than the process may use
// fails with an *exec.MemoryError, as NumPy raises MemoryError: "Unable to
// allocate 8.00 TiB for an array with shape (1099511627776,) and data type
// float64". Two limits apply, both by default what the machine, its
// cgroup (a container's memory limit) and RLIMIT_AS allow the process:
// WithMemoryLimit bounds the host memory a Context holds at once (inputs,
// results of live arrays, the buffers of running evaluations; like CuPy's
// MemoryPool.set_limit), WithMaxAllocation each single buffer. A failed
// evaluation frees what it allocated. Shapes whose byte size does not fit
// in an int are build errors, and so, as in NumPy, are empty shapes whose
// non-zero extents multiply past that limit ((0, 1<<32, 1<<32) of
// float64): no op wraps an extent or a size.
//
// # Ownership
//
// Arrays made from data (FromSlice, FromArrow, FromDense) hold their
// input buffer; evaluated arrays hold their result. Results are kept per
// Context by graph node: an expression that needs a node some live array
// already holds reuses that result instead of recomputing it. Release
// drops what an Array holds (the garbage collector does it too, for Arrays
// it finds unreachable); arrow.Arrays returned by ToArrow are the caller's
// to Release. With a checked allocator, releasing every Array created or
// evaluated and every exported arrow.Array leaves zero bytes allocated.
//
// # Results
//
// ToSlice copies a result out in row-major order, Value and its siblings
// read a single element, ToArrow exports a flat Arrow array (sharing the
// buffer when it can), ToDense converts to a gonum matrix, and String and
// Repr print as NumPy's str and repr do.
//
// # Explicit kernels
//
// Call adds a call of an explicit kernel (package kernel, compiled by
// cmd/kernelgen) to the graph and returns one new array per slice the
// kernel writes; the arguments are never changed (a written slice starts
// as a copy of its argument):
//
//	ys := array.Call(SaxpyKernel, array.ForAll(n), 2.5, x.Exp(), y)
//	total := ys[0].Sum() // exp and the copy of y, the call, the sum
//
// The geometry is array.Launch(cfg) (a grid and block) or array.ForAll(n)
// (one thread per task, the block size the device prefers). Slice
// parameters take arrays of their element type, flattened; scalar
// parameters take Go values. The call is a fusion boundary: the work on
// its arguments fuses into the kernels that store them, the work on its
// results reads them from their buffers. The CPU backend runs the
// kernel's Go function, the CUDA backend its PTX on the evaluation's
// device buffers.
//
// # Special values
//
// Integer FloorDiv and Mod by zero give 0 (NumPy gives 0 with a warning).
// Integer Pow with a negative exponent gives 0 except for bases 1 and -1.
// Float to integer conversion truncates toward zero, saturates, and maps
// NaN to 0. NaN propagates through arithmetic, Maximum, Minimum, Max and
// Min as in NumPy. Mean of an empty selection is NaN.
package array
