// Kernel: one fused kernel of a plan — its iteration space, operands,
// scalar body (an expression DAG), stores, and reduction or matmul spec.

package fuse

import (
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/enum"
)

// Kind is the kind of a kernel.
type Kind uint8

// The kernel kinds.
const (
	// KindMap (MapSpec) evaluates Body at every point of Space and stores
	// the values Stores name. Casts, broadcasts, views, Where, constants, Iota, Eye
	// and random numbers are all part of the body; Copy and Concat are
	// Maps whose store is a (sub-)view of the destination buffer.
	KindMap Kind = iota + 1
	// KindReduce (ReduceSpec) evaluates Body (the prologue) at every
	// point of Space, combines the values named by Reductions over the
	// reduced Axes, then evaluates Epilogue once per output point and
	// stores the values Stores name.
	KindReduce
	// KindMatMul (MatMulSpec) computes acc = A·B (batched) for every point of Space
	// (batch..., m, n), then evaluates Epilogue at that point and stores.
	KindMatMul
	// KindCall runs an explicit kernel (see CallSpec) over whole buffers;
	// it is a fusion boundary: the work before it fuses into kernels
	// that store its arguments, the work after it reads its results from
	// their buffers. Its Space is the length of its first written
	// argument, for Explain; it has no Operands, Body or Stores.
	KindCall
	// KindScan (ScanSpec) evaluates Body (the prologue) at every point of Space,
	// combines Body[Scan.Value] along the axis Scan.Axis into inclusive
	// running values (see ScanSpec), then evaluates Epilogue at every
	// point, where InstrAcc (Acc 0) is the running value there, and
	// stores the values Stores name. It is a fusion boundary that still
	// fuses elementwise work before and after the scan.
	KindScan
	// KindIndex gathers, compacts or scatters (see IndexSpec) over whole
	// contiguous buffers; a fusion boundary like KindCall. A Take or
	// TakeAlong is not one: it is an InstrGather fused into the Map or
	// Reduce kernels that read it (see gather.go). Its Space is
	// the result's shape, for Explain; it has no Operands, Body or
	// Stores.
	KindIndex
	// KindSort (SortSpec) sorts the rows of its key operand; a fusion
	// boundary, like KindCall, with no Body.
	KindSort
)

var kindNames = [...]string{KindMap: "map", KindReduce: "reduce", KindMatMul: "matmul", KindCall: "call", KindScan: "scan", KindIndex: "index", KindSort: "sort"}

// String returns "map", "reduce", "matmul", "call", "scan" or "sort".
func (k Kind) String() string {
	return enum.Name(kindNames[:], k, "kind?")
}

// NoBuffer is the Buffer of an Operand that reads no memory: the index
// map of an Iota, Eye or random leaf generated from the element index.
const NoBuffer = -1

// Operand is a strided view read by a kernel, indexed by the points of
// the kernel's Space: at point p the element is element
// Offset + sum(p[k]*Strides[k]) of Plan.Buffers[Buffer], counted in
// elements of DType. len(Strides) == len(Kernel.Space). Broadcasting is a
// stride of 0; Permute, Slice (also negative steps), BroadcastTo and
// compatible Reshapes are folded into Offset and Strides, so views never
// cost a copy.
//
// For a Reduce kernel, operands read by the Epilogue have stride 0 on
// every reduced axis. MatMul operands A and B are not in Operands (see
// MatMulSpec); Operands of a MatMul kernel are read by its Epilogue.
//
// With Buffer == NoBuffer the operand is the index map of a generated
// leaf: Offset + sum(p[k]*Strides[k]) is the row-major flat index of the
// element of the leaf's own (virtual, contiguous) array; see GenAttr.
type Operand struct {
	Buffer  int
	DType   graph.DType
	Offset  int
	Strides []int
}

