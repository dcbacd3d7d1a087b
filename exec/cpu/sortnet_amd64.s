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

// func netLoad32x16(block, src unsafe.Pointer, n int, idx *uint32, float int, xor uint32) uint16
// AVX-512: element j of 16 rows (at src plus the byte offsets idx[l])
// gathered as block vector j, mapped to keys: floats by b ^ ((b >> 31
// arithmetic) | sign), then every key xored with xor. Returns the lanes
// that met a float zero or NaN (|b|-1 >= +Inf's bits, unsigned).
TEXT ·netLoad32x16(SB), NOSPLIT, $0-50
	MOVQ         block+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         idx+24(FP), R8
	MOVQ         float+32(FP), R9
	MOVL         xor+40(FP), AX
	VMOVDQU32    (R8), Z1
	VPBROADCASTD AX, Z2
	MOVL         $0x80000000, BX
	VPBROADCASTD BX, Z3
	MOVL         $0x7fffffff, BX
	VPBROADCASTD BX, Z4
	MOVL         $0x7f800000, BX
	VPBROADCASTD BX, Z5
	VPTERNLOGD   $0xff, Z6, Z6, Z6
	KXORW        K2, K2, K2
	TESTQ        CX, CX
	JZ           ldone

lloop:
	KXNORW     K1, K1, K1
	VPXORD     Z0, Z0, Z0
	VPGATHERDD (SI)(Z1*1), K1, Z0
	TESTQ      R9, R9
	JZ         lint
	VPSRAD     $31, Z0, Z7
	VPORD      Z3, Z7, Z7
	VPANDD     Z4, Z0, Z8
	VPADDD     Z6, Z8, Z8
	VPCMPUD    $5, Z5, Z8, K3
	KORW       K3, K2, K2
	VPXORD     Z7, Z0, Z0

lint:
	VPXORD    Z2, Z0, Z0
	VMOVDQU32 Z0, (DI)
	ADDQ      $64, DI
	ADDQ      $4, SI
	DECQ      CX
	JNZ       lloop

ldone:
	KMOVW K2, AX
	MOVW  AX, ret+48(FP)
	VZEROUPPER
	RET

// func netStore32x16(dst, block unsafe.Pointer, k int, idx *uint32, float int, xor uint32)
// AVX-512: block vectors 0..k-1 (keys) xored with xor, floats mapped
// back by b ^ (((b >> 31) - 1) | sign), scattered as element j of 16
// rows at dst plus the byte offsets idx[l].
TEXT ·netStore32x16(SB), NOSPLIT, $0-44
	MOVQ         dst+0(FP), DI
	MOVQ         block+8(FP), SI
	MOVQ         k+16(FP), CX
	MOVQ         idx+24(FP), R8
	MOVQ         float+32(FP), R9
	MOVL         xor+40(FP), AX
	VMOVDQU32    (R8), Z1
	VPBROADCASTD AX, Z2
	MOVL         $0x80000000, BX
	VPBROADCASTD BX, Z3
	VPTERNLOGD   $0xff, Z6, Z6, Z6
	TESTQ        CX, CX
	JZ           sdone

sloop:
	VMOVDQU32 (SI), Z0
	VPXORD    Z2, Z0, Z0
	TESTQ     R9, R9
	JZ        sint
	VPSRLD    $31, Z0, Z7
	VPADDD    Z6, Z7, Z7
	VPORD     Z3, Z7, Z7
	VPXORD    Z7, Z0, Z0

sint:
	KXNORW      K1, K1, K1
	VPSCATTERDD Z0, K1, (DI)(Z1*1)
	ADDQ        $64, SI
	ADDQ        $4, DI
	DECQ        CX
	JNZ         sloop

sdone:
	VZEROUPPER
	RET

// func netSort16x16(block unsafe.Pointer, groups int)
// AVX-512: Batcher's network of 16 elements (63 comparators, the same
// as batcherPairs(16)) on each of groups consecutive groups of 16 block
// vectors (1 KiB each), in registers: a comparator of elements a and b
// puts the minimum in the spare register, which becomes a's, and the
// maximum in b's; a's old register is the next spare.
TEXT ·netSort16x16(SB), NOSPLIT, $0-16
	MOVQ  block+0(FP), DI
	MOVQ  groups+8(FP), CX
	TESTQ CX, CX
	JZ    gdone

