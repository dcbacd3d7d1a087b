// Constructors for every op: operand checks, shape and dtype inference,
// implicit casts to the dtype an op computes in, then interning.

package graph

import (
	"fmt"
	"math"
)

// Const returns the 0-d constant s.
func Const(s Scalar) *Node {
	if !s.DType.Supported() {
		return errNode(OpConst, nil, "unsupported dtype %v", s.DType)
	}
	return makeNode(OpConst, s.DType, Shape{}, nil, Attr{Value: s})
}

// Iota returns the 1-d array start + i*step for i in [0, n), computed in
// float64 and converted to d (Arange). With hasStop the last element is
// exactly stop (Linspace).
func Iota(d DType, n int, start, step float64, hasStop bool, stop float64) *Node {
	if !d.Supported() || d == Bool {
		return errNode(OpIota, nil, "unsupported dtype %v", d)
	}
	if n < 0 {
		return errNode(OpIota, nil, "negative length %d", n)
	}
	s := Shape{n}
	if err := CheckShape(s, d); err != nil {
		return errNode(OpIota, nil, "%v", err)
	}
	return makeNode(OpIota, d, s, nil, Attr{Start: start, Step: step, HasStop: hasStop, Stop: stop})
}

// Eye returns an n x m array with ones where column - row == k.
func Eye(d DType, n, m, k int) *Node {
	s := Shape{n, m}
	if !d.Supported() {
		return errNode(OpEye, nil, "unsupported dtype %v", d)
	}
	if err := CheckShape(s, d); err != nil {
		return errNode(OpEye, nil, "%v", err)
	}
	return makeNode(OpEye, d, s, nil, Attr{K: k})
}

// Random returns uniform [0, 1) (op OpRandU) or standard normal (OpRandN)
// values of a float dtype d drawn from Philox4x32-10 with key seed.
func Random(op Op, d DType, s Shape, seed uint64) *Node {
	if op != OpRandU && op != OpRandN {
		return errNode(op, nil, "not a random op")
	}
	if d != Float32 && d != Float64 {
		return errNode(op, nil, "unsupported dtype %v: random arrays are float32 or float64", d)
	}
	if err := CheckShape(s, d); err != nil {
		return errNode(op, nil, "%v", err)
	}
	return makeNode(op, d, s.Clone(), nil, Attr{Seed: seed})
}

// Cast returns x converted to d (AsType). Float to integer truncates
// toward zero, saturating, with NaN to 0; anything to bool is x != 0.
func Cast(x *Node, d DType) *Node {
	if e := firstErr([]*Node{x}); e != nil {
		return e
	}
	if !d.Supported() {
		return errNode(OpCast, []*Node{x}, "unsupported target dtype %v", d)
	}
	if x.dtype == d {
		return x
	}
	return makeNode(OpCast, d, x.shape, []*Node{x}, Attr{})
}

// Unary returns op applied to every element of x. Float math of integers
// computes in float64.
func Unary(op Op, x *Node) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	if op.Class() != ClassUnary || op == OpCast {
		return errNode(op, in, "not a unary op")
	}
	out, compute, err := resultDType(op, x.dtype)
	if err != nil {
		return errNode(op, in, "%v", err)
	}
	if err := checkShapeAs(x.shape, out, compute); err != nil {
		return errNode(op, in, "%v", err)
	}
	if compute != x.dtype && !(op == OpIsNaN || op == OpIsInf) {
		x = Cast(x, compute)
	}
	return makeNode(op, out, x.shape, []*Node{x}, Attr{})
}

// Binary returns op applied elementwise to the broadcast of a and b, after
// promoting both to the dtype the op computes in.
func Binary(op Op, a, b *Node) *Node {
	in := []*Node{a, b}
	if e := firstErr(in); e != nil {
		return e
	}
	if op.Class() != ClassBinary {
		return errNode(op, in, "not a binary op")
	}
	s, err := broadcast2(a.shape, b.shape)
	if err != nil {
		return errNode(op, in, "%v", err)
	}
	p := Promote(a.dtype, b.dtype)
	if err := CheckShape(s, p); err != nil {
		return errNode(op, in, "%v", err)
	}
	if (op == OpAdd || op == OpSub || op == OpMul || op == OpFloorDiv || op == OpMod || op == OpPow) && p == Bool {
		return errNode(op, in, "unsupported dtype bool (use Or, And or AsType)")
	}
	out, compute, err := resultDType(op, p)
	if err != nil {
		return errNode(op, in, "%v", err)
	}
	// The operands are cast to compute in their own shapes, which
	// broadcast to s: checking s checks them too.
	if err := checkShapeAs(s, out, compute); err != nil {
		return errNode(op, in, "%v", err)
	}
	return makeNode(op, out, s, []*Node{Cast(a, compute), Cast(b, compute)}, Attr{})
}