// Store writes a value of the kernel to a strided view, like Operand:
// the value for point p goes to element Offset + sum(p[k]*Strides[k]) of
// Plan.Buffers[Buffer] as DType (the value's dtype; no conversion).
// Value indexes Body for a Map kernel and Epilogue for Reduce and MatMul
// kernels. For a Reduce kernel the strides of reduced axes are 0 (one
// element per output point). Distinct points of a Store never write the
// same element.
type Store struct {
	Value   int
	Buffer  int
	DType   graph.DType
	Offset  int
	Strides []int
}

// InstrKind says what an Instr computes.
type InstrKind uint8

// The instruction kinds.
const (
	// InstrLoad loads the element of Operands[Operand] at the point.
	InstrLoad InstrKind = iota + 1
	// InstrConst is the constant Value (Value.DType == DType).
	InstrConst
	// InstrGen is a leaf generated from the element index: Op is OpIota,
	// OpEye, OpRandU or OpRandN, Gen holds its attributes and
	// Operands[Operand] (Buffer == NoBuffer) gives its flat index i.
	InstrGen
	// InstrOp applies the elementwise Op (a unary op including OpCast, a
	// binary op, or OpWhere with Args cond, a, b) to the values Args.
	// Operands already have the op's compute dtype (graph.ComputeDType);
	// the result has DType.
	InstrOp
	// InstrAcc is, in an Epilogue, the result of Reductions[Acc] (Reduce)
	// or the GEMM accumulator (MatMul, Acc == 0), at the output point, of
	// dtype DType.
	InstrAcc
	// InstrGather is a fused Take or TakeAlong (Op) in a Map body or a
	// Reduce prologue (never in an epilogue or a Scan): it loads, as
	// DType, the element of Operands[Operand] at the point, displaced by
	// i*Gather.Stride elements, where i is the value Args[0] (an
	// integer of any dtype) normalized: a negative one counts from the
	// end. An index outside [-Gather.Len, Gather.Len) is not loaded
	// through: the kernel fails with graph.IndexError(Op, index,
	// Gather.Axis, Gather.Len) for the bad index at the smallest
	// position (see GatherAttr.Pos) of the first gather of the body, in
	// body order, that has one.
	InstrGather
)

var instrKindNames = [...]string{InstrLoad: "load", InstrConst: "const", InstrGen: "gen", InstrOp: "op", InstrAcc: "acc", InstrGather: "gather"}

// String returns the kind's name ("load").
func (k InstrKind) String() string {
	return enum.Name(instrKindNames[:], k, "instr?")
}

// GenAttr holds the attributes of an index-generated leaf. With i the
// flat index from the leaf's operand:
//
//   - OpIota: Start + i*Step computed in float64 and converted to DType as
//     AsType converts; with HasStop the element i == Len-1 is exactly Stop
//     (Linspace).
//   - OpEye: 1 where (i mod Cols) - (i div Cols) == K, else 0, as DType.
//   - OpRandU: uniform [0, 1) of DType from philox (Float32 or Float64)
//     with key Seed and counter i; OpRandN: standard normal (Normal32 or
//     Normal64) from the same stream.
type GenAttr struct {
	Start, Step, Stop float64
	HasStop           bool
	Len               int // OpIota: number of elements
	Cols              int // OpEye: columns
	K                 int // OpEye: diagonal
	Seed              uint64
}

// GatherAttr holds the attributes of an InstrGather. The operand the
// instruction reads (Instr.Operand) has, over the kernel's space, the
// strides of the gathered array X with the gathered axis left out (0 on
// the axes of the index array for a Take); Stride is the step of X's
// gathered axis, in elements (any sign, 0 for a broadcast X), and Len
// its extent (>= 1). The index value (Instr.Args[0]) is a load of
// the index array at the point.
//
// Pos is the operand (Buffer == NoBuffer) whose flat index at a point
// is the row-major position of the index element read there within the
// index array (Positions elements: the Take's index array, or the
// TakeAlong's broadcast one, of the result's shape). A kernel reports
// the bad index at the smallest such position, which is the first bad
// one in the row-major order of the gather's result, as the reference
// and the Index kernel do. Index is where that array lies (Len ==
// Positions elements of DType at element Offset of
// Plan.Buffers[Index.Buffer], laid out with Strides over Shape), so an
// executor that only learns the position can read the bad value back.
type GatherAttr struct {
	Axis, Len, Stride int
	Pos, Positions    int
	Index             IndexArg
	Shape             []int
	Strides           []int
}

