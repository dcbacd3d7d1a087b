// Comparator networks over a block of rows stored lane-wise (element j
// of every row side by side), for sortnet.go: each comparator loads two
// vectors, stores their lane-wise unsigned minimum at the first offset
// and maximum at the second; the network of 16 elements in registers;
// and, with AVX-512, the block's rows gathered in as keys and scattered
// out as values, or moved as 16 by 16 tiles transposed in registers.

//go:build amd64 && !purego

#include "textflag.h"

// ARGS6 loads the six arguments of the gather, scatter and tile
// routines (two pointers, a count, an int or pointer, float and xor)
// into DI, SI, CX, R8, R9 and AX. (vet does not check the frame
// offsets in macros: the Go declarations in sortnet_amd64.go must
// match them.)
#define ARGS6 \
	MOVQ p+0(FP), DI; \
	MOVQ q+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ m+24(FP), R8; \
	MOVQ float+32(FP), R9; \
	MOVL xor+40(FP), AX

// IDXARGS is ARGS6 for the routines that move element j of 16 rows:
// the rows' byte offsets (R8) into Z1, the xor into Z2 and the sign bit
// into Z3.
#define IDXARGS \
	ARGS6; \
	VMOVDQU32    (R8), Z1; \
	VPBROADCASTD AX, Z2; \
	MOVL         $0x80000000, BX; \
	VPBROADCASTD BX, Z3

// CMPX is a comparator of the elements in registers a and b: the
// minimum into s, the maximum into b.
#define CMPX(a, b, s) \
	VPMINUD b, a, s; \
	VPMAXUD b, a, b

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

// KEYI maps integer elements to keys: xored with Z20 (bit and skip as
// KEYF's, unused).
#define KEYI(z, bit, skip) \
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
	LOADROW(Z1); \
	LOADROW(Z2); \
	LOADROW(Z3); \
	LOADROW(Z4); \
	LOADROW(Z5); \
	LOADROW(Z6); \
	LOADROW(Z7); \
	LOADROW(Z8); \
	LOADROW(Z9); \
	LOADROW(Z10); \
	LOADROW(Z11); \
	LOADROW(Z12); \
	LOADROW(Z13); \
	LOADROW(Z14); \
	LOADROW(Z15);

// LOADROW loads the next row into z.
#define LOADROW(z) \
	ADDQ R8, R11; \
	VMOVDQU32 (R11), z

// STORE16 stores z0..z15 as the 16 vectors at R (block vectors 0..15).
#define STORE16(R, z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13, z14, z15) \
	VMOVDQU32 z0, 0(R); \
	VMOVDQU32 z1, 64(R); \
	VMOVDQU32 z2, 128(R); \
	VMOVDQU32 z3, 192(R); \
	VMOVDQU32 z4, 256(R); \
	VMOVDQU32 z5, 320(R); \
	VMOVDQU32 z6, 384(R); \
	VMOVDQU32 z7, 448(R); \
	VMOVDQU32 z8, 512(R); \
	VMOVDQU32 z9, 576(R); \
	VMOVDQU32 z10, 640(R); \
	VMOVDQU32 z11, 704(R); \
	VMOVDQU32 z12, 768(R); \
	VMOVDQU32 z13, 832(R); \
	VMOVDQU32 z14, 896(R); \
	VMOVDQU32 z15, 960(R);

// STORECOLS stores column c of a transposed tile as block vector c (DI).
#define STORECOLS STORE16(DI, Z0, Z4, Z2, Z6, Z8, Z12, Z10, Z14, Z1, Z5, Z3, Z7, Z9, Z13, Z11, Z15)

