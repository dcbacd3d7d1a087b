// This file implements the data movement instructions that touch no
// memory (PTX ISA 9.7.8.3, 9.7.8.4, 9.7.8.17): mov between registers, of
// immediates, of special registers (PTX ISA chapter 10, the
// shared memory sizes %dynamic_smem_size and %total_smem_size included)
// and of the address of a shared, local, const or parameter variable;
// mov packing and unpacking vectors of narrower values; and cvta, which is the identity
// between the global (or const) window and generic addresses here.

package ptxsim

import "math/bits"

// Special registers.
const (
	srNone uint8 = iota
	srTidX
	srTidY
	srTidZ
	srNtidX
	srNtidY
	srNtidZ
	srCtaidX
	srCtaidY
	srCtaidZ
	srNctaidX
	srNctaidY
	srNctaidZ
	srLaneid
	srWarpid
	srNwarpid
	srSmid
	srNsmid
	srGridid
	srLanemaskEq
	srLanemaskLe
	srLanemaskLt
	srLanemaskGe
	srLanemaskGt
	srClock
	srClockHi
	srClock64
	srDynSmem
	srTotalSmem
)

// sregs maps the special registers the simulator provides to their ids.
var sregs = map[string]uint8{
	"%tid.x": srTidX, "%tid.y": srTidY, "%tid.z": srTidZ,
	"%ntid.x": srNtidX, "%ntid.y": srNtidY, "%ntid.z": srNtidZ,
	"%ctaid.x": srCtaidX, "%ctaid.y": srCtaidY, "%ctaid.z": srCtaidZ,
	"%nctaid.x": srNctaidX, "%nctaid.y": srNctaidY, "%nctaid.z": srNctaidZ,
	"%laneid": srLaneid, "%warpid": srWarpid, "%nwarpid": srNwarpid,
	"%smid": srSmid, "%nsmid": srNsmid, "%gridid": srGridid,
	"%lanemask_eq": srLanemaskEq, "%lanemask_le": srLanemaskLe, "%lanemask_lt": srLanemaskLt,
	"%lanemask_ge": srLanemaskGe, "%lanemask_gt": srLanemaskGt,
	"%clock": srClock, "%clock_hi": srClockHi, "%clock64": srClock64,
	"%dynamic_smem_size": srDynSmem, "%total_smem_size": srTotalSmem,
}

// sregValue returns special register r for lane l of w.
func (w *warp) sregValue(r uint8, l int) uint64 {
	b := w.b
	rs := b.rs
	t := w.id*32 + l
	switch r {
	case srTidX, srTidY, srTidZ:
		return uint64(rs.tidOf(t)[r-srTidX])
	case srNtidX, srNtidY, srNtidZ:
		return uint64(rs.block[r-srNtidX])
	case srCtaidX, srCtaidY, srCtaidZ:
		return uint64(b.ctaid[r-srCtaidX])
	case srNctaidX, srNctaidY, srNctaidZ:
		return uint64(rs.grid[r-srNctaidX])
	case srLaneid:
		return uint64(l)
	case srWarpid:
		return uint64(w.id)
	case srNwarpid:
		return uint64(len(b.warps))
	case srSmid, srGridid:
		return 0
	case srNsmid:
		return 1
	case srLanemaskEq:
		return 1 << uint(l)
	case srLanemaskLe:
		return 1<<uint(l+1) - 1
	case srLanemaskLt:
		return 1<<uint(l) - 1
	case srLanemaskGe:
		return uint64(^uint32(0) << uint(l))
	case srLanemaskGt:
		return uint64(^uint32(0) << uint(l) << 1)
	case srClock:
		return uint64(uint32(b.warpSteps))
	case srClockHi:
		return uint64(uint32(b.warpSteps >> 32))
	case srDynSmem:
		return uint64(rs.dynShared)
	case srTotalSmem:
		return uint64(rs.sharedBytes)
	}
	return uint64(b.warpSteps)
}

