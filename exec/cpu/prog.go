// Programs: a kernel body (fuse.Instr DAG) lowered for chunked
// evaluation. Every instruction computes a whole chunk into a register
// (a chunk-sized scratch vector) before the next runs, NumExpr style;
// contiguous loads read the operand's buffer in place and the value a
// contiguous store takes is computed straight into the destination.

package cpu

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/half"
)

// access is a strided view of a buffer over a program's space (an
// operand it reads or a store it writes).
type access struct {
	buf    int          // index into the plan's buffers, or fuse.NoBuffer
	es     int          // element size in bytes
	lay    graph.Layout // over the program's space
	contig bool         // flat point f is element lay.Offset+f
	// unitRow: not contig, but the last axis is a unit-stride run (a
	// reversed or stepped outer axis), so a chunk within one row of the
	// space is one run of the buffer (rowrun.go).
	unitRow bool
}

// step is one lowered instruction.
type step struct {
	kind   fuse.InstrKind
	op     graph.Op
	dt     graph.DType
	args   [3]int
	un     unaryFn
	bin    binaryFn
	wh     whereFn
	sc     scalarFn // bin with the constant operand in a register, or nil
	scArg  int      // the argument sc reads (the other is the constant)
	opd    int      // operand index (load, gen)
	bits   uint64   // const value as stored bits (a const, or the constant sc takes)
	gen    fuse.GenAttr
	acc    int // acc index
	gat    *fuse.GatherAttr
	gfn    gatherFn
	reg    int  // register, or -1 (in-place load, direct store)
	norm   bool // bool load: gathered and normalized to 0 or 1
	direct int  // store written in place, or -1
	// runStore is the store this value is computed into in place
	// wherever a tile (tile.go) or a chunk (rowrun.go) is one run of it,
	// or -1.
	runStore int
}

// prog is a lowered body over a space, with the stores it feeds.
type prog struct {
	sp     space
	opds   []access
	steps  []step
	stores []access
	vals   []int // value (step index) of each store
	nregs  int
	consts []int   // steps whose registers hold constants, filled once per frame
	tile   *tiling // run in 2-d tiles (tile.go), or nil for flat chunks
	// gathers counts the InstrGathers (fusedgather.go).
	gathers int
}

// newAccess lowers a strided view, dropping axes not in keep (nil keeps
// all) to match a program whose space has only the kept axes.
func newAccess(sp space, buf int, d graph.DType, off int, strides []int, keep []int) access {
	st := strides
	if keep != nil {
		st = make([]int, len(keep))
		for i, k := range keep {
			st[i] = strides[k]
		}
	}
	a := access{buf: buf, es: d.Size(), lay: graph.Layout{DType: d, Shape: sp.shape, Strides: st, Offset: off}}
	a.contig = a.lay.Contiguous()
	a.unitRow = !a.contig && len(st) > 0 && st[len(st)-1] == 1
	return a
}

