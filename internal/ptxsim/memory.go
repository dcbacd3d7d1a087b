// This file implements the state spaces a kernel addresses (PTX ISA 5.1):
// global and const memory as the launch's regions, shared memory per
// block, local memory per thread and the parameter space; the bounds and
// alignment checks of every access; and the shadow state of shared and
// local memory that turns reading bytes nobody wrote, and shared memory
// that two warps touch between the same two barriers with at least one
// of them writing (a data race, PTX ISA 8.7.1), into faults.

package ptxsim

import "fmt"

// shadow is the per-byte state of shared memory: the block generation
// that last initialized each byte, and the barrier epochs and warps of its
// last write and reads.
type shadow struct {
	gen   uint32
	cells []cell
}

// cell is the shadow state of one byte.
type cell struct {
	init   uint32 // generation of the block that wrote it
	wEpoch uint32 // barrier epoch of the last write
	rEpoch uint32 // barrier epoch of the reads in rWarps
	rWarps uint32 // warps (mod 32) that read it in rEpoch
	wWarp  uint8  // warp of the last write
}

func newShadow(n int) shadow { return shadow{cells: make([]cell, n)} }

// reset starts a new block: every byte uninitialized.
func (s *shadow) reset() { s.gen++ }

// access kinds for the shadow checks.
const (
	accRead = iota
	accWrite
	accAtomic
)

// mem returns the size bytes at address a of state space sp for lane l of
// w, checking bounds, alignment and the shadow state, or nil after
// recording a fault.
func (w *warp) mem(in *inst, l int, sp uint8, a uint64, size int, acc int) []byte {
	b := w.b
	if a%uint64(size) != 0 {
		w.failAddr(in, l, FaultMisaligned, a, fmt.Sprintf("misaligned %d-byte %s access (PTX requires accesses aligned to their size)", size, spaceName[sp]))
		return nil
	}
	switch sp {
	case spGlobal:
		ri := b.globalRegion(a, size)
		if ri < 0 {
			w.failAddr(in, l, FaultAddress, a, fmt.Sprintf("out-of-bounds %d-byte global %s: %s", size, accName[acc], b.rs.near(b.rs.global, a)))
			return nil
		}
		r := &b.rs.global[ri]
		if acc != accRead {
			if r.ReadOnly {
				w.failAddr(in, l, FaultAddress, a, fmt.Sprintf("%d-byte %s to %s, which is read-only", size, accName[acc], r.Name))
				return nil
			}
			if b.written[ri] == 0 {
				b.written[ri] = in.line
			}
		} else if in.nc && b.ncRead[ri] == 0 {
			b.ncRead[ri] = in.line
		}
		o := a - r.Addr
		return r.Data[o : o+uint64(size)]
	case spConst:
		if acc != accRead {
			w.failAddr(in, l, FaultAddress, a, "the constant space is read-only")
			return nil
		}
		ri := findRegion(b.rs.consts, a, size)
		if ri < 0 {
			w.failAddr(in, l, FaultAddress, a, fmt.Sprintf("out-of-bounds %d-byte const read: %s", size, b.rs.near(b.rs.consts, a)))
			return nil
		}
		r := &b.rs.consts[ri]
		o := a - r.Addr
		return r.Data[o : o+uint64(size)]
	case spParam:
		if acc != accRead {
			w.failAddr(in, l, FaultAddress, a, "kernel parameters are read-only")
			return nil
		}
		if a+uint64(size) > uint64(b.k.paramBytes) || a+uint64(size) < a {
			w.failAddr(in, l, FaultAddress, a, fmt.Sprintf("out-of-bounds %d-byte parameter read: the parameters take %d bytes", size, b.k.paramBytes))
			return nil
		}
		return b.rs.params[a : a+uint64(size)]
	case spShared:
		if a+uint64(size) > uint64(len(b.shared)) || a+uint64(size) < a {
			w.failAddr(in, l, FaultAddress, a, fmt.Sprintf("out-of-bounds %d-byte shared %s: the block has %d bytes of shared memory%s", size, accName[acc], len(b.shared), b.k.varsNear(spShared, a)))
			return nil
		}
		if !w.shadowShared(in, l, a, size, acc) {
			return nil
		}
		return b.shared[a : a+uint64(size)]
	case spLocal:
		n := uint64(b.k.LocalBytes)
		if a+uint64(size) > n || a+uint64(size) < a {
			w.failAddr(in, l, FaultAddress, a, fmt.Sprintf("out-of-bounds %d-byte local %s: a thread has %d bytes of local memory%s", size, accName[acc], n, b.k.varsNear(spLocal, a)))
			return nil
		}
		base := uint64(w.id*32+l) * n
		s := b.lo[base+a : base+a+uint64(size)]
		if acc == accRead {
			for i := range s {
				if s[i] == 0 {
					w.failAddr(in, l, FaultUndefined, a, fmt.Sprintf("reads %d bytes of local memory this thread never wrote%s", size, b.k.varsNear(spLocal, a)))
					return nil
				}
			}
		} else {
			for i := range s {
				s[i] = 1
			}
		}
		return b.local[base+a : base+a+uint64(size)]
	}
	w.fail(in, l, FaultAddress, "unknown state space")
	return nil
}

