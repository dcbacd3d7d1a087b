// Package cpu is fuseflow's CPU executor: an exec.Backend that runs the
// fused plans of package fuse on every core.
//
// Eval is the shared runner (exec/runner) driving this target: it looks
// the plan up in a cache keyed by the graph's structure (so evaluating
// the same expression on new data plans nothing), allocates
// temporaries and results from the request's allocator as the plan's
// liveness says (a temporary is released right after the last kernel that
// reads it), runs the kernels in order and returns the outputs, views
// where the plan says so.
//
// Kernels run NumExpr style: the iteration space is cut into chunks of a
// few thousand points (chosen per kernel so that its operands fit half
// of a worker's cache), spread over a pool of runtime.GOMAXPROCS
// workers, and each instruction of a kernel body is computed for a whole
// chunk into a per-worker scratch vector before the next one runs. Inner
// loops are typed, allocation-free and looked up in tables indexed by
// dtype and graph.Op, which are derived from the op definitions of
// internal/opdef: each op's scalar function (internal/fmath) inlined in a
// typed loop, or called per element for the ops without one. Contiguous operands
// are read in place; strided, reversed and broadcast operands are
// gathered per chunk; the value a contiguous store takes is computed
// straight into the destination. Operands whose rows are contiguous but
// not their order (a reversed or stepped outer axis) are read and
// written in place row by row (rowrun.go); transposed operands and
// stores run in 2-d tiles (tile.go), whose rows fold over a second axis
// in a 3-d transpose and span a skinny space's whole short axis. Iota, Eye and Philox random leaves are
// generated from the element index. A fused gather (fuse.InstrGather)
// loads each element at its operand's offset displaced by its index;
// each worker keeps the first bad index it met and the kernel fails with
// the first of them in the result's row-major order once every chunk
// has run. The context is checked between
// chunks: a cancelled Eval returns ctx.Err() and leaves nothing
// allocated.
//
// Consecutive kernels that are independent along their leading axis
// (softmax: the row maxima, exp(x - max) stored, its row sums, the
// division) run as one row group when their traffic exceeds a worker's
// cache: each worker takes a block of rows (about half of its cache of
// data) and runs every kernel of the group over it, so x and the stored
// exponential are read from the cache, not from memory, by the later
// kernels; the results are the same bits as kernel after kernel
// (sched.go).
//
// # Numbers
//
// Results match the reference evaluator (exec/ref) exactly for integers
// and bools. For floats:
//
//   - Add, Sub, Mul, Div, Sqrt, Reciprocal, Square, Neg, Abs, Floor,
//     Ceil, Round, Trunc, casts, comparisons, Maximum and Minimum (NaN
//     propagates), FloorDiv and Mod (NumPy's divmod): bit for bit as the
//     reference (float32 +, -, *, / in float32 round exactly as
//     float64-then-round). Maximum(-0, +0) may give +0 where the
//     reference gives -0.
//   - Exp, Exp2, Expm1, Log, Log2, Log1p, Sin, Cos, Tan, Tanh, Sigmoid,
//     Erf, Rsqrt, Pow and Atan2, float32 and float64: internal/vecmath,
//     the GPU's own expansions (codegen/mathlib), giving the GPU's bits
//     on every path (NaN payloads aside); within the ulps of
//     codegen/mathlib/ULP.md of the correctly rounded result (float32:
//     of Go's math package rounded to float32, which the reference
//     computes; float64 results may differ from the reference's Go math
//     by one ulp more, and by more where Go's math is itself off: Sin, Cos
//     and Tan beyond 2^29, Pow for large |y*log x| or a subnormal x).
//   - float32 Sum: blocks of 128 values summed with eight float32 partial
//     sums, block totals accumulated in float64, rounded once:
//     |sum - exact| <= 2^-24*|exact| + 2^-20*sum|x|. float64 Sum and all
//     Prod accumulate in float64. The combination order depends on the
//     chunk size and the input's strides only, so results do not depend
//     on the number of workers. Sum, Prod, Max, Min, Any and All fold
//     their reduced axes in the order the input lies in memory (a
//     transposed input's total reads it front to back; reduce_order.go);
//     ArgMax and ArgMin keep the logical order their index counts in.
//   - float32 and float64 MatMul run internal/gemm (packed, cache-blocked,
//     AVX-512 or AVX2/FMA micro-kernels, portable Go with FUSEFLOW_NOASM)
//     on the buffers (transposed, strided and batch-broadcast operands read
//     in place) and accumulate in the operands' dtype, one fused
//     multiply-add per product in increasing k: within about
//     (K+2)*2^-24*sum|a||b| of the reference for float32, the same bits
//     whatever the number of workers, NaN and infinities propagated as in
//     the definition (0*Inf is NaN). The fused epilogue runs on each tile
//     of the product as it is finished. Integer MatMul wraps exactly as
//     the reference.
//
// ArgMax and ArgMin return the first extreme index, a NaN winning (the
// first NaN), as NumPy.
//
// # Speed
//
// On amd64 CPUs with AVX2 and FMA (detected at init), the float32 and
// float64 Add, Sub, Mul, Div, Maximum, Minimum, Neg and Sqrt loops, Sum
// and row Max and Min run in assembly over eight float32 (four float64)
// lanes at a time, with the scalar loops' results; so do the integer and
// bool arithmetic (int32 and int64 FloorDiv and Mod through float64
// division where that is exact), float32 and float64 FloorDiv and Mod
// (NumPy's, in float64 lanes, 8 with AVX-512; units with a quotient of
// 2^50 or more, a zero divisor or a non-finite operand run the scalar
// loop), Sign and Abs, every comparison, Where,
// the casts (those involving int64 and a float with AVX-512), the
// normalization of loaded bools, and the float Add, Sub, Mul and Div with
// a constant operand, which take it in a register. The math functions
// above and Floor, Ceil, Round and Trunc run internal/vecmath's generated
// AVX-512 code (16 float32 or 8 float64 lanes) where the CPU has
// AVX-512, its AVX2/FMA code where it has those, and its portable Go
// code (the same expansions, the same results) elsewhere. Other CPUs and
// architectures, builds with the purego tag, and processes started with
// FUSEFLOW_NOASM=1 run the scalar Go loops and vecmath's portable code.
// No cgo is involved.
//
// Results and temporaries come from the request's allocator: an
// exec.Pool (the array package's default) hands the buffers of the
// previous evaluation back without clearing them or touching fresh
// pages.
package cpu
