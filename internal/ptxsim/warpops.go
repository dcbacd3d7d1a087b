// This file implements the warp-level instructions: shfl.sync (PTX ISA
// 9.7.8.6), vote.sync (9.7.12.7), activemask (9.7.12.9) and
// bar.warp.sync (9.7.12.2). The scheduler (sched.go) runs shfl.sync,
// vote.sync and bar.warp.sync only when every non-exited lane of the
// member mask has reached them; reading a lane that did not execute the
// shuffle, whose value the ISA calls unpredictable, is a fault.

package ptxsim

import (
	"fmt"
	"math/bits"
)

// Shuffle modes.
const (
	shflUp uint8 = iota + 1
	shflDown
	shflBfly
	shflIdx
)

// shflModes maps the shuffle mode modifiers to their codes.
var shflModes = map[string]uint8{"up": shflUp, "down": shflDown, "bfly": shflBfly, "idx": shflIdx}

// decodeShfl decodes shfl.sync.mode.b32 d[|p], a, b, c, membermask.
func decodeShfl(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if !ms.has("sync") {
		return d.errf("shfl without .sync is not supported on sm_70 and newer (PTX ISA 9.7.8.5)")
	}
	if in.op = ms.code(shflModes); in.op == 0 {
		return d.errf("shfl.sync needs a mode (.up, .down, .bfly, .idx)")
	}
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t != tB32 {
		return d.errf("shfl.sync takes .b32 only")
	}
	if err := d.nops(s, 5); err != nil {
		return err
	}
	dst := s.ops[0]
	pair := dst.pair
	dst.pair = ""
	if in.d[0], in.dbits, err = d.dst(dst, t, false); err != nil {
		return err
	}
	in.d[1] = -1
	if pair != "" {
		if in.d[1], _, err = d.predDef(rawOp{kind: opReg, name: pair}); err != nil {
			return err
		}
		in.pdst = 2
	}
	for i := range 4 {
		if in.a[i], err = d.src(s.ops[1+i], tB32, false); err != nil {
			return err
		}
	}
	in.t, in.nd, in.na, in.ctl, in.exec = t, 1, 4, ctlWarp, execShfl
	if in.d[1] >= 0 {
		in.nd = 2
	}
	return nil
}

// execShfl runs a shuffle for the lanes of group, which all reached it.
func execShfl(w *warp, in *inst, group uint32) {
	a, bv, cv, mv := w.r(in.a[0]), w.r(in.a[1]), w.r(in.a[2]), w.r(in.a[3])
	var out [32]uint64
	var pv uint32
	for m := group; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		b, c := uint32(bv[l])&31, uint32(cv[l])
		cval, seg := c&31, c>>8&31
		maxLane := uint32(l)&seg | cval&^seg
		minLane := uint32(l) & seg
		var j uint32
		var ok bool
		switch in.op {
		case shflUp:
			j = uint32(l) - b
			ok = int32(j) >= int32(maxLane)
		case shflDown:
			j = uint32(l) + b
			ok = j <= maxLane
		case shflBfly:
			j = uint32(l) ^ b
			ok = j <= maxLane
		default:
			j = minLane | b&^seg
			ok = j <= maxLane
		}
		if !ok {
			j = uint32(l)
		} else {
			pv |= 1 << uint(l)
		}
		member := uint32(mv[l])
		if group&(1<<j) == 0 || member&(1<<j) == 0 {
			w.fail(in, l, FaultUndefined, fmt.Sprintf("shfl.sync reads lane %d, which is not in the member mask %#x or did not execute the shuffle: the value is unpredictable (PTX ISA 9.7.8.6)", j, member))
			return
		}
		out[l] = a[j] & 0xffffffff
	}
	d := w.r(in.d[0])
	for m := group; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		d[l] = out[l]
	}
	if in.d[1] >= 0 {
		w.preds[in.d[1]] = w.preds[in.d[1]]&^group | pv
	}
}

// Vote modes.
const (
	voteAll uint8 = iota + 1
	voteAny
	voteUni
	voteBallot
)

// voteModes maps the vote mode modifiers to their codes.
var voteModes = map[string]uint8{"all": voteAll, "any": voteAny, "uni": voteUni, "ballot": voteBallot}

// decodeVote decodes vote.sync.{all,any,uni}.pred d, {!}a, membermask and
// vote.sync.ballot.b32 d, {!}a, membermask.
func decodeVote(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	if !ms.has("sync") {
		return d.errf("vote without .sync is not supported on sm_70 and newer (PTX ISA 9.7.12.6)")
	}
	if in.op = ms.code(voteModes); in.op == 0 {
		return d.errf("vote.sync needs a mode")
	}
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if (in.op == voteBallot) != (t == tB32) || in.op != voteBallot && t != tPred {
		return d.errf("vote.sync.ballot takes .b32, the other modes .pred")
	}
	if err := d.nops(s, 3); err != nil {
		return err
	}
	if in.op == voteBallot {
		in.d[0], in.dbits, err = d.dst(s.ops[0], tB32, false)
	} else {
		in.d[0], _, err = d.predDef(s.ops[0])
		in.pdst = 1
	}
	if err != nil {
		return err
	}
	if in.a[0], in.negc, err = d.pred(s.ops[1]); err != nil {
		return err
	}
	if in.a[1], err = d.src(s.ops[2], tB32, false); err != nil {
		return err
	}
	in.t, in.nd, in.na, in.ctl = t, 1, 2, ctlWarp
	in.exec = func(w *warp, in *inst, group uint32) {
		member := uint32(w.r(in.a[1])[lowLane(group)])
		p := w.preds[in.a[0]]
		if in.negc {
			p = ^p
		}
		voters := group & member
		p &= voters
		switch in.op {
		case voteBallot:
			d := w.r(in.d[0])
			for m := group; m != 0; m &= m - 1 {
				d[lowLane(m)] = uint64(p)
			}
			return
		case voteAll:
			p = boolMask(p == voters)
		case voteAny:
			p = boolMask(p != 0)
		default:
			p = boolMask(p == 0 || p == voters)
		}
		w.preds[in.d[0]] = w.preds[in.d[0]]&^group | p&group
	}
	return nil
}

func boolMask(b bool) uint32 {
	if b {
		return full
	}
	return 0
}

// decodeActivemask decodes activemask.b32 d: the lanes executing it.
func decodeActivemask(d *decoder, s *rawStmt, ms *modset, in *inst) error {
	t, err := ms.oneType(d, s.opcode)
	if err != nil {
		return err
	}
	if t != tB32 {
		return d.errf("activemask takes .b32")
	}
	if err := d.nops(s, 1); err != nil {
		return err
	}
	if in.d[0], in.dbits, err = d.dst(s.ops[0], t, false); err != nil {
		return err
	}
	in.t, in.nd = t, 1
	in.exec = func(w *warp, in *inst, m uint32) {
		d := w.r(in.d[0])
		for mm := m; mm != 0; mm &= mm - 1 {
			d[lowLane(mm)] = uint64(m)
		}
	}
	return nil
}