var accName = [...]string{accRead: "read", accWrite: "write", accAtomic: "atomic"}

// shadowShared checks and updates the shadow state of a shared access.
func (w *warp) shadowShared(in *inst, l int, a uint64, size int, acc int) bool {
	b := w.b
	gen, epoch := b.sh.gen, b.epoch
	me := uint8(w.id)
	bit := uint32(1) << uint(w.id%32)
	cells := b.sh.cells[a : a+uint64(size)]
	for i := range cells {
		c := &cells[i]
		switch acc {
		case accRead:
			if c.init != gen {
				w.failAddr(in, l, FaultUndefined, a, fmt.Sprintf("reads %d bytes of shared memory no thread of the block has written%s", size, b.k.varsNear(spShared, a)))
				return false
			}
			if c.wEpoch == epoch && c.wWarp != me {
				w.failAddr(in, l, FaultSync, a, fmt.Sprintf("data race on shared memory%s: warp %d reads bytes warp %d wrote since the last barrier", b.k.varsNear(spShared, a), w.id, c.wWarp))
				return false
			}
			if c.rEpoch != epoch {
				c.rEpoch, c.rWarps = epoch, 0
			}
			c.rWarps |= bit
		case accWrite:
			if c.wEpoch == epoch && c.wWarp != me && c.init == gen {
				w.failAddr(in, l, FaultSync, a, fmt.Sprintf("data race on shared memory%s: warp %d writes bytes warp %d wrote since the last barrier", b.k.varsNear(spShared, a), w.id, c.wWarp))
				return false
			}
			if c.rEpoch == epoch && c.rWarps&^bit != 0 {
				w.failAddr(in, l, FaultSync, a, fmt.Sprintf("data race on shared memory%s: warp %d writes bytes other warps read since the last barrier (readers %#x)", b.k.varsNear(spShared, a), w.id, c.rWarps))
				return false
			}
			c.init, c.wEpoch, c.wWarp = gen, epoch, me
		default: // atomic: reads initialized memory, races with nothing
			if c.init != gen {
				w.failAddr(in, l, FaultUndefined, a, fmt.Sprintf("an atomic reads %d bytes of shared memory no thread of the block has written%s", size, b.k.varsNear(spShared, a)))
				return false
			}
		}
	}
	return true
}

// globalRegion returns the index of the global region holding
// [a, a+size), or -1, trying the region of the last access first.
func (b *block) globalRegion(a uint64, size int) int {
	set := b.rs.global
	if i := b.lastRegion; i >= 0 {
		if r := &set[i]; a >= r.Addr && a+uint64(size) <= r.Addr+uint64(len(r.Data)) && a+uint64(size) > a {
			return i
		}
	}
	i := findRegion(set, a, size)
	if i >= 0 {
		b.lastRegion = i
	}
	return i
}

// findRegion returns the index of a region of set (sorted by address)
// holding [a, a+size), or -1. Regions may overlap: the last one starting
// at or below a is tried first, then earlier ones.
func findRegion(set []Region, a uint64, size int) int {
	end := a + uint64(size)
	if end < a {
		return -1
	}
	lo, hi := 0, len(set)
	for lo < hi {
		m := (lo + hi) / 2
		if set[m].Addr <= a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := lo - 1; i >= 0; i-- {
		if r := &set[i]; a >= r.Addr && end <= r.Addr+uint64(len(r.Data)) {
			return i
		}
	}
	return -1
}

// near describes where address a lies relative to the regions.
func (rs *runState) near(set []Region, a uint64) string {
	if len(set) == 0 {
		return "the launch has no memory in this space"
	}
	best, dist, after := -1, uint64(0), false
	for i := range set {
		r := &set[i]
		end := r.Addr + uint64(len(r.Data))
		switch {
		case a >= end:
			if d := a - end; best < 0 || d < dist {
				best, dist, after = i, d, true
			}
		case a < r.Addr:
			if d := r.Addr - a; best < 0 || d < dist {
				best, dist, after = i, d, false
			}
		default:
			return fmt.Sprintf("it straddles the end of %s [%#x, %#x)", r.Name, r.Addr, end)
		}
	}
	r := &set[best]
	if after {
		return fmt.Sprintf("%d bytes after the end of %s [%#x, %#x)", dist, r.Name, r.Addr, r.Addr+uint64(len(r.Data)))
	}
	return fmt.Sprintf("%d bytes before %s [%#x, %#x)", dist, r.Name, r.Addr, r.Addr+uint64(len(r.Data)))
}

// varsNear names the shared or local array holding address a.
func (k *Kernel) varsNear(sp uint8, a uint64) string {
	for _, v := range k.vars {
		if v.space == sp && v.size < 0 && a >= v.addr {
			return fmt.Sprintf(" (in %s, byte %d of the dynamic shared memory)", v.name, a-v.addr)
		}
		if v.space == sp && a >= v.addr && a < v.addr+uint64(v.size) {
			return fmt.Sprintf(" (in %s, byte %d of %d)", v.name, a-v.addr, v.size)
		}
	}
	return ""
}
