// Package codegen lowers the kernels of a fusion plan to GPU code: each
// fuse.Kernel becomes a typed SSA kernel (codegen/ir) from a template for
// its kind, in a launch geometry it chooses from the target device's
// properties (Target; ChooseGeometry: block and grid sizes, items per
// thread, vector width, reduction strategy, GEMM tile, register and
// shared memory estimates, scratch memory for partials), and Compile
// emits every kernel of a plan as one PTX module (codegen/ptx, with
// accurate math from codegen/mathlib) along with the launch descriptor
// an executor launches it by (Signature). The planner decides what fuses;
// how a kernel runs on the GPU is decided here.
//
// # Templates
//
//   - Map: a grid-stride loop over groups of Geometry.VectorWidth
//     consecutive points, ItemsPerThread groups per thread and step at a
//     stride of the grid size. Contiguous operands and stores move with
//     128-bit vector loads and stores (buffers are 16-byte aligned);
//     operands broadcast along the vector are loaded once. Strided and
//     broadcast operands unravel the linear index once per point by
//     constant extents (an operand laid out like the space uses the index
//     as it is). Indices are 32-bit with Geometry.Index32, else 64-bit.
//   - Reduce: per Geometry.Strategy — a warp per row (shuffles), a block
//     per row (shuffles, then shared memory), columns (a thread per output
//     point walking the reduced axes, coalesced across threads; with
//     Split > 1 the reduced range is split over blocks and a second
//     launch combines the partials in order), and the deterministic
//     two-pass full reduction (per-block partials into the scratch
//     buffer, then one block combines them). The row and two-pass
//     strategies read the reduced range 2 or 4 points at a time with
//     128-bit (or 64-bit) vector loads when every operand the prologue
//     loads is contiguous along it and aligned for the width, two vectors
//     per step into independent partials, lanes in index order, then the
//     points after the last whole vector one at a time. Float sums and products
//     accumulate in float64, integer ones in int64; ArgMax and ArgMin
//     keep an index (ties to the first, NaN wins); the prologue and the
//     epilogue are fused.
//   - A gather fused into a Map body or a Reduce prologue (InstrGather)
//     normalizes and checks its index in 64 bits and loads at the
//     displaced offset; a bad index is not loaded through but raises the
//     gather's error word (Signature.Checks), which the executor reads
//     after the launches.
//   - MatMul: a shared-memory tiled GEMM with 2-D register blocking
//     (Geometry.Tile), any M, N and K, batched with broadcast batch
//     strides, transposed operands, a fused epilogue; float32 and float64
//     accumulate with fma, integers wrap.
//   - Sort: a stable LSD radix sort of every row at once (sortk.go):
//     keys mapped to order-preserving unsigned integers as exec/cpu maps
//     them, 4-bit digits of the key and then of the row number, each a
//     count, a one-block scan and an ordered scatter launch over thread
//     ranges in ping-pong scratch areas, then a launch that stores the
//     first K of each row (indices, and values reloaded from the input).
//
// The body of every kernel follows exec/ref exactly: NumPy's float floor
// division and modulo on an exact fmod, Python's integer division and
// modulo (0 by zero), NaN-propagating Maximum and Minimum, saturating
// float-to-integer casts with NaN to 0, bool as a byte in memory and a
// predicate in registers, Philox random numbers bit-identical to
// internal/philox. Math functions are ir.Math calls: accurate through the
// math library, or PTX approximations with Options.FastMath.
//
// # Launching
//
// Module.Kernels[i] is the Signature of plan kernel i, the launch
// descriptor exec/cuda uses as it is: the entry name, the parameters in
// order (ParamBuffer: the device pointer of a plan buffer; ParamScratch:
// the device pointer of scratch memory the signature asks the executor
// for, such as a reduction's partials; ParamScalar: a value; ParamPass:
// an int32, the pass of the launch) and the launches to make in order,
// each with a 3-D grid and block and its dynamic shared memory. Sizes,
// strides and offsets of generated kernels are constants in the code.
//
// Lower and Compile choose a geometry within the target's limits, or
// return an error naming the limit no geometry fits; LowerGeometry checks
// a given geometry the same way rather than produce a kernel that cannot
// launch. Annotate shows the chosen geometry in fuse.ExplainFor.
package codegen
