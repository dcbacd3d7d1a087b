// AVX2 and FMA inner loops for amd64 (see asm_amd64.go): elementwise
// arithmetic, Maximum and Minimum, Neg, Sqrt, blocked float32 and
// lane-wise float64 sums, and row extremes.
// Every loop covers whole vectors only (the Go wrappers do the tails) and
// ends with VZEROUPPER, so the scalar SSE code that follows does not pay
// for dirty upper halves of the vector registers.

//go:build amd64 && !purego

#include "textflag.h"

// VEC8 defines a 32-byte constant: eight copies of a 32-bit pattern.
#define VEC8(name, bits) \
	DATA name+0(SB)/4, $bits; \
	DATA name+4(SB)/4, $bits; \
	DATA name+8(SB)/4, $bits; \
	DATA name+12(SB)/4, $bits; \
	DATA name+16(SB)/4, $bits; \
	DATA name+20(SB)/4, $bits; \
	DATA name+24(SB)/4, $bits; \
	DATA name+28(SB)/4, $bits; \
	GLOBL name(SB), RODATA|NOPTR, $32

// VEC4 defines a 32-byte constant: four copies of a 64-bit pattern.
#define VEC4(name, bits) \
	DATA name+0(SB)/8, $bits; \
	DATA name+8(SB)/8, $bits; \
	DATA name+16(SB)/8, $bits; \
	DATA name+24(SB)/8, $bits; \
	GLOBL name(SB), RODATA|NOPTR, $32

VEC8(sign32<>, 0x80000000)
VEC4(sign64<>, 0x8000000000000000)

// BINARY runs OP over byte range [0, CX) of SI and DX into DI, 128 bytes
// at a time and then 32 (CX is a multiple of 32). OP's first source is
// the element of SI (a), its second the element of DX (b).
#define BINARY(OP) \
	XORQ AX, AX; \
	MOVQ CX, BX; \
	ANDQ $-128, BX; \
	JZ   one; \
four: \
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
	VMOVUPS Y3, 96(DI)(AX*1); \
	ADDQ    $128, AX; \
	CMPQ    AX, BX; \
	JB      four; \
one: \
	CMPQ    AX, CX; \
	JAE     done; \
	VMOVUPS (SI)(AX*1), Y0; \
	OP      (DX)(AX*1), Y0, Y0; \
	VMOVUPS Y0, (DI)(AX*1); \
	ADDQ    $32, AX; \
	JMP     one; \
done: \
	VZEROUPPER; \
	RET

// func addF32(d, a, b unsafe.Pointer, n int)
TEXT ·addF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	BINARY(VADDPS)

// func subF32(d, a, b unsafe.Pointer, n int)
TEXT ·subF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	BINARY(VSUBPS)

// func mulF32(d, a, b unsafe.Pointer, n int)
TEXT ·mulF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	BINARY(VMULPS)

// func divF32(d, a, b unsafe.Pointer, n int)
TEXT ·divF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	BINARY(VDIVPS)

// func addF64(d, a, b unsafe.Pointer, n int)
TEXT ·addF64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $3, CX
	BINARY(VADDPD)

// func subF64(d, a, b unsafe.Pointer, n int)
TEXT ·subF64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $3, CX
	BINARY(VSUBPD)

// func mulF64(d, a, b unsafe.Pointer, n int)
TEXT ·mulF64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $3, CX
	BINARY(VMULPD)

// func divF64(d, a, b unsafe.Pointer, n int)
TEXT ·divF64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $3, CX
	BINARY(VDIVPD)

// EXTREME computes Go's min of x (Y0) and y (Y1) into Y2 as the compiler
// does for amd64: m = min(x, y), then (min(m, x) | m), where the MINPS
// of a and b returns b when either is NaN or both are zero. The result is
// y's or a merged NaN when either is NaN, -0 when either of two zeros is.
// Max is -min(-x, -y) (NEGX and NEGY negate, NEGR negates the result).
#define EXTREME(MIN, OR, NEG, SIGN) \
	XORQ AX, AX; \
