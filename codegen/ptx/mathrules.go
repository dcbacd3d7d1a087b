// This file implements the table of math functions PTX can compute
// directly: the accurate templates (correctly rounded single instructions,
// and rsqrt as sqrt.rn then rcp.rn) and the f32 approximations used for
// approximate calls and under FastMath.

package ptx

import "github.com/fuseflow/fuseflow/codegen/ir"

// mathRule says how one math function is emitted. Templates are PTX
// instructions separated by ";" with the placeholders {d} (result), {a}
// and {b} (operands), {t0} {t1} {t2} (temporaries of the operand's type)
// and {ty} (f32 or f64).
type mathRule struct {
	// exact is the accurate template when PTX computes the function in one
	// correctly rounded instruction; such calls never go to the math
	// library.
	exact string
	// fallback is an accurate but not correctly rounded template used when
	// the math library leaves the call in place (rsqrt).
	fallback string
	// approx32 is the f32 approximation, "" when there is none (the call
	// then takes the accurate path).
	approx32 string
	// approxArch is the oldest architecture approx32 runs on.
	approxArch Capability
	// approxISA is the oldest PTX ISA version that has approx32's
	// instructions (zero: every version fuseflow writes).
	approxISA Version
}

// PTX constants used by the approximations: log2(e), -log2(e), ln(2), 1.
const (
	f32Log2E    = "0f3FB8AA3B"
	f32NegLog2E = "0fBFB8AA3B"
	f32Ln2      = "0f3F317218"
	f32One      = "0f3F800000"
)

// mathRules is indexed by ir.MathFn.
var mathRules = [ir.NumMathFns]mathRule{
	ir.MathExp:  {approx32: "mul.f32 {t0}, {a}, " + f32Log2E + "; ex2.approx.ftz.f32 {d}, {t0}"},
	ir.MathExp2: {approx32: "ex2.approx.ftz.f32 {d}, {a}"},
	ir.MathLog:  {approx32: "lg2.approx.f32 {t0}, {a}; mul.f32 {d}, {t0}, " + f32Ln2},
	ir.MathLog2: {approx32: "lg2.approx.f32 {d}, {a}"},
	ir.MathSin:  {approx32: "sin.approx.f32 {d}, {a}"},
	ir.MathCos:  {approx32: "cos.approx.f32 {d}, {a}"},
	ir.MathTan:  {approx32: "sin.approx.f32 {t0}, {a}; cos.approx.f32 {t1}, {a}; div.approx.f32 {d}, {t0}, {t1}"},
	ir.MathTanh: {approx32: "tanh.approx.f32 {d}, {a}", approxArch: Capability{7, 5}, approxISA: Version{7, 0}},
	ir.MathSigmoid: {approx32: "mul.f32 {t0}, {a}, " + f32NegLog2E + "; ex2.approx.ftz.f32 {t1}, {t0}; " +
		"add.f32 {t2}, {t1}, " + f32One + "; rcp.approx.ftz.f32 {d}, {t2}"},
	ir.MathSqrt:      {exact: "sqrt.rn.{ty} {d}, {a}", approx32: "sqrt.approx.f32 {d}, {a}"},
	ir.MathRsqrt:     {fallback: "sqrt.rn.{ty} {t0}, {a}; rcp.rn.{ty} {d}, {t0}", approx32: "rsqrt.approx.f32 {d}, {a}"},
	ir.MathFloor:     {exact: "cvt.rmi.{ty}.{ty} {d}, {a}"},
	ir.MathCeil:      {exact: "cvt.rpi.{ty}.{ty} {d}, {a}"},
	ir.MathTrunc:     {exact: "cvt.rzi.{ty}.{ty} {d}, {a}"},
	ir.MathRoundEven: {exact: "cvt.rni.{ty}.{ty} {d}, {a}"},
	// Log1p, Expm1, Erf, Pow and Atan2 have no PTX form: accurate and
	// approximate calls alike go to the math library.
}

// hasApprox reports whether fn has an f32 approximation on arch in PTX
// ISA isa. A driver whose JIT predates the instruction rejects the whole
// module, so an older ISA takes the accurate path instead.
func hasApprox(fn ir.MathFn, arch Capability, isa Version) bool {
	if int(fn) >= len(mathRules) {
		return false
	}
	r := mathRules[fn]
	return r.approx32 != "" && arch.AtLeast(r.approxArch.Major, r.approxArch.Minor) && !isa.less(r.approxISA)
}

// isExact reports whether an accurate call of fn is one correctly rounded
// PTX instruction.
func isExact(fn ir.MathFn) bool { return int(fn) < len(mathRules) && mathRules[fn].exact != "" }

// accurateTemplate returns the accurate template of fn, "" when it needs
// the math library.
func accurateTemplate(fn ir.MathFn) string {
	if int(fn) >= len(mathRules) {
		return ""
	}
	if r := mathRules[fn]; r.exact != "" {
		return r.exact
	}
	return mathRules[fn].fallback
}

// useApprox reports whether a math call takes its f32 approximation: the
// call or the options allow it, the operand is f32 and the target has one.
func useApprox(in *ir.Instr, t target) bool {
	return (in.Approx || t.opts.FastMath) && len(in.Args) > 0 && in.Args[0].Type == ir.F32 && hasApprox(in.Fn, t.arch, t.isa)
}
