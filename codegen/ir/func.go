// This file implements the IR's structure: functions (kernels) with their
// parameters and static allocations, basic blocks with block parameters,
// SSA values, instructions and constants.

package ir

import (
	"math"
	"strconv"
)

// Func is a kernel: parameters, static shared and local allocations, and
// basic blocks in layout order (Blocks[0] is the entry). Build one with
// NewFunc and a Builder. A Func is not safe for concurrent mutation;
// concurrent reads (Verify, Print, Compile) of a finished Func are safe.
type Func struct {
	Name   string
	Params []*Param
	Shared []*Alloc // static shared memory, one instance per block of threads
	Local  []*Alloc // static local arrays, one instance per thread
	// DynShared are views of the block's dynamic shared memory, whose
	// size the launch gives (Config.SharedBytes); all of them start at
	// the same address, as CUDA's extern __shared__ arrays do.
	DynShared []*Alloc
	// ConstArrays are read-only arrays with initial contents in the const
	// space (constant memory), one instance for the whole module.
	ConstArrays []*Alloc
	Blocks      []*Block // layout order; Blocks[0] is the entry block

	// MaxThreads, when positive, is the most threads per block the kernel
	// is launched with (PTX .maxntid); zero means unknown.
	MaxThreads int

	values    []*Value // every value by ID
	consts    map[constKey]*Value
	names     map[string]int // name hint -> uses, for unique names
	blockName map[string]int
	nblocks   int
	buildErrs []Problem // structural misuse recorded by the builder
}

// Param is a kernel parameter: a scalar or a pointer (global or const
// space). Value is the SSA value that stands for it in the body.
type Param struct {
	Name     string
	Type     Type
	Value    *Value
	ReadOnly bool // the kernel never writes through this pointer (allows ld.global.nc)
}

// Alloc is an array declared on the function: static shared or local
// memory, a view of dynamic shared memory, or a constant array. Value is
// a pointer (space shared, local or const, element Elem) to its first
// element.
type Alloc struct {
	Name  string
	Elem  Type
	Count int   // elements; 0 for dynamic shared memory (sized at launch)
	Space Space // SpaceShared, SpaceLocal or SpaceConst
	Value *Value
	// Dynamic marks a view of dynamic shared memory (Func.DynShared).
	Dynamic bool
	// Init holds the bit pattern of each element of a constant array
	// (Func.ConstArrays), as Func.Const takes them.
	Init []uint64
}

// Bytes returns the allocation's size in bytes (0 for dynamic shared
// memory).
func (a *Alloc) Bytes() int { return a.Count * a.Elem.Size() }

// ValueKind says what defines a value.
type ValueKind uint8

// The value kinds.
const (
	ValResult     ValueKind = iota // the result of an instruction (Def, Index)
	ValParam                       // a kernel parameter (Index into Func.Params)
	ValBlockParam                  // a block parameter (Block, Index)
	ValConst                       // a constant (Bits)
	ValAlloc                       // the base pointer of a shared or local allocation (Alloc)
)

// Value is a typed SSA value. Params, constants and allocation bases
// dominate every block; block parameters are defined at the top of their
// block; results at their instruction.
type Value struct {
	ID    int    // dense, unique within the function, in creation order
	Name  string // unique within the function, or empty (printed as %ID)
	Type  Type
	Kind  ValueKind
	Def   *Instr // ValResult: the defining instruction
	Block *Block // ValBlockParam: the block; ValResult: the instruction's block
	Index int    // ValResult: result number; ValParam and ValBlockParam: position
	Bits  uint64 // ValConst: the bit pattern (see Const*)
	Alloc *Alloc // ValAlloc: the allocation
	fn    *Func
}

// Func returns the function the value belongs to.
func (v *Value) Func() *Func { return v.fn }

// IsConst reports whether v is a constant.
func (v *Value) IsConst() bool { return v != nil && v.Kind == ValConst }

// ConstInt returns a constant's value as a signed integer (sign-extended
// for signed types, zero-extended otherwise; floats are truncated).
func (v *Value) ConstInt() int64 {
	switch {
	case v.Type.IsFloat():
		return int64(v.ConstFloat())
	case v.Type.IsSigned():
		sh := 64 - uint(v.Type.Bits())
		return int64(v.Bits<<sh) >> sh
	}
	return int64(v.Bits)
}

