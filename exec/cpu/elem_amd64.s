// AVX2 (and, where marked, AVX-512 VL/DQ) inner loops for amd64 of the
// integer and bool arithmetic, comparisons, Where, casts and the bool
// load's normalization (see elem_amd64.go). Each routine is one of the
// loop shapes below instantiated with the instructions of its op; every
// loop covers whole units only (the Go wrappers do the rest) and ends
// with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"
#include "vec_amd64.h"

VEC8(ebyte1<>, 0x01010101)
VEC8(eabs32<>, 0x7fffffff)
VEC4(eabs64<>, 0x7fffffffffffffff)
VEC8(einf32<>, 0x7f800000)
VEC4(einf64<>, 0x7ff0000000000000)
VEC8(eone32<>, 0x3f800000)
VEC8(emone32<>, 0xbf800000)
VEC4(eone64<>, 0x3ff0000000000000)
VEC4(emone64<>, 0xbff0000000000000)
VEC8(etwo31f<>, 0x4f000000)           // 2^31 as float32
VEC8(etwo63f<>, 0x5f000000)           // 2^63 as float32
VEC4(emax32d<>, 0x41dfffffffc00000)   // 2147483647 as float64
VEC4(etwo63d<>, 0x43e0000000000000)   // 2^63 as float64
VECD8(eeven<>, 0, 2, 4, 6, 0, 2, 4, 6)

// ---- Same-size binary: d = OP(a, b) over byte range [0, n<<SH). ----

// BIN defines func NAME(d, a, b unsafe.Pointer, n int), two vectors a
// step and then one: OP's first source the vector of b (memory), its
// second that of a (Y0), as the VEX forms take them (VPSUBD b, a, dst
// is a - b).
#define BIN(NAME, SH, OP) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	ARGS3(SH); \
	VECSBY(64, BIN2(OP), BIN1(VMOVDQU, OP)); \
	VZEROUPPER; \
	RET

#define BIN2(OP) \
	VMOVDQU (SI)(AX*1), Y0; \
	VMOVDQU 32(SI)(AX*1), Y1; \
	OP      (DX)(AX*1), Y0, Y0; \
	OP      32(DX)(AX*1), Y1, Y1; \
	VMOVDQU Y0, (DI)(AX*1); \
	VMOVDQU Y1, 32(DI)(AX*1)

// Bitwise ops serve bool (bytes 0 and 1), int32 and int64 alike; n
// counts bytes.
BIN(·andBytes, 0, VPAND)
BIN(·orBytes, 0, VPOR)
BIN(·xorBytes, 0, VPXOR)
BIN(·addI32, 2, VPADDD)
BIN(·subI32, 2, VPSUBD)
BIN(·mulI32, 2, VPMULLD)
BIN(·maxI32, 2, VPMAXSD)
BIN(·minI32, 2, VPMINSD)
BIN(·addI64, 3, VPADDQ)
BIN(·subI64, 3, VPSUBQ)
// AVX-512 VL and DQ:
BIN(·mulI64, 3, VPMULLQ)
BIN(·maxI64, 3, VPMAXSQ)
BIN(·minI64, 3, VPMINSQ)

// ---- Same-size unary over byte range [0, n<<SH): Y0 = OP(memory). ----

#define UN(NAME, SH, SETUP, OP) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	ARGS2(SH); \
	XORQ AX, AX; \
	SETUP; \
	EACH(STORE(OP, Y0, 1)); \
	VZEROUPPER; \
	RET

// STORE runs OP and stores its result R at d's element AX (of SC
// bytes).
#define STORE(OP, R, SC) OP; VMOVDQU R, (DI)(AX*SC)

#define ZERO15 VPXOR Y15, Y15, Y15
#define ONES15 VPCMPEQD Y15, Y15, Y15
#define BYTE15 VMOVDQU ebyte1<>(SB), Y15
#define NONE

