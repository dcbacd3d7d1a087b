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
// straight into the destination. Iota, Eye and Philox random leaves are
// generated from the element index. The context is checked between
// chunks: a cancelled Eval returns ctx.Err() and leaves nothing
// allocated.
//
// # Numbers
//
// Results match the reference evaluator (exec/ref) exactly for integers
// and bools. For floats:
//
//   - Add, Sub, Mul, Div, Sqrt, Reciprocal, Square, Neg, Abs, casts,
//     comparisons, Maximum and Minimum (NaN propagates), FloorDiv and Mod
//     (NumPy's divmod), Pow, Atan2 and the math functions other than
//     float32 Exp and Sigmoid: bit for bit as the reference (float32 +,
//     -, *, / in float32 round exactly as float64-then-round; the others
//     are computed in float64 and rounded once). Maximum(-0, +0) may give
//     +0 where the reference gives -0.
//   - float32 Exp and Sigmoid: on an amd64 CPU with AVX2 and FMA, a
//     float32 vector exponential within 2 ulp of the reference where the
//     result is normal; elsewhere (the eight elements of a vector that
//     holds an input with a subnormal result, an overflow or a NaN, the
//     last few elements of a chunk, other CPUs) a table-driven float64
//     exponential accurate to 6e-10 (relative), rounded once: within 1
//     ulp of the reference, equal for all but about 1 value in 700.
//   - float32 Sum: blocks of 128 values summed with eight float32 partial
//     sums, block totals accumulated in float64, rounded once:
//     |sum - exact| <= 2^-24*|exact| + 2^-20*sum|x|. float64 Sum and all
//     Prod accumulate in float64. The combination order depends on the
//     chunk size only, so results do not depend on the number of workers.
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
// float64 Add, Sub, Mul, Div, Maximum, Minimum, Neg and Sqrt loops, the
// float32 Exp and Sigmoid loops, Sum and row Max and Min run in assembly
// over eight float32 (four float64) lanes at a time, with the scalar
// loops' results except Exp and Sigmoid (above); other CPUs and
// architectures, builds with the purego tag, and processes started with
// FUSEFLOW_NOASM=1 run the scalar Go loops. No cgo is involved.
//
// Results and temporaries come from the request's allocator: an
// exec.Pool (the array package's default) hands the buffers of the
// previous evaluation back without clearing them or touching fresh
// pages.
package cpu
