// AVX2 loops for the strided runs of gather_vec.go (see gather_amd64.go):
// reversed runs load whole vectors from the end of the run forward and
// permute their lanes; runs of step 2 load two vectors and keep their
// even lanes. n is a positive multiple of the unit (8 four-byte or 4
// eight-byte elements). The loops end with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"
#include "vec_amd64.h"

VECD8(rev32<>, 7, 6, 5, 4, 3, 2, 1, 0)

// RUN defines func NAME(dst, src unsafe.Pointer, n int): after SETUP,
// each turn BODY stores one vector at DI from SI; DI advances 32 bytes,
// SI moves by SIOP $SISTEP, and LANES of the n elements are done.
// (vet does not check the frame offsets in macros: the Go declarations
// in gather_amd64.go must match them.)
#define RUN(NAME, SETUP, BODY, SIOP, SISTEP, LANES) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SETUP; \
loop: \
	BODY; \
	ADDQ $32, DI; \
	SIOP $SISTEP, SI; \
	SUBQ $LANES, CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

// func gatherRev32(dst, src unsafe.Pointer, n int)
// dst[i] = src[n-1-i] for i < n, 4-byte elements, n a multiple of 8.
#define REV32SETUP \
	VMOVDQU rev32<>(SB), Y2; \
	LEAQ    -32(SI)(CX*4), SI

#define REV32 \
	VPERMD  (SI), Y2, Y0; \
	VMOVDQU Y0, (DI)

RUN(·gatherRev32, REV32SETUP, REV32, SUBQ, 32, 8)

// func gatherRev64(dst, src unsafe.Pointer, n int)
// dst[i] = src[n-1-i] for i < n, 8-byte elements, n a multiple of 4.
#define REV64SETUP LEAQ -32(SI)(CX*8), SI

#define REV64 \
	VPERMQ  $0x1B, (SI), Y0; \
	VMOVDQU Y0, (DI)

RUN(·gatherRev64, REV64SETUP, REV64, SUBQ, 32, 4)

// func gatherStep2x32(dst, src unsafe.Pointer, n int)
// func gatherStep2x64(dst, src unsafe.Pointer, n int)
// dst[i] = src[2i] for i < n, 4-byte (8-byte) elements, n a multiple of
// 8 (4); reads src[0] to src[2n-1]. EVEN picks the even lanes of Y0
// and Y1 into Y2, in-lane; VPERMPD puts the lanes in order.
#define STEP2(MOV, EVEN) \
	MOV     (SI), Y0; \
	MOV     32(SI), Y1; \
	EVEN; \
	VPERMPD $0xD8, Y2, Y2; \
	MOV     Y2, (DI)

#define EVEN32 VSHUFPS $0x88, Y1, Y0, Y2
#define EVEN64 VUNPCKLPD Y1, Y0, Y2
#define NOSETUP

RUN(·gatherStep2x32, NOSETUP, STEP2(VMOVUPS, EVEN32), ADDQ, 64, 8)
RUN(·gatherStep2x64, NOSETUP, STEP2(VMOVUPD, EVEN64), ADDQ, 64, 4)
