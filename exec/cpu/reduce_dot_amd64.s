// AVX2 loops of the fused product and row sum (see reduce_dot_amd64.go):
// the products rounded to the dtype (VMULPS/VMULPD, not fused with the
// adds) and added as the row sums of asm_amd64.s add values. Each covers
// whole vectors or blocks only and ends with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"
#include "vec_amd64.h"

// func dotLanesF64(lanes *[8]float64, a, b unsafe.Pointer, n int)
//
// Adds a[8i+k]*b[8i+k] to lanes[k] for i in [0, n/8), n a multiple of 8.
TEXT ·dotLanesF64(SB), NOSPLIT, $0-32
	MOVQ    lanes+0(FP), DI
	MOVQ    a+8(FP), SI
	MOVQ    b+16(FP), DX
	MOVQ    n+24(FP), CX
	SHLQ    $3, CX
	XORQ    AX, AX
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1

dotloop:
	CMPQ    AX, CX
	JAE     dotdone
	VMOVUPD (SI)(AX*1), Y2
	VMOVUPD 32(SI)(AX*1), Y3
	VMULPD  (DX)(AX*1), Y2, Y2
	VMULPD  32(DX)(AX*1), Y3, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	ADDQ    $64, AX
	JMP     dotloop

dotdone:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// DOT8 adds the products of the vectors at off into Y0.
#define DOT8(off) \
	VMOVUPS off(SI), Y1; \
	VMULPS  off(DX), Y1, Y1; \
	VADDPS  Y1, Y0, Y0

// func dotBlocksF32(acc float64, a, b unsafe.Pointer, blocks int) float64
//
// sumBlocksF32 over the float32 products of a and b: each block of 128
// products summed by eight float32 lanes of 16 from +0, the lanes
// widened and added as ((l0+l1)+l2)+l3 + ((l4+l5)+l6)+l7, the total
// added to acc.
TEXT ·dotBlocksF32(SB), NOSPLIT, $0-40
	MOVSD acc+0(FP), X8
	MOVQ  a+8(FP), SI
	MOVQ  b+16(FP), DX
	MOVQ  blocks+24(FP), CX

dblock:
	TESTQ  CX, CX
	JZ     ddone
	VXORPS Y0, Y0, Y0
	DOT8(0)
	DOT8(32)
	DOT8(64)
	DOT8(96)
	DOT8(128)
	DOT8(160)
	DOT8(192)
	DOT8(224)
	DOT8(256)
	DOT8(288)
	DOT8(320)
	DOT8(352)
	DOT8(384)
	DOT8(416)
	DOT8(448)
	DOT8(480)

	LANES8

	ADDQ $512, SI
	ADDQ $512, DX
	DECQ CX
	JMP  dblock

ddone:
	VZEROUPPER
	MOVSD X8, ret+32(FP)
	RET
