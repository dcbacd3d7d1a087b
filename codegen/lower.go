// Lower: the entry point that turns one fuse.Kernel into an IR kernel and
// its Signature — parameter collection, the pointer of each buffer, and
// the dispatch to the Map, Reduce and MatMul templates.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// Lower returns k as an IR kernel for target t, with the Signature an
// executor launches it by, in the geometry ChooseGeometry picks for t.
// The kernel's name is "k_" followed by k.Name made a PTX identifier;
// Compile names kernel i "k<i>_..." to keep the names of a module
// distinct. It returns an error when t is not a valid target, when no
// geometry of k fits t's limits, and for kinds or dtypes it cannot
// generate (Call kernels). The result is verified IR. Safe for
// concurrent use.
func Lower(k *fuse.Kernel, t Target) (*ir.Func, *Signature, error) {
	if k == nil {
		return nil, nil, fmt.Errorf("codegen: nil kernel")
	}
	g, err := ChooseGeometry(k, t)
	if err != nil {
		return nil, nil, err
	}
	return LowerGeometry(k, t, g)
}

// LowerGeometry is Lower in the geometry g instead of the one
// ChooseGeometry picks. It returns an error when g does not respect t's
// limits (threads per block, shared memory, grid size, registers) or is
// inconsistent with k's kind (a partial warp in a reduction, too little
// scratch memory for the partials of a split reduction, a GEMM tile that
// does not match the block).
func LowerGeometry(k *fuse.Kernel, t Target, g Geometry) (*ir.Func, *Signature, error) {
	if k == nil {
		return nil, nil, fmt.Errorf("codegen: nil kernel")
	}
	if err := t.Validate(); err != nil {
		return nil, nil, fmt.Errorf("codegen: kernel %s: %w", k.Name, err)
	}
	if err := checkGeometry(k, t, g); err != nil {
		return nil, nil, err
	}
	l := newLowerer(k, t, g)
	var err error
	switch k.Kind() {
	case fuse.KindMap:
		err = l.lowerMap()
	case fuse.KindReduce:
		err = l.lowerReduce()
	case fuse.KindMatMul:
		err = l.lowerMatMul()
	case fuse.KindScan:
		err = l.lowerScan()
	case fuse.KindIndex:
		err = l.lowerIndex()
	case fuse.KindSort:
		err = l.lowerSort()
	default:
		err = fmt.Errorf("kind %v is not generated here", k.Kind())
	}
	if err == nil {
		err = l.err
	}
	if err != nil {
		return nil, nil, fmt.Errorf("codegen: kernel %s: %w", k.Name, err)
	}
	if !l.b.Terminated() {
		l.b.Ret()
	}
	if err := l.fn.Verify(); err != nil {
		return nil, nil, fmt.Errorf("codegen: kernel %s: generated IR does not verify (a bug): %w", k.Name, err)
	}
	l.sig.Entry = l.fn.Name
	for _, a := range l.fn.Shared {
		l.sig.SharedBytes += a.Bytes()
	}
	return l.fn, l.sig, nil
}

// lowerer holds the state of one kernel's lowering.
type lowerer struct {
	k   *fuse.Kernel
	t   Target
	g   Geometry
	fn  *ir.Func
	b   *ir.Builder
	sig *Signature
	// bufs maps a plan buffer (or scratchBuf) to its pointer parameter;
	// typed caches the pointer cast to each element type.
	bufs  map[int]*ir.Value
	typed map[ptrKey]*ir.Value
	// ut is the unsigned index type (u32 with Geometry.Index32, else u64).
	ut ir.Type
	// pass is the ParamPass parameter, nil when the kernel has one launch.
	pass *ir.Value
	// gwords holds the error word of each fused gather (gatherk.go).
	gwords map[*fuse.GatherAttr]*ir.Value
	// err is the first error met where the template cannot return one:
	// in the callbacks of the builder's loops and branches (see fail).
	err error
}

// fail records err, when it is the first, for LowerGeometry to return,
// and reports whether err is not nil. The code around goes on being
// built (it is discarded).
func (l *lowerer) fail(err error) bool {
	if err != nil && l.err == nil {
		l.err = err
	}
	return err != nil
}

type ptrKey struct {
	buf int
	t   ir.Type
}

