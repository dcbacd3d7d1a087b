// Op: the operation enum and its metadata table (name, class, arity,
// dtype rule).

package graph

import (
	"fmt"

	"github.com/fuseflow/fuseflow/internal/enum"
)

// Op names the operation a Node performs.
type Op uint8

// The operations. Mean, Var, Std, Clip, Stack, ExpandDims, Squeeze and
// Flatten have no Op of their own: they are built from these.
const (
	OpInvalid Op = iota

	// Leaves.
	OpInput    // data bound at evaluation time (Attr.Label names it)
	OpConst    // a 0-d constant (Attr.Value)
	OpIota     // Attr.Start + i*Attr.Step along axis 0 of a 1-d shape; Linspace sets Attr.HasStop
	OpEye      // ones where column - row == Attr.K, over a 2-d shape
	OpRandU    // uniform [0, 1) from Philox4x32-10 keyed by Attr.Seed, counter = flat index
	OpRandN    // standard normal from the same stream (Box-Muller on two words)
	opLeafEnd  // marker
	OpNeg      // -x
	OpAbs      // |x|
	OpSign     // -1, 0, 1 (NaN stays NaN)
	OpSqrt     // square root
	OpRsqrt    // 1/sqrt(x)
	OpExp      // e^x
	OpExp2     // 2^x
	OpLog      // natural log
	OpLog2     // base-2 log
	OpLog1p    // log(1+x)
	OpExpm1    // e^x - 1
	OpSin      // sine
	OpCos      // cosine
	OpTan      // tangent
	OpTanh     // hyperbolic tangent
	OpSigmoid  // 1/(1+e^-x)
	OpErf      // error function
	OpFloor    // round down
	OpCeil     // round up
	OpRound    // round half to even
	OpTrunc    // round toward zero
	OpRecip    // 1/x
	OpSquare   // x*x
	OpIsNaN    // x != x
	OpIsInf    // |x| == inf
	OpNot      // logical not (bool), bitwise not (ints)
	OpCast     // convert to the node's dtype
	opUnaryEnd // marker
	OpAdd      // a + b
	OpSub      // a - b
	OpMul      // a * b
	OpDiv      // true division (ints divide as float64)
	OpFloorDiv // floor(a / b); integer division by zero gives 0
	OpMod      // a - floor(a/b)*b, sign of b; integer modulo by zero gives 0
	OpPow      // a ** b
	OpMax      // elementwise maximum, NaN propagates
	OpMin      // elementwise minimum, NaN propagates
	OpAtan2    // atan2(a, b)
	OpEq       // a == b
	OpNe       // a != b
	OpLt       // a < b
	OpLe       // a <= b
	OpGt       // a > b
	OpGe       // a >= b
	OpAnd      // logical (bool) or bitwise (ints) and
	OpOr       // logical or bitwise or
	OpXor      // logical or bitwise xor
	opBinaryEnd
	OpWhere // cond ? a : b
	OpSum   // reduction over Attr.Axes
	OpProd
	OpReduceMax
	OpReduceMin
	OpArgMax // index along the single axis Attr.Axes[0] (of the flattened input when Attr.Flat)
	OpArgMin
	OpAny
	OpAll
	opReduceEnd
	OpReshape   // same elements, new shape (row-major order)
	OpPermute   // axes reordered by Attr.Perm
	OpBroadcast // stretched to the node's shape
	OpSlice     // Attr.Slices per axis
	OpConcat    // inputs joined along Attr.Axis
	OpCopy      // a contiguous copy
	OpMatMul    // batched matrix product of two arrays of rank >= 2
	OpCall      // output Attr.Output of the explicit kernel call Attr.Call
	// Scans: inclusive prefix combination along Attr.Axis (scan.go).
	OpCumSum
	OpCumProd
	OpCumMax
	OpCumMin
	// Indexing: gathers, compaction and scatters (graph/index.go).
	OpTake       // x along Attr.Axis at the elements of an index array
	OpTakeAlong  // x along Attr.Axis at the index of the same point
	OpNonzero    // row-major flat indices of the true elements; the count is the length
	OpScatter    // base with updates written along Attr.Axis at indices (last wins)
	OpScatterAdd // base with updates added along Attr.Axis at indices (repeats add)
	OpScatterMax // base with the maximum of updates along Attr.Axis at indices
	OpCompress   // the rows of x (axis 0) where cond is not zero; the count is the length
	// Sorting along Attr.Axis, keeping the first Attr.K of each row
	// (descending with Attr.Desc: TopK).
	OpSort    // the sorted values
	OpArgSort // their indices along the axis (int64)
	opEnd
)

// Class groups ops by how they are evaluated and fused.
type Class uint8

