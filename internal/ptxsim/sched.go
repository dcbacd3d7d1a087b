// This file implements the execution of one block of threads (a CTA):
// its warps of 32 lanes, each lane with its own program counter
// (independent thread scheduling, PTX ISA 3.2) and its registers and
// predicates. A warp runs the lanes at its lowest program counter in
// lockstep; a branch that splits them, or a lane group reaching a branch
// target while lanes wait behind it, hands control back to the
// scheduler, which again picks the lowest counter, so lanes reconverge at
// the first label they share. Warp-synchronous instructions (shfl.sync,
// vote.sync, bar.warp.sync) wait until every non-exited lane of their
// member mask is at the same instruction; bar.sync waits until every
// non-exited thread of the block is at the same bar.sync (the .aligned
// rule of PTX ISA 9.7.12.1; exited threads release it, 9.7.11.7). What
// can never complete is a fault naming the lanes and instructions.

package ptxsim

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
)

// block is one CTA being run; a worker reuses it for block after block.
type block struct {
	rs     *runState
	k      *Kernel
	index  int
	ctaid  [3]int
	warps  []*warp
	shared []byte
	sh     shadow // initialization and race state of shared memory
	local  []byte // LocalBytes per thread
	lo     []byte // initialization of local memory: 1 per written byte
	epoch  uint32 // barrier epoch, for the race check of shared memory

	warpSteps, threadSteps int64
	budget                 int64
	fault                  *Error
	ncRead, written        []int32
	lastRegion             int
}

// warp is 32 lanes of a block.
type warp struct {
	b      *block
	id     int
	regs   []uint64 // slot*32 + lane
	preds  []uint32 // one bit per lane
	pc     [32]int32
	exists uint32 // lanes that are threads of the block
	exited uint32
	ready  uint32 // lanes that can run
	atBar  uint32 // lanes waiting at bar.sync
	atSync uint32 // lanes waiting at a warp-synchronous instruction
}

// getBlock returns a block for launch rs, reusing one of an earlier
// launch of the kernel when there is one.
func (k *Kernel) getBlock(rs *runState) *block {
	var b *block
	k.freeMu.Lock()
	if n := len(k.free); n > 0 {
		b, k.free = k.free[n-1], k.free[:n-1]
	}
	k.freeMu.Unlock()
	if b == nil {
		b = &block{k: k}
	}
	// Shared memory is sized per launch (its dynamic part); a reused
	// block's shadow generation keeps stale cells uninitialized.
	if n := rs.sharedBytes; cap(b.shared) < n {
		b.shared, b.sh.cells = make([]byte, n), make([]cell, n)
	} else {
		b.shared, b.sh.cells = b.shared[:n], b.sh.cells[:n]
	}
	b.rs, b.lastRegion = rs, -1
	nw := (rs.nthreads + 31) / 32
	if cap(b.warps) >= nw {
		b.warps = b.warps[:cap(b.warps)]
	}
	for i := len(b.warps); i < nw; i++ {
		w := &warp{b: b, id: i, regs: make([]uint64, k.nslots*32), preds: make([]uint32, k.npreds)}
		base := k.nslots - len(k.consts)
		for c, v := range k.consts {
			s := w.regs[(base+c)*32 : (base+c)*32+32]
			for l := range s {
				s[l] = v
			}
		}
		b.warps = append(b.warps, w)
	}
	b.warps = b.warps[:nw]
	if n := k.LocalBytes * rs.nthreads; len(b.local) < n {
		b.local, b.lo = make([]byte, n), make([]byte, n)
	}
	b.ncRead = resize(b.ncRead, len(rs.global))
	b.written = resize(b.written, len(rs.global))
	return b
}

// putBlock keeps b for a later launch.
func (k *Kernel) putBlock(b *block) {
	b.rs = nil
	k.freeMu.Lock()
	if len(k.free) < maxFree {
		k.free = append(k.free, b)
	}
	k.freeMu.Unlock()
}

// resize returns s with n zero elements, reusing its storage.
func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// reset prepares the block for CTA number i: every lane at the first
// instruction, shared and local memory uninitialized.
func (b *block) reset(i int) {
	b.index = i
	b.ctaid = b.rs.ctaOf(i)
	b.fault = nil
	b.warpSteps, b.threadSteps = 0, 0
	b.budget = b.rs.maxSteps - b.rs.threadSteps.Load()
	// Registers keep what the previous block left: Parse rejected any
	// kernel that may read a register before writing it (assign.go).
	for wi, w := range b.warps {
		w.pc = [32]int32{}
		n := b.rs.nthreads - wi*32
		w.exists = full
		if n < 32 {
			w.exists = 1<<uint(n) - 1
		}
		w.ready, w.exited, w.atBar, w.atSync = w.exists, 0, 0, 0
	}
	b.epoch++
	b.sh.reset()
	clear(b.lo[:b.k.LocalBytes*b.rs.nthreads])
}