// BinaryWeak returns op applied to x and the Go number w, with w weakly
// typed (see the promotion table). With scalarLeft w is the left operand.
func BinaryWeak(op Op, x *Node, w Weak, scalarLeft bool) *Node {
	if e := firstErr([]*Node{x}); e != nil {
		return e
	}
	d := PromoteWeak(x.dtype, w)
	v, err := w.Value(d)
	if err != nil {
		return errNode(op, []*Node{x}, "%v", err)
	}
	c := Const(v)
	if scalarLeft {
		return Binary(op, c, x)
	}
	return Binary(op, x, c)
}

// Where returns cond ? a : b elementwise over the broadcast of the three.
// cond must be bool; a and b are promoted to a common dtype.
func Where(cond, a, b *Node) *Node {
	in := []*Node{cond, a, b}
	if e := firstErr(in); e != nil {
		return e
	}
	if cond.dtype != Bool {
		return errNode(OpWhere, in, "condition must be bool, not %v", cond.dtype)
	}
	s, err := Broadcast(cond.shape, a.shape, b.shape)
	if err != nil {
		return errNode(OpWhere, in, "%v", err)
	}
	d := Promote(a.dtype, b.dtype)
	if err := CheckShape(s, d); err != nil {
		return errNode(OpWhere, in, "%v", err)
	}
	return makeNode(OpWhere, d, s, []*Node{cond, Cast(a, d), Cast(b, d)}, Attr{})
}

// ReduceDType returns the dtype a reduction op gives for input dtype d:
// Sum and Prod of bool and signed integers accumulate in int64, of
// unsigned integers in uint64 (NumPy), ArgMax and ArgMin give int64, Any
// and All bool, the others d.
func ReduceDType(op Op, d DType) DType {
	switch op {
	case OpSum, OpProd:
		switch {
		case d == Bool || d.IsInt() && !d.Unsigned():
			return Int64
		case d.IsInt():
			return Uint64
		}
		return d
	case OpArgMax, OpArgMin:
		return Int64
	case OpAny, OpAll:
		return Bool
	}
	return d
}

// Reduce returns op over axes of x (every axis when axes is empty), keeping
// reduced axes as extent 1 with keepDims. Max and Min of an empty
// selection are errors (no identity), as in NumPy. For ArgMax and ArgMin
// give one axis, or none to reduce the flattened array.
func Reduce(op Op, x *Node, axes []int, keepDims bool) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	if op.Class() != ClassReduce {
		return errNode(op, in, "not a reduction")
	}
	rank := len(x.shape)
	a := Attr{KeepDims: keepDims}
	if op == OpArgMax || op == OpArgMin {
		switch len(axes) {
		case 0:
			if x.Size() == 0 {
				return errNode(op, in, "attempt to get %v of an empty sequence", op)
			}
			flat := Reshape(x, Shape{x.Size()})
			a.Flat = true
			a.Axes = []int{0}
			s := Shape{}
			if keepDims {
				s = make(Shape, rank)
				for i := range s {
					s[i] = 1
				}
			}
			return makeNode(op, Int64, s, []*Node{flat}, a)
		case 1:
		default:
			return errNode(op, in, "takes one axis or none, got %v", axes)
		}
	}
	norm, err := NormalizeAxes(axes, rank)
	if err != nil {
		return errNode(op, in, "%v", err)
	}
	a.Axes = norm
	var s Shape
	reduced := make([]bool, rank)
	for _, ax := range norm {
		reduced[ax] = true
	}
	empty := false // the selection of each output element is empty
	for i, e := range x.shape {
		if reduced[i] {
			empty = empty || e == 0
			if keepDims {
				s = append(s, 1)
			}
		} else {
			s = append(s, e)
		}
	}
	if s == nil {
		s = Shape{}
	}
	if empty && (op == OpReduceMax || op == OpReduceMin || op == OpArgMax || op == OpArgMin) {
		return errNode(op, in, "zero-size selection has no identity for %v", op)
	}
	out := ReduceDType(op, x.dtype)
	// Sum and Prod of bool and int32 accumulate in the input cast to
	// int64, which must be a valid shape too.
	if (op == OpSum || op == OpProd) && x.dtype != out {
		if err := CheckShape(x.shape, out); err != nil {
			return errNode(op, in, "%v", err)
		}
		x = Cast(x, out)
	}
	if err := CheckShape(s, out); err != nil {
		return errNode(op, in, "%v", err)
	}
	return makeNode(op, out, s, []*Node{x}, a)
}

