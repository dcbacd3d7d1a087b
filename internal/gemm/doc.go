// Package gemm multiplies float32 and float64 matrices on the CPU: a
// packed, cache-blocked GEMM in the GotoBLAS/BLIS structure with
// micro-kernels in Go assembly (AVX-512 and AVX2 with FMA, chosen at run
// time) and portable Go kernels elsewhere, multithreaded, batched, with a
// fused epilogue.
//
// # Operands
//
// Mul computes C = A·B (or C += A·B with Options.Accumulate) for an m×k
// A and a k×n B stored as BLAS stores them (Matrix: row-major with a
// leading dimension, or transposed) into a row-major C with row stride
// ldc. MulBatch runs a batch of such products, each point's matrices at
// offsets that Batch gives (strides, stride 0 to broadcast, or any
// function of the point).
//
// # Epilogue
//
// Options.Epilogue is called on each tile of C as soon as the tile holds
// its final value, while it is in cache: rows of a few micro-tiles and up
// to a few hundred columns, each element of every point exactly once, on
// the worker that computed it. An elementwise function of the product
// (a bias, an activation, a cast into another buffer) applied there
// costs no second pass over C.
//
// # Results
//
// Each element of C is the sum of its k products in increasing k, with
// one fused multiply-add per product, in passes of KC steps (a constant
// of the kernel family) whose partial sums are added to C in order. The
// result therefore does not depend on the number of workers, on how a
// product is split into tasks, or on whether operands are packed: the
// same inputs give the same bits. Every product is computed, so NaN and
// infinities propagate as in the definition (0·Inf is NaN); k == 0 gives
// zeros. Against a float64 reference the error of an element is within
// about (k+2)·ε·Σ|a·b| (ε the unit roundoff of the type).
//
// # Kernels and threads
//
// The kernel family is the best the CPU supports (Kernels lists them);
// FUSEFLOW_NOASM set to anything but "" or "0", or Options.Portable,
// selects the portable Go family. Block sizes come from the CPU's cache
// sizes. Products use up to Options.Workers goroutines (GOMAXPROCS by
// default), or a caller's pool through Options.Run; small products run on
// one worker, and batches of small products run a point per task. The
// default workers (TeamRunner) stay awake for a few tens of microseconds
// after a product, so that products called in a row do not each wait for
// a sleeping thread to wake, unless the machine is oversubscribed. Small
// and medium products (A and B within an eighth of L3, at most four L2s)
// read their operands in place; larger ones are packed into cache-sized
// blocks first.
//
// Mul and MulBatch are safe for concurrent use on distinct C.
package gemm