// LOADCOLS loads the 16 vectors at R (block vectors 0..15) into Z0-Z15.
#define LOADCOLS(R) \
	VMOVDQU32 0(R), Z0; \
	VMOVDQU32 64(R), Z1; \
	VMOVDQU32 128(R), Z2; \
	VMOVDQU32 192(R), Z3; \
	VMOVDQU32 256(R), Z4; \
	VMOVDQU32 320(R), Z5; \
	VMOVDQU32 384(R), Z6; \
	VMOVDQU32 448(R), Z7; \
	VMOVDQU32 512(R), Z8; \
	VMOVDQU32 576(R), Z9; \
	VMOVDQU32 640(R), Z10; \
	VMOVDQU32 704(R), Z11; \
	VMOVDQU32 768(R), Z12; \
	VMOVDQU32 832(R), Z13; \
	VMOVDQU32 896(R), Z14; \
	VMOVDQU32 960(R), Z15;

// STOREROWS maps a transposed tile back to elements with VAL (VALI or
// VALF) and stores row r at DI plus r*R8.
#define STOREROWS(VAL) \
	MOVQ DI, R11; \
	VAL(Z0); \
	VMOVDQU32 Z0, (R11); \
	STOREROW(VAL, Z4); \
	STOREROW(VAL, Z2); \
	STOREROW(VAL, Z6); \
	STOREROW(VAL, Z8); \
	STOREROW(VAL, Z12); \
	STOREROW(VAL, Z10); \
	STOREROW(VAL, Z14); \
	STOREROW(VAL, Z1); \
	STOREROW(VAL, Z5); \
	STOREROW(VAL, Z3); \
	STOREROW(VAL, Z7); \
	STOREROW(VAL, Z9); \
	STOREROW(VAL, Z13); \
	STOREROW(VAL, Z11); \
	STOREROW(VAL, Z15);

// STOREROW maps z with VAL and stores it as the next row.
#define STOREROW(VAL, z) \
	ADDQ R8, R11; \
	VAL(z); \
	VMOVDQU32 z, (R11)

// KEYS maps Z0-Z15 (row r in Zr) to keys with KEY (KEYI or KEYF).
#define KEYS(KEY) \
	KEY(Z0, $0, key0); \
	KEY(Z1, $1, key1); \
	KEY(Z2, $2, key2); \
	KEY(Z3, $3, key3); \
	KEY(Z4, $4, key4); \
	KEY(Z5, $5, key5); \
	KEY(Z6, $6, key6); \
	KEY(Z7, $7, key7); \
	KEY(Z8, $8, key8); \
	KEY(Z9, $9, key9); \
	KEY(Z10, $10, key10); \
	KEY(Z11, $11, key11); \
	KEY(Z12, $12, key12); \
	KEY(Z13, $13, key13); \
	KEY(Z14, $14, key14); \
	KEY(Z15, $15, key15);

// TILESIN is the loop of netLoadT32x16 over the tiles with KEY.
#define TILESIN(loop, KEY) \
loop: \
	LOADROWS; \
	NETCONSTS; \
	KEYS(KEY); \
	TRANSPOSE16; \
	STORECOLS; \
	ADDQ $1024, DI; \
	ADDQ $64, SI; \
	DECQ CX; \
	JNZ  loop

// TILESOUT is the loop of netStoreT32x16 over the tiles with VAL.
#define TILESOUT(loop, VAL) \
loop: \
	LOADCOLS(SI); \
	TRANSPOSE16; \
	NETCONSTS; \
	STOREROWS(VAL); \
	ADDQ $1024, SI; \
	ADDQ $64, DI; \
	DECQ CX; \
	JNZ  loop

// NETCMP defines func NAME(block unsafe.Pointer, pairs *uint32, n int):
// pairs holds n pairs of byte offsets of two vectors of the block, moved
// by MOV through registers A and B; the lane-wise minimum (LO) goes to
// the first, the maximum (HI) to the second.
#define NETCMP(NAME, MOV, A, B, LO, HI) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ  block+0(FP), DI; \
	MOVQ  pairs+8(FP), SI; \
	MOVQ  n+16(FP), CX; \
	TESTQ CX, CX; \
	JZ    done; \
loop: \
	MOVL    0(SI), AX; \
	MOVL    4(SI), BX; \
	MOV     (DI)(AX*1), A; \
	MOV     (DI)(BX*1), B; \
	VPMINUD B, A, LO; \
	VPMAXUD B, A, HI; \
	MOV     LO, (DI)(AX*1); \
	MOV     HI, (DI)(BX*1); \
	ADDQ    $8, SI; \
	DECQ    CX; \
	JNZ     loop; \
