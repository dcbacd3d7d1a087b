// Comparator networks over a block of rows stored lane-wise (element j
// of every row side by side), for sortnet.go: each comparator loads two
// vectors, stores their lane-wise unsigned minimum at the first offset
// and maximum at the second; the network of 16 elements in registers;
// and, with AVX-512, the block's rows gathered in as keys and scattered
// out as values, or moved as 16 by 16 tiles transposed in registers.

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

// TRANSPOSE16 transposes the 16 by 16 dwords of Z0-Z15 (row r in Zr)
// through Z16-Z31: dwords, then quadwords, of register pairs unpacked
// within 128-bit lanes, then 128-bit lanes shuffled between registers
// 4 and 8 apart. Column c ends in Z0, Z4, Z2, Z6, Z8, Z12, Z10, Z14, Z1,
// Z5, Z3, Z7, Z9, Z13, Z11, Z15 for c = 0..15.
#define TRANSPOSE16 \
	VPUNPCKLDQ Z1, Z0, Z16; \
	VPUNPCKHDQ Z1, Z0, Z17; \
	VPUNPCKLDQ Z3, Z2, Z18; \
	VPUNPCKHDQ Z3, Z2, Z19; \
	VPUNPCKLDQ Z5, Z4, Z20; \
	VPUNPCKHDQ Z5, Z4, Z21; \
	VPUNPCKLDQ Z7, Z6, Z22; \
	VPUNPCKHDQ Z7, Z6, Z23; \
	VPUNPCKLDQ Z9, Z8, Z24; \
	VPUNPCKHDQ Z9, Z8, Z25; \
	VPUNPCKLDQ Z11, Z10, Z26; \
	VPUNPCKHDQ Z11, Z10, Z27; \
	VPUNPCKLDQ Z13, Z12, Z28; \
	VPUNPCKHDQ Z13, Z12, Z29; \
	VPUNPCKLDQ Z15, Z14, Z30; \
	VPUNPCKHDQ Z15, Z14, Z31; \
	VPUNPCKLQDQ Z18, Z16, Z0; \
	VPUNPCKHQDQ Z18, Z16, Z1; \
	VPUNPCKLQDQ Z19, Z17, Z2; \
	VPUNPCKHQDQ Z19, Z17, Z3; \
	VPUNPCKLQDQ Z22, Z20, Z4; \
	VPUNPCKHQDQ Z22, Z20, Z5; \
	VPUNPCKLQDQ Z23, Z21, Z6; \
	VPUNPCKHQDQ Z23, Z21, Z7; \
	VPUNPCKLQDQ Z26, Z24, Z8; \
	VPUNPCKHQDQ Z26, Z24, Z9; \
	VPUNPCKLQDQ Z27, Z25, Z10; \
	VPUNPCKHQDQ Z27, Z25, Z11; \
	VPUNPCKLQDQ Z30, Z28, Z12; \
	VPUNPCKHQDQ Z30, Z28, Z13; \
	VPUNPCKLQDQ Z31, Z29, Z14; \
	VPUNPCKHQDQ Z31, Z29, Z15; \
	VSHUFI32X4 $0x88, Z4, Z0, Z16; \
	VSHUFI32X4 $0xdd, Z4, Z0, Z17; \
	VSHUFI32X4 $0x88, Z6, Z2, Z18; \
	VSHUFI32X4 $0xdd, Z6, Z2, Z19; \
	VSHUFI32X4 $0x88, Z5, Z1, Z20; \
	VSHUFI32X4 $0xdd, Z5, Z1, Z21; \
	VSHUFI32X4 $0x88, Z7, Z3, Z22; \
	VSHUFI32X4 $0xdd, Z7, Z3, Z23; \
	VSHUFI32X4 $0x88, Z12, Z8, Z24; \
	VSHUFI32X4 $0xdd, Z12, Z8, Z25; \
	VSHUFI32X4 $0x88, Z14, Z10, Z26; \
	VSHUFI32X4 $0xdd, Z14, Z10, Z27; \
	VSHUFI32X4 $0x88, Z13, Z9, Z28; \
	VSHUFI32X4 $0xdd, Z13, Z9, Z29; \
	VSHUFI32X4 $0x88, Z15, Z11, Z30; \
	VSHUFI32X4 $0xdd, Z15, Z11, Z31; \
	VSHUFI32X4 $0x88, Z24, Z16, Z0; \
	VSHUFI32X4 $0xdd, Z24, Z16, Z1; \
	VSHUFI32X4 $0x88, Z26, Z18, Z2; \
	VSHUFI32X4 $0xdd, Z26, Z18, Z3; \
	VSHUFI32X4 $0x88, Z28, Z20, Z4; \
	VSHUFI32X4 $0xdd, Z28, Z20, Z5; \
	VSHUFI32X4 $0x88, Z30, Z22, Z6; \
	VSHUFI32X4 $0xdd, Z30, Z22, Z7; \
	VSHUFI32X4 $0x88, Z25, Z17, Z8; \
	VSHUFI32X4 $0xdd, Z25, Z17, Z9; \
	VSHUFI32X4 $0x88, Z27, Z19, Z10; \
	VSHUFI32X4 $0xdd, Z27, Z19, Z11; \
	VSHUFI32X4 $0x88, Z29, Z21, Z12; \
	VSHUFI32X4 $0xdd, Z29, Z21, Z13; \
	VSHUFI32X4 $0x88, Z31, Z23, Z14; \
	VSHUFI32X4 $0xdd, Z31, Z23, Z15

