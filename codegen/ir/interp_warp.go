// This file implements warp operations in the interpreter: lanes wait at a
// shfl or vote until every lane named in their masks has arrived, then the
// operation runs for that set at once; lanes that can never arrive are
// reported.

package ir

// warpFn runs a warp operation for the lanes in parts, all of one warp,
// whose bit set is in.
type warpFn func(s *runState, parts []int32, in uint32) error

// resolveWarps runs the warp operation at (b, ip) for every warp among
// lanes whose participating lanes have all arrived.
func (s *runState) resolveWarps(ci *cinstr, b, ip int, lanes []int32) error {
	done := int32(-1)
	for _, t := range lanes {
		w := t / 32
		if w == done {
			continue
		}
		done = w
		if err := s.resolveWarp(ci, b, ip, w); err != nil {
			return err
		}
	}
	return nil
}

// resolveWarp finds the largest set of lanes of warp w waiting at (b, ip)
// whose masks name only lanes in the set, and runs the operation for it.
func (s *runState) resolveWarp(ci *cinstr, b, ip int, w int32) error {
	base := w * 32
	n := min(int32(s.nt)-base, 32)
	exists := uint32(1<<uint(n) - 1)
	if n == 32 {
		exists = ^uint32(0)
	}
	var set uint32
	for j := int32(0); j < n; j++ {
		t := base + j
		if s.st[t] == thWarp && int(s.pcB[t]) == b && int(s.pcI[t]) == ip {
			set |= 1 << uint(j)
		}
	}
	maskReg := s.regs[ci.mask*s.nt:]
	for j := int32(0); j < n; j++ {
		t := base + j
		if set&(1<<uint(j)) == 0 {
			continue
		}
		m := uint32(maskReg[t])
		if m&(1<<uint(j)) == 0 {
			s.curB, s.curI = b, ip
			return s.fail(t, "%s: the executing lane %d is not in its member mask %#x", ci.in.Op, j, m)
		}
		for k := int32(0); k < n; k++ {
			if m&(1<<uint(k)) != 0 && s.st[base+k] == thExited {
				s.curB, s.curI = b, ip
				return s.fail(t, "%s: lane %d named in the member mask %#x has already returned", ci.in.Op, k, m)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for j := int32(0); j < n; j++ {
			if set&(1<<uint(j)) != 0 && uint32(maskReg[base+j])&exists&^set != 0 {
				set &^= 1 << uint(j)
				changed = true
			}
		}
	}
	if set == 0 {
		return nil
	}
	parts := s.warpScratch[:0]
	for j := int32(0); j < n; j++ {
		if set&(1<<uint(j)) != 0 {
			parts = append(parts, base+j)
		}
	}
	s.curB, s.curI = b, ip
	if err := ci.warp(s, parts, set); err != nil {
		return err
	}
	for _, t := range parts {
		s.pcI[t]++
		s.st[t] = thReady
	}
	s.live += len(parts)
	return nil
}

// warpDeadlock explains why thread t cannot leave its warp operation.
func (s *runState) warpDeadlock(t int32) error {
	b, ip := int(s.pcB[t]), int(s.pcI[t])
	ci := &s.p.blocks[b].code[ip]
	m := uint32(s.regs[ci.mask*s.nt+int(t)])
	base := t / 32 * 32
	for k := int32(0); k < 32 && base+k < int32(s.nt); k++ {
		u := base + k
		if m&(1<<uint(k)) == 0 || (s.st[u] == thWarp && int(s.pcB[u]) == b && int(s.pcI[u]) == ip) {
			continue
		}
		where := "is elsewhere"
		switch s.st[u] {
		case thBarrier:
			where = "waits at bar.sync in block " + s.p.blocks[s.pcB[u]].b.Name
		case thWarp:
			where = "waits at a different warp operation in block " + s.p.blocks[s.pcB[u]].b.Name
		case thExited:
			where = "has returned"
		}
		return s.failAt(t, b, ip, "warp divergence: %s with member mask %#x waits for lane %d (thread %v), which %s",
			ci.in.Op, m, k, s.threadIndex(u), where)
	}
	return s.failAt(t, b, ip, "warp operation cannot complete")
}

// shflExec compiles a shuffle: operands (v, lane, mask).
func shflExec(in *Instr) warpFn {
	d, v, l := in.Result().ID, in.Args[0].ID, in.Args[1].ID
	mode := in.Shfl
	return func(s *runState, parts []int32, set uint32) error {
		nt, r := s.nt, s.regs
		for _, t := range parts {
			i := int64(t % 32)
			base := t - int32(i)
			b := int64(uint32(r[l*nt+int(t)]))
			var j int64
			switch mode {
			case ShflIdx:
				j = b & 31
			case ShflUp:
				j = i - b
			case ShflDown:
				j = i + b
			case ShflBfly:
				j = i ^ b
			}
			if j < 0 || j > 31 {
				r[d*nt+int(t)] = r[v*nt+int(t)]
				continue
			}
			if set&(1<<uint(j)) == 0 {
				return s.fail(t, "shfl.%s: source lane %d is not taking part (not in the mask, not active, or beyond the block)", mode, j)
			}
			r[d*nt+int(t)] = r[v*nt+int(base)+int(j)]
		}
		return nil
	}
}

// voteExec compiles a vote: operands (p, mask).
func voteExec(in *Instr) warpFn {
	d, p, mk := in.Result().ID, in.Args[0].ID, in.Args[1].ID
	mode := in.Vote
	return func(s *runState, parts []int32, _ uint32) error {
		nt, r := s.nt, s.regs
		for _, t := range parts {
			base := int(t / 32 * 32)
			m := uint32(r[mk*nt+int(t)])
			var ballot uint32
			for k := 0; k < 32 && base+k < nt; k++ {
				if m&(1<<uint(k)) != 0 && r[p*nt+base+k] != 0 {
					ballot |= 1 << uint(k)
				}
			}
			m &= existsMask(nt - base)
			var out uint64
			switch mode {
			case VoteAll:
				out = b2u(ballot == m)
			case VoteAny:
				out = b2u(ballot != 0)
			case VoteBallot:
				out = uint64(ballot)
			}
			r[d*nt+int(t)] = out
		}
		return nil
	}
}

func existsMask(n int) uint32 {
	if n >= 32 {
		return ^uint32(0)
	}
	return 1<<uint(n) - 1
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
