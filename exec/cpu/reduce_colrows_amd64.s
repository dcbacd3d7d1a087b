// AVX2 multi-row column folds for amd64 (see reduce_colrows_amd64.go):
// q rows of a block of columns folded into the column states while the
// states stay in registers, 128 bytes of states at a time and then 32.
// Each row is folded with the instructions of the one-row fold it
// replaces, in row order, so the states get the same bits. Each covers
// whole vectors only (the Go wrappers do the tails) and ends with
// VZEROUPPER.

//go:build amd64 && !purego

#include "textflag.h"

// COLROWSAT runs the column fold over state bytes [0, CX) at DI and
// rows of DX bytes from SI, q (R8 >= 1) rows: LOAD4/LOAD1 read the
// states into Y0-Y3 (Y0), AT points R9 at the first row's values of the
// states at byte AX, ROW4/ROW1 fold the row at R9 into them,
// STORE4/STORE1 write them back. Y4-Y7 are scratch, Y15 a constant the
// fold may set. COLROWS folds rows of the states' own type (AT is
// SAMEAT).
#define COLROWSAT(AT, LOAD4, ROW4, STORE4, LOAD1, ROW1, STORE1) \
	MOVQ st+0(FP), DI; \
	MOVQ p+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ stride+24(FP), DX; \
	MOVQ q+32(FP), R8; \
	XORQ AX, AX; \
	MOVQ CX, BX; \
	ANDQ $-128, BX; \
blk4: \
	CMPQ AX, BX; \
	JAE  blk1; \
	LOAD4; \
	AT; \
	MOVQ R8, R10; \
rows4: \
	ROW4; \
	ADDQ DX, R9; \
	DECQ R10; \
	JNZ  rows4; \
	STORE4; \
	ADDQ $128, AX; \
	JMP  blk4; \
blk1: \
	CMPQ AX, CX; \
	JAE  done; \
	LOAD1; \
	AT; \
	MOVQ R8, R10; \
rows1: \
	ROW1; \
	ADDQ DX, R9; \
	DECQ R10; \
	JNZ  rows1; \
	STORE1; \
	ADDQ $32, AX; \
	JMP  blk1; \
done: \
	VZEROUPPER; \
	RET

#define SAMEAT LEAQ (SI)(AX*1), R9
#define COLROWS(LOAD4, ROW4, STORE4, LOAD1, ROW1, STORE1) COLROWSAT(SAMEAT, LOAD4, ROW4, STORE4, LOAD1, ROW1, STORE1)

#define LD4 \
	VMOVUPS (DI)(AX*1), Y0; \
	VMOVUPS 32(DI)(AX*1), Y1; \
	VMOVUPS 64(DI)(AX*1), Y2; \
	VMOVUPS 96(DI)(AX*1), Y3

#define ST4 \
	VMOVUPS Y0, (DI)(AX*1); \
	VMOVUPS Y1, 32(DI)(AX*1); \
	VMOVUPS Y2, 64(DI)(AX*1); \
	VMOVUPS Y3, 96(DI)(AX*1)

#define LD1 VMOVUPS (DI)(AX*1), Y0
#define OP1(OP) OP (R9), Y0, Y0
#define ST1 VMOVUPS Y0, (DI)(AX*1)

// A row of a two-operand fold OP (state OP= x, the state the first
// source, as in the elementwise loops).
#define OP4(OP) \
	OP (R9), Y0, Y0; \
	OP 32(R9), Y1, Y1; \
	OP 64(R9), Y2, Y2; \
	OP 96(R9), Y3, Y3

// func colRowsAddF32(st, p unsafe.Pointer, n, stride, q int)
TEXT ·colRowsAddF32(SB), NOSPLIT, $0-40
	COLROWS(LD4, OP4(VADDPS), ST4, LD1, OP1(VADDPS), ST1)

// func colRowsAddF64(st, p unsafe.Pointer, n, stride, q int)
TEXT ·colRowsAddF64(SB), NOSPLIT, $0-40
	COLROWS(LD4, OP4(VADDPD), ST4, LD1, OP1(VADDPD), ST1)

// func colRowsMulF64(st, p unsafe.Pointer, n, stride, q int)
TEXT ·colRowsMulF64(SB), NOSPLIT, $0-40
	COLROWS(LD4, OP4(VMULPD), ST4, LD1, OP1(VMULPD), ST1)

// func colRowsOrB(st, p unsafe.Pointer, n, stride, q int)
//
// Any over bytes: st[k] |= x[k].
TEXT ·colRowsOrB(SB), NOSPLIT, $0-40
	COLROWS(LD4, OP4(VPOR), ST4, LD1, OP1(VPOR), ST1)

// ANDNZ clears the state bytes of reg where the row's bytes at off are
// zero (Y15 is zero).
#define ANDNZ(off, reg) \
	VPCMPEQB off(R9), Y15, Y4; \
	VPANDN   reg, Y4, reg

