// Package ref is the reference evaluator: an exec.Backend that evaluates
// an expression graph op by op, naively and obviously correctly. It is
// the oracle every other backend is tested against, so what it computes
// is specified here exactly.
//
// # Evaluation
//
// Eval verifies the graph (a sticky error comes back as it is), then
// visits the nodes under the outputs in topological order. A node present
// in Request.Bound takes the bound tensor as its value and its inputs are
// not visited; every other node is computed into a new contiguous tensor
// allocated from Request.Alloc, and released as soon as its last consumer
// has run. Bound tensors may be any strided view inside their buffer
// (stride 0 for broadcast axes, negative strides); they are read through
// their strides and never modified or released. A result whose node is
// bound is a new view of the bound tensor with the same layout, holding
// its own reference. The context is checked before every node.
//
// # Numbers
//
// Elementwise ops run in one of two lanes. Float dtypes compute in
// float64: float32 operands are widened exactly and each op's result is
// rounded to float32 once. Integer and bool dtypes compute in int64 and
// wrap (two's complement) to the result dtype; bool is 0 or 1, and any
// nonzero byte of a bound bool tensor reads as true. The graph has
// already cast every operand to the dtype its op computes in.
//
//   - Neg, Abs, Square, Add, Sub, Mul: IEEE on floats, wrapping on
//     integers (Abs and Neg of the minimum integer give it back).
//   - Div: IEEE (integers were cast to float64 by the graph).
//   - FloorDiv and Mod: NumPy's. Integers round the quotient toward
//     negative infinity and the remainder has the divisor's sign; division
//     or modulo by zero gives 0, and MinInt // -1 wraps to MinInt. Floats
//     follow NumPy's divmod: mod = fmod(a, b), plus b when mod is nonzero
//     and its sign differs from b's; div = (a - mod) / b rounded to the
//     nearest integer; a zero mod takes b's sign and a zero div the sign
//     of a / b. By zero, a // 0 is a / 0 and a % 0 is NaN.
//   - Pow: math.Pow on floats. On integers, repeated squaring with
//     wraparound; a negative exponent gives 0 except 1 ** b = 1 and
//     (-1) ** b = ±1 by the parity of b.
//   - Maximum and Minimum: NumPy's (a >= b || a is NaN) ? a : b and
//     (a <= b || a is NaN) ? a : b, so NaN propagates.
//   - Comparisons: IEEE, false with NaN except Ne. And, Or, Xor: logical on
//     bool, bitwise on integers. Not: logical on bool, ^x on integers.
//   - Sign: -1, 0 or 1; +0 for both zeros; NaN for NaN. Round: half to
//     even. Floor, Ceil, Round, Trunc leave integers unchanged.
//   - Sqrt, Exp, Exp2, Log, Log2, Log1p, Expm1, Sin, Cos, Tan, Tanh, Erf,
//     Atan2: the math package's functions. Rsqrt is 1/Sqrt(x), Reciprocal
//     1/x, Sigmoid 1/(1+Exp(-x)).
//   - IsNaN and IsInf: false for integer and bool operands.
//   - AsType: float to integer truncates toward zero, saturates at the
//     target's range and maps NaN to 0 (graph.CastFloatToInt64,
//     graph.CastFloatToInt32); integer to integer wraps; integer to float
//     rounds to nearest once (int64 to float32 directly, not through
//     float64); float64 to float32 rounds to nearest; anything to bool is
//     x != 0 (NaN is true); bool to a number is 0 or 1.
//   - Where: cond ? a : b over the broadcast of the three.
//
// # Leaves
//
//   - Const: its value.
//   - Iota: element i is Start + float64(i)*Step in float64, converted to
//     the dtype by the AsType rules. With HasStop and at least two
//     elements the last one is exactly Stop (a one-element Linspace is
//     [Start], as in NumPy).
//   - Eye: 1 where column - row == K, else 0.
//   - Rand and Normal: element i (row-major) is philox.Float32,
//     philox.Float64, philox.Normal32 or philox.Normal64 of (Seed, i).
//
// # Reductions
//
// Each output element combines the input elements sharing its kept
// coordinates, in row-major order of the input. Sum and Prod of floats
// accumulate in float64 (a Sum starts from -0, so a sum of -0 is -0) and
// round once; of integers in int64 with wraparound. Max and Min use
// Maximum and Minimum above. ArgMax and ArgMin give the coordinate along
// the reduced axis of the first extreme element, or of the first NaN when
// there is one (with Flat, of the flattened input). Any and All test
// x != 0. Empty selections give Sum 0, Prod 1, Any false, All true (Max,
// Min, ArgMax and ArgMin of an empty selection are rejected by the graph).
//
// # Views and products
//
// Reshape (row-major order), Permute, BroadcastTo, Slice, Contiguous and
// Concat copy elements bit for bit into a new contiguous tensor (bool
// bytes normalized to 0 or 1): the reference is never zero-copy. MatMul
// computes out[..., i, j] = sum over k, in increasing k, of a[..., i, k] *
// b[..., k, j] with NumPy's broadcast batch axes; floats accumulate in
// float64 from +0 and round once, integers in int64 with wraparound.
//
// Size-0 and 0-d arrays work everywhere. The runnable Example is in
// example_test.go.
package ref
