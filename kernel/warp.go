// This file implements the warp operations: shuffles, votes, SyncWarp
// and ActiveMask. On the CPU the lanes of a warp are goroutines; a lane
// that calls a *Sync operation waits until every lane of its member mask
// has reached the same operation at the same call site, then the
// operation runs for that group at once. Lanes beyond the end of a
// partial warp do not exist and are left out of masks. A lane missing
// from its own mask, a lane of the mask that has returned, and a shuffle
// whose source lane is not taking part are errors of the launch (on a
// GPU they are undefined), as they are on the IR interpreter.

package kernel

import (
	"math"
	"math/bits"
	"sync"
)

// warpOp is the operation a lane waits at.
type warpOp uint8

const (
	opShflIdx warpOp = iota
	opShflUp
	opShflDown
	opShflXor
	opBallot
	opAll
	opAny
	opSyncWarp
	opActiveMask
)

var warpOpNames = [...]string{opShflIdx: "ShflSync", opShflUp: "ShflUpSync", opShflDown: "ShflDownSync",
	opShflXor: "ShflXorSync", opBallot: "BallotSync", opAll: "AllSync", opAny: "AnySync", opSyncWarp: "SyncWarp",
	opActiveMask: "ActiveMask"}

// laneState is one lane's part in a warp operation.
type laneState struct {
	pending bool // waiting at op
	done    bool // the operation ran; res holds the result
	op      warpOp
	pc      uintptr
	mask    uint32
	val     uint64
	arg     uint32
	pred    bool
	res     uint64
}

// warp is the warp state of a cooperative block, guarded by block.mu.
type warp struct {
	base       int    // linear index of lane 0
	exists     uint32 // lanes that exist (a partial last warp has fewer)
	exitedMask uint32
	cond       sync.Cond
	lanes      [WarpSize]laneState
}

// warpSync runs warp operation op for lane s with member mask, value val,
// argument arg and predicate p, and returns the lane's result bits.
func (s *thread) warpSync(op warpOp, pc uintptr, mask uint32, val uint64, arg uint32, p bool) uint64 {
	b := s.needCoop(warpOpNames[op])
	b.mu.Lock()
	b.checkAbort()
	w := b.warps[s.linear/WarpSize]
	lane := s.linear % WarpSize
	w.lanes[lane] = laneState{pending: true, op: op, pc: pc, mask: mask, val: val, arg: arg, pred: p}
	if err := w.resolve(b, lane); err != nil {
		b.abort(err)
		b.checkAbort()
	}
	if !w.lanes[lane].done {
		b.blocked(s, waitWarp)
		for !w.lanes[lane].done {
			b.checkAbort()
			w.cond.Wait()
		}
	}
	res := w.lanes[lane].res
	w.lanes[lane] = laneState{}
	b.mu.Unlock()
	return res
}

// resolve runs the operation lane waits at for the largest group of lanes
// waiting there whose masks name only lanes of the group, if lane is in
// it. The caller holds mu.
func (w *warp) resolve(b *block, lane int) *LaunchError {
	me := &w.lanes[lane]
	if me.op == opActiveMask {
		w.resolveActive(b, me.pc)
		return nil
	}
	var set uint32
	for j := range WarpSize {
		l := &w.lanes[j]
		if l.pending && !l.done && l.op == me.op && l.pc == me.pc {
			set |= 1 << uint(j)
		}
	}
	for j := range WarpSize {
		if set&(1<<uint(j)) == 0 {
			continue
		}
		m := w.lanes[j].mask
		if m&(1<<uint(j)) == 0 {
			return b.errorAt(b.threads[w.base+j], "%s: the calling lane %d is not in its member mask %#x", warpOpNames[me.op], j, m)
		}
		if x := m & w.exitedMask; x != 0 {
			k := bits.TrailingZeros32(x)
			return b.errorAt(b.threads[w.base+j], "%s: lane %d named in the member mask %#x has already returned", warpOpNames[me.op], k, m)
		}
	}
	for changed := true; changed; {
		changed = false
		for j := range WarpSize {
			if set&(1<<uint(j)) != 0 && w.lanes[j].mask&w.exists&^set != 0 {
				set &^= 1 << uint(j)
				changed = true
			}
		}
	}
	if set&(1<<uint(lane)) == 0 {
		return nil
	}
	for j := range WarpSize {
		if set&(1<<uint(j)) == 0 {
			continue
		}
		if err := w.compute(b, j, set); err != nil {
			return err
		}
	}
	woken := 0
	for j := range WarpSize {
		if set&(1<<uint(j)) != 0 {
			w.lanes[j].done = true
			w.lanes[j].pending = false
			if j != lane {
				woken++
				b.waits[w.base+j] = waitNone
			}
		}
	}
	b.running += woken
	if woken > 0 {
		w.cond.Broadcast()
	}
	return nil
}

