// Package calltest holds explicit kernels that the tests of lazy calls
// (array.Call) run on every backend: a saxpy whose written slice starts
// with its argument's values, a kernel with two written slices, one over
// int32 and bool arrays, one that fails a bounds check, and kernels whose
// parameters no lazy call accepts. The CUDA executor's kernel tests
// launch the saxpy too, with host slices and device arrays.
package calltest

import "github.com/fuseflow/fuseflow/kernel"

//go:generate go run github.com/fuseflow/fuseflow/cmd/kernelgen

// Saxpy computes y = a*x + y in a grid-stride loop.
//
//fuseflow:kernel
func Saxpy(t kernel.Thread, a float32, x, y []float32) {
	for i := t.Grid1(); i < len(y); i += t.GridSize1() {
		y[i] = a*x[i] + y[i]
	}
}

// Bounds widens lo and hi to hold x: lo[i] = min(lo[i], x[i]) and
// hi[i] = max(hi[i], x[i]), so both results depend on their initial
// values.
//
//fuseflow:kernel
func Bounds(t kernel.Thread, x, lo, hi []float64) {
	i := t.Grid1()
	if i < len(x) {
		if x[i] < lo[i] {
			lo[i] = x[i]
		}
		if x[i] > hi[i] {
			hi[i] = x[i]
		}
	}
}

// Above marks the elements of x greater than k in keep and counts them
// in count[0] with an atomic add.
//
//fuseflow:kernel
func Above(t kernel.Thread, x []int32, k int32, keep []bool, count []int64) {
	i := t.Grid1()
	if i < len(x) && x[i] > k {
		keep[i] = true
		kernel.AtomicAdd(count, 0, int64(1))
	}
}

// Shift writes y[i] = x[i+1] for every element of y: with x no longer
// than y the last thread reads past x and fails its bounds check.
//
//fuseflow:kernel
func Shift(t kernel.Thread, x, y []float32) {
	i := t.Grid1()
	if i < len(y) {
		y[i] = x[i+1]
	}
}

// Fill sets every element of out to v; out is a uint32 slice, which no
// array holds.
//
//fuseflow:kernel
func Fill(t kernel.Thread, v uint32, out []uint32) {
	if i := t.Grid1(); i < len(out) {
		out[i] = v
	}
}

// Peek reads x and writes nothing: a lazy call of it has no result.
//
//fuseflow:kernel
func Peek(t kernel.Thread, x []float32) {
	if i := t.Grid1(); i < len(x) {
		_ = x[i]
	}
}