// Reshape returns x with shape s (same size, row-major element order). One
// extent may be -1 and is then inferred.
func Reshape(x *Node, s Shape) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	s = s.Clone()
	infer := -1
	known, empty := 1, false // the product of the non-zero known extents
	for i, e := range s {
		switch {
		case e == -1 && infer < 0:
			infer = i
		case e < 0:
			return errNode(OpReshape, in, "invalid target shape %v", s)
		case e == 0:
			empty = true
		default:
			var ok bool
			if known, ok = mulExtents(known, e); !ok {
				return errNode(OpReshape, in, "cannot reshape array of size %d into shape %v: the extents' product overflows", x.Size(), s)
			}
		}
	}
	if empty {
		known = 0
	}
	if infer >= 0 {
		if known == 0 || x.Size()%known != 0 {
			return errNode(OpReshape, in, "cannot reshape array of size %d into shape %v", x.Size(), s)
		}
		s[infer] = x.Size() / known
	}
	if err := CheckShape(s, x.dtype); err != nil {
		return errNode(OpReshape, in, "%v", err)
	}
	if s.Size() != x.Size() {
		return errNode(OpReshape, in, "cannot reshape array of size %d into shape %v", x.Size(), s)
	}
	if s.Equal(x.shape) {
		return x
	}
	if x.op == OpReshape {
		x = x.inputs[0]
		if s.Equal(x.shape) {
			return x
		}
	}
	return makeNode(OpReshape, x.dtype, s, []*Node{x}, Attr{})
}

// Permute returns x with its axes reordered: axis i of the result is axis
// perm[i] of x. Negative entries count from the end.
func Permute(x *Node, perm []int) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	rank := len(x.shape)
	if len(perm) != rank {
		return errNode(OpPermute, in, "axes %v don't match array of dimension %d", perm, rank)
	}
	p := make([]int, rank)
	seen := make([]bool, rank)
	identity := true
	for i, ax := range perm {
		n, err := NormalizeAxis(ax, rank)
		if err != nil {
			return errNode(OpPermute, in, "%v", err)
		}
		if seen[n] {
			return errNode(OpPermute, in, "repeated axis in %v", perm)
		}
		seen[n] = true
		p[i] = n
		identity = identity && n == i
	}
	if identity {
		return x
	}
	s := make(Shape, rank)
	for i, ax := range p {
		s[i] = x.shape[ax]
	}
	return makeNode(OpPermute, x.dtype, s, in, Attr{Perm: p})
}

// BroadcastTo returns x stretched to shape s by NumPy's rules (x's shape
// must broadcast to exactly s).
func BroadcastTo(x *Node, s Shape) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	b, err := Broadcast(x.shape, s)
	if err != nil || !b.Equal(s) {
		return errNode(OpBroadcast, in, "cannot broadcast to shape %v", s)
	}
	if err := CheckShape(s, x.dtype); err != nil {
		return errNode(OpBroadcast, in, "%v", err)
	}
	if s.Equal(x.shape) {
		return x
	}
	return makeNode(OpBroadcast, x.dtype, s.Clone(), in, Attr{})
}

// Range is one axis of a Slice request in Python's terms: start, stop and
// step, where Start and Stop may be negative (counting from the end) and
// are clamped to the axis as Python clamps them. NoStart and NoStop stand
// for an omitted bound (the ends, which depend on the sign of Step).
type Range struct {
	Start, Stop, Step int
	NoStart, NoStop   bool
}

// All is the Range of a whole axis (Python's ":").
var All = Range{Step: 1, NoStart: true, NoStop: true}

