// Package fuse is the fusion planner: it turns the expression graph under
// a set of outputs into a Plan — a few fused kernels (Map, Reduce, MatMul,
// Call) and the buffers they read and write. The plan is plain data that
// says what fuses and what is stored, nothing about threads: a backend
// runs it, choosing how (codegen picks a GPU kernel's launch geometry
// from the device's properties, exec/cpu its chunks and workers), and
// neither changes the graph.
//
// # Rules
//
//   - Elementwise ops, casts, Where, constants, Iota, Eye and random
//     numbers fuse into the kernel that reads them; views (Permute, Slice
//     with any step, BroadcastTo, implicit broadcasting and a Reshape the
//     strides can express) become operand strides and never copy.
//   - A Reshape of a view whose strides cannot express it (NumPy's no-copy
//     reshape fails, e.g. flattening a transpose) is materialized: a copy
//     kernel iterating in the source's shape writes it contiguously, and
//     the view below it stays fused for its other readers. When only the
//     strides of what a computed value under the views reads fail, and a
//     broadcast on the way makes the Reshape larger than that value, the
//     value is materialized instead (the views then express the Reshape).
//   - Reductions, matrix products and concatenations are materialized, and
//     so are requested outputs; an output that is a view of a bound value
//     or of a materialized value is returned as a view of its buffer
//     (Output.View).
//   - A fusible value read by several kernels (or through several views
//     in one kernel) is recomputed in each when
//     its fused subgraph costs at most CheapOps (see opCost: 4 per
//     transcendental, 8 or 16 per random number) and recomputing moves no
//     more bytes than writing it once and reading it back; otherwise it
//     is materialized.
//   - Elementwise work after a reduction fuses into the kernel that next
//     reads the reduced value; when that is a requested or shared value
//     of the reduction's own output shape reading it at its own index
//     (Sum(x)/n, a mean and variance), it is the Reduce kernel's epilogue.
//     The same holds for a MatMul and its epilogue (bias, scale,
//     activation, cast). Row softmax is 3 kernels.
//   - Reductions over the same input shape and axes share one kernel and
//     one pass (Sum(x) and Sum(x*x)); Map roots over the same shape share
//     one kernel (several outputs); neither merge reorders a dependency.
//   - GEMM operands are strided views; a transposed operand is passed as
//     such (MatOperand.Trans), anything BLAS cannot take is copied first
//     into a buffer only the products reading it read (one copy per
//     operand node). A product with an empty result
//     plans nothing; one with K == 0 (and a non-empty result) is a Map
//     that evaluates the epilogue with a zero accumulator, so every
//     MatMul kernel has M, N, K >= 1 and operands with buffers.
//   - A scan (CumSum, CumProd, CumMax, CumMin) is a Scan kernel of its
//     own over its input's shape: the elementwise work producing the
//     scanned values is its prologue, and elementwise work reading the
//     running values at their own index is its epilogue, as for a
//     reduction (exp(x).CumSum(1)*2 is one kernel). Collapsing keeps the
//     scanned axis and merges the axes on either side of it.
//   - An explicit kernel call (graph.OpCall) is one Call kernel for all
//     its outputs and a fusion boundary: each written argument is stored
//     into its result's buffer by a Map where the work under it fuses (a
//     scratch buffer for an output nothing asks for), read-only
//     arguments are read contiguous from a buffer (copied first when
//     their layout is not), and work on the results reads their buffers.
//   - A gather (Take, TakeAlong) is an InstrGather fused into the Map
//     bodies and Reduce prologues that read every element of it, its
//     array and indices read as strided views of stored values (see
//     gather.go for what fuses and what is stored instead).
//   - The other indexing ops (graph.ClassIndex: Nonzero, Compress and the
//     scatters) are one Index kernel (IndexSpec) each and a fusion
//     boundary the same way: their operands are read contiguous from buffers, a
//     scatter's base is stored into the result's buffer by a Map where
//     the work under it fuses, and the kernel updates that buffer in
//     place.
//   - Dimension collapsing merges adjacent axes contiguous for every
//     operand and store; a Map over same-shape contiguous arrays has rank 1.
//   - Intermediates live from their first writer to their last reader and
//     reuse dead buffers of the same element size; results never share a
//     buffer with inputs or intermediates.
//   - A plan never moves more bytes than one kernel per op would
//     (Plan.Bytes <= Plan.UnfusedBytes): when the recompute rule would
//     exceed it, the plan is rebuilt without recomputation.
//
// Planning takes time and memory linear in the size of the graph (and of
// the plan: a value recomputed in k kernels is emitted k times), whatever
// its depth or shape: view chains are composed into one stride map per
// transform, a pass finds every Reshape to materialize at once, kernels
// and free buffers are found through indexes, and the fused subgraph is
// walked without recursion, so a chain of a million ops needs no deep
// stack. BenchmarkPlanDeep measures it per graph node.
//
// Key and Walk let a plan cache (the executors' runner, exec/runner)
// make evaluating the same expression on new data plan nothing: the key
// is structural, and both return the bound nodes in the order of the
// plan's input slots.
package fuse