#define B_NEGI32 VPSUBD (SI)(AX*1), Y15, Y0
#define B_NEGI64 VPSUBQ (SI)(AX*1), Y15, Y0
#define B_ABSI32 VPABSD (SI)(AX*1), Y0
#define B_ABSI64 VPABSQ (SI)(AX*1), Y0
#define B_NOT VPXOR (SI)(AX*1), Y15, Y0
#define B_ABSF32 VMOVDQU eabs32<>(SB), Y0; VPAND (SI)(AX*1), Y0, Y0
#define B_ABSF64 VMOVDQU eabs64<>(SB), Y0; VPAND (SI)(AX*1), Y0, Y0

UN(·negI32, 2, ZERO15, B_NEGI32)
UN(·negI64, 3, ZERO15, B_NEGI64)
UN(·absI32, 2, NONE, B_ABSI32)
UN(·notBits, 0, ONES15, B_NOT)
UN(·notBool, 0, BYTE15, B_NOT)
UN(·absF32, 2, NONE, B_ABSF32)
UN(·absF64, 3, NONE, B_ABSF64)
// AVX-512 VL:
UN(·absI64, 3, NONE, B_ABSI64)

// Sign: integers (0 > x) - (x > 0) of the all-ones masks; floats 1 or
// -1 ANDed from the masks of x > 0 and x < 0 (zeros give +0), NaN
// blended back unchanged.
#define B_SIGNI32 VMOVDQU (SI)(AX*1), Y0; VPCMPGTD Y15, Y0, Y1; VPCMPGTD Y0, Y15, Y2; VPSUBD Y1, Y2, Y0
#define B_SIGNI64 VMOVDQU (SI)(AX*1), Y0; VPCMPGTQ Y15, Y0, Y1; VPCMPGTQ Y0, Y15, Y2; VPSUBQ Y1, Y2, Y0
#define S_SIGNF32 VXORPS Y15, Y15, Y15; VMOVUPS eone32<>(SB), Y14; VMOVUPS emone32<>(SB), Y13
#define S_SIGNF64 VXORPD Y15, Y15, Y15; VMOVUPD eone64<>(SB), Y14; VMOVUPD emone64<>(SB), Y13
#define B_SIGNF32 VMOVUPS (SI)(AX*1), Y0; VCMPPS $0x0e, Y15, Y0, Y1; VANDPS Y14, Y1, Y1; VCMPPS $1, Y15, Y0, Y2; VANDPS Y13, Y2, Y2; VORPS Y2, Y1, Y1; VCMPPS $3, Y0, Y0, Y2; VBLENDVPS Y2, Y0, Y1, Y0
#define B_SIGNF64 VMOVUPD (SI)(AX*1), Y0; VCMPPD $0x0e, Y15, Y0, Y1; VANDPD Y14, Y1, Y1; VCMPPD $1, Y15, Y0, Y2; VANDPD Y13, Y2, Y2; VORPD Y2, Y1, Y1; VCMPPD $3, Y0, Y0, Y2; VBLENDVPD Y2, Y0, Y1, Y0
UN(·signI32, 2, ZERO15, B_SIGNI32)
UN(·signI64, 3, ZERO15, B_SIGNI64)
UN(·signF32, 2, S_SIGNF32, B_SIGNF32)
UN(·signF64, 3, S_SIGNF64, B_SIGNF64)

// normBool: any nonzero byte to 1: 1 + (x == 0 ? -1 : 0).
#define S_NORM BYTE15; VPXOR Y14, Y14, Y14
#define B_NORM VPCMPEQB (SI)(AX*1), Y14, Y0; VPADDB Y15, Y0, Y0
UN(·normBool, 0, S_NORM, B_NORM)

// i32 to f32: same size.
#define B_I32F32 VCVTDQ2PS (SI)(AX*1), Y0
UN(·cvtI32F32, 2, NONE, B_I32F32)