// resolveActive completes the ActiveMask call at pc when no lane of the
// warp can still reach it: every lane is there, has returned, or waits
// at another barrier or warp operation. Each lane there gets the mask of
// the lanes there. The caller holds mu.
func (w *warp) resolveActive(b *block, pc uintptr) {
	var set uint32
	for j := range WarpSize {
		if w.exists&(1<<uint(j)) == 0 {
			continue
		}
		l := &w.lanes[j]
		switch {
		case l.pending && !l.done && l.op == opActiveMask && l.pc == pc:
			set |= 1 << uint(j)
		case b.waits[w.base+j] == waitExited:
		case b.waits[w.base+j] == waitBarrier, b.waits[w.base+j] == waitWarp:
		default:
			return // still running: it may come here
		}
	}
	if set == 0 {
		return
	}
	woken := 0
	for j := range WarpSize {
		if set&(1<<uint(j)) == 0 {
			continue
		}
		l := &w.lanes[j]
		l.res, l.done, l.pending = uint64(set), true, false
		if b.waits[w.base+j] == waitWarp {
			b.waits[w.base+j] = waitNone
			woken++
		}
	}
	b.running += woken
	if woken > 0 {
		w.cond.Broadcast()
	}
}

// retryActive completes the ActiveMask calls of w that a lane's leaving
// (waiting elsewhere or returning) may have unblocked. The caller holds
// mu.
func (w *warp) retryActive(b *block) {
	for j := range WarpSize {
		if l := &w.lanes[j]; l.pending && !l.done && l.op == opActiveMask {
			w.resolveActive(b, l.pc)
		}
	}
}

// compute sets the result of lane j of the group set.
func (w *warp) compute(b *block, j int, set uint32) *LaunchError {
	l := &w.lanes[j]
	switch l.op {
	case opShflIdx, opShflUp, opShflDown, opShflXor:
		i, d := int64(j), int64(l.arg)
		var src int64
		switch l.op {
		case opShflIdx:
			src = d & 31
		case opShflUp:
			src = i - d
		case opShflDown:
			src = i + d
		case opShflXor:
			src = i ^ d
		}
		if src < 0 || src > 31 {
			l.res = l.val
			return nil
		}
		if set&(1<<uint(src)) == 0 {
			return b.errorAt(b.threads[w.base+j], "%s: source lane %d is not taking part (not in the mask, or beyond the block)", warpOpNames[l.op], src)
		}
		l.res = w.lanes[src].val
	case opBallot, opAll, opAny:
		m := l.mask & w.exists
		var ballot uint32
		for k := range WarpSize {
			if m&(1<<uint(k)) != 0 && w.lanes[k].pred {
				ballot |= 1 << uint(k)
			}
		}
		switch l.op {
		case opBallot:
			l.res = uint64(ballot)
		case opAll:
			l.res = b2u(ballot == m)
		case opAny:
			l.res = b2u(ballot != 0)
		}
	}
	return nil
}