// compile lowers body over sp. Operand strides are given over the
// kernel's full space; keep (nil for all) lists the axes of it that sp
// has. stores lists the (value, view) pairs the program must write; live
// lists values the caller reads after a chunk (reduction inputs).
func compile(sp space, kopds []fuse.Operand, body []fuse.Instr, stores []fuse.Store, keep, live []int) (*prog, error) {
	p := &prog{sp: sp}
	for _, o := range kopds {
		p.opds = append(p.opds, newAccess(sp, o.Buffer, o.DType, o.Offset, o.Strides, keep))
	}
	for _, s := range stores {
		if s.Value < 0 || s.Value >= len(body) {
			return nil, fmt.Errorf("cpu: store of value %d outside a body of %d", s.Value, len(body))
		}
		p.stores = append(p.stores, newAccess(sp, s.Buffer, s.DType, s.Offset, s.Strides, keep))
		p.vals = append(p.vals, s.Value)
	}
	if keep == nil && live == nil {
		if p.tile = chooseTiling(sp, p.opds, p.stores, body); p.tile != nil {
			// Tiles gather every load and scatter every store.
			for i := range p.opds {
				p.opds[i].contig, p.opds[i].unitRow = false, false
			}
			for i := range p.stores {
				p.stores[i].contig, p.stores[i].unitRow = false, false
			}
		}
	}
	last := make([]int, len(body))
	for i := range last {
		last[i] = -1
	}
	for i, in := range body {
		st, err := lower(in, p.opds)
		if err != nil {
			return nil, fmt.Errorf("cpu: instruction %d (%v %v): %w", i, in.Kind, in.Op, err)
		}
		for k, a := range in.Args {
			if a < 0 || a >= i {
				return nil, fmt.Errorf("cpu: instruction %d reads %d, not an earlier value", i, a)
			}
			st.args[k] = a
			last[a] = i
		}
		p.steps = append(p.steps, st)
		if st.kind == fuse.InstrGather {
			p.gathers++
		}
	}
	for _, v := range p.vals {
		last[v] = len(body)
	}
	for _, v := range live {
		if v < 0 || v >= len(body) {
			return nil, fmt.Errorf("cpu: reduction of value %d outside a body of %d", v, len(body))
		}
		last[v] = len(body)
	}
	// Stores written in place: a contiguous store of a computed value.
	for k, s := range p.stores {
		st := &p.steps[p.vals[k]]
		if s.contig && st.direct < 0 && (st.kind == fuse.InstrOp || st.kind == fuse.InstrGen || st.kind == fuse.InstrGather) {
			st.direct = k
		}
		if (p.tile != nil || s.unitRow) && st.direct < 0 && st.runStore < 0 && (st.kind == fuse.InstrOp || st.kind == fuse.InstrGen) {
			st.runStore = k
		}
	}
	// Registers: constants get their own; other values take a free one
	// and give it back after their last use.
	var free []int
	take := func() int {
		if n := len(free); n > 0 {
			r := free[n-1]
			free = free[:n-1]
			return r
		}
		p.nregs++
		return p.nregs - 1
	}
	for i := range p.steps {
		st := &p.steps[i]
		// The destination is taken before the arguments' registers are
		// given back: a cast between sizes must not write over its operand.
		switch {
		case st.kind == fuse.InstrConst:
			st.reg = p.nregs
			p.nregs++
			p.consts = append(p.consts, i)
		case st.kind == fuse.InstrLoad && st.dt == graph.Bool:
			st.norm = true // any nonzero byte reads as true
			st.reg = take()
		case st.kind == fuse.InstrLoad && p.opds[st.opd].contig:
		case st.kind == fuse.InstrAcc:
		case st.direct >= 0:
		default:
			st.reg = take()
		}
		for k := range nargs(body[i]) {
			a := st.args[k]
			if last[a] == i && p.steps[a].reg >= 0 && p.steps[a].kind != fuse.InstrConst {
				last[a] = -2 // freed once even if it appears twice
				free = append(free, p.steps[a].reg)
			}
		}
		if last[i] == -1 && st.reg >= 0 && st.kind != fuse.InstrConst {
			free = append(free, st.reg) // dead value
		}
	}
	if err := p.resolve(); err != nil {
		return nil, err
	}
	return p, nil
}

func nargs(in fuse.Instr) int { return len(in.Args) }

// lower resolves one instruction's inner loop.
func lower(in fuse.Instr, opds []access) (step, error) {
	st := step{kind: in.Kind, op: in.Op, dt: in.DType, opd: in.Operand, acc: in.Acc, reg: -1, direct: -1, runStore: -1}
	if !in.DType.Supported() {
		return st, fmt.Errorf("unsupported dtype %v", in.DType)
	}
	switch in.Kind {
	case fuse.InstrLoad, fuse.InstrGen:
		if in.Operand < 0 || in.Operand >= len(opds) {
			return st, fmt.Errorf("operand %d out of range", in.Operand)
		}
		if in.Kind == fuse.InstrGen {
			if in.Gen == nil {
				return st, fmt.Errorf("generated leaf without attributes")
			}
			st.gen = *in.Gen
			if _, ok := genTab[in.Op]; !ok {
				return st, fmt.Errorf("not a generated leaf")
			}
		}
	case fuse.InstrConst:
		st.bits = scalarBits(in.Value, in.DType)
	case fuse.InstrAcc:
	case fuse.InstrOp:
		return lowerOp(st, in)
	case fuse.InstrGather:
		return lowerGather(st, in, opds)
	default:
		return st, fmt.Errorf("unknown instruction kind")
	}
	return st, nil
}

