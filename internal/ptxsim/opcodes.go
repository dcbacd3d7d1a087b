// This file implements the table from opcode to decoder: every
// instruction the simulator implements. An opcode not in it is an error
// naming it.

package ptxsim

// opcodes maps an opcode (without modifiers) to its decoder.
var opcodes map[string]decodeFn

func init() {
	opcodes = map[string]decodeFn{
		"add": decodeAddSub, "sub": decodeAddSub,
		"mul": decodeMul, "mad": decodeMad, "fma": decodeFMAOp,
		"div": decodeDivRem, "rem": decodeDivRem,
		"abs": decodeAbsNeg, "neg": decodeAbsNeg,
		"min": decodeMinMax, "max": decodeMinMax,
		"popc": decodeBitCount, "clz": decodeBitCount, "brev": decodeBitCount,
		"rcp": decodeMathFn, "sqrt": decodeMathFn, "rsqrt": decodeMathFn,
		"sin": decodeMathFn, "cos": decodeMathFn, "lg2": decodeMathFn, "ex2": decodeMathFn, "tanh": decodeMathFn,
		"testp": decodeTestp, "copysign": decodeCopysign,
		"setp": decodeSetp, "selp": decodeSelp,
		"and": decodeLogic, "or": decodeLogic, "xor": decodeLogic, "not": decodeLogic, "cnot": decodeLogic,
		"shl": decodeShift, "shr": decodeShift,
		"mov": decodeMov, "cvt": decodeCvt, "cvta": decodeCvta,
		"ld": decodeLd, "st": decodeSt, "atom": decodeAtom, "red": decodeAtom,
		"shfl": decodeShfl, "vote": decodeVote, "activemask": decodeActivemask,
		"bra": decodeBra, "ret": decodeExit, "exit": decodeExit, "trap": decodeTrap,
		"bar": decodeBarOrWarp, "barrier": decodeBar,
		"membar": decodeMembar, "fence": decodeMembar,
	}
}

// decodeFMAOp decodes fma (floats only).
func decodeFMAOp(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if ok, err := decodeHalfArith(d, s, ms, in, "fma"); ok {
		return err
	}
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	return decodeFMA(d, s, ms, in, t)
}
