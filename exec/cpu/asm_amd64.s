// AVX2 and FMA inner loops for amd64 (see asm_amd64.go): elementwise
// arithmetic, Maximum and Minimum, Neg, Sqrt, blocked float32 and
// lane-wise float64 sums, and row extremes.
// Every loop covers whole vectors only (the Go wrappers do the tails) and
// ends with VZEROUPPER, so the scalar SSE code that follows does not pay
// for dirty upper halves of the vector registers.

//go:build amd64 && !purego

#include "textflag.h"
#include "vec_amd64.h"

VEC8(sign32<>, 0x80000000)
VEC4(sign64<>, 0x8000000000000000)

// The routines are defined by the loop macros below and those of
// vec_amd64.h, one line each.

// BINARY defines func NAME(d, a, b unsafe.Pointer, n int): OP over
// byte range [0, n<<SH) of a (SI) and b (DX) into d (DI), 128 bytes at a
// time and then 32 (n is a multiple of the lane count). OP's first
// source is the element of a, its second the element of b.
#define BINARY(NAME, SH, OP) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	ARGS3(SH); \
	VECS(BINARY4(OP), BIN1(VMOVUPS, OP)); \
	VZEROUPPER; \
	RET

#define BINARY4(OP) \
	VMOVUPS (SI)(AX*1), Y0; \
	VMOVUPS 32(SI)(AX*1), Y1; \
	VMOVUPS 64(SI)(AX*1), Y2; \
	VMOVUPS 96(SI)(AX*1), Y3; \
	OP      (DX)(AX*1), Y0, Y0; \
	OP      32(DX)(AX*1), Y1, Y1; \
	OP      64(DX)(AX*1), Y2, Y2; \
	OP      96(DX)(AX*1), Y3, Y3; \
	VMOVUPS Y0, (DI)(AX*1); \
	VMOVUPS Y1, 32(DI)(AX*1); \
	VMOVUPS Y2, 64(DI)(AX*1); \
	VMOVUPS Y3, 96(DI)(AX*1)

BINARY(·addF32, 2, VADDPS)
BINARY(·subF32, 2, VSUBPS)
BINARY(·mulF32, 2, VMULPS)
BINARY(·divF32, 2, VDIVPS)
BINARY(·addF64, 3, VADDPD)
BINARY(·subF64, 3, VSUBPD)
BINARY(·mulF64, 3, VMULPD)
BINARY(·divF64, 3, VDIVPD)

// EXTREME defines func NAME(d, a, b unsafe.Pointer, n int): Go's min
// of x (Y0) and y (Y1) into Y2 as the compiler does for amd64: m =
// min(x, y), then (min(m, x) | m), where the MINPS of a and b returns b
// when either is NaN or both are zero. The result is y's or a merged NaN
// when either is NaN, -0 when either of two zeros is. Max is
// -min(-x, -y) (NEG FLIP negates the operands and the result).
#define EXTREME(NAME, SH, MIN, OR, NEG, SIGN) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	ARGS3(SH); \
	XORQ AX, AX; \
	EACH(EXTREME1(MIN, OR, NEG, SIGN)); \
	VZEROUPPER; \
	RET

#define EXTREME1(MIN, OR, NEG, SIGN) \
	VMOVUPS (SI)(AX*1), Y0; \
	VMOVUPS (DX)(AX*1), Y1; \
	NEG(Y0, SIGN); \
	NEG(Y1, SIGN); \
	MIN     Y1, Y0, Y2; \
	MIN     Y0, Y2, Y3; \
	OR      Y3, Y2, Y2; \
	NEG(Y2, SIGN); \
	VMOVUPS Y2, (DI)(AX*1)

#define FLIP(r, sign) VXORPS sign, r, r
#define KEEP(r, sign)

EXTREME(·maxF32, 2, VMINPS, VORPS, FLIP, sign32<>(SB))
EXTREME(·minF32, 2, VMINPS, VORPS, KEEP, sign32<>(SB))
EXTREME(·maxF64, 3, VMINPD, VORPD, FLIP, sign64<>(SB))
EXTREME(·minF64, 3, VMINPD, VORPD, KEEP, sign64<>(SB))

// UNARY defines func NAME(d, a unsafe.Pointer, n int): the
// two-operand instruction sequence OP(Y0) over byte range [0, n<<SH) of
// a (SI) into d (DI), leaving the result in Y0.
#define UNARY(NAME, SH, OP) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	ARGS2(SH); \
	XORQ AX, AX; \
	EACH(UNARY1(OP)); \
	VZEROUPPER; \
	RET

#define UNARY1(OP) \
	VMOVUPS (SI)(AX*1), Y0; \
	OP; \
	VMOVUPS Y0, (DI)(AX*1)

#define NEG32 VXORPS sign32<>(SB), Y0, Y0
#define NEG64 VXORPD sign64<>(SB), Y0, Y0
#define SQRT32 VSQRTPS Y0, Y0
#define SQRT64 VSQRTPD Y0, Y0

UNARY(·negF32, 2, NEG32)
UNARY(·negF64, 3, NEG64)
UNARY(·sqrtF32, 2, SQRT32)
UNARY(·sqrtF64, 3, SQRT64)

