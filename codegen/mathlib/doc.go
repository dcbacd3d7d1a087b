// Package mathlib is fuseflow's accurate math library for GPU kernels. Its
// pass Expand rewrites the math calls of an ir.Func that PTX cannot
// compute in one correctly rounded instruction into plain IR (add, mul,
// fma, div.rn, sqrt.rn, compares, selects, integer and bit operations,
// bitcasts and conversions), inlined at the call site. The IR interpreter
// then executes exactly the algorithm the GPU executes, so the accuracy
// measured on the interpreter is the accuracy on the device. The PTX
// emitter calls it through ptx.Options.ExpandMath.
//
// # What stays native
//
// sqrt (sqrt.rn), floor, ceil, trunc and round-half-even (cvt.rmi, cvt.rpi,
// cvt.rzi, cvt.rni) are correctly rounded PTX instructions; their calls
// stay math calls (IsNative), and the expansions use them too. rsqrt is
// expanded into sqrt.rn then div.rn (two roundings, as 1/math.Sqrt).
// Calls marked approximate (Instr.Approx) are left for the emitter, which
// marks a call approximate only where it has a PTX approximation.
//
// # Algorithms
//
// Each function has one algorithm for f32 and f64 with type-specific
// constants and series lengths; all compute in their own type except pow
// on f32, which computes in f64 and rounds once, and the large-argument
// reduction of sin, cos and tan on f32, which computes in f64. Constants are computed
// exactly (big.Float) and rounded once to the type. The file of each
// function explains its reduction and error terms:
//
//	exp, exp2, expm1   exp.go    k*ln2 Cody-Waite reduction, Taylor series to r^7/r^13,
//	                             two-step scaling by 2^k (subnormals round once)
//	sigmoid, tanh      exp.go    exp(-|x|) with no overflow; t/(t+2), t = expm1(2|x|)
//	log, log2, log1p   log.go    2^e*m split, atanh series, double-length log2(e)
//	sin, cos, tan      trig.go   three-part pi/2 Cody-Waite in double length up to
//	                             |x| = 2^21 (f32) or 2^50 (f64); beyond, a branch to
//	                             Payne-Hanek with the bits of 2/pi (trigreduce.go)
//	atan2              atan2.go  octant reduction to |t| <= tan(pi/8), double-length sum
//	erf                erf.go    Taylor on |x| < 1, economized fits of erfc beyond
//	pow                pow.go    double-length log and exp (f64); in f64, log2 and exp2
//	                   pow32.go  economized to an f32 result's needs (f32)
//
// Special values (NaN, ±Inf, ±0, subnormals, overflow to Inf, underflow to
// 0, and all of pow's and atan2's special cases) follow Go's math package.
//
// # Accuracy
//
// ULP.md holds the measured table: 2^20 sampled inputs per function and
// type on the interpreter against Go's math package (sin, cos and tan
// also over the whole finite range). Maximum errors:
// exp, exp2, log, log2, log1p, sin, cos and erf within 1 ulp; expm1,
// tanh, sigmoid, tan and atan2 within 2; pow within 1 (f32) and 2 (f64);
// rsqrt within 1 (f32) and exact (f64); the native functions exact. The tests assert these
// bounds on a smaller sample by default (go test -mathlib.full runs the
// whole table and rewrites ULP.md).
//
// Under ptx.Options.FastMath the emitter turns the f32 divisions of the
// expansions into div.full.f32 and lets ptxas contract f32 mul and add;
// the bounds above then no longer hold for the f32 functions that have no
// PTX approximation (log1p, expm1, erf, pow, atan2).
package mathlib
