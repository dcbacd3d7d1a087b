// Constant-defining macros shared by the package's AVX2 assembly files.

// VEC8 defines a 32-byte constant: eight copies of a 32-bit pattern.
#define VEC8(name, bits) \
	DATA name+0(SB)/4, $bits; \
	DATA name+4(SB)/4, $bits; \
	DATA name+8(SB)/4, $bits; \
	DATA name+12(SB)/4, $bits; \
	DATA name+16(SB)/4, $bits; \
	DATA name+20(SB)/4, $bits; \
	DATA name+24(SB)/4, $bits; \
	DATA name+28(SB)/4, $bits; \
	GLOBL name(SB), RODATA|NOPTR, $32

// VEC4 defines a 32-byte constant: four copies of a 64-bit pattern.
#define VEC4(name, bits) \
	DATA name+0(SB)/8, $bits; \
	DATA name+8(SB)/8, $bits; \
	DATA name+16(SB)/8, $bits; \
	DATA name+24(SB)/8, $bits; \
	GLOBL name(SB), RODATA|NOPTR, $32
