// AVX2/FMA and AVX-512 loops of NumPy's float floor division and modulo
// (see divmod_amd64.go), in float64 lanes for both dtypes: func NAME(d,
// a, b unsafe.Pointer, n int) int over whole units (4 lanes with AVX2,
// 8 with AVX-512), returning the elements done. A unit with a lane out
// of the fast domain (|a|/|b| rounded not below 2^50, an operand NaN or
// infinite, b zero) ends the loop before anything of it is stored.
//
// Per lane, with x = |a|, y = |b|: n = trunc(x/y) rounded, r = x - n*y
// by one multiply-add, and where r < 0 n one less and r again (the exact
// fmod of fmath.Fmod, with a's sign); then moved = r != 0 and a and b
// of opposite signs, the remainder r signed like a (like b where r is
// zero) plus b where moved, the quotient n + moved signed like a/b.

//go:build amd64 && !purego

#include "textflag.h"
#include "vec_amd64.h"

VEC4(dmsign<>, 0x8000000000000000)
VEC4(dmlim<>, 0x4310000000000000)     // 2^50
VEC4(dminf<>, 0x7ff0000000000000)
VEC4(dmone<>, 0x3ff0000000000000)

// Operand loads into Y0 (a) and Y1 (b) / Z0 and Z1, result stores of R.
#define LD64Y VMOVUPD (SI)(AX*8), Y0; VMOVUPD (DX)(AX*8), Y1
#define LD32Y VCVTPS2PD (SI)(AX*4), Y0; VCVTPS2PD (DX)(AX*4), Y1
#define ST64Y(R) VMOVUPD R, (DI)(AX*8)
#define ST32Y(R) VCVTPD2PSY R, X0; VMOVUPS X0, (DI)(AX*4)
#define LD64Z VMOVUPD (SI)(AX*8), Z0; VMOVUPD (DX)(AX*8), Z1
#define LD32Z VCVTPS2PD (SI)(AX*4), Z0; VCVTPS2PD (DX)(AX*4), Z1
#define ST64Z(R) VMOVUPD R, (DI)(AX*8)
#define ST32Z(R) VCVTPD2PS R, Y0; VMOVUPS Y0, (DI)(AX*4)

// ---- AVX2: constants Y15 sign bit, Y14 2^50, Y13 +Inf, Y12 1, Y11
// zero. ----

#define DM4(NAME, LD, TAIL, ST) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	DABN; \
	XORQ AX, AX; \
	VMOVUPD dmsign<>(SB), Y15; \
	VMOVUPD dmlim<>(SB), Y14; \
	VMOVUPD dminf<>(SB), Y13; \
	VMOVUPD dmone<>(SB), Y12; \
	VXORPD  Y11, Y11, Y11; \
	EACHBY(4, DM4BODY(LD, TAIL, ST)); \
	MOVQ AX, ret+32(FP); \
	VZEROUPPER; \
	RET

// DM4BODY leaves n (Y4), r (Y5), r != 0 (Y6), the sign of a/b (Y7) and
// moved (Y8) to TAIL, which leaves its result in Y4 or Y9.
#define DM4BODY(LD, TAIL, ST) \
	LD; \
	VANDNPD      Y0, Y15, Y2; \
	VANDNPD      Y1, Y15, Y3; \
	VDIVPD       Y3, Y2, Y4; \
	VCMPPD       $0x11, Y14, Y4, Y5; \
	VCMPPD       $0x11, Y13, Y3, Y6; \
	VANDPD       Y6, Y5, Y5; \
	VMOVMSKPD    Y5, BX; \
	CMPL         BX, $15; \
	JNE          done; \
	VROUNDPD     $3, Y4, Y4; \
	VMOVAPD      Y2, Y5; \
	VFNMADD231PD Y3, Y4, Y5; \
	VCMPPD       $0x11, Y11, Y5, Y6; \
	VANDPD       Y12, Y6, Y6; \
	VSUBPD       Y6, Y4, Y4; \
	VMOVAPD      Y2, Y5; \
	VFNMADD231PD Y3, Y4, Y5; \
	VCMPPD       $0x0c, Y11, Y5, Y6; \
	VXORPD       Y1, Y0, Y7; \
	VANDPD       Y15, Y7, Y7; \
	VPCMPEQQ     Y15, Y7, Y8; \
	VANDPD       Y6, Y8, Y8; \
	TAIL(ST)

