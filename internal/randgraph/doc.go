// Package randgraph generates random expression graphs for differential
// tests of the backends, and checks a backend's results against the
// reference evaluator's within principled error bounds.
//
// Generate builds graphs over inputs of every dtype bound as strided
// views (transposed, reversed), with broadcasting, views (Permute, Slice
// with negative steps, BroadcastTo, Reshape, Concat), elementwise ops,
// Where, casts, generated leaves, reductions over random axes with
// keepdims, and MatMul. Unless Config says otherwise, one input in two
// holds extreme values (magnitudes up to 1000, past the float32
// exponential's range, huge, subnormal, NaN, infinite, zeros of both
// signs), exp-family ops often get operands scaled past ±100, and one
// step in four builds a pattern that makes executors write buffers in
// place and reuse them (an epilogue on a product or a reduction, softmax,
// chains of materialized values each read by an elementwise op; see
// patterns.go). Generation is deterministic for a seed; Config.NoExtremes
// with Config.NoPatterns draws the graphs of the generator's first
// version.
//
// Bounds turns each output into a float64 graph that bounds, element by
// element, how far a backend may lie from the reference: error
// propagated from the operands (magnitudes for sums, products and
// matrix products, interval end points for monotone functions, a check
// of both ends for steps and comparisons), plus the backend's own
// rounding as its Model states it (CPU and GPU are the two executors'
// documented accuracy). A bound is 0 where the output must be exact and
// NaN where nothing can be promised (an operand's interval straddles a
// discontinuity or a pole, or a value may overflow in one and not the
// other). Reference evaluates outputs and bounds on the reference
// evaluator in one request, and Check compares a result with them.
package randgraph
