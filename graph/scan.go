// Scans: CumSum, CumProd, CumMax and CumMin along one axis, with NumPy's
// accumulation dtypes.

package graph

// ScanDType returns the dtype a scan op gives for input dtype d: CumSum
// and CumProd accumulate as Sum and Prod do (bool and integers narrower
// than int64 in int64, as NumPy does on 64-bit Linux; floats keep their
// type); CumMax and CumMin keep d.
func ScanDType(op Op, d DType) DType {
	switch op {
	case OpCumSum:
		return ReduceDType(OpSum, d)
	case OpCumProd:
		return ReduceDType(OpProd, d)
	}
	return d
}

// Scan returns the inclusive scan op (OpCumSum, OpCumProd, OpCumMax or
// OpCumMin) of x along axis (negative counts from the end): element i
// along the axis combines elements 0..i. The result has x's shape and
// ScanDType's dtype; x is cast to it first. CumMax and CumMin propagate
// NaN as NumPy's maximum.accumulate does. x must have rank >= 1 (flatten
// a 0-d array first) and CumSum and CumProd reject nothing NumPy takes:
// bool sums count. An axis out of range is an error naming it.
func Scan(op Op, x *Node, axis int) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	if op.Class() != ClassScan {
		return errNode(op, in, "not a scan")
	}
	ax, err := NormalizeAxis(axis, len(x.shape))
	if err != nil {
		return errNode(op, in, "%v", err)
	}
	out := ScanDType(op, x.dtype)
	if err := CheckShape(x.shape, out); err != nil {
		return errNode(op, in, "%v", err)
	}
	if l := matmulLane(out); l != out {
		// Narrow dtypes and uint64 scan in their lane (see toLane).
		xl := toLane(Cast(x, out), l, op == OpCumMax || op == OpCumMin)
		s := makeNode(op, l, x.shape, []*Node{xl}, Attr{Axis: ax})
		return fromLane(s, out, op == OpCumMax || op == OpCumMin)
	}
	return makeNode(op, out, x.shape, []*Node{Cast(x, out)}, Attr{Axis: ax})
}
