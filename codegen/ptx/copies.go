// This file implements parallel copies: block parameters become registers,
// and a branch assigns all of its target's parameters at once. The copies
// of one edge are ordered so that no source is overwritten before it is
// read, breaking cycles (swaps, rotations) with a scratch register.

package ptx

// move is one register copy dst <- src of register class class; src may
// also be an immediate.
type move struct {
	dst, src string
	class    regClass
}

// sequence orders the parallel copy moves (every source read before any
// destination is written; destinations distinct) into moves that can run
// one after another. Self-copies are dropped. When only cycles remain, the
// readers of one destination are redirected to a register that already
// holds a copy of its value, or else to a scratch register from tmp (of
// that move's class) saved first: a swap costs three moves.
func sequence(moves []move, tmp func(regClass) string) []move {
	pending := make([]move, 0, len(moves))
	for _, m := range moves {
		if m.dst != m.src {
			pending = append(pending, m)
		}
	}
	readers := map[string]int{}
	for _, m := range pending {
		readers[m.src]++
	}
	// copyOf records, for a register whose value was copied, the
	// destination that still holds that value (each destination is
	// written once), so that breaking a cycle there needs no scratch.
	copyOf := map[string]string{}
	out := make([]move, 0, len(pending)+1)
	for len(pending) > 0 {
		progress := false
		for i := 0; i < len(pending); {
			m := pending[i]
			if readers[m.dst] > 0 {
				i++
				continue
			}
			out = append(out, m)
			readers[m.src]--
			copyOf[m.src] = m.dst
			pending = append(pending[:i], pending[i+1:]...)
			progress = true
		}
		if progress || len(pending) == 0 {
			continue
		}
		// Every pending destination is still to be read: cycles. Take a
		// destination whose value was already copied elsewhere, else save
		// one in a scratch register, and redirect its readers.
		k := 0
		for i, m := range pending {
			if _, ok := copyOf[m.dst]; ok {
				k = i
				break
			}
		}
		d := pending[k].dst
		t, ok := copyOf[d]
		if !ok {
			t = tmp(pending[k].class)
			out = append(out, move{dst: t, src: d, class: pending[k].class})
		}
		for i := range pending {
			if pending[i].src == d {
				pending[i].src = t
				readers[d]--
				readers[t]++
			}
		}
	}
	return out
}