// run executes the block to its end or its first fault.
func (b *block) run() {
	for {
		progress := false
		for _, w := range b.warps {
			if w.ready != 0 {
				w.run()
				progress = true
				if b.fault != nil {
					return
				}
			}
		}
		if progress {
			continue
		}
		// No lane can run: done, a barrier to release, or a deadlock.
		waiting, live := uint32(0), false
		for _, w := range b.warps {
			if w.exited != w.exists {
				live = true
			}
			waiting |= w.atSync
		}
		if !live {
			return
		}
		if waiting == 0 && b.releaseBarrier() {
			if b.fault != nil {
				return
			}
			continue
		}
		b.deadlock()
		return
	}
}

// releaseBarrier lets every thread waiting at bar.sync go on, when all
// non-exited threads are waiting at the same one. It reports whether it
// did; a fault when they wait at different ones.
func (b *block) releaseBarrier() bool {
	pc := int32(-1)
	for _, w := range b.warps {
		if w.atBar != w.exists&^w.exited {
			return false
		}
		for m := w.atBar; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			in := &b.k.code[w.pc[l]]
			if in.na == 2 {
				if n := uint32(w.r(in.a[1])[l]); int(n) != (b.rs.nthreads+31)/32*32 {
					b.failAt(in, w, l, FaultSync, fmt.Sprintf("a barrier for %d threads: only barriers of the whole block (%d threads) are supported", n, b.rs.nthreads))
					return true
				}
			}
			if pc < 0 {
				pc = w.pc[l]
			} else if w.pc[l] != pc && (in.op == 1 || b.k.code[pc].op == 1) {
				first := &b.k.code[pc]
				b.failAt(in, w, l, FaultSync, fmt.Sprintf("divergent barrier: this thread waits at line %d (%s) while others wait at line %d (%s); bar.sync requires every thread of the block at the same instruction (PTX ISA 9.7.12.1)",
					in.line, in.text, first.line, first.text))
				return true
			}
		}
	}
	if pc < 0 {
		return false
	}
	if in := &b.k.code[pc]; in.op2 != 0 {
		b.reduce(in)
	}
	for _, w := range b.warps {
		for m := w.atBar; m != 0; m &= m - 1 {
			w.pc[bits.TrailingZeros32(m)]++
		}
		w.ready |= w.atBar
		w.atBar = 0
	}
	b.epoch++
	return true
}

// deadlock faults with a description of what every waiting lane waits
// for.
func (b *block) deadlock() {
	var parts []string
	var first *warp
	firstLane := 0
	for _, w := range b.warps {
		for _, set := range []struct {
			m    uint32
			what string
		}{{w.atSync, "a warp-synchronous instruction"}, {w.atBar, "bar.sync"}} {
			byPC := map[int32]uint32{}
			for m := set.m; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				byPC[w.pc[l]] |= 1 << uint(l)
				if first == nil {
					first, firstLane = w, l
				}
			}
			for pc, m := range byPC {
				parts = append(parts, fmt.Sprintf("warp %d lanes %#x wait at %s, line %d (%s)", w.id, m, set.what, b.k.code[pc].line, b.k.code[pc].text))
			}
		}
		if e := w.exists & w.exited; e != 0 && e != w.exists {
			parts = append(parts, fmt.Sprintf("warp %d lanes %#x have exited", w.id, e))
		}
	}
	if first == nil {
		return
	}
	in := &b.k.code[first.pc[firstLane]]
	b.failAt(in, first, firstLane, FaultSync, "deadlock: "+strings.Join(parts, "; "))
}

// run executes the warp's ready lanes until none can go on.
//
//go:norace
func (w *warp) run() {
	for w.ready != 0 && w.b.fault == nil {
		pc := int32(math.MaxInt32)
		for m := w.ready; m != 0; m &= m - 1 {
			if p := w.pc[bits.TrailingZeros32(m)]; p < pc {
				pc = p
			}
		}
		act := uint32(0)
		for m := w.ready; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if w.pc[l] == pc {
				act |= 1 << uint(l)
			}
		}
		w.step(pc, act)
	}
}

// setPC sets the program counter of the lanes of m.
func (w *warp) setPC(m uint32, pc int32) {
	for ; m != 0; m &= m - 1 {
		w.pc[bits.TrailingZeros32(m)] = pc
	}
}

