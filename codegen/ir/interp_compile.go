// This file implements compiling a function for the interpreter: every
// instruction becomes a closure over value IDs that runs over a group of
// lanes, chosen by op through a table, so that running allocates nothing.

package ir

import "math"

// execFn runs one instruction for the given lanes.
type execFn func(s *runState, lanes []int32) error

// Kinds of compiled instructions.
const (
	kExec uint8 = iota
	kBarrier
	kWarp
	kBr
	kCondBr
	kRet
)

// cedge is a compiled edge: the target's layout index and the value IDs of
// the arguments and of the parameters they bind.
type cedge struct {
	blk    int
	args   []int
	params []int
}

// cinstr is a compiled instruction.
type cinstr struct {
	kind uint8
	exec execFn
	warp warpFn
	red  func(s *runState) // bar.red: the reduction, run when the barrier opens
	mask int               // warp operations: value ID of the member mask
	cond int               // condbr: value ID of the condition
	succ [2]cedge
	in   *Instr
}

// cblock is a compiled block.
type cblock struct {
	b    *Block
	code []cinstr
}

// execCompilers builds the closure of each op that runs as kExec.
var execCompilers [numOps]func(in *Instr) execFn

func init() {
	arith := func(in *Instr) execFn { return loop2(arithFn(in), in) }
	unary := func(in *Instr) execFn { return loop1(unaryFn(in), in) }
	execCompilers = [numOps]func(in *Instr) execFn{
		OpAdd: arith, OpSub: arith, OpMul: arith, OpDiv: arith, OpRem: arith,
		OpMin: arith, OpMax: arith, OpMulHi: arith, OpMulWide: arith,
		OpShl: arith, OpShr: arith, OpAnd: arith, OpOr: arith, OpXor: arith,
		OpNeg: unary, OpAbs: unary, OpNot: unary, OpPopc: unary, OpClz: unary,
		OpFMA: func(in *Instr) execFn {
			if in.Args[0].Type == F32 {
				return loop3(func(a, b, c uint64) uint64 { return bf32(fma32(f32(a), f32(b), f32(c))) }, in)
			}
			return loop3(func(a, b, c uint64) uint64 { return bf64(math.FMA(f64(a), f64(b), f64(c))) }, in)
		},
		OpCmp: func(in *Instr) execFn { return loop2(cmpFunc(in.Cmp, in.Args[0].Type), in) },
		OpSelect: func(in *Instr) execFn {
			return loop3(func(c, a, b uint64) uint64 {
				if c != 0 {
					return a
				}
				return b
			}, in)
		},
		OpCvt:     func(in *Instr) execFn { return loop1(cvtFunc(in.Args[0].Type, in.Result().Type, in.Rnd), in) },
		OpBitcast: func(in *Instr) execFn { return loop1(func(a uint64) uint64 { return a }, in) },
		OpF32ToF16: func(in *Instr) execFn {
			return loop1(func(a uint64) uint64 { return uint64(f32ToF16Bits(uint32(a))) }, in)
		},
		OpF16ToF32: func(in *Instr) execFn {
			return loop1(func(a uint64) uint64 { return uint64(f16ToF32Bits(uint16(a))) }, in)
		},
		OpF32ToBF16: func(in *Instr) execFn {
			return loop1(func(a uint64) uint64 { return uint64(f32ToBF16Bits(uint32(a))) }, in)
		},
		OpHAdd: halfArithExec, OpHSub: halfArithExec, OpHMul: halfArithExec, OpHCmp: halfCmpExec,
		OpPtrAdd:  func(in *Instr) execFn { return loop2(ptrOffset(in.Args[1].Type, 1), in) },
		OpIndex:   func(in *Instr) execFn { return loop2(ptrOffset(in.Args[1].Type, in.Args[0].Type.Elem().Size()), in) },
		OpPtrCast: func(in *Instr) execFn { return loop1(func(a uint64) uint64 { return a }, in) },
		OpMath: func(in *Instr) execFn {
			if len(in.Args) == 1 {
				g := mathFunc(in.Fn, in.Args[0].Type)
				return loop1(func(a uint64) uint64 { return g(a, a) }, in)
			}
			return loop2(mathFunc(in.Fn, in.Args[0].Type), in)
		},
		OpSpecial: specialExec,
		OpFence:   func(*Instr) execFn { return func(*runState, []int32) error { return nil } },
		OpLoad:    loadExec,
		OpStore:   storeExec,
		OpAtomic:  atomicExec,
		OpTrap: func(*Instr) execFn {
			return func(s *runState, lanes []int32) error {
				return s.fail(lanes[0], "trap: the kernel aborted")
			}
		},
	}
}

