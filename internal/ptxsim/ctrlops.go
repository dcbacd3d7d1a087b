// This file implements control flow and synchronization: bra (PTX ISA
// 9.7.11.3), ret and exit (9.7.11.6, 9.7.11.7), trap (9.7.18.4), bar.sync
// and barrier.sync (9.7.12.1), bar.warp.sync (9.7.12.2), and membar and
// fence (9.7.12.3), which order nothing here because the simulator's
// memory is sequentially consistent. The scheduler (sched.go) carries out
// the control transfers.

package ptxsim

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
