// AVX2 reduction loops for amd64 (see reduce_amd64.go): the float32 to
// float64 widening add of column sums and the first-equal scans of
// ArgMax and ArgMin. Each covers whole vectors only (the Go wrappers do
// the tails) and ends with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"
#include "vec_amd64.h"

// func addWidenF32(a *float64, x *float32, n int)
//
// a[k] += float64(x[k]) for k < n, n a multiple of 8.
TEXT ·addWidenF32(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ CX, BX
	ANDQ $-16, BX
	XORQ AX, AX

widen16:
	CMPQ      AX, BX
	JAE       widen8
	VCVTPS2PD (SI)(AX*4), Y0
	VCVTPS2PD 16(SI)(AX*4), Y1
	VCVTPS2PD 32(SI)(AX*4), Y2
	VCVTPS2PD 48(SI)(AX*4), Y3
	VADDPD    (DI)(AX*8), Y0, Y0
	VADDPD    32(DI)(AX*8), Y1, Y1
	VADDPD    64(DI)(AX*8), Y2, Y2
	VADDPD    96(DI)(AX*8), Y3, Y3
	VMOVUPD   Y0, (DI)(AX*8)
	VMOVUPD   Y1, 32(DI)(AX*8)
	VMOVUPD   Y2, 64(DI)(AX*8)
	VMOVUPD   Y3, 96(DI)(AX*8)
	ADDQ      $16, AX
	JMP       widen16

widen8:
	CMPQ      AX, CX
	JAE       widendone
	VCVTPS2PD (SI)(AX*4), Y0
	VCVTPS2PD 16(SI)(AX*4), Y1
	VADDPD    (DI)(AX*8), Y0, Y0
	VADDPD    32(DI)(AX*8), Y1, Y1
	VMOVUPD   Y0, (DI)(AX*8)
	VMOVUPD   Y1, 32(DI)(AX*8)
	ADDQ      $8, AX

widendone:
	VZEROUPPER
	RET

// func mulWidenF32(a *float64, x *float32, n int)
//
// a[k] *= float64(x[k]) for k < n (a multiple of 8): the float32 column
// product. The state is the first operand of each product, as in the
// portable loop.
TEXT ·mulWidenF32(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX

mwiden8:
	CMPQ      AX, CX
	JAE       mwidendone
	VCVTPS2PD (SI)(AX*4), Y0
	VCVTPS2PD 16(SI)(AX*4), Y1
	VMOVUPD   (DI)(AX*8), Y2
	VMOVUPD   32(DI)(AX*8), Y3
	VMULPD    Y0, Y2, Y2
	VMULPD    Y1, Y3, Y3
	VMOVUPD   Y2, (DI)(AX*8)
	VMOVUPD   Y3, 32(DI)(AX*8)
	ADDQ      $8, AX
	JMP       mwiden8

mwidendone:
	VZEROUPPER
	RET

// Column ArgMax and ArgMin folds: func(best *T, idx *int64, x *T, n int,
// row int64), n a multiple of 8 (float32) or 4 (float64). A lane takes
// x and row where x > best (x < best) or x is NaN and best is not.
// CMPP is the lane test's predicate: GT_OQ 0x1e or LT_OQ 0x11.

#define ARGFOLD(NAME, UNIT, BODY) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ         best+0(FP), DI; \
	MOVQ         idx+8(FP), DX; \
	MOVQ         x+16(FP), SI; \
	MOVQ         n+24(FP), CX; \
	VPBROADCASTQ row+32(FP), Y15; \
	XORQ         AX, AX; \
	EACHBY(UNIT, BODY); \
	VZEROUPPER; \
	RET

// BEST folds the vector of x at element AX (SC bytes each) into best,
// leaving the lanes that take x all ones in Y2: MOV, CMP, AND, OR and
// BLEND are the PS or PD forms.
#define BEST(CMPP, SC, MOV, CMP, AND, OR, BLEND) \
	MOV   (SI)(AX*SC), Y0; \
	MOV   (DI)(AX*SC), Y1; \
	CMP   $CMPP, Y1, Y0, Y2; \
	CMP   $3, Y0, Y0, Y3; \
	CMP   $7, Y1, Y1, Y4; \
	AND   Y4, Y3, Y3; \
	OR    Y3, Y2, Y2; \
	BLEND Y2, Y0, Y1, Y1; \
	MOV   Y1, (DI)(AX*SC)

// ARGFOLD32 widens the float32 lane mask to the two vectors of int64
// rows; ARGFOLD64's mask already is one.
#define ARGFOLD32(CMPP) \
	BEST(CMPP, 4, VMOVUPS, VCMPPS, VANDPS, VORPS, VBLENDVPS); \
	VPMOVSXDQ    X2, Y5; \
	VEXTRACTI128 $1, Y2, X6; \
	VPMOVSXDQ    X6, Y6; \
	VMOVDQU      (DX)(AX*8), Y7; \
	VMOVDQU      32(DX)(AX*8), Y8; \
	VPBLENDVB    Y5, Y15, Y7, Y7; \
	VPBLENDVB    Y6, Y15, Y8, Y8; \
	VMOVDQU      Y7, (DX)(AX*8); \
	VMOVDQU      Y8, 32(DX)(AX*8)

#define ARGFOLD64(CMPP) \
	BEST(CMPP, 8, VMOVUPD, VCMPPD, VANDPD, VORPD, VBLENDVPD); \
	VMOVDQU      (DX)(AX*8), Y7; \
	VPBLENDVB    Y2, Y15, Y7, Y7; \
	VMOVDQU      Y7, (DX)(AX*8)

ARGFOLD(·argMaxFoldF32, 8, ARGFOLD32(0x1e))
ARGFOLD(·argMinFoldF32, 8, ARGFOLD32(0x11))
ARGFOLD(·argMaxFoldF64, 4, ARGFOLD64(0x1e))
ARGFOLD(·argMinFoldF64, 4, ARGFOLD64(0x11))
// func eqIndexF32(p *float32, n int, v float32) int
// func eqIndexF64(p *float64, n int, v float64) int
//
// Return the first k < n (a multiple of the UNIT lanes) with p[k] == v,
// or n. BCAST, CMP and MSK are the PS or PD forms, SC the element size.
#define EQINDEX(NAME, UNIT, SC, BCAST, CMP, MSK) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ  p+0(FP), SI; \
	MOVQ  n+8(FP), CX; \
	BCAST v+16(FP), Y1; \
	XORQ  AX, AX; \
loop: \
	CMPQ  AX, CX; \
	JAE   none; \
	CMP   $0, (SI)(AX*SC), Y1, Y0; \
	MSK   Y0, DX; \
	TESTL DX, DX; \
	JNZ   found; \
	ADDQ  $UNIT, AX; \
	JMP   loop; \
found: \
	BSFL DX, DX; \
	ADDQ DX, AX; \
	MOVQ AX, ret+24(FP); \
	VZEROUPPER; \
	RET; \
none: \
	MOVQ CX, ret+24(FP); \
	VZEROUPPER; \
	RET

EQINDEX(·eqIndexF32, 8, 4, VBROADCASTSS, VCMPPS, VMOVMSKPS)
EQINDEX(·eqIndexF64, 4, 8, VBROADCASTSD, VCMPPD, VMOVMSKPD)