// ADD4 adds the four vectors at byte off of SI to Y0, in order.
#define ADD4(off) \
	VADDPS off(SI), Y0, Y0; \
	VADDPS off+32(SI), Y0, Y0; \
	VADDPS off+64(SI), Y0, Y0; \
	VADDPS off+96(SI), Y0, Y0

// func sumBlocksF32(acc float64, p unsafe.Pointer, blocks int) float64
//
// Each block of 128 float32 values is summed by eight float32 lanes of
// 16 values each, starting from +0; the lanes are widened and added in
// float64 as ((l0+l1)+l2)+l3 + ((l4+l5)+l6)+l7, and the total added to acc.
TEXT ·sumBlocksF32(SB), NOSPLIT, $0-32
	MOVSD acc+0(FP), X8
	MOVQ  p+8(FP), SI
	MOVQ  blocks+16(FP), CX

sumloop:
	TESTQ  CX, CX
	JZ     sumdone
	VXORPS Y0, Y0, Y0
	ADD4(0)
	ADD4(128)
	ADD4(256)
	ADD4(384)

	LANES8

	ADDQ $512, SI
	DECQ CX
	JMP  sumloop

sumdone:
	VZEROUPPER
	MOVSD X8, ret+24(FP)
	RET

// func sumLanesF64(lanes *[8]float64, p unsafe.Pointer, n int)
//
// Adds p[8i+k] to lanes[k] for i in [0, n/8): the eight partial sums of
// the float64 row sum, in the same order.
TEXT ·sumLanesF64(SB), NOSPLIT, $0-24
	MOVQ    lanes+0(FP), DI
	MOVQ    p+8(FP), SI
	MOVQ    n+16(FP), CX
	SHLQ    $3, CX
	XORQ    AX, AX
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1

lanesloop:
	CMPQ   AX, CX
	JAE    lanesdone
	VADDPD (SI)(AX*1), Y0, Y0
	VADDPD 32(SI)(AX*1), Y1, Y1
	ADDQ   $64, AX
	JMP    lanesloop

lanesdone:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// ROWEXT defines func NAME(p unsafe.Pointer, n int) (m T, nan int):
// it folds byte range [0, n<<SH) of p (at least one vector) into one
// extreme with OP (VMAXPS/VMINPS or the PD forms) in four accumulators,
// LANE folding the last vector, MOVS storing m, and notes NaN lanes
// apart in Y7: OP neither propagates NaN reliably nor orders -0 below
// +0, so the caller redoes a row that holds a NaN or whose extreme is
// zero with the scalar loop.
#define ROWEXT(NAME, SH, OP, CMPP, LANE, MOVS) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	SHLQ $SH, CX; \
	VMOVUPS (SI), Y0; \
	VMOVUPS Y0, Y1; \
	VMOVUPS Y0, Y2; \
	VMOVUPS Y0, Y3; \
	VXORPS  Y7, Y7, Y7; \
	VECS(ROWEXT4(OP, CMPP), ROWEXT1(OP, CMPP)); \
	OP      Y1, Y0, Y0; \
	OP      Y3, Y2, Y2; \
	OP      Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	OP      X1, X0, X0; \
	LANE; \
	VMOVMSKPS Y7, AX; \
	VZEROUPPER; \
	MOVS X0, m+16(FP); \
	MOVQ AX, nan+24(FP); \
	RET

#define ROWEXT4(OP, CMPP) \
	ROWEXT2(OP, CMPP, 0, Y0, Y1); \
	ROWEXT2(OP, CMPP, 64, Y2, Y3)

// ROWEXT2 folds the two vectors at byte off+AX of SI into y and z.
#define ROWEXT2(OP, CMPP, off, y, z) \
	VMOVUPS off(SI)(AX*1), Y4; \
	VMOVUPS off+32(SI)(AX*1), Y5; \
	OP      Y4, y, y; \
	OP      Y5, z, z; \
	CMPP    $3, Y4, Y4, Y4; \
	CMPP    $3, Y5, Y5, Y5; \
	VORPS   Y4, Y7, Y7; \
	VORPS   Y5, Y7, Y7

#define ROWEXT1(OP, CMPP) \
	VMOVUPS (SI)(AX*1), Y4; \
	OP      Y4, Y0, Y0; \
	CMPP    $3, Y4, Y4, Y4; \
	VORPS   Y4, Y7, Y7

#define LANES32(OP) \
	VPERMILPS $0x4e, X0, X1; \
	OP        X1, X0, X0; \
	VPERMILPS $0xb1, X0, X1; \
	OP        X1, X0, X0

#define LANES64(OP) \
	VPERMILPD $1, X0, X1; \
	OP        X1, X0, X0

ROWEXT(·maxRowF32, 2, VMAXPS, VCMPPS, LANES32(VMAXPS), MOVSS)
ROWEXT(·minRowF32, 2, VMINPS, VCMPPS, LANES32(VMINPS), MOVSS)
ROWEXT(·maxRowF64, 3, VMAXPD, VCMPPD, LANES64(VMAXPD), MOVSD)
ROWEXT(·minRowF64, 3, VMINPD, VCMPPD, LANES64(VMINPD), MOVSD)
