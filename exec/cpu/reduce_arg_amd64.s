// AVX2 one-pass ArgMax and ArgMin of float rows (see reduce_arg_amd64.go).
// The running extreme B is broadcast to all lanes and each 128-byte
// block is only compared with it: a block with no value strictly
// better than B and no NaN (the common case once B is near the
// extreme) costs four compares, three ORs and a VPTEST, with no chain
// from one block to the next. A block that holds a better value makes
// its own extreme the new B and the first lane equal to it the new
// index (every earlier value is not better than the old B, so that
// lane is the first index of the new extreme); a block that holds a
// NaN ends the loop with the block's first index. Each covers whole
// blocks (n >= 1) and ends with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

// ARGONE runs CX >= 1 blocks from SI with B in Y0 (starting at INIT, a
// broadcast of +-Inf) and the index in DX. NOTBETTER is the compare
// predicate of "not (B >= x)" (max) or "not (B <= x)" (min), true also
// for a NaN x; EXT is VMAXPx or VMINPx, HREST folds the lanes of a
// 128-bit half, MASKS gathers the lanes equal to B into AX (element
// order) and SH is log2 of the element size.
#define ARGONE(NAME, BCAST, INIT, CMP, NOTBETTER, EXT, HREST, MASKS, SH) \
TEXT NAME(SB), NOSPLIT, $0-25; \
	MOVQ    p+0(FP), SI; \
	MOVQ    n+8(FP), CX; \
	MOVQ    SI, DI; \
	MOVQ    INIT, AX; \
	BCAST; \
	XORQ    DX, DX; \
loop: \
	CMP     NOTBETTER, (SI), Y0, Y8; \
	CMP     NOTBETTER, 32(SI), Y0, Y9; \
	CMP     NOTBETTER, 64(SI), Y0, Y10; \
	CMP     NOTBETTER, 96(SI), Y0, Y11; \
	VORPD   Y9, Y8, Y8; \
	VORPD   Y11, Y10, Y10; \
	VORPD   Y10, Y8, Y8; \
	VPTEST  Y8, Y8; \
	JNZ     better; \
next: \
	ADDQ    $128, SI; \
	DECQ    CX; \
	JNZ     loop; \
	MOVQ    DX, k+16(FP); \
	MOVB    $0, nan+24(FP); \
	VZEROUPPER; \
	RET; \
better: \
	VMOVUPD (SI), Y8; \
	VMOVUPD 32(SI), Y9; \
	VMOVUPD 64(SI), Y10; \
	VMOVUPD 96(SI), Y11; \
	CMP     $3, Y9, Y8, Y12; \
	CMP     $3, Y11, Y10, Y13; \
	VORPD   Y13, Y12, Y12; \
	VPTEST  Y12, Y12; \
	JNZ     nan; \
	EXT     Y9, Y8, Y12; \
	EXT     Y11, Y10, Y13; \
	EXT     Y13, Y12, Y12; \
	VPERM2F128 $1, Y12, Y12, Y13; \
	EXT     Y13, Y12, Y12; \
	HREST(EXT); \
	VMOVAPD Y12, Y0; \
	CMP     $0, Y0, Y8, Y8; \
	CMP     $0, Y0, Y9, Y9; \
	CMP     $0, Y0, Y10, Y10; \
	CMP     $0, Y0, Y11, Y11; \
	MASKS; \
	BSFQ    AX, AX; \
	MOVQ    SI, DX; \
	SUBQ    DI, DX; \
	SHRQ    $SH, DX; \
	ADDQ    AX, DX; \
	JMP     next; \
nan: \
	MOVQ    SI, DX; \
	SUBQ    DI, DX; \
	SHRQ    $SH, DX; \
	MOVQ    DX, k+16(FP); \
	MOVB    $1, nan+24(FP); \
	VZEROUPPER; \
	RET

#define BC64 MOVQ AX, X0; VPBROADCASTQ X0, Y0
#define BC32 MOVQ AX, X0; VPBROADCASTD X0, Y0

// The last folds of a half: float64 swaps the pair; float32 swaps the
// pairs, then the neighbours.
#define HREST64(EXT) VPERMILPD $5, Y12, Y13; EXT Y13, Y12, Y12
#define HREST32(EXT) VPERMILPS $0x4e, Y12, Y13; EXT Y13, Y12, Y12; VPERMILPS $0xb1, Y12, Y13; EXT Y13, Y12, Y12

// MASKS gathers the sign bits of Y8-Y11 (W lanes each) into AX.
#define MASKS(MOVMSK, W) \
	MOVMSK Y8, AX; \
	MOVMSK Y9, BX; \
	MOVMSK Y10, R8; \
	MOVMSK Y11, R9; \
	SHLQ   $W, BX; \
	SHLQ   $(2*W), R8; \
	SHLQ   $(3*W), R9; \
	ORQ    BX, AX; \
	ORQ    R9, R8; \
	ORQ    R8, AX

#define MASKS64 MASKS(VMOVMSKPD, 4)
#define MASKS32 MASKS(VMOVMSKPS, 8)

// Compare predicates: NGE_US (9) and NLE_US (6) hold for unordered.
#define NGE $9
#define NLE $6

// func argMaxF64(p unsafe.Pointer, n int) (k int, nan bool), and so
// argMinF64, argMaxF32 and argMinF32.
ARGONE(·argMaxF64, BC64, $0xfff0000000000000, VCMPPD, NGE, VMAXPD, HREST64, MASKS64, 3)
ARGONE(·argMinF64, BC64, $0x7ff0000000000000, VCMPPD, NLE, VMINPD, HREST64, MASKS64, 3)
ARGONE(·argMaxF32, BC32, $0xff800000, VCMPPS, NGE, VMAXPS, HREST32, MASKS32, 2)
ARGONE(·argMinF32, BC32, $0x7f800000, VCMPPS, NLE, VMINPS, HREST32, MASKS32, 2)
