// This file implements the memory instructions (PTX ISA 9.7.8.8 -
// 9.7.8.11, 9.7.12.4, 9.7.12.5): ld (.global, .global.nc, .shared,
// .local, .param, .const; scalars and .v2/.v4 vectors), st, atom and red
// on global and shared memory. Accesses are checked for bounds and
// alignment (memory.go); loads extend into wider registers by the type's
// signedness. Global atomics are atomic across the blocks running in
// parallel; shared ones are, since a block runs on one goroutine.
// Memory-model qualifiers (.volatile, .relaxed, .acquire, .release and
// their scopes) and cache hints are accepted and change nothing: the
// simulator's memory is sequentially consistent.

package ptxsim

import (
	"iter"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/fuseflow/fuseflow/internal/le"
)

// memQualifiers consumes the qualifiers that do not change the result of
// an access: memory-model semantics and scopes, cache operators and
// eviction hints.
func memQualifiers(d *decoder, ms *modset) error {
	ms.oneOf("weak", "volatile", "relaxed", "acquire", "release", "acq_rel")
	ms.oneOf("cta", "gpu", "sys", "cluster")
	ms.oneOf("ca", "cg", "cs", "lu", "cv", "wb", "wt")
	for i, m := range ms.m {
		if !ms.used[i] && len(m) > 4 && (m[:4] == "L1::" || m[:4] == "L2::") {
			if m == "L2::cache_hint" {
				return d.errf("%s: cache policies (.L2::cache_hint) are not supported", d.cur.opcode)
			}
			ms.used[i] = true
		}
	}
	return nil
}

// spaces maps the state space modifiers to their codes.
var spaces = map[string]uint8{"global": spGlobal, "shared": spShared, "shared::cta": spShared, "local": spLocal, "param": spParam, "const": spConst}

// spaceOf consumes the state space modifier, or returns 0.
func spaceOf(ms *modset) uint8 { return ms.code(spaces) }

// address decodes an address operand [base+off] for state space sp into
// in.a[slot] and in.off.
func (d *decoder) address(o rawOp, sp uint8, in *inst, slot int) error {
	if o.kind != opAddr {
		return d.errf("expected an address [..], found %s", opText(o))
	}
	in.off = o.off
	if o.name == "" {
		in.a[slot] = d.constant(0)
		return nil
	}
	if r, ok := d.regs[o.name]; ok {
		if r.typ.kind == kPred || r.typ.kind == kF || r.typ.bits < 32 {
			return d.errf("address register %s must be a 32- or 64-bit integer", o.name)
		}
		if sp == spGlobal && r.typ.bits != 64 {
			return d.errf("global address register %s must be 64-bit (.address_size 64)", o.name)
		}
		d.uses = append(d.uses, r.idx)
		in.a[slot] = r.idx
		return nil
	}
	if v, ok := d.vars[o.name]; ok {
		if v.size < 0 {
			d.usedExtern[o.name] = true
		}
		if v.space != sp {
			return d.errf("%s is a %s variable, accessed as %s", o.name, spaceName[v.space], spaceName[sp])
		}
		in.a[slot] = d.constant(v.addr)
		return nil
	}
	if p, ok := d.params[o.name]; ok {
		if sp != spParam {
			return d.errf("parameter %s can only be read with ld.param", o.name)
		}
		in.a[slot] = d.constant(uint64(p.Offset))
		return nil
	}
	return d.errf("%s is not a register or a variable", o.name)
}

// decodeLd decodes ld and ld.global.nc.
func decodeLd(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	return decodeLdSt(d, s, ms, in, false)
}

// decodeSt decodes st.
func decodeSt(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	return decodeLdSt(d, s, ms, in, true)
}

