// AVX2 one-pass ArgMax and ArgMin of float rows (see reduce_arg_amd64.go):
// four accumulators of lanes keep each lane's best value and the
// iteration that brought it (a value replaces the best only when
// strictly better, so each lane keeps its first best), and a lane mask
// notes NaNs apart. The caller combines the lanes and handles the tail
// and NaN. Each covers whole 128-byte iterations and ends with
// VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

// ARGLANES runs CX >= 1 iterations over SI: Y0-Y3 best (starting at
// INIT, a broadcast of +-Inf), Y4-Y7 iteration numbers, Y13 the current
// iteration number, Y14 ones, Y15 the NaN lanes. BETTER(x, b) sets Y12
// where x replaces b.
#define ARGLANES(BCAST, INIT, ONES, BETTER, BLEND, UNORD, ADDI) \
	MOVQ    p+0(FP), SI; \
	MOVQ    n+8(FP), CX; \
	MOVQ    INIT, AX; \
	BCAST; \
	VMOVUPD Y0, Y1; \
	VMOVUPD Y0, Y2; \
	VMOVUPD Y0, Y3; \
	VPXOR   Y4, Y4, Y4; \
	VPXOR   Y5, Y5, Y5; \
	VPXOR   Y6, Y6, Y6; \
	VPXOR   Y7, Y7, Y7; \
	VPXOR   Y13, Y13, Y13; \
	VPXOR   Y15, Y15, Y15; \
	ONES; \
loop: \
	VMOVUPD (SI), Y8; \
	VMOVUPD 32(SI), Y9; \
	VMOVUPD 64(SI), Y10; \
	VMOVUPD 96(SI), Y11; \
	BETTER(Y8, Y0); \
	BLEND   Y12, Y8, Y0, Y0; \
	BLEND   Y12, Y13, Y4, Y4; \
	BETTER(Y9, Y1); \
	BLEND   Y12, Y9, Y1, Y1; \
	BLEND   Y12, Y13, Y5, Y5; \
	BETTER(Y10, Y2); \
	BLEND   Y12, Y10, Y2, Y2; \
	BLEND   Y12, Y13, Y6, Y6; \
	BETTER(Y11, Y3); \
	BLEND   Y12, Y11, Y3, Y3; \
	BLEND   Y12, Y13, Y7, Y7; \
	UNORD   $3, Y9, Y8, Y12; \
	VORPD   Y12, Y15, Y15; \
	UNORD   $3, Y11, Y10, Y12; \
	VORPD   Y12, Y15, Y15; \
	ADDI    Y14, Y13, Y13; \
	ADDQ    $128, SI; \
	DECQ    CX; \
	JNZ     loop; \
	MOVQ    best+16(FP), DI; \
	VMOVUPD Y0, (DI); \
	VMOVUPD Y1, 32(DI); \
	VMOVUPD Y2, 64(DI); \
	VMOVUPD Y3, 96(DI); \
	MOVQ    idx+24(FP), DI; \
	VMOVDQU Y4, (DI); \
	VMOVDQU Y5, 32(DI); \
	VMOVDQU Y6, 64(DI); \
	VMOVDQU Y7, 96(DI); \
	VMOVMSKPS Y15, AX; \
	MOVQ    AX, ret+32(FP); \
	VZEROUPPER; \
	RET

#define BC64 MOVQ AX, X0; VPBROADCASTQ X0, Y0
#define BC32 MOVQ AX, X0; VPBROADCASTD X0, Y0
#define ONES64 VPCMPEQQ Y14, Y14, Y14; VPSRLQ $63, Y14, Y14
#define ONES32 VPCMPEQD Y14, Y14, Y14; VPSRLD $31, Y14, Y14

// x < b (ordered: false with a NaN)
#define LTPD(x, b) VCMPPD $1, b, x, Y12
#define GTPD(x, b) VCMPPD $1, x, b, Y12
#define LTPS(x, b) VCMPPS $1, b, x, Y12
#define GTPS(x, b) VCMPPS $1, x, b, Y12

// func argMinLanesF64(p unsafe.Pointer, n int, best *[16]float64, idx *[16]int64) int
TEXT ·argMinLanesF64(SB), NOSPLIT, $0-40
	ARGLANES(BC64, $0x7ff0000000000000, ONES64, LTPD, VBLENDVPD, VCMPPD, VPADDQ)

// func argMaxLanesF64(p unsafe.Pointer, n int, best *[16]float64, idx *[16]int64) int
TEXT ·argMaxLanesF64(SB), NOSPLIT, $0-40
	ARGLANES(BC64, $0xfff0000000000000, ONES64, GTPD, VBLENDVPD, VCMPPD, VPADDQ)

// func argMinLanesF32(p unsafe.Pointer, n int, best *[32]float32, idx *[32]int32) int
TEXT ·argMinLanesF32(SB), NOSPLIT, $0-40
	ARGLANES(BC32, $0x7f800000, ONES32, LTPS, VBLENDVPS, VCMPPS, VPADDD)

// func argMaxLanesF32(p unsafe.Pointer, n int, best *[32]float32, idx *[32]int32) int
TEXT ·argMaxLanesF32(SB), NOSPLIT, $0-40
	ARGLANES(BC32, $0xff800000, ONES32, GTPS, VBLENDVPS, VCMPPS, VPADDD)
