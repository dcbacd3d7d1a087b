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
// it finds unreachable: an Array not yet evaluated keeps the Arrays it was
// built from reachable, as a NumPy array keeps its base, so
// `FromSlice(c, v, n).Exp()` evaluates whenever it is asked to; once it
// holds its result it lets them go); arrow.Arrays returned by ToArrow are the caller's
// to Release. With a checked allocator, releasing every Array created or
// evaluated and every exported arrow.Array leaves zero bytes allocated.
//
// # Results
//
// ToSlice copies a result out in row-major order, Value and its siblings
// read a single element, ToArrow exports a flat Arrow array (sharing the
// buffer when it can), ToDense converts to a gonum matrix (a copy) and
// AsDense, AsGeneral64 and AsGeneral32 hand out the result's own buffer
// as one where its layout allows (ViewDense and its siblings are the
// zero-copy way in, on host backends), and String and
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
//
// # Deliberate differences from NumPy
//
// fuseflow follows NumPy 2 wherever the table below does not say
// otherwise. Each row is a choice, not an accident; the tests check the
// fuseflow column.
//
//	topic                    NumPy                                 fuseflow
//	-----------------------  ------------------------------------  ------------------------------------------
//	Go numbers as operands   NumPy 1.x: value-based casting;       weak scalars as NumPy 2 (NEP 50) and JAX:
//	                         NumPy 2: weak Python scalars          float32 array * 2 stays float32; a Go int
//	                                                               past int32's range with an int32 array
//	                                                               is an error (graph/promote.go)
//	int32 with float32       float64                               float64 as NumPy (JAX gives float32)
//	true division of ints    float64                               float64, as NumPy (Go would truncate)
//	integer // and % by 0    0 with a RuntimeWarning               0, no warning (no op ever warns)
//	integer ** negative      ValueError                            0, except base 1 (1) and base -1 (1 or -1
//	                                                               by the exponent's parity)
//	float -> int of NaN,     platform-defined (often INT_MIN)      NaN gives 0; out of range saturates for
//	  Inf, out of range                                            int32 and int64, saturates into int32
//	                                                               (int64 for uint32) and wraps for the
//	                                                               narrower ints, wraps through int64 for
//	                                                               uint64; the same on every backend
//	                                                               (graph.CastFloatToInt)
//	bfloat16                 no such dtype                         JAX's rules: with any int or bool
//	                                                               bfloat16, with float16/float32 float32;
//	                                                               Arrow extension fuseflow.bfloat16
//	float16 sums, products,  rounded to float16 at each step       accumulated in float32 and rounded once
//	  scans, ScatterAdd                                            (closer to the exact result)
//	Go uint64 above          a weak unsigned integer               a weak float (Go numbers above MaxInt64
//	  MaxInt64 as operand                                          are not held as integers)
//	bool arithmetic          + is or, * is and, - and neg raise;   Add, Sub, Mul, FloorDiv, Mod and Pow of two
//	                         sqrt/exp of bool give float16         bools, Neg, Sign, Square and the float math
//	                                                               of bool are errors; cast first
//	bool MatMul              logical or of ands                    an error (Einsum of bools is supported)
//	warnings                 RuntimeWarning for 0/0, log(0), ...   none: the values are NumPy's (NaN, Inf);
//	                                                               Mean of an empty selection is NaN
//	NaN                      propagates; argmax finds the first    as NumPy: NaN propagates through
//	                         NaN; comparisons are false            arithmetic, Maximum, Minimum, Max, Min,
//	                                                               Var and Std; ArgMax/ArgMin give the first
//	                                                               NaN; only Ne is true
//	Var, Std                 x.var(axis, ..., ddof=0)              x.Var(axes...) is ddof 0 over the given
//	                                                               axes (x.Var(1) is axis 1, as x.var(1));
//	                                                               ddof only through VarDdof/StdDdof; one
//	                                                               pass with a shift (rounding differs in
//	                                                               the last bits)
//	constructors             dtype keyword, inferred when absent   dtype required and first: Zeros(d, shape...),
//	                                                               Arange(d, n), ArangeStep(d, start, stop,
//	                                                               step), Linspace(d, start, stop, n), Eye(d,
//	                                                               n, m, k), Rand(d, seed, shape...)
//	Full of an int64         exact                                 exact: any Go number type, never through
//	                                                               float64
//	Arange with steps        the first two values converted to     start + i*step in float64, each converted
//	                         the dtype, then stepped by their      (ArangeStep(Int64, 0.5, 3, 0.7) is [0 1 1
//	                         difference ([0 1 2 3] for 0.5, 3,     2])
//	                         0.7 to int)
//	integer Linspace         NumPy 1.x truncates toward 0;         floors, as NumPy 2
//	                         NumPy 2 floors
//	views and copies         views alias memory and see writes     arrays are immutable: a view never changes
//	                                                               and no op writes in place; Contiguous copies
//	random numbers           PCG64 / Mersenne streams              Philox4x32-10 keyed by seed, the same on
//	                                                               every backend; not NumPy's streams
//	evaluation               eager                                 lazy: nothing runs until Eval or a result
//	                                                               is asked for; errors are carried by the
//	                                                               Array (no exceptions, no panics)
//	data-dependent lengths   eager                                 ops whose length depends on the data
//	                                                               (boolean masks, Nonzero) evaluate their
//	                                                               operands eagerly: a planning boundary that
//	                                                               counts, then compacts
//	float accumulation       pairwise sums in the dtype            sums in the dtype in each backend's own
//	                                                               order (the reference evaluator in
//	                                                               float64): the last bits differ from
//	                                                               NumPy's and between backends, within the
//	                                                               tolerances the tests state
//	running sums and         one element after another in the      in the dtype, one after another within a
//	  products (CumSum,      dtype                                 piece of a long lane (CPU) or a thread's
//	  CumProd)                                                     points (GPU), pieces' totals carried in:
//	                                                               the last bits of long float lanes differ;
//	                                                               ints, CumMax and CumMin are exact
//	Einsum contraction       optimize=False: left to right, in     always the greedy pairwise order, lowered
//	  order                  C loops                               to MatMul and fused reductions (rounding
//	                                                               may differ in the last bits)
//	Roll with several axes   one shift per axis                    one shift for every axis given
//	Pad modes                constant, edge, reflect, wrap, ...    constant (Pad) and edge (PadEdge)
//	Repeat with counts       np.repeat(x, counts, axis)            RepeatCounts(counts, axis...)
//	sort kind                quicksort (introsort) by default,     always stable (kind="stable"'s order),
//	                         stable only with kind="stable"        NaN last, -0 and +0 equal keys in order
//	sort without an axis     axis=None flattens                    Sort() is the last axis; SortFlat() and
//	                                                               ArgSortFlat() flatten
//	TopK                     none (argpartition + sort)            TopK(k, axis...): values and indices,
//	                                                               largest first, ties lowest index first,
//	                                                               NaN largest (as torch.topk, lax.top_k)
//	histogram options        bins=int or a sequence; range         Histogram(bins, lo, hi) or HistogramWith
//	                         ignored with a sequence; NaN edges    (HistogramOpts: Bins, Range, Edges,
//	                         accepted; one edge gives no bins;     Weights, Density); Edges with Bins or
//	                         bool weights give bool sums; float    Range, NaN edges, a single edge and bool
//	                         weights summed per 65536-element      weights are errors; float weights summed
//	                         block                                 in float64 and rounded once
package array