// The op classes.
const (
	ClassInvalid Class = iota
	ClassLeaf
	ClassUnary
	ClassBinary
	ClassWhere
	ClassReduce
	ClassView
	ClassConcat
	ClassCopy
	ClassMatMul
	ClassCall
	ClassScan
	ClassIndex
	ClassSort
)

var opNames = [...]string{
	OpInvalid: "Invalid", OpInput: "Input", OpConst: "Const", OpIota: "Iota", OpEye: "Eye",
	OpRandU: "Rand", OpRandN: "Normal",
	OpNeg: "Neg", OpAbs: "Abs", OpSign: "Sign", OpSqrt: "Sqrt", OpRsqrt: "Rsqrt", OpExp: "Exp",
	OpExp2: "Exp2", OpLog: "Log", OpLog2: "Log2", OpLog1p: "Log1p", OpExpm1: "Expm1",
	OpSin: "Sin", OpCos: "Cos", OpTan: "Tan", OpTanh: "Tanh", OpSigmoid: "Sigmoid", OpErf: "Erf",
	OpFloor: "Floor", OpCeil: "Ceil", OpRound: "Round", OpTrunc: "Trunc", OpRecip: "Reciprocal",
	OpSquare: "Square", OpIsNaN: "IsNaN", OpIsInf: "IsInf", OpNot: "Not", OpCast: "AsType",
	OpAdd: "Add", OpSub: "Sub", OpMul: "Mul", OpDiv: "Div", OpFloorDiv: "FloorDiv", OpMod: "Mod",
	OpPow: "Pow", OpMax: "Maximum", OpMin: "Minimum", OpAtan2: "Atan2",
	OpEq: "Eq", OpNe: "Ne", OpLt: "Lt", OpLe: "Le", OpGt: "Gt", OpGe: "Ge",
	OpAnd: "And", OpOr: "Or", OpXor: "Xor",
	OpWhere: "Where", OpSum: "Sum", OpProd: "Prod", OpReduceMax: "Max", OpReduceMin: "Min",
	OpArgMax: "ArgMax", OpArgMin: "ArgMin", OpAny: "Any", OpAll: "All",
	OpReshape: "Reshape", OpPermute: "Permute", OpBroadcast: "BroadcastTo", OpSlice: "Slice",
	OpConcat: "Concat", OpCopy: "Contiguous", OpMatMul: "MatMul", OpCall: "Call",
	OpCumSum: "CumSum", OpCumProd: "CumProd", OpCumMax: "CumMax", OpCumMin: "CumMin",
	OpTake: "Take", OpTakeAlong: "TakeAlongAxis", OpNonzero: "Nonzero", OpScatter: "Scatter",
	OpScatterAdd: "ScatterAdd", OpScatterMax: "ScatterMax", OpCompress: "Mask",
	OpSort: "Sort", OpArgSort: "ArgSort",
	opLeafEnd: "?", opUnaryEnd: "?", opBinaryEnd: "?", opReduceEnd: "?",
}

// String returns the op's name as the user API spells it ("Add").
func (o Op) String() string {
	return enum.Numbered(opNames[:], o, "Op")
}

// Ops lists every valid op, for tests and tables.
func Ops() []Op {
	var out []Op
	for o := OpInvalid + 1; o < opEnd; o++ {
		if o.Class() != ClassInvalid {
			out = append(out, o)
		}
	}
	return out
}

// Class returns the class of o.
func (o Op) Class() Class {
	switch {
	case o > OpInvalid && o < opLeafEnd:
		return ClassLeaf
	case o > opLeafEnd && o < opUnaryEnd:
		return ClassUnary
	case o > opUnaryEnd && o < opBinaryEnd:
		return ClassBinary
	case o == OpWhere:
		return ClassWhere
	case o > OpWhere && o < opReduceEnd:
		return ClassReduce
	case o == OpReshape || o == OpPermute || o == OpBroadcast || o == OpSlice:
		return ClassView
	case o == OpConcat:
		return ClassConcat
	case o == OpCopy:
		return ClassCopy
	case o == OpMatMul:
		return ClassMatMul
	case o == OpCall:
		return ClassCall
	case o >= OpCumSum && o <= OpCumMin:
		return ClassScan
	case o >= OpTake && o <= OpCompress:
		return ClassIndex
	case o == OpSort || o == OpArgSort:
		return ClassSort
	}
	return ClassInvalid
}

// IsElementwise reports whether o computes each output element from the
// elements at the same index of its (broadcast) inputs.
func (o Op) IsElementwise() bool {
	c := o.Class()
	return c == ClassUnary || c == ClassBinary || c == ClassWhere
}

// IsCompare reports whether o is one of Eq, Ne, Lt, Le, Gt, Ge.
func (o Op) IsCompare() bool { return o >= OpEq && o <= OpGe }