// ConstUint returns a constant's bit pattern as an unsigned integer.
func (v *Value) ConstUint() uint64 { return v.Bits }

// ConstFloat returns a float constant's value (f32 widened exactly), or an
// integer constant converted to float64.
func (v *Value) ConstFloat() float64 {
	switch v.Type {
	case F32:
		return float64(math.Float32frombits(uint32(v.Bits)))
	case F64:
		return math.Float64frombits(v.Bits)
	}
	if v.Type.IsSigned() {
		return float64(v.ConstInt())
	}
	return float64(v.Bits)
}

// String returns the value's printed name: %name or %ID, or the literal for
// a constant ("3:s32", "1.5:f32", "true").
func (v *Value) String() string {
	if v == nil {
		return "<nil>"
	}
	if v.Kind == ValConst {
		return constString(v)
	}
	if v.Name != "" {
		return "%" + v.Name
	}
	return "%" + strconv.Itoa(v.ID)
}

func constString(v *Value) string {
	switch {
	case v.Type == Pred:
		if v.Bits != 0 {
			return "true"
		}
		return "false"
	case v.Type == F32:
		return strconv.FormatFloat(v.ConstFloat(), 'g', -1, 32) + ":f32"
	case v.Type == F64:
		return strconv.FormatFloat(v.ConstFloat(), 'g', -1, 64) + ":f64"
	case v.Type.IsSigned():
		return strconv.FormatInt(v.ConstInt(), 10) + ":" + v.Type.String()
	case v.Type.IsBits():
		return "0x" + strconv.FormatUint(v.Bits, 16) + ":" + v.Type.String()
	}
	return strconv.FormatUint(v.Bits, 10) + ":" + v.Type.String()
}

// Edge is a control-flow edge: a target block and the arguments bound to
// its block parameters.
type Edge struct {
	Block *Block
	Args  []*Value
}

// Instr is one instruction. Op says which; Args are the operands; Results
// the values it defines (none, one, or Width for vector loads); Succs the
// edges of a terminator. The attribute fields apply to the ops noted.
type Instr struct {
	Op      Op
	Args    []*Value
	Results []*Value
	Succs   []Edge // OpBr: one edge; OpCondBr: true edge, false edge
	Block   *Block

	Cmp    CmpPred   // OpCmp
	Rnd    Rounding  // OpCvt
	Atom   AtomOp    // OpAtomic
	Shfl   ShflMode  // OpShfl
	Vote   VoteMode  // OpVote
	Fn     MathFn    // OpMath
	Reg    SReg      // OpSpecial
	Scope  Scope     // OpFence
	Cache  CacheHint // OpLoad
	Red    RedOp     // OpBarRed
	Width  int       // OpLoad, OpStore: vector width 1, 2 or 4
	Fmt    HalfFmt   // OpHAdd, OpHSub, OpHMul, OpHCmp: float16 or bfloat16
	Approx bool      // OpMath, OpDiv (floats): fast approximation allowed

	// Comment is free text carried to the PTX output (the fused op the
	// instruction belongs to, for example).
	Comment string
	// Pos is the source position the instruction was built from (zero
	// when none): the Go kernel compiler sets it through Builder.SetPos.
	Pos Pos
}

// Result returns the instruction's first result, or nil when it has none.
func (in *Instr) Result() *Value {
	if len(in.Results) == 0 {
		return nil
	}
	return in.Results[0]
}

// Block is a basic block: parameters (the SSA join values, bound by the
// arguments of the edges that enter it), instructions, and a terminator
// as its last instruction.
type Block struct {
	ID     int    // unique within the function, in creation order
	Name   string // unique within the function
	Params []*Value
	Instrs []*Instr
	fn     *Func
	placed bool // appended to Func.Blocks
}

// Func returns the function the block belongs to.
func (b *Block) Func() *Func { return b.fn }

// String returns the block's name.
func (b *Block) String() string {
	if b == nil {
		return "<nil>"
	}
	return b.Name
}