// At returns the element of Index's buffer at position pos of the index
// array (0 <= pos < Positions): Index.Offset plus the strides of
// pos's coordinates over Shape.
func (g *GatherAttr) At(pos int) int {
	e := g.Index.Offset
	for k := len(g.Shape) - 1; k >= 0; k-- {
		if n := g.Shape[k]; n > 0 {
			e += pos % n * g.Strides[k]
			pos /= n
		}
	}
	return e
}

// Instr is one node of a kernel's scalar expression DAG. A body is a
// slice of Instrs in topological order: Args refer to earlier indices of
// the same slice. Identical subexpressions appear once.
type Instr struct {
	Kind  InstrKind
	Op    graph.Op    // InstrOp and InstrGen
	DType graph.DType // the value's dtype
	// Args are indices of earlier Instrs: 1 for a unary op, 2 for a
	// binary op, 3 for Where (cond, a, b).
	Args []int
	// Operand indexes Kernel.Operands (InstrLoad, InstrGen, InstrGather).
	Operand int
	Value   graph.Scalar // InstrConst
	Gen     *GenAttr     // InstrGen
	Acc     int          // InstrAcc
	Gather  *GatherAttr  // InstrGather
}

// Reduction is one reduction of a Reduce kernel: Op (OpSum, OpProd,
// OpReduceMax, OpReduceMin, OpArgMax, OpArgMin, OpAny, OpAll) combines
// Body[Value] over the reduced axes; the result has DType (graph's
// ReduceDType of the value's dtype: Sum and Prod of int accumulate in
// int64, ArgMax/ArgMin give int64, Any/All give bool). Sum, Prod of an
// empty selection give 0 and 1, Any false, All true.
//
// ArgMax and ArgMin give the row-major linear index of the winning point
// within the reduced sub-space (the reduced axes of Space in order); the
// planner keeps reduced axes in logical order (it merges but never
// reorders or reverses them), so that index is the NumPy index. Ties take
// the first index; NaN wins (the first NaN), as in NumPy.
type Reduction struct {
	Op    graph.Op
	Value int
	DType graph.DType
}

// MatOperand is an operand of a GEMM: the matrix at batch point b is at
// Offset + sum(b[k]*Strides[k]) (k over the batch axes) with row stride
// Strides[len-2] and column stride Strides[len-1], in elements of DType.
// len(Strides) == len(Kernel.Space). The planner guarantees that one of
// the last two strides is 1 (or its extent is 1) and the other is at
// least the extent of the unit-stride axis: a row-major matrix
// (Trans false) or a transposed one (Trans true: column stride >= rows,
// row stride 1), as BLAS takes them; batch strides are arbitrary (0
// broadcasts). Anything else is materialized first.
type MatOperand struct {
	Buffer  int
	DType   graph.DType
	Offset  int
	Strides []int
	// Trans is true when the matrix is stored column-major (row stride 1).
	Trans bool
	// LD is the leading dimension: the larger of the last two strides
	// (>= 1).
	LD int
}

// Spec is the part of a Kernel that depends on its kind: *MapSpec,
// *ReduceSpec, *MatMulSpec or *CallSpec. A backend switches on its type
// (or on Kernel.Kind) and reads only the fields of that kind; the fields
// every kind has (Space, Operands, Stores) stay on Kernel.
type Spec interface {
	// Kind returns the kernel kind the spec describes.
	Kind() Kind
	isSpec()
}

