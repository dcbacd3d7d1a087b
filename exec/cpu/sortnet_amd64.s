// Comparator networks over a block of rows stored lane-wise (element j
// of every row side by side), for sortnet.go: each comparator loads two
// vectors, stores their lane-wise unsigned minimum at the first offset
// and maximum at the second.

//go:build amd64 && !purego

#include "textflag.h"

// func netCmp32x8(block unsafe.Pointer, pairs *uint32, n int)
// AVX2: 8 lanes of uint32; pairs holds n pairs of byte offsets.
TEXT ·netCmp32x8(SB), NOSPLIT, $0-24
	MOVQ block+0(FP), DI
	MOVQ pairs+8(FP), SI
	MOVQ n+16(FP), CX
	TESTQ CX, CX
	JZ   done8

loop8:
	MOVL    0(SI), AX
	MOVL    4(SI), BX
	VMOVDQU (DI)(AX*1), Y0
	VMOVDQU (DI)(BX*1), Y1
	VPMINUD Y1, Y0, Y2
	VPMAXUD Y1, Y0, Y3
	VMOVDQU Y2, (DI)(AX*1)
	VMOVDQU Y3, (DI)(BX*1)
	ADDQ    $8, SI
	DECQ    CX
	JNZ     loop8

done8:
	VZEROUPPER
	RET

// func netCmp32x16(block unsafe.Pointer, pairs *uint32, n int)
// AVX-512: 16 lanes of uint32.
TEXT ·netCmp32x16(SB), NOSPLIT, $0-24
	MOVQ block+0(FP), DI
	MOVQ pairs+8(FP), SI
	MOVQ n+16(FP), CX
	TESTQ CX, CX
	JZ   done16

loop16:
	MOVL      0(SI), AX
	MOVL      4(SI), BX
	VMOVDQU32 (DI)(AX*1), Z0
	VMOVDQU32 (DI)(BX*1), Z1
	VPMINUD   Z1, Z0, Z2
	VPMAXUD   Z1, Z0, Z3
	VMOVDQU32 Z2, (DI)(AX*1)
	VMOVDQU32 Z3, (DI)(BX*1)
	ADDQ      $8, SI
	DECQ      CX
	JNZ       loop16

done16:
	VZEROUPPER
	RET