// DIV4: n + moved, signed like a/b.
#define DIV4(ST) \
	VANDPD Y12, Y8, Y8; \
	VADDPD Y8, Y4, Y4; \
	VORPD  Y7, Y4, Y4; \
	ST(Y4)

// MOD4: r signed like a (b where r is zero), plus b where moved.
#define MOD4(ST) \
	VBLENDVPD Y6, Y0, Y1, Y9; \
	VANDPD    Y15, Y9, Y9; \
	VORPD     Y5, Y9, Y9; \
	VADDPD    Y1, Y9, Y10; \
	VBLENDVPD Y8, Y10, Y9, Y9; \
	ST(Y9)

DM4(·floorDivF64x4, LD64Y, DIV4, ST64Y)
DM4(·modF64x4, LD64Y, MOD4, ST64Y)
DM4(·floorDivF32x4, LD32Y, DIV4, ST32Y)
DM4(·modF32x4, LD32Y, MOD4, ST32Y)

// ---- AVX-512 (F, DQ): constants Z31 sign bit, Z30 2^50, Z29 +Inf,
// Z28 1, Z27 zero. ----

#define DM8(NAME, LD, TAIL, ST) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	DABN; \
	XORQ AX, AX; \
	VBROADCASTSD dmsign<>(SB), Z31; \
	VBROADCASTSD dmlim<>(SB), Z30; \
	VBROADCASTSD dminf<>(SB), Z29; \
	VBROADCASTSD dmone<>(SB), Z28; \
	VPXORQ       Z27, Z27, Z27; \
	EACHBY(8, DM8BODY(LD, TAIL, ST)); \
	MOVQ AX, ret+32(FP); \
	VZEROUPPER; \
	RET

// DM8BODY leaves n (Z4), r (Z5), r != 0 (K3), the sign of a/b (Z7) and
// moved (K4) to TAIL, which leaves its result in Z4 or Z9.
#define DM8BODY(LD, TAIL, ST) \
	LD; \
	VPANDNQ      Z0, Z31, Z2; \
	VPANDNQ      Z1, Z31, Z3; \
	VDIVPD       Z3, Z2, Z4; \
	VCMPPD       $0x11, Z30, Z4, K1; \
	VCMPPD       $0x11, Z29, Z3, K1, K1; \
	KORTESTB     K1, K1; \
	JCC          done; \
	VRNDSCALEPD  $3, Z4, Z4; \
	VMOVAPD      Z2, Z5; \
	VFNMADD231PD Z3, Z4, Z5; \
	VCMPPD       $0x11, Z27, Z5, K2; \
	VSUBPD       Z28, Z4, K2, Z4; \
	VMOVAPD      Z2, K2, Z5; \
	VFNMADD231PD Z3, Z4, K2, Z5; \
	VCMPPD       $0x0c, Z27, Z5, K3; \
	VPXORQ       Z1, Z0, Z7; \
	VPANDQ       Z31, Z7, Z7; \
	VPTESTMQ     Z7, Z7, K3, K4; \
	TAIL(ST)

#define DIV8(ST) \
	VADDPD Z28, Z4, K4, Z4; \
	VPORQ  Z7, Z4, Z4; \
	ST(Z4)

#define MOD8(ST) \
	VBLENDMPD Z0, Z1, K3, Z9; \
	VPANDQ    Z31, Z9, Z9; \
	VPORQ     Z5, Z9, Z9; \
	VADDPD    Z1, Z9, K4, Z9; \
	ST(Z9)

DM8(·floorDivF64x8, LD64Z, DIV8, ST64Z)
DM8(·modF64x8, LD64Z, MOD8, ST64Z)
DM8(·floorDivF32x8, LD32Z, DIV8, ST32Z)
DM8(·modF32x8, LD32Z, MOD8, ST32Z)