// MapSpec is the spec of a Map kernel: Body is evaluated at every point
// of Space, and Stores name values of Body.
type MapSpec struct {
	Body []Instr
}

// ReduceSpec is the spec of a Reduce kernel: Body (the prologue) is
// evaluated at every point of Space, Reductions combine Body values over
// the axes Axes in one pass, and Epilogue is evaluated once per output
// point (a point of Space whose reduced coordinates are all 0); it reads
// InstrAcc values (Acc indexes Reductions) and operands, and Stores name
// values of Epilogue.
//
// Axes are the reduced axes of Space, sorted, at least one. The planner
// puts them either all at the end of Space (rows: each output point
// reduces a contiguous range of points) or all at the start (columns).
type ReduceSpec struct {
	Axes       []int
	Body       []Instr
	Reductions []Reduction
	Epilogue   []Instr
}

// MatMulSpec is the spec of a MatMul kernel: Space is (batch..., M, N),
// K is the contracted extent; A is (batch..., M, K) and B is
// (batch..., K, N). acc has the dtype of A and B (the same: graph casts
// both), accumulated in that dtype; Epilogue is evaluated at every point
// of Space with acc as its InstrAcc (Acc == 0), and Stores name values of
// Epilogue. M, N and K are at least 1 and A and B are valid operands of
// existing buffers: a product with K == 0 is planned as a Map whose body
// is the epilogue with the accumulator a zero constant, and one with an
// empty result plans no kernel. Operands are read by the Epilogue only.
type MatMulSpec struct {
	M, N, K  int
	A, B     MatOperand
	Epilogue []Instr
}

func (*MapSpec) Kind() Kind    { return KindMap }
func (*ReduceSpec) Kind() Kind { return KindReduce }
func (*MatMulSpec) Kind() Kind { return KindMatMul }
func (*CallSpec) Kind() Kind   { return KindCall }
func (*MapSpec) isSpec()       {}
func (*ReduceSpec) isSpec()    {}
func (*MatMulSpec) isSpec()    {}
func (*CallSpec) isSpec()      {}
func (*IndexSpec) Kind() Kind  { return KindIndex }
func (*IndexSpec) isSpec()     {}

// CallSpec is the explicit kernel a Call kernel runs, with its
// arguments in plan buffers and its launch geometry. The planner has
// already filled each written argument's buffer with the initial values
// (the input array's, copied by an earlier Map), so a call runs in
// place: it reads its read-only arguments and reads and writes its
// written ones, and nothing else. Kernel is the graph's callee (package
// kernel's *Kernel); a plan holding it keeps it alive.
type CallSpec struct {
	Kernel graph.Callee
	Args   []CallArg
	// Grid, Block and SharedBytes are an explicit geometry (zero
	// components mean 1); with ForAll the launch has one thread per task
	// for Tasks tasks, in blocks of the size the device prefers.
	Grid, Block [3]int
	SharedBytes int
	ForAll      bool
	Tasks       int
}

// CallArg is one argument of a Call kernel, for one kernel parameter
// after the Thread: a scalar (Buffer == NoBuffer and Len == 0, Value
// set: a Go value of exactly the parameter's type) or a slice of Len
// elements of DType starting at element Offset of Plan.Buffers[Buffer],
// contiguous. A slice without elements may have Buffer == NoBuffer.
type CallArg struct {
	Name        string
	Buffer      int
	DType       graph.DType
	Offset, Len int
	Written     bool
	Value       any
}