// f32 to i32: NaN to 0 (ANDed away first), x >= 2^31 to MaxInt32 (the
// conversion gives MinInt32, flipped by the comparison's mask); below
// the range the conversion's MinInt32 is the result.
#define S_F32I32 VMOVUPS etwo31f<>(SB), Y15
#define B_F32I32 VMOVUPS (SI)(AX*1), Y0; VCMPPS $7, Y0, Y0, Y1; VANDPS Y1, Y0, Y0; VCMPPS $0x1d, Y15, Y0, Y2; VCVTTPS2DQ Y0, Y0; VPXOR Y2, Y0, Y0
UN(·cvtF32I32, 2, S_F32I32, B_F32I32)

// AVX-512 DQ, VL: i64 to f64, and f64 to i64 as f32 to i32 above.
#define B_I64F64 VCVTQQ2PD (SI)(AX*1), Y0
#define S_F64I64 VMOVUPD etwo63d<>(SB), Y15
#define B_F64I64 VMOVUPD (SI)(AX*1), Y0; VCMPPD $7, Y0, Y0, Y1; VANDPD Y1, Y0, Y0; VCMPPD $0x1d, Y15, Y0, Y2; VCVTTPD2QQ Y0, Y0; VPXOR Y2, Y0, Y0
UN(·cvtI64F64, 3, NONE, B_I64F64)
UN(·cvtF64I64, 3, S_F64I64, B_F64I64)

// ---- Narrowing casts: 32 bytes of a give 16 of d, front to back; n
// counts elements, a multiple of 4. ----

#define NARROW(NAME, SETUP, OP) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	DAN; \
	XORQ AX, AX; \
	SETUP; \
	EACHBY(4, STORE(OP, X0, 4)); \
	VZEROUPPER; \
	RET

#define B_F64F32 VCVTPD2PSY (SI)(AX*8), X0
NARROW(·cvtF64F32, NONE, B_F64F32)
// f64 to i32: NaN to 0, then the minimum with MaxInt32 (exact in
// float64); below the range the conversion gives MinInt32.
#define S_F64I32 VMOVUPD emax32d<>(SB), Y15
#define B_F64I32 VMOVUPD (SI)(AX*8), Y0; VCMPPD $7, Y0, Y0, Y1; VANDPD Y1, Y0, Y0; VMINPD Y15, Y0, Y0; VCVTTPD2DQY Y0, X0
NARROW(·cvtF64I32, S_F64I32, B_F64I32)
// i64 to i32 wraps: the low halves.
#define S_I64I32 VMOVDQU eeven<>(SB), Y15
#define B_I64I32 VPERMD (SI)(AX*8), Y15, Y0
NARROW(·cvtI64I32, S_I64I32, B_I64I32)
// AVX-512 DQ, VL:
#define B_I64F32 VCVTQQ2PSY (SI)(AX*8), X0
NARROW(·cvtI64F32, NONE, B_I64F32)

// ---- Widening casts: 16 bytes of a (4 elements, or 4 or 8 bool bytes)
// give 32 of d, back to front, each unit loaded before it is stored; n
// counts elements, a multiple of UNIT. ----

#define WIDEN(NAME, UNIT, SD, SETUP, OP) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ n+16(FP), AX; \
	SETUP; \
	DOWN(UNIT, STORE(OP, Y0, SD)); \
	VZEROUPPER; \
	RET

#define B_F32F64 VCVTPS2PD (SI)(AX*4), Y0
#define B_I32F64 VCVTDQ2PD (SI)(AX*4), Y0
#define B_I32I64 VPMOVSXDQ (SI)(AX*4), Y0
#define B_BOOLI32 VPMOVZXBD (SI)(AX*1), Y0
#define B_BOOLF32 VPMOVZXBD (SI)(AX*1), Y0; VCVTDQ2PS Y0, Y0
#define B_BOOLI64 VPMOVZXBQ (SI)(AX*1), Y0
#define B_BOOLF64 VPMOVZXBD (SI)(AX*1), X0; VCVTDQ2PD X0, Y0
WIDEN(·cvtF32F64, 4, 8, NONE, B_F32F64)
WIDEN(·cvtI32F64, 4, 8, NONE, B_I32F64)
WIDEN(·cvtI32I64, 4, 8, NONE, B_I32I64)
WIDEN(·cvtBoolI32, 8, 4, NONE, B_BOOLI32)
WIDEN(·cvtBoolF32, 8, 4, NONE, B_BOOLF32)
WIDEN(·cvtBoolI64, 4, 8, NONE, B_BOOLI64)
WIDEN(·cvtBoolF64, 4, 8, NONE, B_BOOLF64)
// AVX-512 DQ, VL: f32 to i64 as f32 to i32, the mask widened.
#define S_F32I64 VMOVUPS etwo63f<>(SB), X15
#define B_F32I64 VMOVUPS (SI)(AX*4), X0; VCMPPS $7, X0, X0, X1; VANDPS X1, X0, X0; VCMPPS $0x1d, X15, X0, X2; VPMOVSXDQ X2, Y2; VCVTTPS2QQ X0, Y0; VPXOR Y2, Y0, Y0
WIDEN(·cvtF32I64, 4, 8, S_F32I64, B_F32I64)

