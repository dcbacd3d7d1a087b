// Package ptx turns kernels of the IR (package codegen/ir) into PTX text
// for NVIDIA GPUs: Emit writes one kernel as a module, EmitModule several
// under one header. The driver's JIT or ptxas then allocates registers and
// schedules; this package's job is clean, typed, valid PTX.
//
// # Pipeline
//
// Legalize copies the kernel (the caller's function is never modified)
// into the form the templates take: select of pred values becomes and/or,
// conditional-branch edges that carry block arguments are split, each
// math call is marked approximate or accurate, and accurate calls that no
// single correctly rounded PTX instruction computes go to
// Options.ExpandMath (the math library's expansion into plain IR). Then a
// table indexed by ir.Op (opRules in ops.go) maps each instruction to its
// PTX template. Values live in virtual registers declared by class:
//
//	%p   .pred  predicates
//	%rs  .b16   8- and 16-bit integers (8-bit kept sign- or zero-extended)
//	%r   .b32   32-bit integers, shared and local pointers (window addresses)
//	%rd  .b64   64-bit integers, global and const pointers
//	%f   .f32, %fd .f64
//
// Block parameters are registers; a branch assigns its target's
// parameters as one parallel copy, ordered so that swaps and rotations of
// loop-carried values come out right (a scratch register breaks a cycle).
//
// # Ops and their PTX
//
//	add sub mul       add.s32, mul.lo.u64, add.rn.f32 (.rn keeps ptxas from
//	                  contracting into fma; FastMath drops it for f32)
//	div rem           div.s32, rem.u64, div.rn.f32/f64; approximate or
//	                  FastMath f32 division is div.full.f32. Integer division
//	                  by zero is whatever the hardware gives (the IR leaves
//	                  it to the generator)
//	neg abs min max   neg.s32, abs.f64, min.f32 ... PTX min/max return the
//	                  non-NaN operand, which is the IR's semantics: no fix-up
//	fma mul.hi        fma.rn.f32/f64, mul.hi.s32/u64, mul.wide.s16/u16/s32/u32
//	shl shr           shl.b32, shr.s32 (arithmetic), shr.u32/b32 (logical);
//	                  amounts >= the width give 0 (or the sign), as in the IR
//	and or xor not    and.b32, or.pred, not.b64 ...
//	popc clz          popc.b32/b64, clz.b32/b64 (result u32)
//	cmp               setp.<pred>.<type> with every predicate: eq ne lt le gt
//	                  ge, the unordered equ neu ltu leu gtu geu, num and nan
//	select            selp.b16/b32/b64/f32/f64 (pred selects are legalized)
//	cvt               cvt.rn/rz/rm/rp for float results, cvt.rzi/rni/rmi/rpi
//	                  for float to integer (saturating; NaN to 0, with a
//	                  setp.nan/selp fix-up where PTX gives 1 << (width-1):
//	                  f64 sources, 64-bit results), cvt.f64.f32,
//	                  integer widening by the source's signedness and
//	                  truncation; same-width integer conversions share the
//	                  register
//	bitcast           mov.b32/b64 between float and integer registers
//	ld st             ld/st.global/shared/local/const[.v2/.v4], ld.global.nc
//	                  for CacheNC loads and loads through ReadOnly parameters,
//	                  unless the kernel may write that memory (then ld.global)
//	ptradd index      add.s64 with mul.wide (32-bit indices) or shl (64-bit),
//	ptrcast           mad.lo.s32 for shared and local; ptrcast emits nothing
//	special           mov.u32 from %tid.x ... %nctaid.z, %laneid, WARP_SZ,
//	                  %dynamic_smem_size; activemask.b32
//	barrier fence     bar.sync 0; bar.red.popc.u32, bar.red.and/or.pred;
//	                  bar.warp.sync; membar.cta, membar.gl, membar.sys; trap
//	atomic            atom.global/shared.add/min/max/exch/cas/and/or/xor/inc/dec
//	                  with .u32 .s32 .u64 .s64 .f32 .f64 .b32 .b64 as PTX takes them
//	shfl              shfl.sync.idx/up/down/bfly.b32; 64-bit values as two;
//	                  a setp/selp keeps the own value when an up, down or
//	                  bfly operand may exceed 31 (PTX reads its low 5 bits)
//	vote              vote.sync.all/any.pred, vote.sync.ballot.b32
//	math (accurate)   sqrt.rn; rsqrt as sqrt.rn then rcp.rn; floor, ceil,
//	                  trunc and round-half-even as cvt.rmi/rpi/rzi/rni on the
//	                  float; everything else through Options.ExpandMath
//	math (f32 approx) ex2.approx.ftz (exp2, and exp with a log2(e) scale),
//	                  lg2.approx (log2, and log with ln 2), sin/cos.approx,
//	                  tan as sin/cos, tanh.approx (sm_75+), sigmoid with ex2
//	                  and rcp.approx, sqrt.approx, rsqrt.approx; f64 and the
//	                  functions without one (log1p, expm1, erf, pow, atan2)
//	                  take the accurate path
//	f32tof16 f16tof32 cvt.rn.f16.f32, cvt.f32.f16, cvt.rn.bf16.f32 (sm_80+,
//	f32tobf16         integer rounding before), each with a NaN fix-up
//	hadd hsub hmul    add/sub/mul.rn.f16 (sm_53+), add/sub/mul.rn.bf16
//	hcmp              (sm_90+) or fma.rn.bf16 with 1, -1 or -0 (sm_80+);
//	                  setp.<pred>.f16 (sm_53+) and .bf16 (sm_90+); below
//	                  those the f32 path (half_native.go, which also puts
//	                  them in place of f32 code computing 16-bit floats)
//	br condbr ret     the parallel copy and bra (left out when falling
//	                  through), @%p bra / @!%p bra, ret
//
// Every op of the IR has a template; the verifier keeps out what PTX
// cannot take (8-bit arithmetic, pred parameters, 16-bit shuffles).
//
// # Output
//
// The module starts with .version (from Options.CUDA through ISAVersion,
// or Options.PTX), .target sm_XY and .address_size 64. Each kernel is a
// .visible .entry with its parameters named as in the IR, .maxntid when
// Func.MaxThreads is set, register declarations, and shared and local
// arrays as .shared/.local .align 16 .b8 name[bytes]. Constant arrays
// (.const, with their contents) and views of dynamic shared memory
// (.extern .shared) are declared at module scope before the kernel, named
// kernel$array. Options.LineInfo writes the source positions of the
// instructions as .file and .loc directives. Blocks are labels
// $name; the builder's comments (SetComment: the fused op an instruction
// belongs to) open each group of instructions, and Options.Debug adds the
// IR of every instruction as a comment.
//
// FUSEFLOW_DEBUG, a comma-separated list, containing "ptx" prints every
// emitted module with line numbers (the numbers ptxas's messages cite) to
// stderr.
package ptx
