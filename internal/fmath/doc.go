// Package fmath is the one definition of each elementwise op's scalar
// semantics that fuseflow's fast paths share: the CPU executor's loops,
// the op table of internal/opdef (which the code generator lowers beside
// it) and, where it computes the same function, the IR interpreter. The
// reference evaluator (exec/ref) keeps its own, naive definitions and is
// the oracle these are tested against.
//
// The functions are generic over the Go element types of fuseflow's
// dtypes (int32, int64, float32, float64; bool is Go's bool) and small
// enough to inline into a loop. Integer arithmetic wraps. Where an op is
// computed in float64 for both float dtypes (a float32 operand widened
// exactly, the result rounded once), the function takes and returns
// float64.
//
// What is defined here:
//
//   - integer floor division and modulo with Python's signs, by zero 0
//     (FloorDiv, Mod); NumPy's float floor division and modulo, by zero
//     a/b and NaN (DivModFloat, FloorDivFloat, ModFloat);
//   - integer power by repeated squaring, wrapping, with the integer part
//     of the true power for negative exponents (Pow);
//   - rounding half to even (Round), Sign with NaN, Abs, Neg, Square,
//     Recip, Rsqrt, Sigmoid, and a logarithm correct for subnormals (Log);
//   - Maximum and Minimum with NaN propagation (Max, Min);
//   - the casts to bool (ToBool) and between numbers (Convert). Float to
//     integer truncates toward zero, saturates and maps NaN to 0: the rule
//     is graph.CastFloatToInt32 and graph.CastFloatToInt64 (the graph
//     needs it to fold constants and imports nothing of ours), and every
//     fast path calls it.
package fmath