// ---- Comparisons to bool bytes: 8 elements give 8 bytes, MASK setting
// BX's low 8 bits to the lanes' results (INV flips them), which PDEP
// spreads one to a byte; n counts elements, a multiple of 8. ----

#define CMP(NAME, SETUP, MASK, INV) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	DABN; \
	MOVQ $0x0101010101010101, R8; \
	XORQ AX, AX; \
	SETUP; \
	EACHBY(8, CMP8(MASK, INV)); \
	VZEROUPPER; \
	RET

#define CMP8(MASK, INV) \
	MASK; \
	INV; \
	PDEPQ R8, BX, BX; \
	MOVQ  BX, (DI)(AX*1)

#define FLIP XORQ $0xff, BX

// Lane masks of a OP b (X first source register, Y second, both bases).
#define MF32(P, X, Y) VMOVUPS (X)(AX*4), Y0; VCMPPS $P, (Y)(AX*4), Y0, Y0; VMOVMSKPS Y0, BX
#define MF64(P, X, Y) VMOVUPD (X)(AX*8), Y0; VMOVUPD 32(X)(AX*8), Y1; VCMPPD $P, (Y)(AX*8), Y0, Y0; VCMPPD $P, 32(Y)(AX*8), Y1, Y1; VMOVMSKPD Y0, BX; VMOVMSKPD Y1, R9; SHLQ $4, R9; ORQ R9, BX
#define MI32(OP, X, Y) VMOVDQU (X)(AX*4), Y0; OP (Y)(AX*4), Y0, Y0; VMOVMSKPS Y0, BX
#define MI64(OP, X, Y) VMOVDQU (X)(AX*8), Y0; VMOVDQU 32(X)(AX*8), Y1; OP (Y)(AX*8), Y0, Y0; OP 32(Y)(AX*8), Y1, Y1; VMOVMSKPD Y0, BX; VMOVMSKPD Y1, R9; SHLQ $4, R9; ORQ R9, BX

// Float predicates: EQ_OQ 0, LT_OS 1, LE_OS 2, NEQ_UQ 4 (NaN is unequal),
// GE_OS 0x0d, GT_OS 0x0e: false on NaN except NEQ, as Go's operators.
CMP(·eqF32, NONE, MF32(0, SI, DX), NONE)
CMP(·neF32, NONE, MF32(4, SI, DX), NONE)
CMP(·ltF32, NONE, MF32(1, SI, DX), NONE)
CMP(·leF32, NONE, MF32(2, SI, DX), NONE)
CMP(·gtF32, NONE, MF32(0x0e, SI, DX), NONE)
CMP(·geF32, NONE, MF32(0x0d, SI, DX), NONE)
CMP(·eqF64, NONE, MF64(0, SI, DX), NONE)
CMP(·neF64, NONE, MF64(4, SI, DX), NONE)
CMP(·ltF64, NONE, MF64(1, SI, DX), NONE)
CMP(·leF64, NONE, MF64(2, SI, DX), NONE)
CMP(·gtF64, NONE, MF64(0x0e, SI, DX), NONE)
CMP(·geF64, NONE, MF64(0x0d, SI, DX), NONE)

