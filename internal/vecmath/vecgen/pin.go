// This file implements constant pinning: the constants a function's
// loop reads most are loaded into vector registers once, before the
// loop, and the loop bodies read those registers instead of memory. A
// constant operand in memory costs a full-width load each time (on cores
// that split 512-bit loads, one cycle of the load ports a 16-lane
// operand), and the bodies read constants in about half their
// instructions. Each register held for a constant is one fewer for the
// body's values, so the number pinned is the one that leaves the fewest
// memory operands (constants, reloads and spills) in the unrolled body.
// Only AVX-512 code pins (see pin).

package vecgen

import (
	"sort"

	"github.com/mmcloughlin/avo/operand"
)

// minFree is the fewest vector registers pinning leaves to a body's
// values: enough for any one instruction's operands and result and the
// temporaries of the loads and stores.
const minFree = 6

// pin chooses the constants held in registers for bodies (the unrolled
// body first, the one-vector body next, a full path's body last) and
// allocates each body around them. It returns the register of each
// pinned constant, the constants in the order to load them, the
// allocated bodies and the stack slots the largest needs.
func (f *asmFile) pin(bodies []*lowered) (map[cdata]int, []cdata, [][]placed, int, error) {
	ranked := rankConsts(bodies[0].code)
	type choice struct {
		pins   map[cdata]int
		placed [][]placed
		nslots int
		cost   [2]int
	}
	var best *choice
	var firstErr error
	most := min(len(ranked), f.isa.NVec-minFree)
	if !f.isa.Masks {
		// AVX2: 16 registers, and constants half as wide; pinning
		// measured a wash on Zen 4 (from 2% faster to 2% slower).
		most = 0
	}
	for k := 0; k <= most; k++ {
		pins := map[cdata]int{}
		for i, c := range ranked[:k] {
			pins[c] = f.isa.NVec - 1 - i
		}
		ch := &choice{pins: pins}
		ok := true
		for _, b := range bodies {
			pl, ns, err := allocate(f.isa, b.code, f.konst, pins)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				ok = false
				break
			}
			ch.placed = append(ch.placed, pl)
			ch.nslots = max(ch.nslots, ns)
		}
		if !ok {
			continue
		}
		ch.cost = [2]int{memOperands(ch.placed[0]), memOperands(ch.placed[1])}
		if best == nil || ch.cost[0] < best.cost[0] || (ch.cost[0] == best.cost[0] && ch.cost[1] < best.cost[1]) {
			best = ch
		}
	}
	if best == nil {
		return nil, nil, nil, 0, firstErr
	}
	order := ranked[:len(best.pins)]
	return best.pins, order, best.placed, best.nslots, nil
}

// rankConsts returns the constants code reads, most read first (ties in
// the order of first use, so that the output is deterministic).
func rankConsts(code []minst) []cdata {
	count := map[cdata]int{}
	var order []cdata
	see := func(c cdata) {
		if c.iota {
			return
		}
		if _, ok := count[c]; !ok {
			order = append(order, c)
		}
		count[c]++
	}
	for _, m := range code {
		for _, g := range m.args {
			switch {
			case g.kind == argConst:
				see(g.c)
			case g.kind == argReg && !g.def && g.r.konst != nil:
				see(*g.r.konst)
			case g.kind == argReg && g.tie != nil && g.tie.konst != nil:
				see(*g.tie.konst)
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] > count[order[j]] })
	return order
}

// spillCost is the weight of a spill (a store, and a stack frame) against
// a load of a constant or a reload.
const spillCost = 3

// memOperands weighs the memory operands of an allocated body beside its
// loads of the operands and its stores of the result: constants read
// from memory and reloads count 1, spills (stores) spillCost.
func memOperands(body []placed) int {
	n := 0
	for _, pl := range body {
		if pl.m.special != specNone {
			continue
		}
		for i, o := range pl.ops {
			if _, ok := o.(operand.Mem); ok {
				if i == len(pl.ops)-1 { // the destination: a spill
					n += spillCost
				} else {
					n++
				}
			}
		}
	}
	return n
}
