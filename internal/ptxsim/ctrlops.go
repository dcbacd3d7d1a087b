// This file implements control flow and synchronization: bra (PTX ISA
// 9.7.11.3), ret and exit (9.7.11.6, 9.7.11.7), trap (9.7.18.4), bar.sync
// and barrier.sync, and the reductions bar.red and barrier.red
// (9.7.12.1), bar.warp.sync (9.7.12.2), and membar and
// fence (9.7.12.3), which order nothing here because the simulator's
// memory is sequentially consistent. The scheduler (sched.go) carries out
// the control transfers.

package ptxsim

import "math/bits"

// decodeBra decodes bra{.uni} label.
func decodeBra(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	ms.has("uni")
	if err := d.nops(s, 1); err != nil {
		return err
	}
	o := s.ops[0]
	pc, ok := d.labels[o.name]
	if o.kind != opReg || !ok {
		return d.errf("bra: %s is not a label of kernel %s", opText(o), d.k.Name)
	}
	in.ctl, in.target = ctlBra, pc
	return nil
}

// decodeExit decodes ret and exit.
func decodeExit(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	ms.has("uni")
	in.ctl = ctlExit
	return d.nops(s, 0)
}

// decodeTrap decodes trap: the kernel aborts.
func decodeTrap(d *decoder, s *rawStmt, _ *modset, in *inst) error {
	in.ctl = ctlTrap
	return d.nops(s, 0)
}

// decodeBar decodes bar{.cta}.sync a{, b} and
// barrier{.cta}.sync{.aligned} a{, b}. bar.sync is aligned: every thread
// of the block must execute the same instruction.
func decodeBar(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	ms.has("cta")
	if ms.has("red") {
		return decodeBarRed(d, s, ms, in)
	}
	if !ms.has("sync") {
		return d.errf("%s: only the .sync form of the barrier is supported", s.opcode)
	}
	aligned := opBase(s.opcode) == "bar" || ms.has("aligned")
	if aligned {
		in.op = 1
	}
	if err := d.nops(s, 1, 2); err != nil {
		return err
	}
	var err error
	for i, o := range s.ops {
		if in.a[i], err = d.src(o, tU32, false); err != nil {
			return err
		}
	}
	in.na, in.ctl = uint8(len(s.ops)), ctlBar
	return nil
}

// decodeWarpSync decodes bar.warp.sync membermask.
func decodeWarpSync(d *decoder, s *rawStmt, in *inst) error {
	if err := d.nops(s, 1); err != nil {
		return err
	}
	var err error
	if in.a[0], err = d.src(s.ops[0], tB32, false); err != nil {
		return err
	}
	in.na, in.ctl, in.exec = 1, ctlWarp, execNop
	return nil
}

// decodeBarOrWarp dispatches bar.warp.sync from the block barriers.
func decodeBarOrWarp(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if ms.has("warp") {
		if !ms.has("sync") {
			return d.errf("bar.warp needs .sync")
		}
		return decodeWarpSync(d, s, in)
	}
	return decodeBar(d, s, ms, in)
}

// decodeMembar decodes membar.{cta,gl,sys} and fence{.sc,.acq_rel}.scope.
func decodeMembar(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if opBase(s.opcode) == "membar" {
		if ms.oneOf("cta", "gl", "sys") == "" {
			return d.errf("membar needs .cta, .gl or .sys")
		}
	} else {
		ms.oneOf("sc", "acq_rel")
		if ms.oneOf("cta", "gpu", "sys", "cluster") == "" {
			return d.errf("fence needs a scope")
		}
	}
	in.exec = execNop
	return d.nops(s, 0)
}

// Reductions of bar.red (in.op2).
const (
	redPopc uint8 = iota + 1
	redAnd
	redOr
)

// redOps maps bar.red's reduction modifiers to their codes.
var redOps = map[string]uint8{"popc": redPopc, "and": redAnd, "or": redOr}

// decodeBarRed decodes bar{.cta}.red.popc.u32 d, a{, b}, {!}c and
// bar{.cta}.red.{and,or}.pred p, a{, b}, {!}c (and barrier.red): a
// barrier of the whole block that also reduces predicate c over its
// threads, giving every thread the count of threads where c holds, or
// whether it holds for all or for any. bar.red is aligned like bar.sync.
// The scheduler computes the reduction when it releases the barrier
// (releaseBarrier). The predicate's index is in in.a[4], its ! in
// in.negc.
func decodeBarRed(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if in.op2 = ms.code(redOps); in.op2 == 0 {
		return d.errf("%s: bar.red needs .popc, .and or .or", s.opcode)
	}
	ms.has("aligned")
	in.op = 1
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if want := map[bool]ptype{true: tU32, false: tPred}[in.op2 == redPopc]; t != want {
		return d.errf("%s: the reduction takes .%s", s.opcode, want)
	}
	if err := d.nops(s, 3, 4); err != nil {
		return err
	}
	ops := s.ops
	for i, o := range ops[1 : len(ops)-1] {
		if in.a[i], err = d.src(o, tU32, false); err != nil {
			return err
		}
	}
	in.na = uint8(len(ops) - 2)
	if in.a[4], in.negc, err = d.pred(ops[len(ops)-1]); err != nil {
		return err
	}
	if t == tPred {
		if in.d[0], _, err = d.predDef(ops[0]); err != nil {
			return err
		}
		in.pdst = 1
	} else if in.d[0], in.dbits, err = d.dst(ops[0], t, false); err != nil {
		return err
	}
	in.t, in.nd, in.ctl = t, 1, ctlBar
	return nil
}

// reduce computes the reduction of bar.red in over the threads waiting at
// it and writes it to each of them.
func (b *block) reduce(in *inst) {
	count, n := int64(0), int64(0)
	for _, w := range b.warps {
		c := w.preds[in.a[4]]
		if in.negc {
			c = ^c
		}
		count += popc(c & w.atBar)
		n += popc(w.atBar)
	}
	var v uint64
	switch in.op2 {
	case redPopc:
		v = uint64(count)
	case redAnd:
		v = uint64(boolMask(count == n) & 1)
	default:
		v = uint64(boolMask(count > 0) & 1)
	}
	for _, w := range b.warps {
		m := w.atBar
		if in.pdst != 0 {
			w.preds[in.d[0]] = w.preds[in.d[0]]&^m | uint32(-int32(v))&m
			continue
		}
		d := w.r(in.d[0])
		for ; m != 0; m &= m - 1 {
			d[bits.TrailingZeros32(m)] = v
		}
	}
}
