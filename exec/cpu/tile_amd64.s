// AVX2 block transposes for the tiles of tile.go (see tile_amd64.go):
// float32-sized elements in 8x8 blocks, float64-sized ones in 4x4
// blocks, each block loaded as whole vectors, transposed in registers
// and stored as whole vectors. The loops end with VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

// func transpose32(out, in unsafe.Pointer, rows, cols, os, is int)
// out[i*os+j] = in[j*is+i] for i < rows, j < cols, 4-byte elements;
// rows and cols are positive multiples of 8; strides count elements.
TEXT ·transpose32(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ cols+24(FP), R9
	MOVQ os+32(FP), R10
	MOVQ is+40(FP), R11
	SHLQ $2, R10
	SHLQ $2, R11
	LEAQ (R11)(R11*2), R12
	LEAQ (R10)(R10*2), R13

t32col:
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R8, CX

t32row:
	VMOVUPS (AX), Y0
	VMOVUPS (AX)(R11*1), Y1
	VMOVUPS (AX)(R11*2), Y2
	VMOVUPS (AX)(R12*1), Y3
	LEAQ    (AX)(R11*4), DX
	VMOVUPS (DX), Y4
	VMOVUPS (DX)(R11*1), Y5
	VMOVUPS (DX)(R11*2), Y6
	VMOVUPS (DX)(R12*1), Y7
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15
	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xEE, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xEE, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7
	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15
	VMOVUPS Y8, (BX)
	VMOVUPS Y9, (BX)(R10*1)
	VMOVUPS Y10, (BX)(R10*2)
	VMOVUPS Y11, (BX)(R13*1)
	LEAQ    (BX)(R10*4), DX
	VMOVUPS Y12, (DX)
	VMOVUPS Y13, (DX)(R10*1)
	VMOVUPS Y14, (DX)(R10*2)
	VMOVUPS Y15, (DX)(R13*1)
	ADDQ $32, AX
	LEAQ (BX)(R10*8), BX
	SUBQ $8, CX
	JNZ  t32row

	LEAQ (SI)(R11*8), SI
	ADDQ $32, DI
	SUBQ $8, R9
	JNZ  t32col
	VZEROUPPER
	RET

// func transpose64(out, in unsafe.Pointer, rows, cols, os, is int)
// transpose32 for 8-byte elements; rows and cols are positive multiples
// of 4.
TEXT ·transpose64(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ cols+24(FP), R9
	MOVQ os+32(FP), R10
	MOVQ is+40(FP), R11
	SHLQ $3, R10
	SHLQ $3, R11
	LEAQ (R11)(R11*2), R12
	LEAQ (R10)(R10*2), R13

t64col:
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R8, CX

t64row:
	VMOVUPD (AX), Y0
	VMOVUPD (AX)(R11*1), Y1
	VMOVUPD (AX)(R11*2), Y2
	VMOVUPD (AX)(R12*1), Y3
	VUNPCKLPD Y1, Y0, Y4
	VUNPCKHPD Y1, Y0, Y5
	VUNPCKLPD Y3, Y2, Y6
	VUNPCKHPD Y3, Y2, Y7
	VPERM2F128 $0x20, Y6, Y4, Y0
	VPERM2F128 $0x20, Y7, Y5, Y1
	VPERM2F128 $0x31, Y6, Y4, Y2
	VPERM2F128 $0x31, Y7, Y5, Y3
	VMOVUPD Y0, (BX)
	VMOVUPD Y1, (BX)(R10*1)
	VMOVUPD Y2, (BX)(R10*2)
	VMOVUPD Y3, (BX)(R13*1)
	ADDQ $32, AX
	LEAQ (BX)(R10*4), BX
	SUBQ $4, CX
	JNZ  t64row

	LEAQ (SI)(R11*4), SI
	ADDQ $32, DI
	SUBQ $4, R9
	JNZ  t64col
	VZEROUPPER
	RET

// func storeNT(dst, src unsafe.Pointer, n int)
// Copies n bytes from src to dst with non-temporal stores, whole cache
// lines at a time: n is a positive multiple of 64 and dst 64-byte
// aligned. The stores are weakly ordered: fenceNT orders them before
// anything the caller does next.
TEXT ·storeNT(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

ntloop:
	VMOVUPS  (SI), Y0
	VMOVUPS  32(SI), Y1
	VMOVNTPS Y0, (DI)
	VMOVNTPS Y1, 32(DI)
	ADDQ     $64, SI
	ADDQ     $64, DI
	SUBQ     $64, CX
	JNZ      ntloop
	VZEROUPPER
	RET

// func fenceNT()
TEXT ·fenceNT(SB), NOSPLIT, $0-0
	SFENCE
	RET