gloop:
	VMOVDQU32 0(DI), Z0
	VMOVDQU32 64(DI), Z1
	VMOVDQU32 128(DI), Z2
	VMOVDQU32 192(DI), Z3
	VMOVDQU32 256(DI), Z4
	VMOVDQU32 320(DI), Z5
	VMOVDQU32 384(DI), Z6
	VMOVDQU32 448(DI), Z7
	VMOVDQU32 512(DI), Z8
	VMOVDQU32 576(DI), Z9
	VMOVDQU32 640(DI), Z10
	VMOVDQU32 704(DI), Z11
	VMOVDQU32 768(DI), Z12
	VMOVDQU32 832(DI), Z13
	VMOVDQU32 896(DI), Z14
	VMOVDQU32 960(DI), Z15
	VPMINUD Z1, Z0, Z16
	VPMAXUD Z1, Z0, Z1
	VPMINUD Z3, Z2, Z0
	VPMAXUD Z3, Z2, Z3
	VPMINUD Z5, Z4, Z2
	VPMAXUD Z5, Z4, Z5
	VPMINUD Z7, Z6, Z4
	VPMAXUD Z7, Z6, Z7
	VPMINUD Z9, Z8, Z6
	VPMAXUD Z9, Z8, Z9
	VPMINUD Z11, Z10, Z8
	VPMAXUD Z11, Z10, Z11
	VPMINUD Z13, Z12, Z10
	VPMAXUD Z13, Z12, Z13
	VPMINUD Z15, Z14, Z12
	VPMAXUD Z15, Z14, Z15
	VPMINUD Z0, Z16, Z14
	VPMAXUD Z0, Z16, Z0
	VPMINUD Z3, Z1, Z16
	VPMAXUD Z3, Z1, Z3
	VPMINUD Z4, Z2, Z1
	VPMAXUD Z4, Z2, Z4
	VPMINUD Z7, Z5, Z2
	VPMAXUD Z7, Z5, Z7
	VPMINUD Z8, Z6, Z5
	VPMAXUD Z8, Z6, Z8
	VPMINUD Z11, Z9, Z6
	VPMAXUD Z11, Z9, Z11
	VPMINUD Z12, Z10, Z9
	VPMAXUD Z12, Z10, Z12
	VPMINUD Z15, Z13, Z10
	VPMAXUD Z15, Z13, Z15
	VPMINUD Z0, Z16, Z13
	VPMAXUD Z0, Z16, Z0
	VPMINUD Z4, Z2, Z16
	VPMAXUD Z4, Z2, Z4
	VPMINUD Z8, Z6, Z2
	VPMAXUD Z8, Z6, Z8
	VPMINUD Z12, Z10, Z6
	VPMAXUD Z12, Z10, Z12
	VPMINUD Z1, Z14, Z10
	VPMAXUD Z1, Z14, Z1
	VPMINUD Z16, Z13, Z14
	VPMAXUD Z16, Z13, Z16
	VPMINUD Z4, Z0, Z13
	VPMAXUD Z4, Z0, Z4
	VPMINUD Z7, Z3, Z0
	VPMAXUD Z7, Z3, Z7
	VPMINUD Z9, Z5, Z3
	VPMAXUD Z9, Z5, Z9
	VPMINUD Z6, Z2, Z5
	VPMAXUD Z6, Z2, Z6
	VPMINUD Z12, Z8, Z2
	VPMAXUD Z12, Z8, Z12
	VPMINUD Z15, Z11, Z8
	VPMAXUD Z15, Z11, Z15
	VPMINUD Z1, Z13, Z11
	VPMAXUD Z1, Z13, Z1
	VPMINUD Z16, Z0, Z13
	VPMAXUD Z16, Z0, Z16
	VPMINUD Z9, Z2, Z0
	VPMAXUD Z9, Z2, Z9
	VPMINUD Z6, Z8, Z2
	VPMAXUD Z6, Z8, Z6
	VPMINUD Z11, Z14, Z8
	VPMAXUD Z11, Z14, Z11
	VPMINUD Z1, Z13, Z14
	VPMAXUD Z1, Z13, Z1
	VPMINUD Z4, Z16, Z13
	VPMAXUD Z4, Z16, Z4
	VPMINUD Z0, Z5, Z16
	VPMAXUD Z0, Z5, Z0
	VPMINUD Z9, Z2, Z5
	VPMAXUD Z9, Z2, Z9
	VPMINUD Z12, Z6, Z2
	VPMAXUD Z12, Z6, Z12
	VPMINUD Z3, Z10, Z6
	VPMAXUD Z3, Z10, Z3
	VPMINUD Z16, Z8, Z10
	VPMAXUD Z16, Z8, Z16
	VPMINUD Z0, Z11, Z8
	VPMAXUD Z0, Z11, Z0
	VPMINUD Z5, Z14, Z11
	VPMAXUD Z5, Z14, Z5
	VPMINUD Z9, Z1, Z14
	VPMAXUD Z9, Z1, Z9
	VPMINUD Z2, Z13, Z1
	VPMAXUD Z2, Z13, Z2
	VPMINUD Z12, Z4, Z13
	VPMAXUD Z12, Z4, Z12
	VPMINUD Z15, Z7, Z4
	VPMAXUD Z15, Z7, Z15
	VPMINUD Z3, Z14, Z7
	VPMAXUD Z3, Z14, Z3
	VPMINUD Z16, Z1, Z14
	VPMAXUD Z16, Z1, Z16
	VPMINUD Z0, Z13, Z1
	VPMAXUD Z0, Z13, Z0
	VPMINUD Z5, Z4, Z13
	VPMAXUD Z5, Z4, Z5
	VPMINUD Z7, Z8, Z4
	VPMAXUD Z7, Z8, Z7
	VPMINUD Z14, Z11, Z8
	VPMAXUD Z14, Z11, Z14
	VPMINUD Z3, Z1, Z11
	VPMAXUD Z3, Z1, Z3
	VPMINUD Z16, Z13, Z1
	VPMAXUD Z16, Z13, Z16
	VPMINUD Z9, Z0, Z13
	VPMAXUD Z9, Z0, Z9
	VPMINUD Z2, Z5, Z0
	VPMAXUD Z2, Z5, Z2
	VPMINUD Z4, Z10, Z5
	VPMAXUD Z4, Z10, Z4
	VPMINUD Z7, Z8, Z10
	VPMAXUD Z7, Z8, Z7
	VPMINUD Z11, Z14, Z8
	VPMAXUD Z11, Z14, Z11
	VPMINUD Z3, Z1, Z14
	VPMAXUD Z3, Z1, Z3
	VPMINUD Z13, Z16, Z1
	VPMAXUD Z13, Z16, Z13
	VPMINUD Z9, Z0, Z16
	VPMAXUD Z9, Z0, Z9
	VPMINUD Z12, Z2, Z0
	VPMAXUD Z12, Z2, Z12
	VMOVDQU32 Z6, 0(DI)
	VMOVDQU32 Z5, 64(DI)
	VMOVDQU32 Z4, 128(DI)
	VMOVDQU32 Z10, 192(DI)
	VMOVDQU32 Z7, 256(DI)
	VMOVDQU32 Z8, 320(DI)
	VMOVDQU32 Z11, 384(DI)
	VMOVDQU32 Z14, 448(DI)
	VMOVDQU32 Z3, 512(DI)
	VMOVDQU32 Z1, 576(DI)
	VMOVDQU32 Z13, 640(DI)
	VMOVDQU32 Z16, 704(DI)
	VMOVDQU32 Z9, 768(DI)
	VMOVDQU32 Z0, 832(DI)
	VMOVDQU32 Z12, 896(DI)
	VMOVDQU32 Z15, 960(DI)
	ADDQ $1024, DI
	DECQ CX
	JNZ  gloop

gdone:
	VZEROUPPER
	RET
