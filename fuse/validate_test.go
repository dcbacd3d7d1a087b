// validPlan: the contract of plan.go and kernel.go checked on a plan —
// indices in range, strides of the space's rank, dtypes valid, bodies in
// topological order, reduce axes and GEMM operands as documented, buffers
// live where they are used.

package fuse

import (
	"fmt"
	"slices"

	"github.com/fuseflow/fuseflow/graph"
)

// validPlan returns the first violation of the plan contract, or nil.
func validPlan(p *Plan) error {
	for i, b := range p.Buffers {
		if b.Kind < BufInput || b.Kind > BufResult || b.ElemSize < 1 || b.Elems < 0 || b.Bytes != int64(b.Elems)*int64(b.ElemSize) {
			return fmt.Errorf("buffer %d: %+v", i, b)
		}
		if (b.Kind == BufInput) != (b.Slot >= 0) || b.Slot >= len(p.Inputs) || b.First < -1 || b.Last >= len(p.Kernels) || b.First > b.Last {
			return fmt.Errorf("buffer %d: kind %v slot %d first %d last %d", i, b.Kind, b.Slot, b.First, b.Last)
		}
	}
	for i, in := range p.Inputs {
		if in.Buffer < 0 || in.Buffer >= len(p.Buffers) || p.Buffers[in.Buffer].Slot != i {
			return fmt.Errorf("input %d: buffer %d", i, in.Buffer)
		}
	}
	for ki := range p.Kernels {
		if err := validKernel(p, ki); err != nil {
			return fmt.Errorf("kernel %d (%s): %w", ki, p.Kernels[ki].Name, err)
		}
	}
	for i, o := range p.Outputs {
		if o.Buffer < 0 || o.Buffer >= len(p.Buffers) || !o.Layout.DType.Supported() || len(o.Layout.Strides) != len(o.Layout.Shape) {
			return fmt.Errorf("output %d: %+v", i, o)
		}
	}
	return nil
}

func validKernel(p *Plan, ki int) error {
	k := &p.Kernels[ki]
	r := len(k.Space)
	if r < 1 {
		return fmt.Errorf("space %v", k.Space)
	}
	live := func(b int) error {
		if b < 0 || b >= len(p.Buffers) {
			return fmt.Errorf("buffer %d out of range", b)
		}
		if bb := p.Buffers[b]; bb.Kind != BufInput && (ki < bb.First || ki > bb.Last) {
			return fmt.Errorf("buffer %d used outside its life %d..%d", b, bb.First, bb.Last)
		}
		return nil
	}
	for i, o := range k.Operands {
		if len(o.Strides) != r || !o.DType.Supported() {
			return fmt.Errorf("operand %d: %+v", i, o)
		}
		if o.Buffer != NoBuffer {
			if err := live(o.Buffer); err != nil {
				return fmt.Errorf("operand %d: %w", i, err)
			}
		}
	}
	body, epi := k.Bodies()
	for i, in := range body {
		if in.Kind == InstrGather && in.Gather != nil && in.Operand >= 0 && in.Operand < len(k.Operands) {
			if err := gatherInBounds(p, k, &in); err != nil {
				return fmt.Errorf("instr %d: %w", i, err)
			}
		}
	}
	if err := validBody(k, body, false); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	if err := validBody(k, epi, true); err != nil {
		return fmt.Errorf("epilogue: %w", err)
	}
	vals := body
	switch k.Kind() {
	case KindMap:
	case KindReduce:
		vals = epi
		ax := k.Reduce().Axes
		if len(ax) == 0 || !slices.IsSorted(ax) || ax[0] < 0 || ax[len(ax)-1] >= r ||
			(ax[0] != 0 && ax[len(ax)-1] != r-1) || ax[len(ax)-1]-ax[0] != len(ax)-1 {
			return fmt.Errorf("reduce axes %v of space %v", ax, k.Space)
		}
		for i, rd := range k.Reduce().Reductions {
			if rd.Value < 0 || rd.Value >= len(body) || rd.Op.Class() != graph.ClassReduce || !rd.DType.Supported() {
				return fmt.Errorf("reduction %d: %+v", i, rd)
			}
		}
	case KindMatMul:
		vals = epi
		m := k.MatMul()
		if r < 2 || m.M < 1 || m.N < 1 || m.K < 1 || k.Space[r-2] != m.M || k.Space[r-1] != m.N {
			return fmt.Errorf("matmul spec %+v for space %v", m, k.Space)
		}
		for j, o := range []MatOperand{m.A, m.B} {
			rows, cols := m.M, m.K
			if j == 1 {
				rows, cols = m.K, m.N
			}
			if err := live(o.Buffer); err != nil {
				return fmt.Errorf("matmul operand %d: %w", j, err)
			}
			if len(o.Strides) != r {
				return fmt.Errorf("matmul operand %d: strides %v", j, o.Strides)
			}
			rs, cs := o.Strides[r-2], o.Strides[r-1]
			ok := o.DType == m.A.DType && o.DType.Supported() && o.LD >= 1
			if o.Trans {
				ok = ok && rs == 1 && cs == o.LD && o.LD >= rows
			} else {
				ok = ok && cs == 1 && rs == o.LD && o.LD >= cols
			}
			if !ok {
				return fmt.Errorf("matmul operand %d (%dx%d): %+v", j, rows, cols, o)
			}
		}
	case KindScan:
		vals = epi
		if err := validScan(k); err != nil {
			return err
		}
	case KindIndex:
		if err := validIndex(k, live); err != nil {
			return err
		}
	default:
		return fmt.Errorf("kind %v", k.Kind())
	}
	for i, s := range k.Stores {
		if len(s.Strides) != r || s.Value < 0 || s.Value >= len(vals) || vals[s.Value].DType != s.DType {
			return fmt.Errorf("store %d: %+v", i, s)
		}
		if err := live(s.Buffer); err != nil {
			return fmt.Errorf("store %d: %w", i, err)
		}
		if p.Buffers[s.Buffer].Kind == BufInput {
			return fmt.Errorf("store %d writes input buffer %d", i, s.Buffer)
		}
	}
	return nil
}

