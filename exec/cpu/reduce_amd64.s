// AVX2 reduction loops for amd64 (see reduce_amd64.go): the float32 to
// float64 widening add of column sums and the first-equal scans of
// ArgMax and ArgMin. Each covers whole vectors only (the Go wrappers do
// the tails) and ends with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

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

#define ARGFOLD32(NAME, CMPP) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ         best+0(FP), DI; \
	MOVQ         idx+8(FP), DX; \
	MOVQ         x+16(FP), SI; \
	MOVQ         n+24(FP), CX; \
	VPBROADCASTQ row+32(FP), Y15; \
	XORQ         AX, AX; \
loop: \
	CMPQ         AX, CX; \
	JAE          done; \
	VMOVUPS      (SI)(AX*4), Y0; \
	VMOVUPS      (DI)(AX*4), Y1; \
	VCMPPS       $CMPP, Y1, Y0, Y2; \
	VCMPPS       $3, Y0, Y0, Y3; \
	VCMPPS       $7, Y1, Y1, Y4; \
	VANDPS       Y4, Y3, Y3; \
	VORPS        Y3, Y2, Y2; \
	VBLENDVPS    Y2, Y0, Y1, Y1; \
	VMOVUPS      Y1, (DI)(AX*4); \
	VPMOVSXDQ    X2, Y5; \
	VEXTRACTI128 $1, Y2, X6; \
	VPMOVSXDQ    X6, Y6; \
	VMOVDQU      (DX)(AX*8), Y7; \
	VMOVDQU      32(DX)(AX*8), Y8; \
	VPBLENDVB    Y5, Y15, Y7, Y7; \
	VPBLENDVB    Y6, Y15, Y8, Y8; \
	VMOVDQU      Y7, (DX)(AX*8); \
	VMOVDQU      Y8, 32(DX)(AX*8); \
	ADDQ         $8, AX; \
	JMP          loop; \
done: \
	VZEROUPPER; \
	RET

#define ARGFOLD64(NAME, CMPP) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ         best+0(FP), DI; \
	MOVQ         idx+8(FP), DX; \
	MOVQ         x+16(FP), SI; \
	MOVQ         n+24(FP), CX; \
	VPBROADCASTQ row+32(FP), Y15; \
	XORQ         AX, AX; \
loop: \
	CMPQ         AX, CX; \
	JAE          done; \
	VMOVUPD      (SI)(AX*8), Y0; \
	VMOVUPD      (DI)(AX*8), Y1; \
	VCMPPD       $CMPP, Y1, Y0, Y2; \
	VCMPPD       $3, Y0, Y0, Y3; \
	VCMPPD       $7, Y1, Y1, Y4; \
	VANDPD       Y4, Y3, Y3; \
	VORPD        Y3, Y2, Y2; \
	VBLENDVPD    Y2, Y0, Y1, Y1; \
	VMOVUPD      Y1, (DI)(AX*8); \
	VMOVDQU      (DX)(AX*8), Y7; \
	VPBLENDVB    Y2, Y15, Y7, Y7; \
	VMOVDQU      Y7, (DX)(AX*8); \
	ADDQ         $4, AX; \
	JMP          loop; \
done: \
	VZEROUPPER; \
	RET

ARGFOLD32(·argMaxFoldF32, 0x1e)
ARGFOLD32(·argMinFoldF32, 0x11)
ARGFOLD64(·argMaxFoldF64, 0x1e)
ARGFOLD64(·argMinFoldF64, 0x11)

// func eqIndexF32(p *float32, n int, v float32) int
//
// Returns the first k < n (a multiple of 8) with p[k] == v, or n.
TEXT ·eqIndexF32(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS v+16(FP), Y1
	XORQ         AX, AX

eq32loop:
	CMPQ      AX, CX
	JAE       eq32none
	VCMPPS    $0, (SI)(AX*4), Y1, Y0
	VMOVMSKPS Y0, DX
	TESTL     DX, DX
	JNZ       eq32found
	ADDQ      $8, AX
	JMP       eq32loop

eq32found:
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

eq32none:
	MOVQ CX, ret+24(FP)
	VZEROUPPER
	RET

// func eqIndexF64(p *float64, n int, v float64) int
//
// Returns the first k < n (a multiple of 4) with p[k] == v, or n.
TEXT ·eqIndexF64(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD v+16(FP), Y1
	XORQ         AX, AX

eq64loop:
	CMPQ      AX, CX
	JAE       eq64none
	VCMPPD    $0, (SI)(AX*8), Y1, Y0
	VMOVMSKPD Y0, DX
	TESTL     DX, DX
	JNZ       eq64found
	ADDQ      $4, AX
	JMP       eq64loop

eq64found:
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

eq64none:
	MOVQ CX, ret+24(FP)
	VZEROUPPER
	RET