func decodeLdSt(d *decoder, s *rawStmt, ms *modset, in *inst, store bool) error {
	in.space = spaceOf(ms)
	in.nc = !store && ms.has("nc")
	if err := memQualifiers(d, ms); err != nil {
		return err
	}
	switch v := ms.oneOf("v2", "v4", "v8"); v {
	case "v2":
		in.vec = 2
	case "v4":
		in.vec = 4
	case "v8":
		return d.errf("%s: .v8 is not supported", s.opcode)
	}
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	switch {
	case in.space == 0:
		return d.errf("%s: generic addressing is not supported; name the state space", s.opcode)
	case t.kind == kPred:
		return d.errf("%s cannot move predicates", s.opcode)
	case in.nc && in.space != spGlobal:
		return d.errf(".nc applies to ld.global only")
	case store && (in.space == spConst || in.space == spParam):
		return d.errf("st.%s: kernel parameters and constants are read-only", spaceName[in.space])
	case int(t.bits)/8*int(in.vec) > 16:
		return d.errf("%s moves %d bytes; at most 16", s.opcode, int(t.bits)/8*int(in.vec))
	}
	if err := d.nops(s, 2); err != nil {
		return err
	}
	in.t = t
	addrOp, valOp := s.ops[1], s.ops[0]
	if store {
		addrOp, valOp = s.ops[0], s.ops[1]
	}
	vals := []rawOp{valOp}
	if in.vec > 1 {
		if valOp.kind != opVec || len(valOp.elems) != int(in.vec) {
			return d.errf("%s needs a vector of %d registers", s.opcode, in.vec)
		}
		vals = valOp.elems
	} else if valOp.kind == opVec {
		return d.errf("%s: a vector operand needs .v2 or .v4", s.opcode)
	}
	if store {
		in.nd, in.na = 0, uint8(1+len(vals))
		if err := d.address(addrOp, in.space, in, 0); err != nil {
			return err
		}
		for i, v := range vals {
			if in.a[1+i], err = d.src(v, t, true); err != nil {
				return err
			}
		}
		in.exec = execSt
		return nil
	}
	in.nd, in.na = uint8(len(vals)), 1
	if err := d.address(addrOp, in.space, in, 0); err != nil {
		return err
	}
	for i, v := range vals {
		if v.kind == opReg && v.name == "_" {
			in.d[i] = -1
			continue
		}
		var db uint8
		if in.d[i], db, err = d.dst(v, t, true); err != nil {
			return err
		}
		if i == 0 {
			in.dbits = db
		} else if db != in.dbits {
			return d.errf("%s: the vector's registers differ in width", s.opcode)
		}
	}
	in.exec = execLd
	return nil
}

// laneMem yields, in lane order, each lane l of m with the size bytes
// that its access of kind acc at in's address (register a[0] plus the
// offset) reaches; after the turn of a lane that wrote (acc other than
// accRead) to global memory it reports the store to the watch. It stops
// at the first access that fails (w.mem has recorded the fault).
func (w *warp) laneMem(in *inst, m uint32, size, acc int) iter.Seq2[int, []byte] {
	base := w.r(in.a[0])
	return func(yield func(int, []byte) bool) {
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			a := base[l] + uint64(in.off)
			p := w.mem(in, l, in.space, a, size, acc)
			if p == nil || !yield(l, p) {
				return
			}
			if acc != accRead && w.b.rs.watch != nil && in.space == spGlobal {
				w.watchStore(in, l, a, size, p)
			}
		}
	}
}

// execLd loads for every lane of m.
func execLd(w *warp, in *inst, m uint32) {
	es := int(in.t.bits) / 8
	for l, p := range w.laneMem(in, m, es*int(in.vec), accRead) {
		for i := range int(in.vec) {
			if in.d[i] < 0 {
				continue
			}
			w.r(in.d[i])[l] = extend(le.Get(p[i*es:], es), in.t, int(in.dbits))
		}
	}
}

// execSt stores for every lane of m, in lane order.
func execSt(w *warp, in *inst, m uint32) {
	es := int(in.t.bits) / 8
	for l, p := range w.laneMem(in, m, es*int(in.vec), accWrite) {
		for i := range int(in.vec) {
			le.Put(p[i*es:], es, w.r(in.a[1+i])[l])
		}
	}
}

// Atomic operations.
const (
	atomAdd uint8 = iota + 1
	atomMin
	atomMax
	atomAnd
	atomOr
	atomXor
	atomExch
	atomCas
	atomInc
	atomDec
)

var atomOps = map[string]uint8{"add": atomAdd, "min": atomMin, "max": atomMax, "and": atomAnd, "or": atomOr,
	"xor": atomXor, "exch": atomExch, "cas": atomCas, "inc": atomInc, "dec": atomDec}

// atomTypeOK lists the types each operation takes (PTX ISA 9.7.12.4).
func atomTypeOK(op uint8, t ptype) bool {
	switch op {
	case atomAnd, atomOr, atomXor:
		return t == tB32 || t == tB64
	case atomExch, atomCas:
		return t == tB32 || t == tB64
	case atomAdd:
		return t == tU32 || t == tS32 || t == tU64 || t == tF32 || t == tF64
	case atomInc, atomDec:
		return t == tU32
	}
	return t == tU32 || t == tS32 || t == tU64 || t == tS64
}