// deadlock explains why lane of w cannot leave its warp operation.
func (w *warp) deadlock(b *block, lane int) *LaunchError {
	me := &w.lanes[lane]
	if x := me.mask & w.exitedMask; x != 0 {
		return b.errorAt(b.threads[w.base+lane], "%s: lane %d named in the member mask %#x has already returned",
			warpOpNames[me.op], bits.TrailingZeros32(x), me.mask)
	}
	for k := range WarpSize {
		if me.mask&w.exists&(1<<uint(k)) == 0 {
			continue
		}
		o := &w.lanes[k]
		if o.pending && o.op == me.op && o.pc == me.pc {
			continue
		}
		where := "is elsewhere"
		switch b.waits[w.base+k] {
		case waitBarrier:
			where = "waits at " + barNames[b.barKind]
		case waitWarp:
			where = "waits at " + warpOpNames[o.op] + " at " + pcPos(o.pc)
		case waitExited:
			where = "has returned"
		}
		return b.errorAt(b.threads[w.base+lane], "warp divergence: %s at %s with member mask %#x waits for lane %d (thread %v), which %s",
			warpOpNames[me.op], pcPos(me.pc), me.mask, k, b.threads[w.base+k].tid, where)
	}
	return b.errorAt(b.threads[w.base+lane], "%s cannot complete", warpOpNames[me.op])
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// toBits returns the bits of a warp value.
func toBits[T Number](v T) uint64 {
	switch x := any(v).(type) {
	case float32:
		return uint64(math.Float32bits(x))
	case float64:
		return math.Float64bits(x)
	case int:
		return uint64(x)
	case int32:
		return uint64(uint32(x))
	case int64:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	}
	panic("kernel: unsupported warp value type")
}

// fromBits is the inverse of toBits.
func fromBits[T Number](u uint64) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(math.Float32frombits(uint32(u))).(T)
	case float64:
		return any(math.Float64frombits(u)).(T)
	case int:
		return any(int(u)).(T)
	case int32:
		return any(int32(uint32(u))).(T)
	case int64:
		return any(int64(u)).(T)
	case uint32:
		return any(uint32(u)).(T)
	case uint64:
		return any(u).(T)
	}
	panic("kernel: unsupported warp value type")
}

// ShflSync returns v of lane srcLane&31 of the warp. Every lane of mask
// must call it at the same call site; the caller must be in mask. CUDA's
// __shfl_sync with width 32.
//
//go:noinline
func ShflSync[T Number](t Thread, mask uint32, v T, srcLane int) T {
	return fromBits[T](t.s.warpSync(opShflIdx, callerPC(), mask, toBits(v), uint32(srcLane), false))
}

// ShflUpSync returns v of lane LaneID-delta, or the caller's own v when
// that is below lane 0 (__shfl_up_sync).
//
//go:noinline
func ShflUpSync[T Number](t Thread, mask uint32, v T, delta int) T {
	return fromBits[T](t.s.warpSync(opShflUp, callerPC(), mask, toBits(v), uint32(delta), false))
}

// ShflDownSync returns v of lane LaneID+delta, or the caller's own v when
// that is above lane 31 (__shfl_down_sync).
//
//go:noinline
func ShflDownSync[T Number](t Thread, mask uint32, v T, delta int) T {
	return fromBits[T](t.s.warpSync(opShflDown, callerPC(), mask, toBits(v), uint32(delta), false))
}

// ShflXorSync returns v of lane LaneID^laneMask, or the caller's own v
// when that is above lane 31 (__shfl_xor_sync): the butterfly of
// reductions.
//
//go:noinline
func ShflXorSync[T Number](t Thread, mask uint32, v T, laneMask int) T {
	return fromBits[T](t.s.warpSync(opShflXor, callerPC(), mask, toBits(v), uint32(laneMask), false))
}

// BallotSync returns a mask with bit k set when lane k of mask passed a
// true p (__ballot_sync).
//
//go:noinline
func (t Thread) BallotSync(mask uint32, p bool) uint32 {
	return uint32(t.s.warpSync(opBallot, callerPC(), mask, 0, 0, p))
}

// AllSync reports whether every lane of mask passed a true p
// (__all_sync).
//
//go:noinline
func (t Thread) AllSync(mask uint32, p bool) bool {
	return t.s.warpSync(opAll, callerPC(), mask, 0, 0, p) != 0
}

// AnySync reports whether some lane of mask passed a true p
// (__any_sync).
//
//go:noinline
func (t Thread) AnySync(mask uint32, p bool) bool {
	return t.s.warpSync(opAny, callerPC(), mask, 0, 0, p) != 0
}

// SyncWarp waits until every lane of mask reaches it (__syncwarp); memory
// written before it by those lanes is visible to them after it.
//
//go:noinline
func (t Thread) SyncWarp(mask uint32) {
	t.s.warpSync(opSyncWarp, callerPC(), mask, 0, 0, false)
}

// ActiveMask returns the mask of the lanes of the caller's warp executing
// this call together (__activemask). On the CPU a lane waits until every
// lane of its warp has reached this call, returned, or waits at another
// barrier or warp operation, and gets the lanes at this call: where the
// warp has not diverged, every lane that has not returned, as on a GPU.
//
//go:noinline
func (t Thread) ActiveMask() uint32 {
	return uint32(t.s.warpSync(opActiveMask, callerPC(), 0, 0, 0, false))
}