// Integers have = and > only: a < b is b > a, a <= b is not a > b.
CMP(·eqI32, NONE, MI32(VPCMPEQD, SI, DX), NONE)
CMP(·neI32, NONE, MI32(VPCMPEQD, SI, DX), FLIP)
CMP(·gtI32, NONE, MI32(VPCMPGTD, SI, DX), NONE)
CMP(·ltI32, NONE, MI32(VPCMPGTD, DX, SI), NONE)
CMP(·leI32, NONE, MI32(VPCMPGTD, SI, DX), FLIP)
CMP(·geI32, NONE, MI32(VPCMPGTD, DX, SI), FLIP)
CMP(·eqI64, NONE, MI64(VPCMPEQQ, SI, DX), NONE)
CMP(·neI64, NONE, MI64(VPCMPEQQ, SI, DX), FLIP)
CMP(·gtI64, NONE, MI64(VPCMPGTQ, SI, DX), NONE)
CMP(·ltI64, NONE, MI64(VPCMPGTQ, DX, SI), NONE)
CMP(·leI64, NONE, MI64(VPCMPGTQ, SI, DX), FLIP)
CMP(·geI64, NONE, MI64(VPCMPGTQ, DX, SI), FLIP)

// Casts to bool: x != 0 (NaN is true), the second operand a zeroed
// register. They take (d, a, _, n).
#define MZF32 VMOVUPS (SI)(AX*4), Y0; VXORPS Y1, Y1, Y1; VCMPPS $4, Y1, Y0, Y0; VMOVMSKPS Y0, BX
#define MZF64 VMOVUPD (SI)(AX*8), Y0; VMOVUPD 32(SI)(AX*8), Y1; VXORPD Y2, Y2, Y2; VCMPPD $4, Y2, Y0, Y0; VCMPPD $4, Y2, Y1, Y1; VMOVMSKPD Y0, BX; VMOVMSKPD Y1, R9; SHLQ $4, R9; ORQ R9, BX
#define MZI32 VMOVDQU (SI)(AX*4), Y0; VPXOR Y1, Y1, Y1; VPCMPEQD Y1, Y0, Y0; VMOVMSKPS Y0, BX
#define MZI64 VMOVDQU (SI)(AX*8), Y0; VMOVDQU 32(SI)(AX*8), Y1; VPXOR Y2, Y2, Y2; VPCMPEQQ Y2, Y0, Y0; VPCMPEQQ Y2, Y1, Y1; VMOVMSKPD Y0, BX; VMOVMSKPD Y1, R9; SHLQ $4, R9; ORQ R9, BX

CMP(·boolF32, NONE, MZF32, NONE)
CMP(·boolF64, NONE, MZF64, NONE)
CMP(·boolI32, NONE, MZI32, FLIP)
CMP(·boolI64, NONE, MZI64, FLIP)

// IsNaN: a lane unordered with itself; IsInf: |x| (the sign bit
// cleared with Y14) equal to +Inf (Y15). They take (d, a, _, n).
#define MNANF32 VMOVUPS (SI)(AX*4), Y0; VCMPPS $3, Y0, Y0, Y0; VMOVMSKPS Y0, BX
#define MNANF64 VMOVUPD (SI)(AX*8), Y0; VMOVUPD 32(SI)(AX*8), Y1; VCMPPD $3, Y0, Y0, Y0; VCMPPD $3, Y1, Y1, Y1; VMOVMSKPD Y0, BX; VMOVMSKPD Y1, R9; SHLQ $4, R9; ORQ R9, BX
#define S_INFF32 VMOVUPS eabs32<>(SB), Y14; VMOVUPS einf32<>(SB), Y15
#define S_INFF64 VMOVUPD eabs64<>(SB), Y14; VMOVUPD einf64<>(SB), Y15
#define MINFF32 VANDPS (SI)(AX*4), Y14, Y0; VCMPPS $0, Y15, Y0, Y0; VMOVMSKPS Y0, BX
#define MINFF64 VANDPD (SI)(AX*8), Y14, Y0; VANDPD 32(SI)(AX*8), Y14, Y1; VCMPPD $0, Y15, Y0, Y0; VCMPPD $0, Y15, Y1, Y1; VMOVMSKPD Y0, BX; VMOVMSKPD Y1, R9; SHLQ $4, R9; ORQ R9, BX

