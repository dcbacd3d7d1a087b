// The Reduce template's shared parts: the split of the iteration space
// into kept and reduced axes, operand offsets per output point and per
// reduced point, the prologue evaluated into the accumulators, the
// epilogue and its stores, and partials in the scratch buffer.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
)

// reduceState is the lowering state of a Reduce kernel.
type reduceState struct {
	l      *lowerer
	accs   []accum
	nvals  int   // values over all accumulators
	keep   []int // kept axes of Space, in order
	red    []int // reduced axes
	keepEx []int
	redEx  []int
	// prologue is the set of Body instructions the reductions need, and
	// epilogue the set of Epilogue instructions the stores need.
	prologue, epilogue []bool
	// used marks operands the prologue reads.
	used []bool
	// spec is the kernel's reduction.
	spec *fuse.ReduceSpec
}

func (l *lowerer) newReduceState() (*reduceState, error) {
	k := l.k
	spec := k.Reduce()
	if spec == nil {
		return nil, fmt.Errorf("reduce kernel without a ReduceSpec")
	}
	rs := &reduceState{l: l, spec: spec}
	isRed := make([]bool, len(k.Space))
	for _, a := range spec.Axes {
		if a < 0 || a >= len(k.Space) {
			return nil, fmt.Errorf("reduced axis %d outside the space %v", a, k.Space)
		}
		isRed[a] = true
	}
	for i, e := range k.Space {
		if isRed[i] {
			rs.red = append(rs.red, i)
			rs.redEx = append(rs.redEx, e)
		} else {
			rs.keep = append(rs.keep, i)
			rs.keepEx = append(rs.keepEx, e)
		}
	}
	if len(rs.red) == 0 {
		return nil, fmt.Errorf("no reduced axes")
	}
	if len(spec.Reductions) == 0 {
		return nil, fmt.Errorf("no reductions")
	}
	roots := make([]int, len(spec.Reductions))
	for i, r := range spec.Reductions {
		if r.Value < 0 || r.Value >= len(spec.Body) {
			return nil, fmt.Errorf("reduction %d reads value %d, the body has %d", i, r.Value, len(spec.Body))
		}
		a, err := newAccum(r, spec.Body[r.Value].DType)
		if err != nil {
			return nil, err
		}
		for _, e := range rs.redEx {
			a.empty = a.empty || e == 0
		}
		rs.accs = append(rs.accs, a)
		rs.nvals += len(a.types)
		roots[i] = r.Value
	}
	rs.prologue = needed(spec.Body, roots)
	rs.used = make([]bool, len(k.Operands))
	for i, in := range spec.Body {
		if rs.prologue[i] && (in.Kind == fuse.InstrLoad || in.Kind == fuse.InstrGen) {
			rs.used[in.Operand] = true
		}
		if rs.prologue[i] && in.Kind == fuse.InstrGather && in.Gather != nil {
			rs.used[in.Operand], rs.used[in.Gather.Pos] = true, true
		}
	}
	l.gatherWords(spec.Body, rs.prologue)
	sroots := make([]int, len(k.Stores))
	for i, s := range k.Stores {
		if s.Value < 0 || s.Value >= len(spec.Epilogue) {
			return nil, fmt.Errorf("store of value %d, the epilogue has %d", s.Value, len(spec.Epilogue))
		}
		sroots[i] = s.Value
	}
	rs.epilogue = needed(spec.Epilogue, sroots)
	for i, in := range spec.Epilogue {
		if rs.epilogue[i] && in.Kind == fuse.InstrAcc && (in.Acc < 0 || in.Acc >= len(spec.Reductions)) {
			return nil, fmt.Errorf("epilogue reads accumulator %d of %d", in.Acc, len(spec.Reductions))
		}
	}
	return rs, nil
}

// pick returns the entries of v at the given axes.
func pick(v []int, axes []int) []int {
	out := make([]int, len(axes))
	for i, a := range axes {
		out[i] = v[a]
	}
	return out
}

// keptBase returns, per operand, Offset plus the offset of output point
// r (nil for operands the prologue does not read, unless all is set).
func (rs *reduceState) keptBase(r *ir.Value, all bool) []*ir.Value {
	l := rs.l
	ix := l.newSpaceIndexer(rs.keepEx, r)
	out := make([]*ir.Value, len(l.k.Operands))
	for i, o := range l.k.Operands {
		if rs.used[i] || all {
			out[i] = ix.offset(o.Offset, pick(o.Strides, rs.keep))
		}
	}
	return out
}