// scratchBuf is the key of the kernel's scratch area in lowerer.bufs.
const scratchBuf = -2

func newLowerer(k *fuse.Kernel, t Target, g Geometry) *lowerer {
	fn := ir.NewFunc(entryName(-1, k.Name))
	fn.MaxThreads = g.Block
	l := &lowerer{k: k, t: t, g: g, fn: fn, b: ir.NewBuilder(fn), sig: &Signature{},
		bufs: map[int]*ir.Value{}, typed: map[ptrKey]*ir.Value{}, ut: ir.U64}
	if g.Index32 {
		l.ut = ir.U32
	}
	l.params()
	return l
}

// params declares one pointer parameter per buffer the kernel touches, in
// order of first use: operands, GEMM operands, stores; then the scratch
// area of a reduction's partials, which the signature asks the executor
// for.
func (l *lowerer) params() {
	written := map[int]bool{}
	for _, s := range l.k.Stores {
		written[s.Buffer] = true
	}
	add := func(buf int, d graph.DType) {
		if buf < 0 {
			return
		}
		if _, ok := l.bufs[buf]; ok {
			return
		}
		name := fmt.Sprintf("b%d", buf)
		v := l.fn.AddParam(name, ir.PtrTo(ir.SpaceGlobal, memType(d)))
		l.fn.Param(v).ReadOnly = !written[buf]
		l.bufs[buf] = v
		l.typed[ptrKey{buf, memType(d)}] = v
		l.sig.Params = append(l.sig.Params, Param{Kind: ParamBuffer, Name: v.Name, Buffer: buf, ReadOnly: !written[buf]})
	}
	for _, o := range l.k.Operands {
		if o.Buffer != fuse.NoBuffer {
			add(o.Buffer, o.DType)
		}
	}
	if mm := l.k.MatMul(); mm != nil {
		add(mm.A.Buffer, mm.A.DType)
		add(mm.B.Buffer, mm.B.DType)
	}
	for _, s := range l.k.Stores {
		add(s.Buffer, s.DType)
	}
	if (l.k.Kind() == fuse.KindReduce || l.k.Kind() == fuse.KindScan) && l.g.ScratchBytes > 0 {
		v := l.fn.AddParam("s0", ir.PtrTo(ir.SpaceGlobal, ir.S64))
		l.bufs[scratchBuf] = v
		l.typed[ptrKey{scratchBuf, ir.S64}] = v
		// A scan's status words and ticket counter start cleared.
		l.sig.Scratch = append(l.sig.Scratch, Scratch{Bytes: l.g.ScratchBytes, Zero: l.k.Kind() == fuse.KindScan})
		l.sig.Params = append(l.sig.Params, Param{Kind: ParamScratch, Name: v.Name, Buffer: len(l.sig.Scratch) - 1})
	}
	for _, o := range l.k.Operands {
		if o.Buffer != fuse.NoBuffer {
			l.ptr(o.Buffer, memType(o.DType))
		}
	}
	for _, s := range l.k.Stores {
		l.ptr(s.Buffer, memType(s.DType))
	}
}

// addPass declares the ParamPass parameter.
func (l *lowerer) addPass() *ir.Value {
	v := l.fn.AddParam("pass", ir.S32)
	l.sig.Params = append(l.sig.Params, Param{Kind: ParamPass, Name: v.Name, Buffer: -1})
	l.pass = v
	return v
}

// ptr returns the pointer to element 0 of buffer buf viewed as elements
// of register-memory type t.
func (l *lowerer) ptr(buf int, t ir.Type) *ir.Value {
	if p, ok := l.typed[ptrKey{buf, t}]; ok {
		return p
	}
	base, ok := l.bufs[buf]
	if !ok {
		panic(fmt.Sprintf("codegen: buffer %d has no parameter", buf)) // params() covers every use
	}
	// Every call happens while the builder is in the entry block (see
	// params and the templates' prologues), so the cast dominates all uses.
	p := l.b.PtrCast(base, t)
	l.typed[ptrKey{buf, t}] = p
	return p
}

// launch appends a 1-D launch to the signature.
func (l *lowerer) launch(grid, block int, pass int32) {
	l.sig.Launches = append(l.sig.Launches, Launch{Grid: D1(max(grid, 1)), Block: D1(block), Pass: pass})
}