func validBody(k *Kernel, body []Instr, epi bool) error {
	for i, in := range body {
		if !in.DType.Supported() {
			return fmt.Errorf("instr %d: dtype %v", i, in.DType)
		}
		for _, a := range in.Args {
			if a < 0 || a >= i {
				return fmt.Errorf("instr %d reads %d", i, a)
			}
		}
		switch in.Kind {
		case InstrLoad, InstrGen:
			if in.Operand < 0 || in.Operand >= len(k.Operands) {
				return fmt.Errorf("instr %d: operand %d", i, in.Operand)
			}
			if gen := k.Operands[in.Operand].Buffer == NoBuffer; gen != (in.Kind == InstrGen) || (gen && in.Gen == nil) {
				return fmt.Errorf("instr %d (%v) reads operand %d of buffer %d", i, in.Kind, in.Operand, k.Operands[in.Operand].Buffer)
			}
		case InstrConst:
			if in.Value.DType != in.DType {
				return fmt.Errorf("instr %d: constant %v of dtype %v", i, in.Value, in.DType)
			}
		case InstrOp:
			if !in.Op.IsElementwise() || len(in.Args) == 0 {
				return fmt.Errorf("instr %d: op %v args %v", i, in.Op, in.Args)
			}
		case InstrGather:
			if err := validGather(k, body, i, epi); err != nil {
				return fmt.Errorf("instr %d: %w", i, err)
			}
		case InstrAcc:
			n := len(reductions(k))
			if k.Kind() == KindMatMul || k.Kind() == KindScan {
				n = 1
			}
			if !epi || in.Acc < 0 || in.Acc >= n {
				return fmt.Errorf("instr %d: acc %d", i, in.Acc)
			}
		default:
			return fmt.Errorf("instr %d: kind %v", i, in.Kind)
		}
	}
	return nil
}

// validGather checks the InstrGather body[i] of k against its contract.
func validGather(k *Kernel, body []Instr, i int, epi bool) error {
	in := &body[i]
	g := in.Gather
	switch {
	case epi || (k.Kind() != KindMap && k.Kind() != KindReduce):
		return fmt.Errorf("gather in an epilogue or a %v kernel", k.Kind())
	case g == nil || (in.Op != graph.OpTake && in.Op != graph.OpTakeAlong) || len(in.Args) != 1:
		return fmt.Errorf("gather %v with %v args %v", in.Op, g, in.Args)
	case in.Operand < 0 || in.Operand >= len(k.Operands) || k.Operands[in.Operand].Buffer == NoBuffer ||
		k.Operands[in.Operand].DType != in.DType:
		return fmt.Errorf("gather reads operand %d", in.Operand)
	case g.Pos < 0 || g.Pos >= len(k.Operands) || k.Operands[g.Pos].Buffer != NoBuffer:
		return fmt.Errorf("gather position operand %d", g.Pos)
	case g.Len < 1 || g.Axis < 0 || g.Positions < 1 || g.Index.Buffer < 0 || g.Index.Len != g.Positions ||
		len(g.Shape) != len(g.Strides) || graph.Shape(g.Shape).Size() != g.Positions:
		return fmt.Errorf("gather attributes %+v", *g)
	case !body[in.Args[0]].DType.IsInt() || body[in.Args[0]].DType != g.Index.DType:
		return fmt.Errorf("gather index of dtype %v, index array %v", body[in.Args[0]].DType, g.Index.DType)
	}
	return nil
}

// gatherInBounds checks that every element the gather in may read lies
// in its buffer, and that its positions lie in the index array.
func gatherInBounds(p *Plan, k *Kernel, in *Instr) error {
	g := in.Gather
	o := k.Operands[in.Operand]
	lo, hi := o.Offset, o.Offset
	for a, n := range k.Space {
		if n == 0 {
			return nil
		}
		d := (n - 1) * o.Strides[a]
		lo, hi = lo+min(0, d), hi+max(0, d)
	}
	d := (g.Len - 1) * g.Stride
	lo, hi = lo+min(0, d), hi+max(0, d)
	if o.Buffer < 0 || o.Buffer >= len(p.Buffers) || lo < 0 || hi >= p.Buffers[o.Buffer].Elems {
		return fmt.Errorf("gather reads elements %d..%d of buffer %d", lo, hi, o.Buffer)
	}
	if g.Pos < 0 || g.Pos >= len(k.Operands) {
		return nil
	}
	po := k.Operands[g.Pos]
	lo, hi = po.Offset, po.Offset
	for a, n := range k.Space {
		d := (n - 1) * po.Strides[a]
		lo, hi = lo+min(0, d), hi+max(0, d)
	}
	if lo < 0 || hi >= g.Positions {
		return fmt.Errorf("gather positions %d..%d of %d", lo, hi, g.Positions)
	}
	if g.Index.Buffer >= 0 && g.Index.Buffer < len(p.Buffers) {
		if e := g.At(g.Positions - 1); e >= p.Buffers[g.Index.Buffer].Elems || g.At(0) < 0 {
			return fmt.Errorf("gather index array reaches element %d of buffer %d", e, g.Index.Buffer)
		}
	}
	return nil
}