// ScanSpec is the spec of a Scan kernel: Body (the prologue) is
// evaluated at every point of Space, and Op (graph.OpCumSum, OpCumProd,
// OpCumMax, OpCumMin) combines Body[Value] along axis Axis of Space,
// front to back, into the running value at each point: the combination
// of the points 0..i along the axis with the same other coordinates.
// Epilogue is evaluated at every point, with the running value there as
// its InstrAcc (Acc == 0), and Stores name values of Epilogue. The value
// already has DType (graph casts bool and narrow integers to int64 for
// CumSum and CumProd), and so has the running value. CumMax and CumMin
// propagate NaN and keep the running value on ties (NumPy's maximum);
// integer sums and products wrap. The planner keeps the scanned axis in
// place (collapsing merges only the axes on either side of it, each side
// with its own), so Space is (outer..., n, inner...) with n at Axis;
// Axis < len(Space).
type ScanSpec struct {
	Op       graph.Op
	Axis     int
	Value    int
	DType    graph.DType
	Body     []Instr
	Epilogue []Instr
}

func (*ScanSpec) Kind() Kind { return KindScan }
func (*ScanSpec) isSpec()    {}

// Kernel is one kernel of a plan: what every kind has (the iteration
// space, the operands it reads, the stores it makes, the ops it fuses and
// its traffic), and Spec, the part that depends on the kind.
//
// Space is the iteration space, outermost axis first, after dimension
// collapsing (see Plan): adjacent axes that are contiguous for every
// operand and store are merged and extent-1 axes are dropped, so a Map
// over same-shape contiguous arrays has rank 1. Space has rank >= 1 (a
// scalar is Space [1]). A Map writes every point; a Reduce reads every
// point. A Call kernel's Space is the length of its first written
// argument (for Explain); it has no Operands or Stores.
type Kernel struct {
	// Name is a short description ("map_exp_mul_add").
	Name     string
	Space    []int
	Operands []Operand
	Stores   []Store
	// Spec is the kind's own part: *MapSpec, *ReduceSpec, *MatMulSpec,
	// *CallSpec, *ScanSpec, *IndexSpec or *SortSpec.
	Spec Spec
	// Fused lists the graph ops this kernel computes, in body order
	// (views included), for Explain.
	Fused []graph.Op
	// BytesRead counts the distinct elements read from buffers (a
	// broadcast operand counts its elements once) times their size;
	// BytesWritten the elements stored times their size.
	BytesRead, BytesWritten int64
}

// Kind returns the kind of k's Spec (0 when it has none).
func (k *Kernel) Kind() Kind {
	if k.Spec == nil {
		return 0
	}
	return k.Spec.Kind()
}

// Map returns k's spec when k is a Map kernel, else nil.
func (k *Kernel) Map() *MapSpec { s, _ := k.Spec.(*MapSpec); return s }

// Reduce returns k's spec when k is a Reduce kernel, else nil.
func (k *Kernel) Reduce() *ReduceSpec { s, _ := k.Spec.(*ReduceSpec); return s }

// MatMul returns k's spec when k is a MatMul kernel, else nil.
func (k *Kernel) MatMul() *MatMulSpec { s, _ := k.Spec.(*MatMulSpec); return s }

// Call returns k's spec when k is a Call kernel, else nil.
func (k *Kernel) Call() *CallSpec { s, _ := k.Spec.(*CallSpec); return s }

// Scan returns k's spec when k is a Scan kernel, else nil.
func (k *Kernel) Scan() *ScanSpec { s, _ := k.Spec.(*ScanSpec); return s }

// Index returns k's spec when k is an Index kernel, else nil.
func (k *Kernel) Index() *IndexSpec { s, _ := k.Spec.(*IndexSpec); return s }

// Bodies returns the scalar expression DAGs of k: the per-point body (a
// Map's Body, a Reduce's prologue) and the per-output-point epilogue (a
// Reduce's or MatMul's Epilogue); either may be nil. For code that walks
// every instruction whatever the kind (Explain, operand checks).
func (k *Kernel) Bodies() (body, epilogue []Instr) {
	switch s := k.Spec.(type) {
	case *MapSpec:
		return s.Body, nil
	case *ReduceSpec:
		return s.Body, s.Epilogue
	case *MatMulSpec:
		return nil, s.Epilogue
	case *ScanSpec:
		return s.Body, s.Epilogue
	}
	return nil, nil
}