loop: \
	CMPQ    AX, CX; \
	JAE     done; \
	VMOVUPS (SI)(AX*1), Y0; \
	VMOVUPS (DX)(AX*1), Y1; \
	NEG(Y0, SIGN); \
	NEG(Y1, SIGN); \
	MIN     Y1, Y0, Y2; \
	MIN     Y0, Y2, Y3; \
	OR      Y3, Y2, Y2; \
	NEG(Y2, SIGN); \
	VMOVUPS Y2, (DI)(AX*1); \
	ADDQ    $32, AX; \
	JMP     loop; \
done: \
	VZEROUPPER; \
	RET

#define FLIP(r, sign) VXORPS sign, r, r
#define KEEP(r, sign)

// func maxF32(d, a, b unsafe.Pointer, n int)
TEXT ·maxF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	EXTREME(VMINPS, VORPS, FLIP, sign32<>(SB))

// func minF32(d, a, b unsafe.Pointer, n int)
TEXT ·minF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	EXTREME(VMINPS, VORPS, KEEP, sign32<>(SB))

// func maxF64(d, a, b unsafe.Pointer, n int)
TEXT ·maxF64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $3, CX
	EXTREME(VMINPD, VORPD, FLIP, sign64<>(SB))

// func minF64(d, a, b unsafe.Pointer, n int)
TEXT ·minF64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $3, CX
	EXTREME(VMINPD, VORPD, KEEP, sign64<>(SB))

// UNARY runs the two-operand instruction sequence OP(Y0) over byte range
// [0, CX) of SI into DI, leaving the result in Y0.
#define UNARY(OP) \
	XORQ AX, AX; \
loop: \
	CMPQ    AX, CX; \
	JAE     done; \
	VMOVUPS (SI)(AX*1), Y0; \
	OP; \
	VMOVUPS Y0, (DI)(AX*1); \
	ADDQ    $32, AX; \
	JMP     loop; \
done: \
	VZEROUPPER; \
	RET

#define NEG32 VXORPS sign32<>(SB), Y0, Y0
#define NEG64 VXORPD sign64<>(SB), Y0, Y0
#define SQRT32 VSQRTPS Y0, Y0
#define SQRT64 VSQRTPD Y0, Y0

