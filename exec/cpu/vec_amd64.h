// Macros shared by the package's AVX2 assembly files: constants,
// argument loads and the loop skeletons the routines fill in. (vet does
// not see frames inside macros: the Go declarations of the routines that
// use ARGS2, ARGS3, DAN and DABN must name and place their arguments as
// these do.)

// VECD8 defines a 32-byte constant of eight 32-bit values, v0 first;
// VEC8 one of eight copies of a 32-bit pattern.
#define VECD8(name, v0, v1, v2, v3, v4, v5, v6, v7) \
	DATA name+0(SB)/4, $v0; \
	DATA name+4(SB)/4, $v1; \
	DATA name+8(SB)/4, $v2; \
	DATA name+12(SB)/4, $v3; \
	DATA name+16(SB)/4, $v4; \
	DATA name+20(SB)/4, $v5; \
	DATA name+24(SB)/4, $v6; \
	DATA name+28(SB)/4, $v7; \
	GLOBL name(SB), RODATA|NOPTR, $32

#define VEC8(name, bits) VECD8(name, bits, bits, bits, bits, bits, bits, bits, bits)

// VEC4 defines a 32-byte constant: four copies of a 64-bit pattern.
#define VEC4(name, bits) \
	DATA name+0(SB)/8, $bits; \
	DATA name+8(SB)/8, $bits; \
	DATA name+16(SB)/8, $bits; \
	DATA name+24(SB)/8, $bits; \
	GLOBL name(SB), RODATA|NOPTR, $32

// DABN loads d, a, b and n of func(d, a, b unsafe.Pointer, n int) into
// DI, SI, DX and CX; DAN loads d, a and n of func(d, a unsafe.Pointer,
// n int) into DI, SI and CX. ARGS3 and ARGS2 load them and turn n into
// bytes (shift SH).
#define DABN \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX

#define DAN \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ n+16(FP), CX

#define ARGS3(SH) DABN; SHLQ $SH, CX
#define ARGS2(SH) DAN; SHLQ $SH, CX

// EACHBY runs BODY for AX from its value up to CX in steps of STEP; it
// ends at label done. EACH steps by one vector (32 bytes).
#define EACHBY(STEP, BODY) \
each: \
	CMPQ AX, CX; \
	JAE  done; \
	BODY; \
	ADDQ $STEP, AX; \
	JMP  each; \
done:

#define EACH(BODY) EACHBY(32, BODY)

// VECSBY runs BODYN on the STEP bytes at byte AX of each operand, for AX
// from 0 in steps of STEP while STEP bytes remain below CX (STEP a power
// of two), then EACH(BODY1) on the vectors left; it ends at label done.
// VECS takes four vectors (128 bytes) a step.
#define VECSBY(STEP, BODYN, BODY1) \
	XORQ AX, AX; \
	MOVQ CX, BX; \
	ANDQ $-STEP, BX; \
	JZ   each; \
steps: \
	BODYN; \
	ADDQ $STEP, AX; \
	CMPQ AX, BX; \
	JB   steps; \
	EACH(BODY1)

#define VECS(BODY4, BODY1) VECSBY(128, BODY4, BODY1)

// BIN1 stores OP of the vectors at byte AX of a and b (its first source
// b's, in memory), moved by MOV (VMOVUPS or VMOVDQU), at byte AX of d.
#define BIN1(MOV, OP) \
	MOV (SI)(AX*1), Y0; \
	OP  (DX)(AX*1), Y0, Y0; \
	MOV Y0, (DI)(AX*1)

// DOWN runs BODY for AX from its value down to 0 in steps of UNIT, AX
// the first of the UNIT elements of the step, while UNIT remain; it ends
// at label done.
#define DOWN(UNIT, BODY) \
down: \
	SUBQ $UNIT, AX; \
	JB   done; \
	BODY; \
	JMP  down; \
done:

// LANES4 adds the four float64 lanes of y (x its low half) into s as
// ((l0+l1)+l2)+l3, through X3 and the temporaries t and u.
#define LANES4(y, x, s, t, u) \
	VEXTRACTF128 $1, y, X3; \
	VPERMILPD    $1, x, t; \
	VADDSD       t, x, s; \
	VADDSD       X3, s, s; \
	VPERMILPD    $1, X3, u; \
	VADDSD       u, s, s

// LANES8 adds the eight float32 lanes of Y0, widened, to X8 as
// ((l0+l1)+l2)+l3 + ((l4+l5)+l6)+l7 (the block total of the row sums).
#define LANES8 \
	VCVTPS2PD    X0, Y1; \
	VEXTRACTF128 $1, Y0, X2; \
	VCVTPS2PD    X2, Y2; \
	LANES4(Y1, X1, X5, X4, X6); \
	LANES4(Y2, X2, X6, X4, X4); \
	VADDSD       X6, X5, X5; \
	VADDSD       X5, X8, X8