// lowerOp resolves the table entry of an elementwise op. It needs the
// operand dtypes, which the caller's body carries: operand dtype is the
// dtype of the first argument (all arguments of a binary op have it).
func lowerOp(st step, in fuse.Instr) (step, error) {
	switch c := in.Op.Class(); {
	case in.Op == graph.OpWhere:
		if len(in.Args) != 3 {
			return st, fmt.Errorf("Where takes 3 arguments, got %d", len(in.Args))
		}
		st.wh = whereTab[in.DType.Size()]
	case c == graph.ClassUnary:
		if len(in.Args) != 1 {
			return st, fmt.Errorf("unary op takes 1 argument, got %d", len(in.Args))
		}
	case c == graph.ClassBinary:
		if len(in.Args) != 2 {
			return st, fmt.Errorf("binary op takes 2 arguments, got %d", len(in.Args))
		}
	default:
		return st, fmt.Errorf("not an elementwise op")
	}
	return st, nil
}

// resolve fills the unary and binary loops once argument dtypes are known.
func (p *prog) resolve() error {
	for i := range p.steps {
		st := &p.steps[i]
		if st.kind != fuse.InstrOp || st.op == graph.OpWhere {
			continue
		}
		in := p.steps[st.args[0]].dt
		switch {
		case st.op == graph.OpCast:
			st.un = castTab[in][st.dt]
		case st.op.Class() == graph.ClassUnary:
			st.un = unaryTab[in][st.op]
		default:
			if b := p.steps[st.args[1]].dt; b != in {
				return fmt.Errorf("cpu: %v of %v and %v (operands must share a dtype)", st.op, in, b)
			}
			st.bin = binaryTab[in][st.op]
			p.scalarForm(st)
		}
		if st.un == nil && st.bin == nil {
			return fmt.Errorf("cpu: %v is not defined for %v", st.op, in)
		}
	}
	return nil
}

// scalarForm gives a binary step whose operand is a constant (and not
// both) the op's scalar-operand loop where there is one; the step keeps
// bin, which the tiled path runs over the constant's register.
func (p *prog) scalarForm(st *step) {
	for k := range 2 {
		c, o := &p.steps[st.args[k]], &p.steps[st.args[1-k]]
		if c.kind != fuse.InstrConst || o.kind == fuse.InstrConst {
			continue
		}
		if f := scalarTab[c.dt][st.op][k]; f != nil {
			st.sc, st.scArg, st.bits = f, st.args[1-k], c.bits
		}
		return
	}
}

// scalarBits returns the bits of v stored as dtype d (in the low bytes).
func scalarBits(v graph.Scalar, d graph.DType) uint64 {
	switch {
	case d == graph.Bool:
		return uint64(b2u(v.I != 0))
	case d.IsInt():
		return uint64(v.I) & (1<<(d.Bits()-1)<<1 - 1)
	case d == graph.Float32:
		return uint64(math.Float32bits(float32(v.F)))
	case d == graph.Float16:
		return uint64(half.FromFloat64(v.F))
	case d == graph.BFloat16:
		return uint64(half.BFromFloat64(v.F))
	}
	return math.Float64bits(v.F)
}

// fill writes n copies of the es-byte value bits at p.
func fill(p unsafe.Pointer, es int, bits uint64, n int) {
	switch es {
	case 1:
		d := view[uint8](p, n)
		for i := range d {
			d[i] = uint8(bits)
		}
	case 2:
		d := view[uint16](p, n)
		for i := range d {
			d[i] = uint16(bits)
		}
	case 4:
		d := view[uint32](p, n)
		for i := range d {
			d[i] = uint32(bits)
		}
	default:
		d := view[uint64](p, n)
		for i := range d {
			d[i] = bits
		}
	}
}