// NETCONSTS broadcasts the key constants: Z20 the xor of AX, Z16 the
// sign bit, Z17 the magnitude mask, Z18 +Inf's bits, Z19 all ones.
#define NETCONSTS \
	VPBROADCASTD AX, Z20; \
	MOVL $0x80000000, BX; \
	VPBROADCASTD BX, Z16; \
	MOVL $0x7fffffff, BX; \
	VPBROADCASTD BX, Z17; \
	MOVL $0x7f800000, BX; \
	VPBROADCASTD BX, Z18; \
	VPTERNLOGD $0xff, Z19, Z19, Z19

// KEYI maps integer elements to keys: xored with Z20.
#define KEYI(z) \
	VPXORD Z20, z, z

// KEYF maps float elements (row bit of the block) to keys, b ^ ((b >>
// 31 arithmetic) | sign) ^ Z20, setting bit in R10 when the row holds
// a zero or NaN (|b|-1 >= +Inf's bits, unsigned); skip is a label.
#define KEYF(z, bit, skip) \
	VPSRAD $31, z, Z21; \
	VPORD Z16, Z21, Z21; \
	VPANDD Z17, z, Z22; \
	VPADDD Z19, Z22, Z22; \
	VPCMPUD $5, Z18, Z22, K3; \
	KORTESTW K3, K3; \
	JZ skip; \
	BTSL bit, R10; \
	skip: VPXORD Z21, z, z; \
	VPXORD Z20, z, z

// VALI maps integer keys back to elements: xored with Z20.
#define VALI(z) \
	VPXORD Z20, z, z

// VALF maps float keys back to bits: b = key ^ Z20, then b ^ (((b >> 31)
// - 1) | sign).
#define VALF(z) \
	VPXORD Z20, z, z; \
	VPSRLD $31, z, Z21; \
	VPADDD Z19, Z21, Z21; \
	VPORD Z16, Z21, Z21; \
	VPXORD Z21, z, z

// LOADROWS loads row r of a tile (SI plus r*R8) into Zr.
#define LOADROWS \
	MOVQ SI, R11; \
	VMOVDQU32 (R11), Z0; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z1; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z2; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z3; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z4; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z5; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z6; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z7; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z8; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z9; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z10; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z11; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z12; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z13; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z14; \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), Z15

// STORECOLS stores column c of a transposed tile as block vector c (DI).
#define STORECOLS \
	VMOVDQU32 Z0, 0(DI); \
	VMOVDQU32 Z4, 64(DI); \
	VMOVDQU32 Z2, 128(DI); \
	VMOVDQU32 Z6, 192(DI); \
	VMOVDQU32 Z8, 256(DI); \
	VMOVDQU32 Z12, 320(DI); \
	VMOVDQU32 Z10, 384(DI); \
	VMOVDQU32 Z14, 448(DI); \
	VMOVDQU32 Z1, 512(DI); \
	VMOVDQU32 Z5, 576(DI); \
	VMOVDQU32 Z3, 640(DI); \
	VMOVDQU32 Z7, 704(DI); \
	VMOVDQU32 Z9, 768(DI); \
	VMOVDQU32 Z13, 832(DI); \
	VMOVDQU32 Z11, 896(DI); \
	VMOVDQU32 Z15, 960(DI)

