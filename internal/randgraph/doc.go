// Package randgraph generates random expression graphs for differential
// tests of the backends: inputs of every dtype bound as strided views
// (transposed, reversed), broadcasting, views (Permute, Slice with
// negative steps, BroadcastTo, Reshape), elementwise ops, Where, casts,
// generated leaves, reductions over random axes with keepdims, and
// MatMul. Each output says whether it must match the reference exactly
// (integers, bools and floats computed without rounding-order freedom) or
// within a tolerance (floats downstream of a float sum, product, matmul
// or a float32 Exp/Sigmoid), and Compare checks a result accordingly.
//
// Generation is deterministic for a given seed.
package randgraph