CMP(·isNaNF32, NONE, MNANF32, NONE)
CMP(·isNaNF64, NONE, MNANF64, NONE)
CMP(·isInfF32, S_INFF32, MINFF32, NONE)
CMP(·isInfF64, S_INFF64, MINFF64, NONE)

// ---- Where: d = c ? a : b, back to front (d may be c); n counts
// elements, a multiple of UNIT. EXPAND widens UNIT condition bytes at
// (CX)(AX*1) to lanes of Y0 and sets them to all ones where c is zero. ----

#define WHERE(NAME, UNIT, SC, EXPAND) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ d+0(FP), DI; \
	MOVQ c+8(FP), CX; \
	MOVQ a+16(FP), SI; \
	MOVQ b+24(FP), DX; \
	MOVQ n+32(FP), AX; \
	VPXOR Y15, Y15, Y15; \
	DOWN(UNIT, WHERE1(SC, EXPAND)); \
	VZEROUPPER; \
	RET

#define WHERE1(SC, EXPAND) \
	EXPAND; \
	VMOVDQU   (SI)(AX*SC), Y1; \
	VPBLENDVB Y0, (DX)(AX*SC), Y1, Y1; \
	VMOVDQU   Y1, (DI)(AX*SC)

#define C8 VPCMPEQB (CX)(AX*1), Y15, Y0
#define C32 VPMOVZXBD (CX)(AX*1), Y0; VPCMPEQD Y15, Y0, Y0
#define C64 VPMOVZXBQ (CX)(AX*1), Y0; VPCMPEQQ Y15, Y0, Y0
WHERE(·where8, 32, 1, C8)
WHERE(·where32, 8, 4, C32)
WHERE(·where64, 4, 8, C64)

// ---- int32 floor division and modulo through float64: 4 elements a
// step. The float64 quotient of two int32 values is never rounded onto
// an integer it does not equal (it lies at least 1/|b| from one, a
// relative 2^-31), so its floor is the floor quotient; MinInt32 / -1
// gives 2^31, which the conversion turns into MinInt32 as Go's division
// wraps; division by zero gives 0 and so does the modulo (a - q*b,
// masked). n counts elements, a multiple of 4. ----

#define DIVMOD(NAME, MOD) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	DABN; \
	XORQ AX, AX; \
	VPXOR X15, X15, X15; \
	EACHBY(4, DIVMOD4(MOD)); \
	VZEROUPPER; \
	RET

#define DIVMOD4(MOD) \
	VCVTDQ2PD   (SI)(AX*4), Y0; \
	VCVTDQ2PD   (DX)(AX*4), Y1; \
	VDIVPD      Y1, Y0, Y0; \
	VROUNDPD    $1, Y0, Y0; \
	VCVTTPD2DQY Y0, X0; \
	VMOVDQU     (DX)(AX*4), X1; \
	VPCMPEQD    X15, X1, X2; \
	MOD; \
	VPANDN      X0, X2, X0; \
	VMOVDQU     X0, (DI)(AX*4)

// MODULO replaces the quotient in X0 by a - q*b (b in X1).
#define MODULO VPMULLD X1, X0, X0; VMOVDQU (SI)(AX*4), X3; VPSUBD X0, X3, X0

DIVMOD(·floorDivI32, NONE)
DIVMOD(·modI32, MODULO)

// ---- AVX2 forms of the int64 ops that AVX-512 has instructions for. ----

// BINX2 defines func NAME(d, a, b unsafe.Pointer, n int) with BODY
// computing Y0 from the vectors at (SI)(AX*1) and (DX)(AX*1); n counts
// int64 elements, a multiple of 4.
#define BINX2(NAME, BODY) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	ARGS3(3); \
	XORQ AX, AX; \
	EACH(BOTH(BODY)); \
	VZEROUPPER; \
	RET

