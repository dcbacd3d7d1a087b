// AVX2 loops for the strided runs of gather_vec.go (see gather_amd64.go):
// reversed runs load whole vectors from the end of the run forward and
// permute their lanes; runs of step 2 load two vectors and keep their
// even lanes. n is a positive multiple of the unit (8 four-byte or 4
// eight-byte elements). The loops end with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

DATA rev32<>+0(SB)/4, $7
DATA rev32<>+4(SB)/4, $6
DATA rev32<>+8(SB)/4, $5
DATA rev32<>+12(SB)/4, $4
DATA rev32<>+16(SB)/4, $3
DATA rev32<>+20(SB)/4, $2
DATA rev32<>+24(SB)/4, $1
DATA rev32<>+28(SB)/4, $0
GLOBL rev32<>(SB), RODATA|NOPTR, $32

// func gatherRev32(dst, src unsafe.Pointer, n int)
// dst[i] = src[n-1-i] for i < n, 4-byte elements, n a multiple of 8.
TEXT ·gatherRev32(SB), NOSPLIT, $0-24
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVDQU rev32<>(SB), Y2
	LEAQ    -32(SI)(CX*4), SI

rev32loop:
	VPERMD  (SI), Y2, Y0
	VMOVDQU Y0, (DI)
	ADDQ    $32, DI
	SUBQ    $32, SI
	SUBQ    $8, CX
	JNZ     rev32loop
	VZEROUPPER
	RET

// func gatherRev64(dst, src unsafe.Pointer, n int)
// dst[i] = src[n-1-i] for i < n, 8-byte elements, n a multiple of 4.
TEXT ·gatherRev64(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	LEAQ -32(SI)(CX*8), SI

rev64loop:
	VPERMQ  $0x1B, (SI), Y0
	VMOVDQU Y0, (DI)
	ADDQ    $32, DI
	SUBQ    $32, SI
	SUBQ    $4, CX
	JNZ     rev64loop
	VZEROUPPER
	RET

// func gatherStep2x32(dst, src unsafe.Pointer, n int)
// dst[i] = src[2i] for i < n, 4-byte elements, n a multiple of 8; reads
// src[0] to src[2n-1].
TEXT ·gatherStep2x32(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

step32loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2
	VPERMPD $0xD8, Y2, Y2
	VMOVUPS Y2, (DI)
	ADDQ    $32, DI
	ADDQ    $64, SI
	SUBQ    $8, CX
	JNZ     step32loop
	VZEROUPPER
	RET

// func gatherStep2x64(dst, src unsafe.Pointer, n int)
// dst[i] = src[2i] for i < n, 8-byte elements, n a multiple of 4; reads
// src[0] to src[2n-1].
TEXT ·gatherStep2x64(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

step64loop:
	VMOVUPD   (SI), Y0
	VMOVUPD   32(SI), Y1
	VUNPCKLPD Y1, Y0, Y2
	VPERMPD   $0xD8, Y2, Y2
	VMOVUPD   Y2, (DI)
	ADDQ      $32, DI
	ADDQ      $64, SI
	SUBQ      $4, CX
	JNZ       step64loop
	VZEROUPPER
	RET
