// Package suite is the CPU benchmark suite's one list of workloads: every
// elementwise op in float32 and float64, every reduction over every axis,
// strided operands, small-array latency, matrix products and fused
// expressions. Workloads (workloads.go) writes the list; the committed
// text form in bench/workloads.txt (Format, Parse, Load) is what both
// exec/cpu's BenchmarkSuite and bench/cpu_peers.py (NumPy, NumExpr) read,
// so the two sides measure the same workloads at the same sizes.
//
// A workload is a name, its inputs (dtype, shape and the range their
// random values are drawn from) and an expression in a small call syntax
// that both sides evaluate with their own function table (Compile and Build here,
// the NUMPY table in bench/cpu_peers.py):
//
//	softmax.f32 | x=f32[4096,4096](-4,4) | m = maxk(x, 1); e = exp(sub(x, m)); div(e, sumk(e, 1))
//
// Statements are separated by ";"; each but the last binds a name; the
// last is the result. Numbers are Go/Python scalars (weakly typed).
package suite