// BOTH loads the vectors of a and b at byte AX into Y0 and Y1, runs
// BODY and stores Y0.
#define BOTH(BODY) \
	VMOVDQU (SI)(AX*1), Y0; \
	VMOVDQU (DX)(AX*1), Y1; \
	STORE(BODY, Y0, 1)

// max: a > b ? a : b; min: b > a ? a : b.
#define B_MAX64 VPCMPGTQ Y1, Y0, Y2; VPBLENDVB Y2, Y0, Y1, Y0
#define B_MIN64 VPCMPGTQ Y0, Y1, Y2; VPBLENDVB Y2, Y0, Y1, Y0
// The low 64 bits of a*b: lo(a)lo(b) + (hi(a)lo(b) + lo(a)hi(b)) << 32.
#define B_MUL64 VPMULUDQ Y1, Y0, Y2; VPSRLQ $32, Y0, Y3; VPMULUDQ Y1, Y3, Y3; VPSRLQ $32, Y1, Y4; VPMULUDQ Y4, Y0, Y4; VPADDQ Y4, Y3, Y3; VPSLLQ $32, Y3, Y3; VPADDQ Y3, Y2, Y0
BINX2(·maxI64x2, B_MAX64)
BINX2(·minI64x2, B_MIN64)
BINX2(·mulI64x2, B_MUL64)

// abs: (x ^ s) - s with s = 0 > x.
#define B_ABS64X2 VMOVDQU (SI)(AX*1), Y0; VPCMPGTQ Y0, Y15, Y1; VPXOR Y1, Y0, Y0; VPSUBQ Y1, Y0, Y0
UN(·absI64x2, 3, ZERO15, B_ABS64X2)

// ---- Float binary ops with a constant operand (see scalar.go): func
// NAME(d, a unsafe.Pointer, s uint64, n int), the constant broadcast
// into Y15 from s's bits; BINLS computes a op s, BINSL s op a. ----

#define BINS(NAME, SH, BCAST, OP, BODY) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ  d+0(FP), DI; \
	MOVQ  a+8(FP), SI; \
	BCAST s+16(FP), Y15; \
	MOVQ  n+24(FP), CX; \
	SHLQ  $SH, CX; \
	VECSBY(64, BINS2(OP, BODY), BINS1(OP, BODY)); \
	VZEROUPPER; \
	RET

#define BINS2(OP, BODY) \
	BODY(OP, 0, Y0); \
	BODY(OP, 32, Y1); \
	VMOVUPS Y0, (DI)(AX*1); \
	VMOVUPS Y1, 32(DI)(AX*1)

#define BINS1(OP, BODY) \
	BODY(OP, 0, Y0); \
	VMOVUPS Y0, (DI)(AX*1)

#define LS(OP, OFF, R) VMOVUPS OFF(SI)(AX*1), R; OP Y15, R, R
#define SL(OP, OFF, R) OP OFF(SI)(AX*1), Y15, R

BINS(·addLSF32, 2, VBROADCASTSS, VADDPS, LS)
BINS(·addSLF32, 2, VBROADCASTSS, VADDPS, SL)
BINS(·subLSF32, 2, VBROADCASTSS, VSUBPS, LS)
BINS(·subSLF32, 2, VBROADCASTSS, VSUBPS, SL)
BINS(·mulLSF32, 2, VBROADCASTSS, VMULPS, LS)
BINS(·mulSLF32, 2, VBROADCASTSS, VMULPS, SL)
BINS(·divLSF32, 2, VBROADCASTSS, VDIVPS, LS)
BINS(·divSLF32, 2, VBROADCASTSS, VDIVPS, SL)
BINS(·addLSF64, 3, VBROADCASTSD, VADDPD, LS)
BINS(·addSLF64, 3, VBROADCASTSD, VADDPD, SL)
BINS(·subLSF64, 3, VBROADCASTSD, VSUBPD, LS)
BINS(·subSLF64, 3, VBROADCASTSD, VSUBPD, SL)
BINS(·mulLSF64, 3, VBROADCASTSD, VMULPD, LS)
BINS(·mulSLF64, 3, VBROADCASTSD, VMULPD, SL)
BINS(·divLSF64, 3, VBROADCASTSD, VDIVPD, LS)
BINS(·divSLF64, 3, VBROADCASTSD, VDIVPD, SL)