// accumulate evaluates the prologue at reduced index j of the output
// point whose operand bases are base, and combines it into state (left
// as it is on an error, which it records with fail).
func (rs *reduceState) accumulate(state []*ir.Value, base []*ir.Value, j *ir.Value) []*ir.Value {
	l := rs.l
	k := l.k
	ix := l.newSpaceIndexer(rs.redEx, j)
	offs := make([]*ir.Value, len(k.Operands))
	off := func(op int) *ir.Value {
		if offs[op] == nil {
			o := k.Operands[op]
			r := ix.offset(0, pick(o.Strides, rs.red))
			offs[op] = l.b.Add(base[op], r)
		}
		return offs[op]
	}
	env := pointEnv{
		load: func(op int) *ir.Value {
			o := k.Operands[op]
			return l.load(o.Buffer, o.DType, off(op))
		},
		index:  off,
		offset: off,
	}
	vals, err := l.evalBody(rs.spec.Body, env, rs.prologue)
	if l.fail(err) {
		return state
	}
	return rs.fold(state, vals, j)
}

// fold combines the prologue values vals of reduced index j into state.
func (rs *reduceState) fold(state []*ir.Value, vals []*ir.Value, j *ir.Value) []*ir.Value {
	l := rs.l
	next := make([]*ir.Value, 0, len(state))
	at := 0
	for i, a := range rs.accs {
		n := len(a.types)
		x := l.element(a, vals[rs.spec.Reductions[i].Value], j)
		next = append(next, l.combine(a, state[at:at+n], x)...)
		at += n
	}
	return next
}

// identities returns the starting values of every accumulator.
func (rs *reduceState) identities() []*ir.Value {
	var out []*ir.Value
	for _, a := range rs.accs {
		out = append(out, rs.l.identity(a)...)
	}
	return out
}

// combineAll combines two full states.
func (rs *reduceState) combineAll(x, y []*ir.Value) []*ir.Value {
	out := make([]*ir.Value, 0, len(x))
	at := 0
	for _, a := range rs.accs {
		n := len(a.types)
		out = append(out, rs.l.combine(a, x[at:at+n], y[at:at+n])...)
		at += n
	}
	return out
}

// types returns the register types of a full state.
func (rs *reduceState) types() []ir.Type {
	var out []ir.Type
	for _, a := range rs.accs {
		out = append(out, a.types...)
	}
	return out
}

// finish evaluates the epilogue for output point r from the final state
// and stores the results; an error it records with fail.
func (rs *reduceState) finish(r *ir.Value, state []*ir.Value) {
	l := rs.l
	k := l.k
	finals := make([]*ir.Value, len(rs.accs))
	at := 0
	for i, a := range rs.accs {
		n := len(a.types)
		finals[i] = l.final(a, state[at:at+n])
		at += n
	}
	ix := l.newSpaceIndexer(rs.keepEx, r)
	env := pointEnv{
		load: func(op int) *ir.Value {
			o := k.Operands[op]
			return l.load(o.Buffer, o.DType, ix.offset(o.Offset, pick(o.Strides, rs.keep)))
		},
		index: func(op int) *ir.Value {
			o := k.Operands[op]
			return ix.offset(o.Offset, pick(o.Strides, rs.keep))
		},
		acc: func(i int) *ir.Value { return finals[i] },
	}
	vals, err := l.evalBody(rs.spec.Epilogue, env, rs.epilogue)
	if err != nil {
		l.fail(fmt.Errorf("epilogue: %w", err))
		return
	}
	for _, s := range k.Stores {
		l.store(s.Buffer, s.DType, ix.offset(s.Offset, pick(s.Strides, rs.keep)), vals[s.Value])
	}
}

// scratchPtrs creates the typed pointers into the scratch buffer (call
// in the entry block).
func (rs *reduceState) scratchPtrs() {
	for _, t := range rs.types() {
		rs.l.ptr(scratchBuf, t)
	}
}

// scratchIndex returns the element index, in elements of type t, of
// partial slot of state value v when there are n slots per value: each
// value owns n consecutive 8-byte slots.
func (rs *reduceState) scratchIndex(v int, t ir.Type, slot *ir.Value, n int) *ir.Value {
	l := rs.l
	per := 8 / t.Size()
	idx := l.addConst(slot, v*n)
	if per > 1 {
		idx = l.b.Mul(idx, l.uconst(per))
	}
	return idx
}

// writePartial stores state as partial slot of n.
func (rs *reduceState) writePartial(state []*ir.Value, slot *ir.Value, n int) {
	l := rs.l
	for v, t := range rs.types() {
		l.b.Store(l.b.Index(l.ptr(scratchBuf, t), rs.scratchIndex(v, t, slot, n)), state[v])
	}
}

// readPartial loads partial slot of n.
func (rs *reduceState) readPartial(slot *ir.Value, n int) []*ir.Value {
	l := rs.l
	var out []*ir.Value
	for v, t := range rs.types() {
		out = append(out, l.b.Load(l.b.Index(l.ptr(scratchBuf, t), rs.scratchIndex(v, t, slot, n))))
	}
	return out
}