// Term returns the block's terminator, or nil when it has none yet.
func (b *Block) Term() *Instr {
	if n := len(b.Instrs); n > 0 && b.Instrs[n-1].Op.IsTerminator() {
		return b.Instrs[n-1]
	}
	return nil
}

// Succs returns the blocks the terminator may branch to (nil without one).
func (b *Block) Succs() []*Block {
	t := b.Term()
	if t == nil {
		return nil
	}
	out := make([]*Block, len(t.Succs))
	for i, e := range t.Succs {
		out[i] = e.Block
	}
	return out
}

// NewFunc returns an empty kernel with the given name. Add parameters with
// AddParam and blocks through a Builder.
func NewFunc(name string) *Func {
	return &Func{
		Name:      name,
		consts:    map[constKey]*Value{},
		names:     map[string]int{},
		blockName: map[string]int{},
	}
}

// Values returns every value of the function indexed by ID. The slice is
// the function's own; do not modify it.
func (f *Func) Values() []*Value { return f.values }

// NumValues returns the number of values (one more than the largest ID).
func (f *Func) NumValues() int { return len(f.values) }

// Entry returns the entry block, nil before any block exists.
func (f *Func) Entry() *Block {
	if len(f.Blocks) == 0 {
		return nil
	}
	return f.Blocks[0]
}

func (f *Func) newValue(t Type, kind ValueKind) *Value {
	v := &Value{ID: len(f.values), Type: t, Kind: kind, fn: f}
	f.values = append(f.values, v)
	return v
}

// uniqueName returns hint, or hint with a numeric suffix when it is taken.
func uniqueName(used map[string]int, hint string) string {
	n, ok := used[hint]
	if !ok {
		used[hint] = 1
		return hint
	}
	for {
		cand := hint + strconv.Itoa(n)
		n++
		if _, taken := used[cand]; !taken {
			used[hint] = n
			used[cand] = 1
			return cand
		}
	}
}

// SetName gives v a name derived from hint, unique within the function
// (a numeric suffix is added when hint is taken). Constants keep no name.
// It returns v.
func (f *Func) SetName(v *Value, hint string) *Value {
	if v == nil || v.Kind == ValConst || hint == "" {
		return v
	}
	v.Name = uniqueName(f.names, sanitize(hint))
	return v
}

// sanitize makes names valid PTX identifiers: letters, digits and _, not
// starting with a digit.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) > 0 && b[0] >= '0' && b[0] <= '9' {
		return "_" + string(b)
	}
	return string(b)
}

// AddParam appends a kernel parameter and returns its value. Pointer
// parameters must be in the global or const space (the verifier checks).
func (f *Func) AddParam(name string, t Type) *Value {
	v := f.newValue(t, ValParam)
	p := &Param{Name: name, Type: t, Value: v}
	v.Index = len(f.Params)
	f.Params = append(f.Params, p)
	f.SetName(v, name)
	return v
}

// Param returns the parameter record of a parameter value, nil otherwise.
func (f *Func) Param(v *Value) *Param {
	if v == nil || v.Kind != ValParam || v.Index >= len(f.Params) {
		return nil
	}
	return f.Params[v.Index]
}

// AddShared declares a static shared-memory array of count elements of
// type elem and returns a shared pointer to its first element.
func (f *Func) AddShared(name string, elem Type, count int) *Value {
	return f.addAlloc(&f.Shared, SpaceShared, name, elem, count)
}

// AddLocal declares a static per-thread local array of count elements of
// type elem and returns a local pointer to its first element.
func (f *Func) AddLocal(name string, elem Type, count int) *Value {
	return f.addAlloc(&f.Local, SpaceLocal, name, elem, count)
}

// AddDynShared declares a view, with element type elem, of the block's
// dynamic shared memory and returns a shared pointer to its start. Every
// view starts at the same address (aligned to 16 bytes); the launch gives
// the size, which the RegDynSmemSize special register reads.
func (f *Func) AddDynShared(name string, elem Type) *Value {
	v := f.addAlloc(&f.DynShared, SpaceShared, name, elem, 0)
	v.Alloc.Dynamic = true
	return v
}