// ---- int64 floor division and modulo through float64 (AVX-512 VL,
// DQ): func NAME(d, a, b unsafe.Pointer, n int) int, 4 elements a step,
// while |a| and |b| are below 2^53, where the conversions are exact and
// the rounded quotient (at most |a| 2^-53 < 1/|b| from the exact one) is
// never rounded onto an integer it does not equal; it returns the
// elements done, stopping before the first step with an operand out of
// that range (MinInt64 / -1 among them), which the caller does
// otherwise. Division by zero gives 0, quotient and modulo. ----

VEC4(ehigh53<>, 0xffe0000000000000)

#define DIVMOD64(NAME, MOD) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	DABN; \
	XORQ AX, AX; \
	VPXOR   Y15, Y15, Y15; \
	VMOVDQU ehigh53<>(SB), Y14; \
	EACHBY(4, DIVMOD64X4(MOD)); \
	MOVQ AX, ret+32(FP); \
	VZEROUPPER; \
	RET

// DIVMOD64X4 stops at label done before an operand out of range.
#define DIVMOD64X4(MOD) \
	VMOVDQU    (SI)(AX*8), Y0; \
	VMOVDQU    (DX)(AX*8), Y1; \
	VPABSQ     Y0, Y2; \
	VPABSQ     Y1, Y3; \
	VPOR       Y3, Y2, Y2; \
	VPTESTMQ   Y14, Y2, K1; \
	KORTESTB   K1, K1; \
	JNZ        done; \
	VCVTQQ2PD  Y0, Y2; \
	VCVTQQ2PD  Y1, Y3; \
	VDIVPD     Y3, Y2, Y2; \
	VROUNDPD   $1, Y2, Y2; \
	VCVTTPD2QQ Y2, Y2; \
	VPCMPEQQ   Y15, Y1, Y4; \
	MOD; \
	VPANDN     Y2, Y4, Y2; \
	VMOVDQU    Y2, (DI)(AX*8)

// MODULO64 replaces the quotient in Y2 by a - q*b.
#define MODULO64 VPMULLQ Y1, Y2, Y2; VPSUBQ Y2, Y0, Y2

DIVMOD64(·floorDivI64, NONE)
DIVMOD64(·modI64, MODULO64)

// ---- Comparisons of bools (bytes 0 and 1): func NAME(d, a, b
// unsafe.Pointer, n int), n a multiple of 32. false < true, so a < b is
// b &^ a, a > b is a &^ b, and the others their complements (^ 1). ----

#define BOOLCMP(NAME, BODY) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	DABN; \
	XORQ AX, AX; \
	VMOVDQU ebyte1<>(SB), Y15; \
	EACH(BOTH(BODY)); \
	VZEROUPPER; \
	RET

#define B_EQB VPXOR Y1, Y0, Y0; VPXOR Y15, Y0, Y0
#define B_NEB VPXOR Y1, Y0, Y0
#define B_LTB VPANDN Y1, Y0, Y0
#define B_GTB VPANDN Y0, Y1, Y0
#define B_LEB VPANDN Y0, Y1, Y0; VPXOR Y15, Y0, Y0
#define B_GEB VPANDN Y1, Y0, Y0; VPXOR Y15, Y0, Y0
BOOLCMP(·eqBool, B_EQB)
BOOLCMP(·neBool, B_NEB)
BOOLCMP(·ltBool, B_LTB)
BOOLCMP(·gtBool, B_GTB)
BOOLCMP(·leBool, B_LEB)
BOOLCMP(·geBool, B_GEB)
