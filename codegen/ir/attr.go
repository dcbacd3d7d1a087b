// This file implements the instruction attributes: compare predicates,
// rounding modes, atomic operations, shuffle and vote modes, math functions,
// special registers and fence scopes, each with its name table.

package ir

import "github.com/fuseflow/fuseflow/internal/enum"

// CmpPred is the predicate of OpCmp. For integers only the ordered names
// apply (signedness comes from the operand type; b types allow only EQ and
// NE). For floats the plain predicates are ordered (false when either
// operand is NaN; NE too, unlike Go's !=) and the U forms are unordered
// (true when either operand is NaN; NEU is Go's !=).
type CmpPred uint8

// The compare predicates.
const (
	CmpEQ CmpPred = iota
	CmpNE
	CmpLT
	CmpLE
	CmpGT
	CmpGE
	CmpEQU
	CmpNEU
	CmpLTU
	CmpLEU
	CmpGTU
	CmpGEU
	CmpNUM // neither operand is NaN
	CmpNAN // either operand is NaN
	numCmps
)

var cmpNames = [numCmps]string{"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}

// String returns the PTX name of the predicate ("lt", "neu", ...).
func (c CmpPred) String() string { return enum.Numbered(cmpNames[:], c, "cmp") }

// IsFloatOnly reports whether the predicate applies to floats only (the
// unordered forms, NUM and NAN).
func (c CmpPred) IsFloatOnly() bool { return c >= CmpEQU && c < numCmps }

// Rounding is the rounding mode of OpCvt.
type Rounding uint8

// The rounding modes. RndDefault is round-to-nearest-even for results that
// are floats and round-toward-zero for float-to-integer conversions (C and
// Go semantics). For float-to-integer conversions RN, RZ, RM and RP round
// to an integral value first (PTX rni, rzi, rmi, rpi).
const (
	RndDefault Rounding = iota
	RndRN               // to nearest, ties to even
	RndRZ               // toward zero
	RndRM               // toward minus infinity
	RndRP               // toward plus infinity
	numRnds
)

var rndNames = [numRnds]string{"", "rn", "rz", "rm", "rp"}

// String returns the PTX name of the mode ("" for RndDefault).
func (r Rounding) String() string { return enum.Numbered(rndNames[:], r, "rnd") }

// AtomOp is the operation of OpAtomic.
type AtomOp uint8

// The atomic operations. Add accepts 32- and 64-bit integers, f32 and f64;
// Min and Max 32- and 64-bit integers; Exch and CAS any 32- or 64-bit
// type; And, Or and Xor 32- and 64-bit integers. Inc and Dec take u32 and
// wrap as CUDA's atomicInc and atomicDec: with operand v, Inc stores 0
// when old >= v and old+1 otherwise; Dec stores v when old is 0 or above
// v and old-1 otherwise.
const (
	AtomAdd AtomOp = iota
	AtomMin
	AtomMax
	AtomExch
	AtomCAS
	AtomAnd
	AtomOr
	AtomXor
	AtomInc
	AtomDec
	numAtoms
)

var atomNames = [numAtoms]string{"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"}

// String returns the PTX name of the operation.
func (a AtomOp) String() string { return enum.Numbered(atomNames[:], a, "atom") }

// ShflMode is the mode of OpShfl. For lane i of a 32-lane warp the source
// lane is: Idx: lane&31; Up: i-lane (own value when below 0); Down: i+lane
// (own value when above 31); Bfly: i^lane (own value when above 31).
type ShflMode uint8

// The shuffle modes.
const (
	ShflIdx ShflMode = iota
	ShflUp
	ShflDown
	ShflBfly
	numShfls
)

var shflNames = [numShfls]string{"idx", "up", "down", "bfly"}

// String returns the PTX name of the mode.
func (s ShflMode) String() string { return enum.Numbered(shflNames[:], s, "shfl") }

// VoteMode is the mode of OpVote.
type VoteMode uint8

// The vote modes: all and any yield pred, ballot yields a u32 with bit i set
// when lane i's predicate is true.
const (
	VoteAll VoteMode = iota
	VoteAny
	VoteBallot
	numVotes
)

var voteNames = [numVotes]string{"all", "any", "ballot"}

// String returns the PTX name of the mode.
func (v VoteMode) String() string { return enum.Numbered(voteNames[:], v, "vote") }

// MathFn is the function of OpMath.
type MathFn uint8

// The math functions, for f32 and f64. Pow and Atan2 take two operands
// (Atan2(y, x)); the others one. RoundEven rounds half to even; Sigmoid is
// 1/(1+exp(-x)); Rsqrt is 1/sqrt(x).
const (
	MathExp MathFn = iota
	MathExp2
	MathLog
	MathLog2
	MathLog1p
	MathExpm1
	MathSin
	MathCos
	MathTan
	MathTanh
	MathSigmoid
	MathErf
	MathPow
	MathSqrt
	MathRsqrt
	MathAtan2
	MathFloor
	MathCeil
	MathRoundEven
	MathTrunc
	numMathFns
)

// NumMathFns is the number of math functions, for tables indexed by MathFn.
const NumMathFns = int(numMathFns)

var mathNames = [numMathFns]string{"exp", "exp2", "log", "log2", "log1p", "expm1", "sin", "cos", "tan", "tanh",
	"sigmoid", "erf", "pow", "sqrt", "rsqrt", "atan2", "floor", "ceil", "roundeven", "trunc"}

// String returns the function's name ("exp", "atan2", ...).
func (m MathFn) String() string { return enum.Numbered(mathNames[:], m, "math") }

// Arity returns the number of operands the function takes (1 or 2).
func (m MathFn) Arity() int {
	if m == MathPow || m == MathAtan2 {
		return 2
	}
	return 1
}

// SReg is a special register read by OpSpecial; all are u32.
type SReg uint8

// The special registers: thread index, block dimensions, block index, grid
// dimensions (x, y, z each), the lane index within the warp, the warp
// size (32), the mask of the lanes of the warp executing the read
// together (activemask), and the bytes of dynamic shared memory the
// launch gave the block.
const (
	RegTidX SReg = iota
	RegTidY
	RegTidZ
	RegNtidX
	RegNtidY
	RegNtidZ
	RegCtaidX
	RegCtaidY
	RegCtaidZ
	RegNctaidX
	RegNctaidY
	RegNctaidZ
	RegLaneID
	RegWarpSize
	RegActiveMask
	RegDynSmemSize
	numSRegs
)

var sregNames = [numSRegs]string{"tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z",
	"ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpsize",
	"activemask", "dynamic_smem_size"}

// String returns the PTX name of the register without the % ("tid.x").
func (r SReg) String() string { return enum.Numbered(sregNames[:], r, "sreg") }

// IsThreadVarying reports whether the register may differ between threads
// of one block (tid.*, laneid and activemask).
func (r SReg) IsThreadVarying() bool { return r <= RegTidZ || r == RegLaneID || r == RegActiveMask }

// Scope is the scope of a memory fence.
type Scope uint8

// The fence scopes: the block (membar.cta), the device (membar.gl) and the
// system (membar.sys).
const (
	ScopeCTA Scope = iota
	ScopeGPU
	ScopeSys
	numScopes
)

var scopeNames = [numScopes]string{"cta", "gpu", "sys"}

// String returns the PTX name of the scope.
func (s Scope) String() string { return enum.Numbered(scopeNames[:], s, "scope") }

// RedOp is the reduction of OpBarRed.
type RedOp uint8

// The barrier reductions: popc counts the threads whose predicate is true
// (u32 result); and and or combine the predicates (pred result).
const (
	RedPopc RedOp = iota
	RedAnd
	RedOr
	numReds
)

var redNames = [numReds]string{"popc", "and", "or"}

// String returns the PTX name of the reduction.
func (r RedOp) String() string { return enum.Numbered(redNames[:], r, "red") }

// CacheHint is a load's cache policy.
type CacheHint uint8

// The cache hints: the default, and the read-only non-coherent path
// (ld.global.nc), valid only for memory no thread of the kernel writes.
const (
	CacheDefault CacheHint = iota
	CacheNC
	numCacheHints
)

var cacheNames = [numCacheHints]string{"", "nc"}

// String returns the PTX qualifier of the hint ("" for the default).
func (c CacheHint) String() string { return enum.Numbered(cacheNames[:], c, "cache") }