// LOADCOLS loads block vector c (SI) into Zc.
#define LOADCOLS \
	VMOVDQU32 0(SI), Z0; \
	VMOVDQU32 64(SI), Z1; \
	VMOVDQU32 128(SI), Z2; \
	VMOVDQU32 192(SI), Z3; \
	VMOVDQU32 256(SI), Z4; \
	VMOVDQU32 320(SI), Z5; \
	VMOVDQU32 384(SI), Z6; \
	VMOVDQU32 448(SI), Z7; \
	VMOVDQU32 512(SI), Z8; \
	VMOVDQU32 576(SI), Z9; \
	VMOVDQU32 640(SI), Z10; \
	VMOVDQU32 704(SI), Z11; \
	VMOVDQU32 768(SI), Z12; \
	VMOVDQU32 832(SI), Z13; \
	VMOVDQU32 896(SI), Z14; \
	VMOVDQU32 960(SI), Z15

// STOREROWSI and STOREROWSF map a transposed tile back to elements
// and store row r at DI plus r*R8.
#define STOREROWSI \
	MOVQ DI, R11; \
	VALI(Z0); \
	VMOVDQU32 Z0, (R11); \
	ADDQ R8, R11; \
	VALI(Z4); \
	VMOVDQU32 Z4, (R11); \
	ADDQ R8, R11; \
	VALI(Z2); \
	VMOVDQU32 Z2, (R11); \
	ADDQ R8, R11; \
	VALI(Z6); \
	VMOVDQU32 Z6, (R11); \
	ADDQ R8, R11; \
	VALI(Z8); \
	VMOVDQU32 Z8, (R11); \
	ADDQ R8, R11; \
	VALI(Z12); \
	VMOVDQU32 Z12, (R11); \
	ADDQ R8, R11; \
	VALI(Z10); \
	VMOVDQU32 Z10, (R11); \
	ADDQ R8, R11; \
	VALI(Z14); \
	VMOVDQU32 Z14, (R11); \
	ADDQ R8, R11; \
	VALI(Z1); \
	VMOVDQU32 Z1, (R11); \
	ADDQ R8, R11; \
	VALI(Z5); \
	VMOVDQU32 Z5, (R11); \
	ADDQ R8, R11; \
	VALI(Z3); \
	VMOVDQU32 Z3, (R11); \
	ADDQ R8, R11; \
	VALI(Z7); \
	VMOVDQU32 Z7, (R11); \
	ADDQ R8, R11; \
	VALI(Z9); \
	VMOVDQU32 Z9, (R11); \
	ADDQ R8, R11; \
	VALI(Z13); \
	VMOVDQU32 Z13, (R11); \
	ADDQ R8, R11; \
	VALI(Z11); \
	VMOVDQU32 Z11, (R11); \
	ADDQ R8, R11; \
	VALI(Z15); \
	VMOVDQU32 Z15, (R11)

#define STOREROWSF \
	MOVQ DI, R11; \
	VALF(Z0); \
	VMOVDQU32 Z0, (R11); \
	ADDQ R8, R11; \
	VALF(Z4); \
	VMOVDQU32 Z4, (R11); \
	ADDQ R8, R11; \
	VALF(Z2); \
	VMOVDQU32 Z2, (R11); \
	ADDQ R8, R11; \
	VALF(Z6); \
	VMOVDQU32 Z6, (R11); \
	ADDQ R8, R11; \
	VALF(Z8); \
	VMOVDQU32 Z8, (R11); \
	ADDQ R8, R11; \
	VALF(Z12); \
	VMOVDQU32 Z12, (R11); \
	ADDQ R8, R11; \
	VALF(Z10); \
	VMOVDQU32 Z10, (R11); \
	ADDQ R8, R11; \
	VALF(Z14); \
	VMOVDQU32 Z14, (R11); \
	ADDQ R8, R11; \
	VALF(Z1); \
	VMOVDQU32 Z1, (R11); \
	ADDQ R8, R11; \
	VALF(Z5); \
	VMOVDQU32 Z5, (R11); \
	ADDQ R8, R11; \
	VALF(Z3); \
	VMOVDQU32 Z3, (R11); \
	ADDQ R8, R11; \
	VALF(Z7); \
	VMOVDQU32 Z7, (R11); \
	ADDQ R8, R11; \
	VALF(Z9); \
	VMOVDQU32 Z9, (R11); \
	ADDQ R8, R11; \
	VALF(Z13); \
	VMOVDQU32 Z13, (R11); \
	ADDQ R8, R11; \
	VALF(Z11); \
	VMOVDQU32 Z11, (R11); \
	ADDQ R8, R11; \
	VALF(Z15); \
	VMOVDQU32 Z15, (R11)

