// AVX2 Max and Min folds of int32 and int64 chunks (see
// reduce_intext_amd64.go): four accumulators of lanes start at the
// first block and take the lane-wise extreme of each later one (int64
// by VPCMPGTQ and VBLENDVPD, int32 by VPMAXSD and VPMINSD); the caller
// combines the lanes written to out. Each covers whole 128-byte blocks
// (n >= 1) and ends with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

// Each sets acc to the lane-wise extreme of acc and x (Y8 scratch).
#define MAX64(x, acc) VPCMPGTQ acc, x, Y8; VBLENDVPD Y8, x, acc, acc
#define MIN64(x, acc) VPCMPGTQ x, acc, Y8; VBLENDVPD Y8, x, acc, acc
#define MAX32(x, acc) VPMAXSD x, acc, acc
#define MIN32(x, acc) VPMINSD x, acc, acc

#define INTEXT(NAME, EXT) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ    p+0(FP), SI; \
	MOVQ    n+8(FP), CX; \
	VMOVDQU (SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	VMOVDQU 64(SI), Y2; \
	VMOVDQU 96(SI), Y3; \
	ADDQ    $128, SI; \
	DECQ    CX; \
	JZ      done; \
loop: \
	VMOVDQU (SI), Y4; \
	VMOVDQU 32(SI), Y5; \
	VMOVDQU 64(SI), Y6; \
	VMOVDQU 96(SI), Y7; \
	EXT(Y4, Y0); \
	EXT(Y5, Y1); \
	EXT(Y6, Y2); \
	EXT(Y7, Y3); \
	ADDQ    $128, SI; \
	DECQ    CX; \
	JNZ     loop; \
done: \
	EXT(Y1, Y0); \
	EXT(Y3, Y2); \
	EXT(Y2, Y0); \
	MOVQ    out+16(FP), DI; \
	VMOVDQU Y0, (DI); \
	VZEROUPPER; \
	RET

// func maxBlocksI64(p unsafe.Pointer, n int, out *[4]int64), and so
// minBlocksI64, and maxBlocksI32 and minBlocksI32 with out *[8]int32.
INTEXT(·maxBlocksI64, MAX64)
INTEXT(·minBlocksI64, MIN64)
INTEXT(·maxBlocksI32, MAX32)
INTEXT(·minBlocksI32, MIN32)