// decodeAtom decodes atom and red (red has no destination).
func decodeAtom(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	red := opBase(s.opcode) == "red"
	in.space = spaceOf(ms)
	if err := memQualifiers(d, ms); err != nil {
		return err
	}
	var name string
	for n, op := range atomOps {
		if ms.has(n) {
			if in.op != 0 {
				return d.errf("%s has two operations", s.opcode)
			}
			in.op, name = op, n
		}
	}
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	switch {
	case in.op == 0:
		return d.errf("%s needs an operation", s.opcode)
	case in.space != spGlobal && in.space != spShared:
		return d.errf("%s: atomics on generic or %s addresses are not supported", s.opcode, spaceName[in.space])
	case !atomTypeOK(in.op, t):
		return d.errf("atom.%s does not take .%s", name, t)
	case red && in.op == atomCas || red && in.op == atomExch:
		return d.errf("red has no .%s", name)
	}
	n := 3
	if in.op == atomCas {
		n = 4
	}
	if red {
		n--
	}
	if err := d.nops(s, n); err != nil {
		return err
	}
	ops := s.ops
	in.d[0] = -1
	if !red {
		if in.d[0], in.dbits, err = d.dst(ops[0], t, false); err != nil {
			return err
		}
		ops = ops[1:]
		in.nd = 1
	}
	in.t = t
	if err := d.address(ops[0], in.space, in, 0); err != nil {
		return err
	}
	for i, o := range ops[1:] {
		if in.a[1+i], err = d.src(o, t, false); err != nil {
			return err
		}
	}
	in.na = uint8(len(ops))
	in.exec = execAtom
	return nil
}

// atomMu serializes the atomics whose host memory is not aligned for
// sync/atomic (it always is for memory from Go or malloc).
var atomMu sync.Mutex

// execAtom applies the atomic operation for every lane of m, in lane
// order, writing the old value to the destination.
func execAtom(w *warp, in *inst, m uint32) {
	size := int(in.t.bits) / 8
	for l, p := range w.laneMem(in, m, size, accAtomic) {
		b := w.r(in.a[1])[l]
		var c uint64
		if in.op == atomCas {
			c = w.r(in.a[2])[l]
		}
		f := atomFn(in.op, in.t, b, c)
		var old uint64
		if in.space == spShared {
			old = le.Get(p, size)
			le.Put(p, size, f(old))
		} else {
			old = rmw(p, size, f)
		}
		if in.d[0] >= 0 {
			w.r(in.d[0])[l] = old
		}
	}
}

// rmw atomically replaces the value v at p with f(v) and returns v.
func rmw(p []byte, size int, f func(uint64) uint64) uint64 {
	ptr := unsafe.Pointer(&p[0])
	if uintptr(ptr)%uintptr(size) != 0 {
		atomMu.Lock()
		defer atomMu.Unlock()
		old := le.Get(p, size)
		le.Put(p, size, f(old))
		return old
	}
	if size == 4 {
		u := (*uint32)(ptr)
		for {
			old := atomic.LoadUint32(u)
			nv := uint32(f(uint64(old)))
			if nv == old || atomic.CompareAndSwapUint32(u, old, nv) {
				return uint64(old)
			}
		}
	}
	u := (*uint64)(ptr)
	for {
		old := atomic.LoadUint64(u)
		nv := f(old)
		if nv == old || atomic.CompareAndSwapUint64(u, old, nv) {
			return old
		}
	}
}

// atomFn returns the new value of an atomic operation with operands b
// (and c for cas) as a function of the old one. atom.add.f32 rounds to
// nearest even and flushes subnormal inputs and results to zero;
// atom.add.f64 keeps subnormals (PTX ISA 9.7.12.4).
func atomFn(op uint8, t ptype, b, c uint64) func(uint64) uint64 {
	n, mask := int(t.bits), t.mask()
	switch op {
	case atomAdd:
		switch t {
		case tF32:
			return func(o uint64) uint64 { return b32(flush32(flush32(f32(o)) + flush32(f32(b)))) }
		case tF64:
			return func(o uint64) uint64 { return b64(f64(o) + f64(b)) }
		}
		return func(o uint64) uint64 { return (o + b) & mask }
	case atomMin, atomMax:
		isMin := op == atomMin
		return func(o uint64) uint64 {
			less := o&mask < b&mask
			if t.signed() {
				less = int64(sext(o, n)) < int64(sext(b, n))
			}
			if less == isMin {
				return o
			}
			return b & mask
		}
	case atomAnd:
		return func(o uint64) uint64 { return o & b }
	case atomOr:
		return func(o uint64) uint64 { return o | b }
	case atomXor:
		return func(o uint64) uint64 { return o ^ b }
	case atomExch:
		return func(uint64) uint64 { return b }
	case atomCas:
		return func(o uint64) uint64 {
			if o&mask == b&mask {
				return c
			}
			return o
		}
	case atomInc:
		return func(o uint64) uint64 {
			if o&mask >= b&mask {
				return 0
			}
			return (o + 1) & mask
		}
	}
	return func(o uint64) uint64 { // dec
		if o&mask == 0 || o&mask > b&mask {
			return b & mask
		}
		return (o - 1) & mask
	}
}
