// Package vecmath computes math functions over float32 and float64
// slices with vector code generated from the one definition the GPU
// uses: the mathlib expansion of each function (codegen/mathlib), plain
// IR that the generator (vecgen, run by go generate) compiles to AVX-512
// and AVX2 assembly and to portable Go.
//
// The functions are exp, exp2, expm1, log, log2, log1p, sin, cos, tan,
// tanh, sigmoid, erf, rsqrt, pow and atan2 (the expanded ones) and sqrt,
// floor, ceil, round-half-even and trunc (native), each as NameF32 and
// NameF64: ExpF32(dst, x) sets dst[i] = exp(x[i]) for i < len(x); PowF64
// (dst, x, y) and Atan2F64(dst, y, x) take two operands of one length.
//
// # Results
//
// Every path gives the bits the IR interpreter gives for the same
// expansion, which are the bits of the PTX the GPU runs: the accuracy is
// the table of codegen/mathlib/ULP.md. The one exception is the sign and
// payload of a NaN result: a NaN result is a NaN on every path, but where
// two NaNs meet in one operation (pow(NaN, NaN), or the NaN of an invalid
// operation beside a NaN operand, as in sin(±Inf)) which one comes out
// depends on operand order, which the Go compiler chooses for the
// interpreter and the portable code, and the GPU returns its canonical
// NaN anyway.
//
// # Paths
//
// At start-up the package picks AVX-512 (F, DQ, VL, BW with BMI2), else
// AVX2 with FMA and BMI2, else the portable Go code; FUSEFLOW_NOASM set to
// anything but "" or "0" selects the portable code (Path reports the
// choice). The assembly computes 16 (float32) or 8 (float64) lanes a
// vector on AVX-512 and half as many on AVX2 (pow on float32 computes in
// float64, so 8 and 4), the last vector under a lane mask. Branches of an
// expansion become selects; a vector with a lane that takes a branch the
// assembly does not compile (the Payne-Hanek reduction of sin, cos and
// tan beyond 2^21 (float32) or 2^50 (float64)) is computed by the
// portable code, which runs the expansion's branches as they are. Pow
// has a fast path besides (mathlib.PowOrdinary): a vector whose lanes are
// all ordinary (x > 0 finite, y finite and not 0, 1 or ±1/2, x != 1,
// |y log x| in range; for float32, x normal and y not ±1/2, since the
// float32 core gives pow's results at y = 0, y = 1 and x = 1 itself)
// skips the special-value selects and clamps, which change nothing
// there; a vector with any other lane runs the full expansion in the
// same loop. Both give the interpreter's bits. Log and log2 (on the
// positive normal finite numbers), log1p (above -1) and sin, cos and
// tan (within the Cody-Waite range) have such a fast path too, the
// expansion specialized by the generator to that range: the selects of
// zeros, infinities, NaNs, subnormals and the conversions' saturation
// left out, a vector with a lane outside it computed by the full
// expansion.
//
// # Slices
//
// dst must be at least as long as the operands, and may be an operand
// exactly (in place: each element is read before its result is
// written); a dst that overlaps an operand without starting where it
// does, a dst shorter than the operands, or two operands of different
// lengths panic with a message naming the function and the lengths.
// Any length, 0 included, is fine. The functions are safe for concurrent
// use on distinct destinations.
package vecmath

//go:generate go run gen.go