// Normalize returns the SliceSpec of r over an axis of extent n.
func (r Range) Normalize(n int) (SliceSpec, error) {
	if r.Step == 0 {
		return SliceSpec{}, fmt.Errorf("slice step cannot be zero")
	}
	var start, stop int
	if r.Step > 0 {
		start, stop = 0, n
		if !r.NoStart {
			start = clampIndex(r.Start, n, 0, n)
		}
		if !r.NoStop {
			stop = clampIndex(r.Stop, n, 0, n)
		}
	} else {
		start, stop = n-1, -1
		if !r.NoStart {
			start = clampIndex(r.Start, n, -1, n-1)
		}
		if !r.NoStop {
			stop = clampIndex(r.Stop, n, -1, n-1)
		}
	}
	// The distance between the bounds is at most n+1; steps may be any
	// int, so divide in uint64 (where -math.MinInt is 1<<63).
	length := 0
	if r.Step > 0 && stop > start {
		length = int(uint64(stop-start-1)/uint64(r.Step)) + 1
	} else if r.Step < 0 && start > stop {
		length = int(uint64(start-stop-1)/(-uint64(r.Step))) + 1
	}
	step := r.Step
	if length <= 1 {
		step = 1 // one element or none: any step selects the same
	}
	if length == 0 {
		start = 0
	}
	return SliceSpec{Start: start, Step: step, Len: length}, nil
}

func clampIndex(i, n, lo, hi int) int {
	if i < 0 {
		i += n
	}
	return min(max(i, lo), hi)
}

// Slice returns a strided view of x: one Range per axis (missing trailing
// axes are taken whole).
func Slice(x *Node, ranges []Range) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	rank := len(x.shape)
	if len(ranges) > rank {
		return errNode(OpSlice, in, "too many indices: %d for array of dimension %d", len(ranges), rank)
	}
	specs := make([]SliceSpec, rank)
	s := make(Shape, rank)
	identity := true
	for i := range rank {
		r := All
		if i < len(ranges) {
			r = ranges[i]
		}
		sp, err := r.Normalize(x.shape[i])
		if err != nil {
			return errNode(OpSlice, in, "axis %d: %v", i, err)
		}
		specs[i] = sp
		s[i] = sp.Len
		identity = identity && sp.Start == 0 && sp.Step == 1 && sp.Len == x.shape[i]
	}
	if identity {
		return x
	}
	return makeNode(OpSlice, x.dtype, s, in, Attr{Slices: specs})
}

// Concat joins xs along axis. All must have the same rank and the same
// extents off that axis; dtypes are promoted.
func Concat(xs []*Node, axis int) *Node {
	if e := firstErr(xs); e != nil {
		return e
	}
	if len(xs) == 0 {
		return errNode(OpConcat, nil, "need at least one array to concatenate")
	}
	rank := len(xs[0].shape)
	if rank == 0 {
		return errNode(OpConcat, xs, "zero-dimensional arrays cannot be concatenated")
	}
	ax, err := NormalizeAxis(axis, rank)
	if err != nil {
		return errNode(OpConcat, xs, "%v", err)
	}
	d := xs[0].dtype
	s := xs[0].shape.Clone()
	s[ax] = 0
	for _, x := range xs {
		if len(x.shape) != rank {
			return errNode(OpConcat, xs, "all arrays must have the same number of dimensions")
		}
		for i := range rank {
			if i != ax && x.shape[i] != s[i] {
				return errNode(OpConcat, xs, "extents off axis %d must match", ax)
			}
		}
		var ok bool
		if s[ax], ok = addExtents(s[ax], x.shape[ax]); !ok {
			return errNode(OpConcat, xs, "the extents along axis %d add up to more than %d", ax, math.MaxInt)
		}
		d = Promote(d, x.dtype)
	}
	if err := CheckShape(s, d); err != nil {
		return errNode(OpConcat, xs, "%v", err)
	}
	if len(xs) == 1 {
		return Cast(xs[0], d)
	}
	in := make([]*Node, len(xs))
	for i, x := range xs {
		in[i] = Cast(x, d)
	}
	return makeNode(OpConcat, d, s, in, Attr{Axis: ax})
}