// decodeMov decodes mov (PTX ISA 9.7.8.3, 9.7.8.4).
func decodeMov(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if err := d.nops(s, 2); err != nil {
		return err
	}
	dst, src := s.ops[0], s.ops[1]
	in.t, in.nd, in.na = t, 1, 1
	switch {
	case t.kind == kPred:
		if in.d[0], _, err = d.predDef(dst); err != nil {
			return err
		}
		in.pdst = 1
		if src.kind == opImm {
			v, err := d.immediate(src.imm, tPred)
			if err != nil {
				return err
			}
			set := uint32(0)
			if v != 0 {
				set = full
			}
			in.exec = func(w *warp, in *inst, m uint32) { w.preds[in.d[0]] = w.preds[in.d[0]]&^m | set&m }
			return nil
		}
		var neg bool
		if in.a[0], neg, err = d.pred(src); err != nil {
			return err
		}
		if neg {
			return d.errf("mov.pred cannot negate its source")
		}
		in.exec = func(w *warp, in *inst, m uint32) {
			w.preds[in.d[0]] = w.preds[in.d[0]]&^m | w.preds[in.a[0]]&m
		}
		return nil
	case src.kind == opVec || dst.kind == opVec:
		return d.movVector(s, in, t)
	}
	if in.d[0], in.dbits, err = d.dst(dst, t, false); err != nil {
		return err
	}
	if src.kind == opReg && src.pair == "" && !src.neg {
		if id := sregs[src.name]; id != 0 {
			if !t.isInt() || t.bits < 32 {
				return d.errf("special register %s is read with mov.u32, mov.u64 or mov.b32/b64", src.name)
			}
			m := t.mask()
			in.exec = func(w *warp, in *inst, mm uint32) {
				dd := w.r(in.d[0])
				for ; mm != 0; mm &= mm - 1 {
					l := bits.TrailingZeros32(mm)
					dd[l] = w.sregValue(id, l) & m
				}
			}
			return nil
		}
		if addr, ok := d.symbol(src.name); ok {
			if !t.isInt() || t.bits < 32 {
				return d.errf("the address of %s is an integer of 32 or 64 bits", src.name)
			}
			in.a[0] = d.constant((addr + uint64(src.off)) & t.mask())
			in.exec = execMove
			return nil
		}
	}
	if in.a[0], err = d.src(src, t, false); err != nil {
		return err
	}
	in.exec = execMove
	return nil
}

// symbol returns the address of a shared or local variable or of a
// kernel parameter in its state space.
func (d *decoder) symbol(name string) (uint64, bool) {
	if v, ok := d.vars[name]; ok {
		if v.size < 0 {
			d.usedExtern[name] = true
		}
		return v.addr, true
	}
	if p, ok := d.params[name]; ok {
		return uint64(p.Offset), true
	}
	return 0, false
}

// movVector decodes mov packing a vector into a scalar or unpacking a
// scalar into a vector (.b16, .b32, .b64 only).
func (d *decoder) movVector(s *rawStmt, in *inst, t ptype) error {
	if t.kind != kB {
		return d.errf("mov with a vector takes .b16, .b32 or .b64")
	}
	pack := s.ops[1].kind == opVec
	vec := s.ops[1]
	if !pack {
		vec = s.ops[0]
	}
	n := len(vec.elems)
	if n != 2 && n != 4 || int(t.bits)%n != 0 || int(t.bits)/n < 8 {
		return d.errf("mov.%s cannot split into %d elements", t, n)
	}
	et := ptype{kB, t.bits / uint8(n)}
	var err error
	if pack {
		if in.d[0], in.dbits, err = d.dst(s.ops[0], t, false); err != nil {
			return err
		}
		for i, e := range vec.elems {
			if in.a[i], err = d.src(e, et, false); err != nil {
				return err
			}
		}
		in.nd, in.na = 1, uint8(n)
		w := uint(et.bits)
		in.exec = func(wp *warp, in *inst, m uint32) {
			dd := wp.r(in.d[0])
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				var v uint64
				for i := range n {
					v |= (wp.r(in.a[i])[l] & et.mask()) << (w * uint(i))
				}
				dd[l] = v
			}
		}
		return nil
	}
	if in.a[0], err = d.src(s.ops[1], t, false); err != nil {
		return err
	}
	for i, e := range vec.elems {
		if e.kind == opReg && e.name == "_" {
			in.d[i] = -1
			continue
		}
		if in.d[i], _, err = d.dst(e, et, false); err != nil {
			return err
		}
	}
	in.nd, in.na = uint8(n), 1
	w := uint(et.bits)
	in.exec = func(wp *warp, in *inst, m uint32) {
		a := wp.r(in.a[0])
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			for i := range n {
				if in.d[i] >= 0 {
					wp.r(in.d[i])[l] = a[l] >> (w * uint(i)) & et.mask()
				}
			}
		}
	}
	return nil
}

// decodeCvta decodes cvta (PTX ISA 9.7.8.17) for the global and const
// windows, where generic and window addresses coincide here.
func decodeCvta(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	ms.has("to") // cvta.to.space and cvta.space are both the identity here
	sp := ms.oneOf("global", "const", "shared", "local", "param")
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if sp != "global" && sp != "const" {
		return d.errf("%s: generic addressing of the %s window is not supported", s.opcode, sp)
	}
	if t != tU64 && t != tU32 {
		return d.errf("cvta takes .u32 or .u64")
	}
	if err := d.alu(s, in, t, 1); err != nil {
		return err
	}
	in.exec = execMove
	return nil
}