#define ANDNZ4 \
	ANDNZ(0, Y0); \
	ANDNZ(32, Y1); \
	ANDNZ(64, Y2); \
	ANDNZ(96, Y3)

// func colRowsAndNzB(st, p unsafe.Pointer, n, stride, q int)
//
// All over bytes: st[k] = 0 where x[k] == 0.
TEXT ·colRowsAndNzB(SB), NOSPLIT, $0-40
	VPXOR Y15, Y15, Y15
	COLROWS(LD4, ANDNZ4, ST4, LD1, ANDNZ(0, Y0), ST1)

// EXT folds the row's vector at off into the state reg as the EXTREME
// loop of asm_amd64.s does (Go's min of the state and x): m = MIN(state,
// x) returns x where either is NaN or both are zero, MIN(m, state)
// returns the state there, and their OR is the result. LDX loads x,
// negated for Max (the states of Max are kept negated in the registers,
// as EXTREME negates both operands and its result).
#define EXT(MIN, OR, LDX, off, reg) \
	LDX(off); \
	MIN Y4, reg, Y5; \
	MIN reg, Y5, Y6; \
	OR  Y6, Y5, reg

#define EXT4(MIN, OR, LDX) \
	EXT(MIN, OR, LDX, 0, Y0); \
	EXT(MIN, OR, LDX, 32, Y1); \
	EXT(MIN, OR, LDX, 64, Y2); \
	EXT(MIN, OR, LDX, 96, Y3)

#define XPLAIN(off) VMOVUPS off(R9), Y4
#define XNEG(off) VXORPS off(R9), Y15, Y4

// NEG4 flips the signs of Y0-Y3 (Y15 the sign bits).
#define NEG4 \
	VXORPS Y15, Y0, Y0; \
	VXORPS Y15, Y1, Y1; \
	VXORPS Y15, Y2, Y2; \
	VXORPS Y15, Y3, Y3

#define NLD4 LD4; NEG4
#define NST4 NEG4; ST4

#define NLD1 \
	LD1; \
	VXORPS Y15, Y0, Y0

#define NST1 \
	VXORPS Y15, Y0, Y0; \
	ST1

// COLMIN and COLMAX fold rows into Minimum and Maximum states; COLMAX
// first sets Y15 to the sign bits (SHIFT by BITS, VPSLLD 31 or VPSLLQ
// 63, of all ones).
#define COLMIN(MIN, OR) COLROWS(LD4, EXT4(MIN, OR, XPLAIN), ST4, LD1, EXT(MIN, OR, XPLAIN, 0, Y0), ST1)

#define COLMAX(MIN, OR, SHIFT, BITS) \
	VPCMPEQD Y15, Y15, Y15; \
	SHIFT    $BITS, Y15, Y15; \
	COLROWS(NLD4, EXT4(MIN, OR, XNEG), NST4, NLD1, EXT(MIN, OR, XNEG, 0, Y0), NST1)

// func colRowsMinF32(st, p unsafe.Pointer, n, stride, q int)
TEXT ·colRowsMinF32(SB), NOSPLIT, $0-40
	COLMIN(VMINPS, VORPS)

// func colRowsMaxF32(st, p unsafe.Pointer, n, stride, q int)
TEXT ·colRowsMaxF32(SB), NOSPLIT, $0-40
	COLMAX(VMINPS, VORPS, VPSLLD, 31)

// func colRowsMinF64(st, p unsafe.Pointer, n, stride, q int)
TEXT ·colRowsMinF64(SB), NOSPLIT, $0-40
	COLMIN(VMINPD, VORPD)

// func colRowsMaxF64(st, p unsafe.Pointer, n, stride, q int)
TEXT ·colRowsMaxF64(SB), NOSPLIT, $0-40
	COLMAX(VMINPD, VORPD, VPSLLQ, 63)

// HALFAT points R9 at the float32 row values of the float64 states at
// byte AX; WMUL4 and WMUL1 multiply the states by them widened.
#define HALFAT MOVQ AX, R9; SHRQ $1, R9; ADDQ SI, R9

#define WMUL4 \
	VCVTPS2PD (R9), Y4; \
	VCVTPS2PD 16(R9), Y5; \
	VCVTPS2PD 32(R9), Y6; \
	VCVTPS2PD 48(R9), Y7; \
	VMULPD    Y4, Y0, Y0; \
	VMULPD    Y5, Y1, Y1; \
	VMULPD    Y6, Y2, Y2; \
	VMULPD    Y7, Y3, Y3

#define WMUL1 VCVTPS2PD (R9), Y4; VMULPD Y4, Y0, Y0

// func colRowsMulWidenF32(st, p unsafe.Pointer, n, stride, q int)
//
// The float32 column product: float64 states (n bytes of them), rows of
// float32 values widened and multiplied in, the state the first operand.
TEXT ·colRowsMulWidenF32(SB), NOSPLIT, $0-40
	COLROWSAT(HALFAT, LD4, WMUL4, ST4, LD1, WMUL1, ST1)