// Copy returns a contiguous copy of x (Contiguous).
func Copy(x *Node) *Node {
	in := []*Node{x}
	if e := firstErr(in); e != nil {
		return e
	}
	return makeNode(OpCopy, x.dtype, x.shape, in, Attr{})
}

// MatMul returns the matrix product of a (..., M, K) and b (..., K, N),
// broadcasting the batch axes. Both must have rank >= 2 (the array API
// handles vectors). Operands are promoted; bool is not supported.
func MatMul(a, b *Node) *Node {
	in := []*Node{a, b}
	if e := firstErr(in); e != nil {
		return e
	}
	if len(a.shape) < 2 || len(b.shape) < 2 {
		return errNode(OpMatMul, in, "operands must have at least 2 dimensions")
	}
	ra, rb := len(a.shape), len(b.shape)
	m, k := a.shape[ra-2], a.shape[ra-1]
	k2, n := b.shape[rb-2], b.shape[rb-1]
	if k != k2 {
		return errNode(OpMatMul, in, "contracted dimensions differ: %d (a) vs %d (b)", k, k2)
	}
	batch, err := Broadcast(a.shape[:ra-2], b.shape[:rb-2])
	if err != nil {
		return errNode(OpMatMul, in, "batch %v", err)
	}
	d := Promote(a.dtype, b.dtype)
	if d == Bool {
		return errNode(OpMatMul, in, "unsupported dtype bool")
	}
	s := append(batch.Clone(), m, n)
	if err := CheckShape(s, d); err != nil {
		return errNode(OpMatMul, in, "%v", err)
	}
	if l := matmulLane(d); l != d {
		// Narrow dtypes (and uint64) multiply in their lane and wrap or
		// round the result: integer products and sums wrap the same way
		// in a wider type, and float16 and bfloat16 accumulate in
		// float32 (as NumPy's and JAX's float16 matmul do).
		p := makeNode(OpMatMul, l, s, []*Node{Cast(a, l), Cast(b, l)}, Attr{})
		return Cast(p, d)
	}
	return makeNode(OpMatMul, d, s, []*Node{Cast(a, d), Cast(b, d)}, Attr{})
}

// matmulLane returns the dtype a product, scan or scatter of dtype d is
// computed in: its lane, and int64 for uint64 (the same bits for sums and
// products; see toLane for orderings).
func matmulLane(d DType) DType {
	if d == Uint64 {
		return Int64
	}
	return d.Lane()
}

// toLane casts x to lane l; with ordered and uint64 x the int64 bits get
// their sign bit flipped, so that int64 order is uint64 order (the
// order-dependent ops: CumMax, CumMin, ScatterMax). Integer sums and
// products wrap the same way in the lane, and float16 and bfloat16 are
// exact in float32, so casting the lane's result back (fromLane) gives
// the op on the narrow dtype (float sums rounded once at the end).
func toLane(x *Node, l DType, ordered bool) *Node {
	if x.op == OpConst { // a constant stays one (scatters take it as an immediate)
		v := x.attr.Value
		c := ScalarOf(l, v.F)
		if !v.DType.IsFloat() {
			c = ScalarInt(l, v.I)
		}
		if ordered && x.dtype == Uint64 {
			c = ScalarInt(l, v.I^math.MinInt64)
		}
		return Const(c)
	}
	y := Cast(x, l)
	if ordered && x.dtype == Uint64 {
		y = Binary(OpXor, y, Const(Scalar{DType: Int64, I: math.MinInt64, F: -0x1p63}))
	}
	return y
}

// fromLane undoes toLane on a result y, giving dtype d.
func fromLane(y *Node, d DType, ordered bool) *Node {
	if ordered && d == Uint64 {
		y = Binary(OpXor, y, Const(Scalar{DType: Int64, I: math.MinInt64, F: -0x1p63}))
	}
	return Cast(y, d)
}

// FloatConst returns a 0-d constant of dtype d with value v.
func FloatConst(d DType, v float64) *Node { return Const(ScalarOf(d, v)) }

// IsFiniteFloat reports whether v is neither NaN nor infinite.
func IsFiniteFloat(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkShapeAs returns CheckShape's error for s in any of ds.
func checkShapeAs(s Shape, ds ...DType) error {
	for _, d := range ds {
		if err := CheckShape(s, d); err != nil {
			return err
		}
	}
	return nil
}