// step runs the lanes act, all at pc, in lockstep until they diverge,
// wait, exit, or meet lanes waiting at a branch target behind them. It
// touches only the warp's state (see the //go:norace note in inst.go).
//
//go:norace
func (w *warp) step(pc int32, act uint32) {
	b := w.b
	code := b.k.code
	start := pc
	for {
		in := &code[pc]
		if in.join && pc != start {
			if others := w.ready &^ act; others != 0 {
				same := uint32(0)
				for m := others; m != 0; m &= m - 1 {
					l := bits.TrailingZeros32(m)
					if w.pc[l] < pc {
						w.setPC(act, pc) // let the lanes behind catch up
						return
					}
					if w.pc[l] == pc {
						same |= 1 << uint(l)
					}
				}
				act |= same
			}
		}
		m := act
		if in.guard >= 0 {
			g := w.preds[in.guard]
			if in.gneg {
				g = ^g
			}
			m &= g
		}
		tl := -1
		if b.rs.trace != nil {
			if l := w.traceLane(); l >= 0 && act&(1<<uint(l)) != 0 {
				tl = l
				if in.ctl != ctlNone && in.ctl != ctlWarp {
					w.record(in, l, m&(1<<uint(l)) != 0)
				}
			}
		}
		b.warpSteps++
		n := popc(m)
		b.threadSteps += n
		if b.threadSteps > b.budget {
			b.failAt(in, w, bits.TrailingZeros32(act), FaultSteps, fmt.Sprintf("the launch exceeded its budget of %d thread instructions (a runaway loop?)", b.rs.maxSteps))
			return
		}
		switch in.ctl {
		case ctlNone:
			if m != 0 {
				in.exec(w, in, m)
				if b.fault != nil {
					return
				}
			}
			if tl >= 0 {
				w.record(in, tl, m&(1<<uint(tl)) != 0)
			}
			pc++
		case ctlBra:
			switch m {
			case act:
				pc = in.target
			case 0:
				pc++
			default:
				w.setPC(m, in.target)
				w.setPC(act&^m, pc+1)
				return
			}
		case ctlExit:
			w.exited |= m
			w.ready &^= m
			act &^= m
			if act == 0 {
				return
			}
			pc++
		case ctlBar:
			if m != act {
				b.failAt(in, w, bits.TrailingZeros32(act&^m), FaultSync, "divergent barrier: the guard of bar.sync is false for some lanes of the warp (PTX ISA 9.7.12.1)")
				return
			}
			w.atBar |= act
			w.ready &^= act
			w.setPC(act, pc)
			return
		case ctlWarp:
			var ok bool
			if act, ok = w.sync(in, pc, act, m); !ok {
				return
			}
			if tl >= 0 {
				w.record(in, tl, true)
			}
			pc++
		case ctlTrap:
			if m != 0 {
				b.failAt(in, w, bits.TrailingZeros32(m), FaultTrap, "trap: the thread aborted the kernel (PTX ISA 9.7.18.4)")
				return
			}
			pc++
		}
	}
}

// sync handles a warp-synchronous instruction reached by lanes act
// (guard true for m): it returns the lanes that executed it together and
// true, or false when they wait for others (PTX ISA 9.7.8.6, 9.7.12.2,
// 9.7.12.7: every non-exited lane of the member mask must execute it).
func (w *warp) sync(in *inst, pc int32, act, m uint32) (uint32, bool) {
	if m != act {
		w.b.failAt(in, w, bits.TrailingZeros32(act&^m), FaultSync, "the guard of a warp-synchronous instruction is false for some lanes that reach it")
		return 0, false
	}
	group := act
	for s := w.atSync; s != 0; s &= s - 1 {
		l := bits.TrailingZeros32(s)
		if w.pc[l] == pc {
			group |= 1 << uint(l)
		}
	}
	masks := w.r(in.a[in.na-1])
	first := bits.TrailingZeros32(group)
	member := uint32(masks[first])
	for g := group; g != 0; g &= g - 1 {
		l := bits.TrailingZeros32(g)
		if uint32(masks[l]) != member {
			w.b.failAt(in, w, l, FaultSync, fmt.Sprintf("lanes meet at a warp-synchronous instruction with different member masks (%#x and %#x)", member, uint32(masks[l])))
			return 0, false
		}
		if member&(1<<uint(l)) == 0 {
			w.b.failAt(in, w, l, FaultUndefined, fmt.Sprintf("the executing lane %d is not in the member mask %#x: undefined behaviour", l, member))
			return 0, false
		}
	}
	need := member & w.exists &^ w.exited
	if need&^group != 0 {
		w.atSync |= act
		w.ready &^= act
		w.setPC(act, pc)
		return 0, false
	}
	w.atSync &^= group
	w.ready |= group
	in.exec(w, in, group)
	if w.b.fault != nil {
		return 0, false
	}
	return group, true
}

// r returns the 32 lanes of register slot s.
func (w *warp) r(s int32) *[32]uint64 {
	i := int(s) * 32
	return (*[32]uint64)(w.regs[i : i+32])
}

// fail records a fault of lane l at instruction in.
func (w *warp) fail(in *inst, l int, kind int, msg string) {
	w.b.failAt(in, w, l, kind, msg)
}

// failAddr records a fault of lane l involving address a.
func (w *warp) failAddr(in *inst, l int, kind int, a uint64, msg string) {
	if w.b.fault != nil {
		return
	}
	w.b.failAt(in, w, l, kind, msg)
	w.b.fault.Addr, w.b.fault.HasAddr = a, true
}

// failAt records the block's first fault.
func (b *block) failAt(in *inst, w *warp, l int, kind int, msg string) {
	if b.fault != nil {
		return
	}
	b.fault = &Error{Kernel: b.k.Name, Kind: kind, Line: int(in.line), Instr: in.text, CTA: b.ctaid,
		Thread: b.rs.tidOf(w.id*32 + l), Msg: msg, Source: b.k.source(in)}
}