// compileProgram compiles a verified function.
func compileProgram(f *Func) *Program {
	p := &Program{fn: f, nvals: f.NumValues(), blocks: make([]cblock, len(f.Blocks))}
	index := make(map[*Block]int, len(f.Blocks))
	for i, b := range f.Blocks {
		index[b] = i
	}
	for i, b := range f.Blocks {
		cb := cblock{b: b, code: make([]cinstr, len(b.Instrs))}
		for k, in := range b.Instrs {
			ci := cinstr{in: in}
			switch in.Op {
			case OpBarrier:
				ci.kind = kBarrier
			case OpBarRed:
				ci.kind, ci.red = kBarrier, barRedExec(in)
			case OpWarpSync:
				ci.kind, ci.warp, ci.mask = kWarp, func(*runState, []int32, uint32) error { return nil }, in.Args[0].ID
			case OpShfl:
				ci.kind, ci.warp, ci.mask = kWarp, shflExec(in), in.Args[2].ID
			case OpVote:
				ci.kind, ci.warp, ci.mask = kWarp, voteExec(in), in.Args[1].ID
			case OpRet:
				ci.kind = kRet
			case OpBr, OpCondBr:
				ci.kind = kBr
				if in.Op == OpCondBr {
					ci.kind, ci.cond = kCondBr, in.Args[0].ID
				}
				for j, e := range in.Succs {
					ce := cedge{blk: index[e.Block]}
					for x, a := range e.Args {
						ce.args = append(ce.args, a.ID)
						ce.params = append(ce.params, e.Block.Params[x].ID)
					}
					ci.succ[j] = ce
				}
			default:
				ci.kind, ci.exec = kExec, execCompilers[in.Op](in)
			}
			cb.code[k] = ci
		}
		p.blocks[i] = cb
	}
	return p
}

// arithFn returns the scalar function of a binary arithmetic or logic op.
func arithFn(in *Instr) fn2 {
	t := in.Args[0].Type
	if t.IsFloat() {
		return floatBinary(in.Op, t)
	}
	return intBinary(in.Op, t.Bits(), t.IsSigned())
}

// unaryFn returns the scalar function of a unary op.
func unaryFn(in *Instr) fn1 {
	t := in.Args[0].Type
	if t.IsFloat() {
		return floatUnary(in.Op, t)
	}
	return intUnary(in.Op, t.Bits(), t.IsSigned())
}

// ptrOffset returns pointer + offset*scale for an offset of type t, kept in
// the 48-bit offset field of the pointer.
func ptrOffset(t Type, scale int) fn2 {
	w, signed := t.Bits(), t.IsSigned()
	return func(p, off uint64) uint64 {
		d := int64(off)
		if signed {
			d = sext(off, w)
		}
		return p&^offMask | (p+uint64(d*int64(scale)))&offMask
	}
}

func loop1(f fn1, in *Instr) execFn {
	d, a := in.Result().ID, in.Args[0].ID
	return func(s *runState, lanes []int32) error {
		nt, r := s.nt, s.regs
		rd, ra := r[d*nt:(d+1)*nt], r[a*nt:(a+1)*nt]
		for _, t := range lanes {
			rd[t] = f(ra[t])
		}
		return nil
	}
}

func loop2(f fn2, in *Instr) execFn {
	d, a, b := in.Result().ID, in.Args[0].ID, in.Args[1].ID
	return func(s *runState, lanes []int32) error {
		nt, r := s.nt, s.regs
		rd, ra, rb := r[d*nt:(d+1)*nt], r[a*nt:(a+1)*nt], r[b*nt:(b+1)*nt]
		for _, t := range lanes {
			rd[t] = f(ra[t], rb[t])
		}
		return nil
	}
}

func loop3(f fn3, in *Instr) execFn {
	d, a, b, c := in.Result().ID, in.Args[0].ID, in.Args[1].ID, in.Args[2].ID
	return func(s *runState, lanes []int32) error {
		nt, r := s.nt, s.regs
		rd, ra, rb, rc := r[d*nt:(d+1)*nt], r[a*nt:(a+1)*nt], r[b*nt:(b+1)*nt], r[c*nt:(c+1)*nt]
		for _, t := range lanes {
			rd[t] = f(ra[t], rb[t], rc[t])
		}
		return nil
	}
}

func specialExec(in *Instr) execFn {
	d, reg := in.Result().ID, in.Reg
	if reg == RegActiveMask {
		return activeMaskExec(d)
	}
	return func(s *runState, lanes []int32) error {
		rd := s.regs[d*s.nt : (d+1)*s.nt]
		if src := s.thr[reg]; src != nil {
			for _, t := range lanes {
				rd[t] = src[t]
			}
			return nil
		}
		u := s.uni[reg]
		for _, t := range lanes {
			rd[t] = u
		}
		return nil
	}
}

// activeMaskExec compiles a read of activemask: for each lane, the mask of
// the lanes of its warp in the group executing the read with it (lanes
// are in increasing order).
func activeMaskExec(d int) execFn {
	return func(s *runState, lanes []int32) error {
		rd := s.regs[d*s.nt : (d+1)*s.nt]
		for i := 0; i < len(lanes); {
			w := lanes[i] / 32
			var m uint32
			j := i
			for ; j < len(lanes) && lanes[j]/32 == w; j++ {
				m |= 1 << uint(lanes[j]%32)
			}
			for _, t := range lanes[i:j] {
				rd[t] = uint64(m)
			}
			i = j
		}
		return nil
	}
}
