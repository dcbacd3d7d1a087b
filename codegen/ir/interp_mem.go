// This file implements memory access in the interpreter: pointer decoding,
// bounds, alignment and initialization checks, and the load, store and
// atomic instructions.

package ir

import "github.com/fuseflow/fuseflow/internal/le"

// offMask selects the byte offset of a pointer register; the memory object
// index is in the bits above.
const offMask = 1<<48 - 1

// Access modes of locate.
const (
	accRead  = 1
	accWrite = 2
)

// locate checks an access of n bytes through pointer p by thread t and
// returns the object and the bytes. Writes mark the bytes initialized;
// reads of never-written shared or local bytes are errors.
func (s *runState) locate(p uint64, n int, t int32, mode int, op string) ([]byte, *memObj, error) {
	id := int(p >> 48)
	off := sext(p&offMask, 48)
	if id <= 0 || id >= len(s.objs) {
		return nil, nil, s.fail(t, "%s through an invalid pointer %#x", op, p)
	}
	o := &s.objs[id]
	if off < int64(o.lo) || off+int64(n) > int64(o.size) {
		if o.lo > 0 {
			return nil, nil, s.fail(t, "out-of-bounds %s of %s: offset %d, size %d, the %s spans bytes %d to %d", op, o.describe(), off, n, o.kindName(), o.lo, o.size)
		}
		return nil, nil, s.fail(t, "out-of-bounds %s of %s: offset %d, size %d, the %s is %d bytes", op, o.describe(), off, n, o.kindName(), o.size)
	}
	if off%int64(n) != 0 {
		return nil, nil, s.fail(t, "misaligned %s of %s: offset %d is not a multiple of the access size %d", op, o.describe(), off, n)
	}
	if mode&accWrite != 0 && o.readOnly {
		return nil, nil, s.fail(t, "%s through read-only %s", op, o.describe())
	}
	at := int(off)
	if o.perThread {
		at += int(t) * o.size
	}
	buf := o.data[at : at+n]
	if o.init != nil {
		in := o.init[at : at+n]
		if mode&accRead != 0 {
			for i, ok := range in {
				if !ok {
					who := "this block of threads"
					if o.perThread {
						who = "this thread"
					}
					return nil, nil, s.fail(t, "read of uninitialized %s memory: %s at offset %d (never written by %s)", o.space, o.describe(), off+int64(i), who)
				}
			}
		}
		if mode&accWrite != 0 {
			for i := range in {
				in[i] = true
			}
		}
	}
	return buf, o, nil
}

func (o *memObj) describe() string {
	if o.param {
		return "parameter \"" + o.name + "\""
	}
	return o.space.String() + " array \"" + o.name + "\""
}

func (o *memObj) kindName() string {
	if o.param {
		return "buffer"
	}
	return "array"
}

func loadExec(in *Instr) execFn {
	p := in.Args[0].ID
	size := in.Args[0].Type.Elem().Size()
	res := make([]int, len(in.Results))
	for i, r := range in.Results {
		res[i] = r.ID
	}
	n := size * len(res)
	op := "load"
	return func(s *runState, lanes []int32) error {
		nt, r := s.nt, s.regs
		for _, t := range lanes {
			buf, _, err := s.locate(r[p*nt+int(t)], n, t, accRead, op)
			if err != nil {
				return err
			}
			for k, d := range res {
				r[d*nt+int(t)] = le.Get(buf[k*size:], size)
			}
		}
		return nil
	}
}

func storeExec(in *Instr) execFn {
	p := in.Args[0].ID
	size := in.Args[0].Type.Elem().Size()
	vals := make([]int, len(in.Args)-1)
	for i, a := range in.Args[1:] {
		vals[i] = a.ID
	}
	n := size * len(vals)
	return func(s *runState, lanes []int32) error {
		nt, r := s.nt, s.regs
		for _, t := range lanes {
			buf, _, err := s.locate(r[p*nt+int(t)], n, t, accWrite, "store")
			if err != nil {
				return err
			}
			for k, v := range vals {
				le.Put(buf[k*size:], size, r[v*nt+int(t)])
			}
		}
		return nil
	}
}

// atomBinary is the binary op an atomic read-modify-write applies.
var atomBinary = map[AtomOp]Op{AtomAdd: OpAdd, AtomMin: OpMin, AtomMax: OpMax, AtomAnd: OpAnd, AtomOr: OpOr, AtomXor: OpXor}

// atomFunc returns new = f(old, v, v2) for an atomic op on type t (v2 is
// the new value of CAS).
func atomFunc(op AtomOp, t Type) fn3 {
	if t.IsFloat() && op == AtomAdd {
		f := floatBinary(OpAdd, t)
		return func(old, v, _ uint64) uint64 { return f(old, v) }
	}
	w, signed := t.Bits(), t.IsSigned()
	var f fn2
	switch op {
	case AtomAdd, AtomMin, AtomMax, AtomAnd, AtomOr, AtomXor:
		f = intBinary(atomBinary[op], w, signed)
	case AtomExch:
		return func(_, v, _ uint64) uint64 { return v }
	case AtomInc:
		return func(old, v, _ uint64) uint64 {
			if old >= v {
				return 0
			}
			return old + 1
		}
	case AtomDec:
		return func(old, v, _ uint64) uint64 {
			if old == 0 || old > v {
				return v
			}
			return old - 1
		}
	case AtomCAS:
		return func(old, cmp, nw uint64) uint64 {
			if old == cmp {
				return nw
			}
			return old
		}
	}
	return func(old, v, _ uint64) uint64 { return f(old, v) }
}

// atomicExec applies the atomic for each lane in lane order, which makes
// the order of a run deterministic.
func atomicExec(in *Instr) execFn {
	p, v := in.Args[0].ID, in.Args[1].ID
	v2 := v
	if len(in.Args) > 2 {
		v2 = in.Args[2].ID
	}
	d := in.Result().ID
	elem := in.Args[0].Type.Elem()
	size := elem.Size()
	f := atomFunc(in.Atom, elem)
	op := "atom." + in.Atom.String()
	return func(s *runState, lanes []int32) error {
		nt, r := s.nt, s.regs
		for _, t := range lanes {
			buf, _, err := s.locate(r[p*nt+int(t)], size, t, accRead|accWrite, op)
			if err != nil {
				return err
			}
			old := le.Get(buf, size)
			le.Put(buf, size, f(old, r[v*nt+int(t)], r[v2*nt+int(t)]))
			r[d*nt+int(t)] = old
		}
		return nil
	}
}