// dtype rules for unary and binary ops.
type rule uint8

const (
	ruleNone      rule = iota // not an elementwise op
	ruleFloatMath             // float keeps its type, int becomes a float (floatFor), bool is an error
	ruleNumeric               // int and float keep their type, bool is an error
	ruleAny                   // every dtype keeps its type
	ruleRounding              // float keeps its type, int is unchanged, bool is an error
	rulePredicate             // any dtype, result bool
	ruleLogical               // bool or int keeps its type, float is an error
	ruleDiv                   // promoted; int and bool become float64
	ruleCompare               // promoted for the comparison, result bool
	ruleCast                  // any to any
)

// opRules is indexed by Op (ruleNone for ops without a rule).
var opRules = [256]rule{
	OpNeg: ruleNumeric, OpAbs: ruleAny, OpSign: ruleNumeric, OpSquare: ruleNumeric,
	OpSqrt: ruleFloatMath, OpRsqrt: ruleFloatMath, OpExp: ruleFloatMath, OpExp2: ruleFloatMath,
	OpLog: ruleFloatMath, OpLog2: ruleFloatMath, OpLog1p: ruleFloatMath, OpExpm1: ruleFloatMath,
	OpSin: ruleFloatMath, OpCos: ruleFloatMath, OpTan: ruleFloatMath, OpTanh: ruleFloatMath,
	OpSigmoid: ruleFloatMath, OpErf: ruleFloatMath, OpRecip: ruleFloatMath,
	OpFloor: ruleRounding, OpCeil: ruleRounding, OpRound: ruleRounding, OpTrunc: ruleRounding,
	OpIsNaN: rulePredicate, OpIsInf: rulePredicate, OpNot: ruleLogical, OpCast: ruleCast,

	OpAdd: ruleNumeric, OpSub: ruleNumeric, OpMul: ruleNumeric, OpDiv: ruleDiv,
	OpFloorDiv: ruleNumeric, OpMod: ruleNumeric, OpPow: ruleNumeric,
	OpMax: ruleAny, OpMin: ruleAny, OpAtan2: ruleFloatMath,
	OpEq: ruleCompare, OpNe: ruleCompare, OpLt: ruleCompare, OpLe: ruleCompare,
	OpGt: ruleCompare, OpGe: ruleCompare,
	OpAnd: ruleLogical, OpOr: ruleLogical, OpXor: ruleLogical,
}

// resultDType applies o's dtype rule to the (already promoted) operand
// dtype d and returns the result dtype and the dtype the op computes in.
func resultDType(o Op, d DType) (out, compute DType, err error) {
	r := opRules[o]
	if r == ruleNone {
		return Invalid, Invalid, fmt.Errorf("op %v has no elementwise dtype rule", o)
	}
	bad := func() (DType, DType, error) {
		return Invalid, Invalid, fmt.Errorf("unsupported dtype %v", d)
	}
	switch r {
	case ruleFloatMath:
		switch {
		case d.IsFloat():
			return d, d, nil
		case d.IsInt():
			f := FloatFor(d)
			return f, f, nil
		}
		return bad()
	case ruleNumeric, ruleRounding:
		if d.IsBool() {
			return bad()
		}
		return d, d, nil
	case ruleAny, ruleCast:
		return d, d, nil
	case rulePredicate, ruleCompare:
		return Bool, d, nil
	case ruleLogical:
		if d.IsFloat() {
			return bad()
		}
		return d, d, nil
	case ruleDiv:
		if d.IsFloat() {
			return d, d, nil
		}
		return Float64, Float64, nil
	}
	return bad()
}

// FloatFor returns the float dtype float math (Sqrt, Exp, Atan2, ...)
// of the integer dtype d computes in, as NumPy 2 picks it: the smallest
// float that is a safe cast of d: float16 for int8 and uint8, float32 for
// int16 and uint16, float64 for the 32- and 64-bit integers.
func FloatFor(d DType) DType {
	switch d {
	case Int8, Uint8:
		return Float16
	case Int16, Uint16:
		return Float32
	}
	return Float64
}

// ComputeDType returns the dtype in which an elementwise node computes:
// the type its operands are converted to before the operation. For
// comparisons it is the promoted operand type, for Div of integers and
// for float math on integers it is Float64, for Cast it is the input's.
func ComputeDType(n *Node) DType {
	switch n.op.Class() {
	case ClassUnary:
		if n.op == OpCast {
			return n.inputs[0].dtype
		}
		_, c, _ := resultDType(n.op, n.inputs[0].dtype)
		return c
	case ClassBinary:
		_, c, _ := resultDType(n.op, Promote(n.inputs[0].dtype, n.inputs[1].dtype))
		return c
	}
	return n.dtype
}