// func negF32(d, a unsafe.Pointer, n int)
TEXT ·negF32(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $2, CX
	UNARY(NEG32)

// func negF64(d, a unsafe.Pointer, n int)
TEXT ·negF64(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $3, CX
	UNARY(NEG64)

// func sqrtF32(d, a unsafe.Pointer, n int)
TEXT ·sqrtF32(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $2, CX
	UNARY(SQRT32)

// func sqrtF64(d, a unsafe.Pointer, n int)
TEXT ·sqrtF64(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $3, CX
	UNARY(SQRT64)

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
	VADDPS (SI), Y0, Y0
	VADDPS 32(SI), Y0, Y0
	VADDPS 64(SI), Y0, Y0
	VADDPS 96(SI), Y0, Y0
	VADDPS 128(SI), Y0, Y0
	VADDPS 160(SI), Y0, Y0
	VADDPS 192(SI), Y0, Y0
	VADDPS 224(SI), Y0, Y0
	VADDPS 256(SI), Y0, Y0
	VADDPS 288(SI), Y0, Y0
	VADDPS 320(SI), Y0, Y0
	VADDPS 352(SI), Y0, Y0
	VADDPS 384(SI), Y0, Y0
	VADDPS 416(SI), Y0, Y0
	VADDPS 448(SI), Y0, Y0
	VADDPS 480(SI), Y0, Y0

	VCVTPS2PD    X0, Y1       // l0..l3
	VEXTRACTF128 $1, Y0, X2
	VCVTPS2PD    X2, Y2       // l4..l7
	VEXTRACTF128 $1, Y1, X3   // l2, l3
	VPERMILPD    $1, X1, X4   // l1
	VADDSD       X4, X1, X5   // l0+l1
	VADDSD       X3, X5, X5   // +l2
	VPERMILPD    $1, X3, X6   // l3
	VADDSD       X6, X5, X5   // +l3
	VEXTRACTF128 $1, Y2, X3   // l6, l7
	VPERMILPD    $1, X2, X4   // l5
	VADDSD       X4, X2, X6   // l4+l5
	VADDSD       X3, X6, X6   // +l6
	VPERMILPD    $1, X3, X4   // l7
	VADDSD       X4, X6, X6   // +l7
	VADDSD       X6, X5, X5
	VADDSD       X5, X8, X8

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

// ROWEXT folds byte range [0, CX) of SI (at least one vector) into one
// extreme with OP (VMAXPS/VMINPS or the PD forms) in four accumulators
// and notes NaN lanes apart in Y7: OP neither propagates NaN reliably nor
// orders -0 below +0, so the caller redoes a row that holds a NaN or
// whose extreme is zero with the scalar loop.
#define ROWEXT(OP, CMPP, LANE) \
	VMOVUPS (SI), Y0; \
	VMOVUPS Y0, Y1; \
	VMOVUPS Y0, Y2; \
	VMOVUPS Y0, Y3; \
	VXORPS  Y7, Y7, Y7; \
	XORQ    AX, AX; \
	MOVQ    CX, BX; \
	ANDQ    $-128, BX; \
	JZ      one; \
four: \
	VMOVUPS (SI)(AX*1), Y4; \
	VMOVUPS 32(SI)(AX*1), Y5; \
	OP      Y4, Y0, Y0; \
	OP      Y5, Y1, Y1; \
	CMPP    $3, Y4, Y4, Y4; \
	CMPP    $3, Y5, Y5, Y5; \
	VORPS   Y4, Y7, Y7; \
	VORPS   Y5, Y7, Y7; \
	VMOVUPS 64(SI)(AX*1), Y4; \
	VMOVUPS 96(SI)(AX*1), Y5; \
	OP      Y4, Y2, Y2; \
	OP      Y5, Y3, Y3; \
	CMPP    $3, Y4, Y4, Y4; \
	CMPP    $3, Y5, Y5, Y5; \
	VORPS   Y4, Y7, Y7; \
	VORPS   Y5, Y7, Y7; \
	ADDQ    $128, AX; \
	CMPQ    AX, BX; \
	JB      four; \
one: \
	CMPQ    AX, CX; \
	JAE     fold; \
	VMOVUPS (SI)(AX*1), Y4; \
	OP      Y4, Y0, Y0; \
	CMPP    $3, Y4, Y4, Y4; \
	VORPS   Y4, Y7, Y7; \
	ADDQ    $32, AX; \
	JMP     one; \
fold: \
	OP      Y1, Y0, Y0; \
	OP      Y3, Y2, Y2; \
	OP      Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	OP      X1, X0, X0; \
	LANE; \
	VMOVMSKPS Y7, AX; \
	VZEROUPPER

#define LANES32(OP) \
	VPERMILPS $0x4e, X0, X1; \
	OP        X1, X0, X0; \
	VPERMILPS $0xb1, X0, X1; \
	OP        X1, X0, X0

#define LANES64(OP) \
	VPERMILPD $1, X0, X1; \
	OP        X1, X0, X0

// func maxRowF32(p unsafe.Pointer, n int) (m float32, nan int)
TEXT ·maxRowF32(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	SHLQ $2, CX
	ROWEXT(VMAXPS, VCMPPS, LANES32(VMAXPS))
	MOVSS X0, m+16(FP)
	MOVQ  AX, nan+24(FP)
	RET

// func minRowF32(p unsafe.Pointer, n int) (m float32, nan int)
TEXT ·minRowF32(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	SHLQ $2, CX
	ROWEXT(VMINPS, VCMPPS, LANES32(VMINPS))
	MOVSS X0, m+16(FP)
	MOVQ  AX, nan+24(FP)
	RET

// func maxRowF64(p unsafe.Pointer, n int) (m float64, nan int)
TEXT ·maxRowF64(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	SHLQ $3, CX
	ROWEXT(VMAXPD, VCMPPD, LANES64(VMAXPD))
	MOVSD X0, m+16(FP)
	MOVQ  AX, nan+24(FP)
	RET

// func minRowF64(p unsafe.Pointer, n int) (m float64, nan int)
TEXT ·minRowF64(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	SHLQ $3, CX
	ROWEXT(VMINPD, VCMPPD, LANES64(VMINPD))
	MOVSD X0, m+16(FP)
	MOVQ  AX, nan+24(FP)
	RET
