// Row runs: an access that is not contiguous but whose last axis is a
// unit-stride run (rev(a, 0), step(a, 0, 2), a slice of whole rows)
// reads or writes a chunk that lies within one row of the space in
// place, as a contiguous access does, instead of gathering it into a
// register; and a map program with such an access over long rows is cut
// into chunks along its rows, so that every chunk does.

package cpu

// unitRowMin is the shortest last axis whose rows chunk by chunk: shorter
// rows keep flat chunks of many rows (gathered run by run).
const unitRowMin = 1024

// rowRun returns the buffer offset of the points [lo, lo+n) of a (a
// unitRow access over s) and true when they lie within one row of s,
// which makes them one run of the buffer.
func (s space) rowRun(a *access, lo, n int) (off int, ok bool) {
	r := len(s.shape)
	if !a.unitRow || r == 0 {
		return 0, false
	}
	f := lo
	off = a.lay.Offset
	for k := r - 1; k >= 0; k-- {
		e := s.shape[k]
		i := f % e
		if k == r-1 && i+n > e {
			return 0, false
		}
		f /= e
		off += i * a.lay.Strides[k]
	}
	return off, true
}

// rowChunks returns how p's space is cut when its rows go chunk by
// chunk: each of its rows in pieces pieces of at most per points (per a
// multiple of 64 unless it is the whole row), or 0, 0 when flat chunks
// serve (no access has unit-stride rows, or the rows are short).
func (p *prog) rowChunks(chunk int) (pieces, per int) {
	r := len(p.sp.shape)
	if r < 2 || p.sp.shape[r-1] < max(unitRowMin, chunk/4) {
		return 0, 0
	}
	rowy := false
	for i := range p.opds {
		rowy = rowy || p.opds[i].unitRow
	}
	for i := range p.stores {
		rowy = rowy || p.stores[i].unitRow
	}
	if !rowy {
		return 0, 0
	}
	last := p.sp.shape[r-1]
	pieces = (last + chunk - 1) / chunk
	per = last
	if pieces > 1 {
		per = min(chunk, ((last+pieces-1)/pieces+63)/64*64)
		pieces = (last + per - 1) / per
	}
	return pieces, per
}