done: \
	VZEROUPPER; \
	RET

// func netCmp32x8(block unsafe.Pointer, pairs *uint32, n int): AVX2, 8
// lanes of uint32. func netCmp32x16: AVX-512, 16 lanes.
NETCMP(·netCmp32x8, VMOVDQU, Y0, Y1, Y2, Y3)
NETCMP(·netCmp32x16, VMOVDQU32, Z0, Z1, Z2, Z3)

// func netLoad32x16(block, src unsafe.Pointer, n int, idx *uint32, float int, xor uint32) uint16
// AVX-512: element j of 16 rows (at src plus the byte offsets idx[l])
// gathered as block vector j, mapped to keys: floats by b ^ ((b >> 31
// arithmetic) | sign), then every key xored with xor. Returns the lanes
// that met a float zero or NaN (|b|-1 >= +Inf's bits, unsigned).
TEXT ·netLoad32x16(SB), NOSPLIT, $0-50
	IDXARGS
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
	IDXARGS
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
	LOADCOLS(DI)
	CMPX(Z0, Z1, Z16)
	CMPX(Z2, Z3, Z0)
	CMPX(Z4, Z5, Z2)
	CMPX(Z6, Z7, Z4)
	CMPX(Z8, Z9, Z6)
	CMPX(Z10, Z11, Z8)
	CMPX(Z12, Z13, Z10)
	CMPX(Z14, Z15, Z12)
	CMPX(Z16, Z0, Z14)
	CMPX(Z1, Z3, Z16)
	CMPX(Z2, Z4, Z1)
	CMPX(Z5, Z7, Z2)
	CMPX(Z6, Z8, Z5)
	CMPX(Z9, Z11, Z6)
	CMPX(Z10, Z12, Z9)
	CMPX(Z13, Z15, Z10)
	CMPX(Z16, Z0, Z13)
	CMPX(Z2, Z4, Z16)
	CMPX(Z6, Z8, Z2)
	CMPX(Z10, Z12, Z6)
	CMPX(Z14, Z1, Z10)
	CMPX(Z13, Z16, Z14)
	CMPX(Z0, Z4, Z13)
	CMPX(Z3, Z7, Z0)
	CMPX(Z5, Z9, Z3)
	CMPX(Z2, Z6, Z5)
	CMPX(Z8, Z12, Z2)
	CMPX(Z11, Z15, Z8)
	CMPX(Z13, Z1, Z11)
	CMPX(Z0, Z16, Z13)
	CMPX(Z2, Z9, Z0)
	CMPX(Z8, Z6, Z2)
	CMPX(Z14, Z11, Z8)
	CMPX(Z13, Z1, Z14)
	CMPX(Z16, Z4, Z13)
	CMPX(Z5, Z0, Z16)
	CMPX(Z2, Z9, Z5)
	CMPX(Z6, Z12, Z2)
	CMPX(Z10, Z3, Z6)
	CMPX(Z8, Z16, Z10)
	CMPX(Z11, Z0, Z8)
	CMPX(Z14, Z5, Z11)
	CMPX(Z1, Z9, Z14)
	CMPX(Z13, Z2, Z1)
	CMPX(Z4, Z12, Z13)
	CMPX(Z7, Z15, Z4)
	CMPX(Z14, Z3, Z7)
	CMPX(Z1, Z16, Z14)
	CMPX(Z13, Z0, Z1)
	CMPX(Z4, Z5, Z13)
	CMPX(Z8, Z7, Z4)
	CMPX(Z11, Z14, Z8)
	CMPX(Z1, Z3, Z11)
	CMPX(Z13, Z16, Z1)
	CMPX(Z0, Z9, Z13)
	CMPX(Z5, Z2, Z0)
	CMPX(Z10, Z4, Z5)
	CMPX(Z8, Z7, Z10)
	CMPX(Z14, Z11, Z8)
	CMPX(Z1, Z3, Z14)
	CMPX(Z16, Z13, Z1)
	CMPX(Z0, Z9, Z16)
	CMPX(Z2, Z12, Z0)
	STORE16(DI, Z6, Z5, Z4, Z10, Z7, Z8, Z11, Z14, Z3, Z1, Z13, Z16, Z9, Z0, Z12, Z15)
	ADDQ $1024, DI
	DECQ CX
	JNZ  gloop