// func netLoadT32x16(block, src unsafe.Pointer, tiles, rowBytes, float int, xor uint32) uint16
// AVX-512: tiles tiles of 16 rows of 16 elements (row l at src plus
// l*rowBytes, tile t 64 bytes further each) mapped to keys as
// netLoad32x16 does and transposed in registers into block vectors
// 16t..16t+15. Returns the rows that met a float zero or NaN.
TEXT ·netLoadT32x16(SB), NOSPLIT, $0-50
	MOVQ  block+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  tiles+16(FP), CX
	MOVQ  rowBytes+24(FP), R8
	MOVQ  float+32(FP), R9
	MOVL  xor+40(FP), AX
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    tldone
	TESTQ R9, R9
	JNZ   tlfloat

tlint:
	LOADROWS
	NETCONSTS
	KEYI(Z0)
	KEYI(Z1)
	KEYI(Z2)
	KEYI(Z3)
	KEYI(Z4)
	KEYI(Z5)
	KEYI(Z6)
	KEYI(Z7)
	KEYI(Z8)
	KEYI(Z9)
	KEYI(Z10)
	KEYI(Z11)
	KEYI(Z12)
	KEYI(Z13)
	KEYI(Z14)
	KEYI(Z15)
	TRANSPOSE16
	STORECOLS
	ADDQ $1024, DI
	ADDQ $64, SI
	DECQ CX
	JNZ  tlint
	JMP  tldone

tlfloat:
	LOADROWS
	NETCONSTS
	KEYF(Z0, $0, tlf0)
	KEYF(Z1, $1, tlf1)
	KEYF(Z2, $2, tlf2)
	KEYF(Z3, $3, tlf3)
	KEYF(Z4, $4, tlf4)
	KEYF(Z5, $5, tlf5)
	KEYF(Z6, $6, tlf6)
	KEYF(Z7, $7, tlf7)
	KEYF(Z8, $8, tlf8)
	KEYF(Z9, $9, tlf9)
	KEYF(Z10, $10, tlf10)
	KEYF(Z11, $11, tlf11)
	KEYF(Z12, $12, tlf12)
	KEYF(Z13, $13, tlf13)
	KEYF(Z14, $14, tlf14)
	KEYF(Z15, $15, tlf15)
	TRANSPOSE16
	STORECOLS
	ADDQ $1024, DI
	ADDQ $64, SI
	DECQ CX
	JNZ  tlfloat

tldone:
	MOVW R10, ret+48(FP)
	VZEROUPPER
	RET

// func netStoreT32x16(dst, block unsafe.Pointer, tiles, rowBytes, float int, xor uint32)
// AVX-512: block vectors 16t..16t+15 transposed back in registers (the
// transpose is its own inverse), mapped to values as netStore32x16
// does, and stored as 16 elements of each of 16 rows (row l at dst plus
// l*rowBytes, tile t 64 bytes further each).
TEXT ·netStoreT32x16(SB), NOSPLIT, $0-44
	MOVQ  dst+0(FP), DI
	MOVQ  block+8(FP), SI
	MOVQ  tiles+16(FP), CX
	MOVQ  rowBytes+24(FP), R8
	MOVQ  float+32(FP), R9
	MOVL  xor+40(FP), AX
	TESTQ CX, CX
	JZ    tsdone
	TESTQ R9, R9
	JNZ   tsfloat

tsint:
	LOADCOLS
	TRANSPOSE16
	NETCONSTS
	STOREROWSI
	ADDQ $1024, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  tsint
	JMP  tsdone

tsfloat:
	LOADCOLS
	TRANSPOSE16
	NETCONSTS
	STOREROWSF
	ADDQ $1024, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  tsfloat

tsdone:
	VZEROUPPER
	RET
