// AVX2 byte loops of bool Any and All (see reduce_bool_amd64.go): the
// nonzero-byte scan of rows and the column folds. Each covers whole
// blocks only (the Go wrappers do the tails) and ends with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

// func anyNonzeroAVX(p *byte, n int) bool
//
// Reports whether a byte of p[:n] is nonzero, n a positive multiple of
// 128.
TEXT ·anyNonzeroAVX(SB), NOSPLIT, $0-17
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX

anyloop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VPOR    64(SI), Y0, Y0
	VPOR    96(SI), Y1, Y1
	VPOR    Y1, Y0, Y0
	VPTEST  Y0, Y0
	JNZ     anyfound
	ADDQ    $128, SI
	SUBQ    $128, CX
	JNZ     anyloop
	MOVB    $0, ret+16(FP)
	VZEROUPPER
	RET

anyfound:
	MOVB $1, ret+16(FP)
	VZEROUPPER
	RET

// func orColsAVX(a, x *byte, n int)
//
// a[k] |= x[k] for k < n, n a positive multiple of 32.
TEXT ·orColsAVX(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX

orloop:
	VMOVDQU (SI)(AX*1), Y0
	VPOR    (DI)(AX*1), Y0, Y0
	VMOVDQU Y0, (DI)(AX*1)
	ADDQ    $32, AX
	CMPQ    AX, CX
	JB      orloop
	VZEROUPPER
	RET

// func andNonzeroColsAVX(a, x *byte, n int)
//
// a[k] = 0 where x[k] == 0, for k < n, n a positive multiple of 32.
TEXT ·andNonzeroColsAVX(SB), NOSPLIT, $0-24
	MOVQ  a+0(FP), DI
	MOVQ  x+8(FP), SI
	MOVQ  n+16(FP), CX
	XORQ  AX, AX
	VPXOR Y15, Y15, Y15

andloop:
	VPCMPEQB (SI)(AX*1), Y15, Y0
	VPANDN   (DI)(AX*1), Y0, Y0
	VMOVDQU  Y0, (DI)(AX*1)
	ADDQ     $32, AX
	CMPQ     AX, CX
	JB       andloop
	VZEROUPPER
	RET