// AddConstArray declares a constant array in the const space whose
// elements have type elem and the bit patterns init (masked to the
// type's width, as Const does), and returns a const pointer to its first
// element. The kernel cannot write it.
func (f *Func) AddConstArray(name string, elem Type, init []uint64) *Value {
	v := f.addAlloc(&f.ConstArrays, SpaceConst, name, elem, len(init))
	bits := make([]uint64, len(init))
	for i, x := range init {
		if w := elem.Bits(); w > 0 && w < 64 {
			x &= 1<<uint(w) - 1
		}
		bits[i] = x
	}
	v.Alloc.Init = bits
	return v
}

func (f *Func) addAlloc(list *[]*Alloc, sp Space, name string, elem Type, count int) *Value {
	a := &Alloc{Name: name, Elem: elem, Count: count, Space: sp}
	v := f.newValue(PtrTo(sp, elem), ValAlloc)
	v.Alloc = a
	v.Index = len(*list)
	a.Value = v
	*list = append(*list, a)
	f.SetName(v, name)
	return v
}

// NewBlock creates a block with parameters of the given types, appends it
// to the layout, and returns it. The name is made unique.
func (f *Func) NewBlock(name string, params ...Type) *Block {
	b := f.newBlock(name, params...)
	f.place(b)
	return b
}

// newBlock creates a block that is not yet in the layout.
func (f *Func) newBlock(name string, params ...Type) *Block {
	if name == "" {
		name = "b"
	}
	b := &Block{ID: f.nblocks, Name: uniqueName(f.blockName, sanitize(name)), fn: f}
	f.nblocks++
	for i, t := range params {
		v := f.newValue(t, ValBlockParam)
		v.Block = b
		v.Index = i
		b.Params = append(b.Params, v)
	}
	return b
}

// place appends b to the layout once.
func (f *Func) place(b *Block) {
	if !b.placed {
		b.placed = true
		f.Blocks = append(f.Blocks, b)
	}
}

// constKey identifies a uniqued constant.
type constKey struct {
	t    Type
	bits uint64
}

// Const returns the constant of type t with the given bit pattern (masked to
// the type's width; for f32 the low 32 bits are the float32 bits).
// Constants are uniqued per function.
func (f *Func) Const(t Type, bits uint64) *Value {
	if w := t.Bits(); w > 0 && w < 64 {
		bits &= 1<<uint(w) - 1
	}
	k := constKey{t, bits}
	if v, ok := f.consts[k]; ok {
		return v
	}
	v := f.newValue(t, ValConst)
	v.Bits = bits
	f.consts[k] = v
	return v
}

// ConstInt returns the integer constant v of type t (an integer type;
// truncated to its width), or the float constant float(v) for a float t.
func (f *Func) ConstInt(t Type, v int64) *Value {
	if t.IsFloat() {
		return f.ConstFloat(t, float64(v))
	}
	return f.Const(t, uint64(v))
}

// ConstFloat returns the float constant v of type t (f32 rounds v to
// float32), or the integer constant int64(v) for an integer t.
func (f *Func) ConstFloat(t Type, v float64) *Value {
	switch t {
	case F32:
		return f.Const(t, uint64(math.Float32bits(float32(v))))
	case F64:
		return f.Const(t, math.Float64bits(v))
	}
	return f.ConstInt(t, int64(v))
}

// ConstBool returns the pred constant true or false.
func (f *Func) ConstBool(b bool) *Value {
	if b {
		return f.Const(Pred, 1)
	}
	return f.Const(Pred, 0)
}

// Consts returns the function's constants in creation order.
func (f *Func) Consts() []*Value {
	var out []*Value
	for _, v := range f.values {
		if v.Kind == ValConst {
			out = append(out, v)
		}
	}
	return out
}

// Preds returns the predecessors of every block in the layout, in layout
// order of the branching blocks (a block branching twice to the same
// target appears twice).
func (f *Func) Preds() map[*Block][]*Block {
	out := make(map[*Block][]*Block, len(f.Blocks))
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			out[s] = append(out[s], b)
		}
	}
	return out
}