gdone:
	VZEROUPPER
	RET

// func netLoadT32x16(block, src unsafe.Pointer, tiles, rowBytes, float int, xor uint32) uint16
// AVX-512: tiles tiles of 16 rows of 16 elements (row l at src plus
// l*rowBytes, tile t 64 bytes further each) mapped to keys as
// netLoad32x16 does and transposed in registers into block vectors
// 16t..16t+15. Returns the rows that met a float zero or NaN.
TEXT ·netLoadT32x16(SB), NOSPLIT, $0-50
	ARGS6
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    tldone
	TESTQ R9, R9
	JNZ   tlfloat

	TILESIN(tlint, KEYI)
	JMP tldone
	TILESIN(tlfloat, KEYF)

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
	ARGS6
	TESTQ CX, CX
	JZ    tsdone
	TESTQ R9, R9
	JNZ   tsfloat

	TILESOUT(tsint, VALI)
	JMP tsdone
	TILESOUT(tsfloat, VALF)

tsdone:
	VZEROUPPER
	RET

// func netCmp64x8(block unsafe.Pointer, pairs *uint32, n int)
// AVX-512: the comparators of n pairs of byte offsets of two vectors of
// 8 signed quadwords, the lane-wise minimum to the first, the maximum
// to the second.
TEXT ·netCmp64x8(SB), NOSPLIT, $0-24
	MOVQ  block+0(FP), DI
	MOVQ  pairs+8(FP), SI
	MOVQ  n+16(FP), CX
	TESTQ CX, CX
	JZ    q8done

q8loop:
	MOVL      0(SI), AX
	MOVL      4(SI), BX
	VMOVDQU64 (DI)(AX*1), Z0
	VMOVDQU64 (DI)(BX*1), Z1
	VPMINSQ   Z1, Z0, Z2
	VPMAXSQ   Z1, Z0, Z1
	VMOVDQU64 Z2, (DI)(AX*1)
	VMOVDQU64 Z1, (DI)(BX*1)
	ADDQ      $8, SI
	DECQ      CX
	JNZ       q8loop

q8done:
	VZEROUPPER
	RET

// func netCmp64x4x2(block unsafe.Pointer, pairs *uint32, n int)
// AVX2: netCmp64x8 with each vector of 8 quadwords in two halves, the
// minimum and maximum chosen by VPCMPGTQ (a > b) and VPBLENDVB.
TEXT ·netCmp64x4x2(SB), NOSPLIT, $0-24
	MOVQ  block+0(FP), DI
	MOVQ  pairs+8(FP), SI
	MOVQ  n+16(FP), CX
	TESTQ CX, CX
	JZ    q4done

q4loop:
	MOVL      0(SI), AX
	MOVL      4(SI), BX
	VMOVDQU   (DI)(AX*1), Y0
	VMOVDQU   32(DI)(AX*1), Y1
	VMOVDQU   (DI)(BX*1), Y2
	VMOVDQU   32(DI)(BX*1), Y3
	VPCMPGTQ  Y2, Y0, Y4
	VPCMPGTQ  Y3, Y1, Y5
	VPBLENDVB Y4, Y2, Y0, Y6
	VPBLENDVB Y4, Y0, Y2, Y2
	VPBLENDVB Y5, Y3, Y1, Y7
	VPBLENDVB Y5, Y1, Y3, Y3
	VMOVDQU   Y6, (DI)(AX*1)
	VMOVDQU   Y7, 32(DI)(AX*1)
	VMOVDQU   Y2, (DI)(BX*1)
	VMOVDQU   Y3, 32(DI)(BX*1)
	ADDQ      $8, SI
	DECQ      CX
	JNZ       q4loop

q4done:
	VZEROUPPER
	RET

// func netCmpArg64x8(keys, idx unsafe.Pointer, pairs *uint32, n int)
// AVX-512: the comparators of n pairs of byte offsets into two blocks of
// 8 signed quadwords, keys and their indices, ordered by key, then
// index: where (key a, index a) > (key b, index b) the two swap, in
// both blocks.
TEXT ·netCmpArg64x8(SB), NOSPLIT, $0-32
	MOVQ  keys+0(FP), DI
	MOVQ  idx+8(FP), R8
	MOVQ  pairs+16(FP), SI
	MOVQ  n+24(FP), CX
	TESTQ CX, CX
	JZ    a8done

a8loop:
	MOVL      0(SI), AX
	MOVL      4(SI), BX
	VMOVDQU64 (DI)(AX*1), Z0
	VMOVDQU64 (DI)(BX*1), Z1
	VMOVDQU64 (R8)(AX*1), Z2
	VMOVDQU64 (R8)(BX*1), Z3
	VPCMPQ    $6, Z1, Z0, K1
	VPCMPQ    $0, Z1, Z0, K2
	VPCMPQ    $6, Z3, Z2, K3
	KANDW     K2, K3, K3
	KORW      K1, K3, K1
	VPBLENDMQ Z1, Z0, K1, Z4
	VPBLENDMQ Z0, Z1, K1, Z5
	VPBLENDMQ Z3, Z2, K1, Z6
	VPBLENDMQ Z2, Z3, K1, Z7
	VMOVDQU64 Z4, (DI)(AX*1)
	VMOVDQU64 Z5, (DI)(BX*1)
	VMOVDQU64 Z6, (R8)(AX*1)
	VMOVDQU64 Z7, (R8)(BX*1)
	ADDQ      $8, SI
	DECQ      CX
	JNZ       a8loop

a8done:
	VZEROUPPER
	RET

// CMPARG4 is netCmpArg64x8's comparator on the 4 lanes at byte o of
// the vectors at AX and BX, with AVX2: the swap mask is key a > key b,
// or equal keys and index a > index b (VPCMPGTQ, VPCMPEQQ), applied
// by VPBLENDVB.
#define CMPARG4(o) \
	VMOVDQU   o(DI)(AX*1), Y0; \
	VMOVDQU   o(DI)(BX*1), Y1; \
	VMOVDQU   o(R8)(AX*1), Y2; \
	VMOVDQU   o(R8)(BX*1), Y3; \
	VPCMPGTQ  Y1, Y0, Y4; \
	VPCMPEQQ  Y1, Y0, Y5; \
	VPCMPGTQ  Y3, Y2, Y6; \
	VPAND     Y5, Y6, Y6; \
	VPOR      Y6, Y4, Y4; \
	VPBLENDVB Y4, Y1, Y0, Y5; \
	VPBLENDVB Y4, Y0, Y1, Y1; \
	VPBLENDVB Y4, Y3, Y2, Y6; \
	VPBLENDVB Y4, Y2, Y3, Y3; \
	VMOVDQU   Y5, o(DI)(AX*1); \
	VMOVDQU   Y1, o(DI)(BX*1); \
	VMOVDQU   Y6, o(R8)(AX*1); \
	VMOVDQU   Y3, o(R8)(BX*1)

// func netCmpArg64x4x2(keys, idx unsafe.Pointer, pairs *uint32, n int)
// AVX2: netCmpArg64x8 on each half of the 8 lanes.
TEXT ·netCmpArg64x4x2(SB), NOSPLIT, $0-32
	MOVQ  keys+0(FP), DI
	MOVQ  idx+8(FP), R8
	MOVQ  pairs+16(FP), SI
	MOVQ  n+24(FP), CX
	TESTQ CX, CX
	JZ    a4done

a4loop:
	MOVL 0(SI), AX
	MOVL 4(SI), BX
	CMPARG4(0)
	CMPARG4(32)
	ADDQ $8, SI
	DECQ CX
	JNZ  a4loop

a4done:
	VZEROUPPER
	RET
