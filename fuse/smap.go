// Symbolic stride maps: a chain of view steps composed into one map from
// the strides of a value to the strides (and offset) in a kernel's space,
// so that mapping a layout through a chain of any depth costs the rank
// of the value, not the length of the chain.

package fuse

import (
	"math"
	"math/bits"
)

// term is c*st[a] + d: a stride (or an offset contribution) as a function
// of the strides st of the entry layout; a < 0 is the constant d.
type term struct {
	a    int
	c, d int
}

// cond is a condition the entry strides must meet for a Reshape in the
// chain to be expressible: pl*st[a] == ql*st[b] (a < b), or, with b < 0,
// pl*st[a] == ql*st[a] with pl != ql, that is st[a] == 0. p and q are pl
// and ql reduced (gcd 1, p > 0), to recognize conditions that state the
// same thing; pl and ql are what the Reshape compares, so evaluating them
// is exactly the step's own check. at is the transform whose step is the
// Reshape.
type cond struct {
	a, b   int
	p, q   int
	pl, ql int
	at     *xform
}

// smap maps (off, st) over its entry shape to (off', st') over its exit:
// st'[j] = out[j] evaluated at st, off' = off + off0 + sum(offc[a]*st[a]),
// provided every cond holds (conds are in the order the steps check them,
// nearest the entry first). Built once per transform; nil when the
// composition would overflow or meets a case it does not model, and the
// steps are then applied one by one.
type smap struct {
	out   []term
	offc  []int
	off0  int
	conds []cond
}

// ovf tracks overflow of checked arithmetic.
type ovf struct{ bad bool }

func (o *ovf) mul(a, b int) int {
	hi, lo := bits.Mul64(uint64(absInt(a)), uint64(absInt(b)))
	if hi != 0 || lo > math.MaxInt64 || a == math.MinInt || b == math.MinInt {
		o.bad = true
		return 0
	}
	if (a < 0) != (b < 0) {
		return -int(lo)
	}
	return int(lo)
}

func (o *ovf) add(a, b int) int {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		o.bad = true
	}
	return s
}

func absInt(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func gcd(a, b int) int {
	a, b = absInt(a), absInt(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// identityTerms returns the strides of rank r unchanged.
func identityTerms(r int) []term {
	out := make([]term, r)
	for i := range out {
		out[i] = term{a: i, c: 1}
	}
	return out
}

// scale returns t*k.
func (o *ovf) scale(t term, k int) term {
	if t.a < 0 {
		return term{a: -1, d: o.mul(t.d, k)}
	}
	return term{a: t.a, c: o.mul(t.c, k), d: o.mul(t.d, k)}
}

// newCond returns the condition l == r between two terms, and whether
// there is one (false: it always holds). ok is false when the condition
// is not of the modeled form (a term with a constant part).
func newCond(l, r term, at *xform) (c cond, has, ok bool) {
	if l.d != 0 || r.d != 0 {
		return cond{}, false, false
	}
	if l.a < 0 || l.c == 0 {
		l = term{a: -1}
	}
	if r.a < 0 || r.c == 0 {
		r = term{a: -1}
	}
	switch {
	case l.a < 0 && r.a < 0:
		return cond{}, false, true
	case l.a < 0:
		return cond{a: r.a, b: -1, p: 1, pl: r.c, at: at}, true, true
	case r.a < 0:
		return cond{a: l.a, b: -1, p: 1, pl: l.c, at: at}, true, true
	case l.a == r.a:
		if l.c == r.c {
			return cond{}, false, true
		}
		return cond{a: l.a, b: -1, p: 1, pl: l.c, ql: r.c, at: at}, true, true
	}
	if l.a > r.a {
		l, r = r, l
	}
	if l.c == math.MinInt || r.c == math.MinInt {
		return cond{}, false, false
	}
	g := gcd(l.c, r.c)
	p, q := l.c/g, r.c/g
	if p < 0 {
		p, q = -p, -q
	}
	return cond{a: l.a, b: r.a, p: p, q: q, pl: l.c, ql: r.c, at: at}, true, true
}

// holds evaluates c at st exactly; ok is false when a product overflows.
func (c *cond) holds(st []int) (holds, ok bool) {
	var o ovf
	b := c.b
	if b < 0 {
		b = c.a
	}
	l, r := o.mul(c.pl, st[c.a]), o.mul(c.ql, st[b])
	return l == r, !o.bad
}

// same reports whether c and d state the same condition.
func (c *cond) same(d *cond) bool {
	return c.a == d.a && c.b == d.b && (c.b < 0 || c.p == d.p && c.q == d.q)
}

// pruneConds drops conditions that earlier ones imply: repeats, and any
// third ratio between the same two strides (two different ratios already
// force both to 0). At most rank + rank*(rank-1) conditions remain.
func pruneConds(cs []cond) []cond {
	out := cs[:0:0]
	for i := range cs {
		c := &cs[i]
		keep := true
		pairs := 0
		zeroA, zeroB := false, false
		for j := range out {
			d := &out[j]
			if c.same(d) {
				keep = false
				break
			}
			if d.b < 0 {
				zeroA = zeroA || d.a == c.a
				zeroB = zeroB || c.b >= 0 && d.a == c.b
			} else if c.b >= 0 && d.a == c.a && d.b == c.b {
				pairs++
			}
		}
		if keep && c.b >= 0 && (pairs >= 2 || zeroA && zeroB) {
			keep = false
		}
		if keep {
			out = append(out, *c)
		}
	}
	return out
}

// stepSmap returns the map of one step over an entry of rank r, with the
// conditions of a Reshape attributed to at. It returns nil when the step
// cannot be modeled.
func stepSmap(s *step, r int, at *xform) *smap {
	m := &smap{out: identityTerms(r), offc: make([]int, r)}
	var o ovf
	var out []term
	switch s.kind {
	case stepBroadcast:
		out = make([]term, len(s.to))
		d := len(s.to) - len(s.from)
		for j := range s.to {
			out[j] = term{a: -1}
			if i := j - d; i >= 0 && !(s.from[i] == 1 && s.to[j] != 1) {
				out[j] = m.out[i]
			}
		}
	case stepPermute:
		out = make([]term, len(s.perm))
		for i, p := range s.perm {
			out[i] = m.out[p]
		}
	case stepSlice:
		out = make([]term, r)
		for i, sp := range s.slices {
			if sp.Len > 0 {
				m.offc[i] = o.add(m.offc[i], sp.Start)
			}
			out[i] = o.scale(m.out[i], sp.Step)
		}
	case stepReshape:
		var ok bool
		out, ok = reshapeSmap(s, m, at, &o)
		if !ok {
			return nil
		}
	case stepEmbed:
		out = make([]term, len(s.reduced))
		k := 0
		for j, red := range s.reduced {
			out[j] = term{a: -1}
			switch {
			case red:
				if s.keepDims {
					k++
				}
			default:
				out[j] = m.out[k]
				k++
			}
		}
	default:
		return nil
	}
	if o.bad {
		return nil
	}
	m.out = out
	return m
}

// reshapeSmap is reshapeStrides over the terms of m: the same grouping of
// axes (regroup), its stride checks as conditions.
func reshapeSmap(s *step, m *smap, at *xform, o *ovf) ([]term, bool) {
	from, to := s.from, s.to
	if from.Size() == 0 {
		out := make([]term, len(to))
		for j, st := range to.ContiguousStrides() {
			out[j] = term{a: -1, d: st}
		}
		return out, true
	}
	out, ok := regroup(from, m.out, to, term{a: -1, d: 1}, o.scale, func(outer, want term) bool {
		c, has, ok := newCond(outer, want, at)
		if ok && has {
			m.conds = append(m.conds, c)
		}
		return ok
	})
	return out, ok && !o.bad
}

// compose returns outer∘inner: inner's exit is outer's entry. nil when
// either is nil or the composition overflows.
func compose(outer, inner *smap) *smap {
	if outer == nil || inner == nil {
		return nil
	}
	var o ovf
	m := &smap{out: make([]term, len(outer.out)), offc: append([]int(nil), inner.offc...)}
	m.off0 = o.add(inner.off0, outer.off0)
	sub := func(t term) term {
		if t.a < 0 {
			return term{a: -1, d: t.d}
		}
		u := inner.out[t.a]
		if u.a < 0 {
			return term{a: -1, d: o.add(o.mul(t.c, u.d), t.d)}
		}
		return term{a: u.a, c: o.mul(t.c, u.c), d: o.add(o.mul(t.c, u.d), t.d)}
	}
	for j, t := range outer.out {
		m.out[j] = sub(t)
	}
	for a, k := range outer.offc {
		if k == 0 {
			continue
		}
		u := inner.out[a]
		if u.a >= 0 {
			m.offc[u.a] = o.add(m.offc[u.a], o.mul(k, u.c))
		}
		m.off0 = o.add(m.off0, o.mul(k, u.d))
	}
	m.conds = append(m.conds, inner.conds...)
	for i := range outer.conds {
		c := &outer.conds[i]
		b := c.b
		if b < 0 {
			b = c.a
		}
		l, r := sub(term{a: c.a, c: c.pl}), sub(term{a: b, c: c.ql})
		nc, has, ok := newCond(l, r, c.at)
		if !ok {
			return nil
		}
		if has {
			m.conds = append(m.conds, nc)
		}
	}
	if o.bad {
		return nil
	}
	m.conds = pruneConds(m.conds)
	m.dropZeros()
	return m
}

// dropZeros removes from the strides and the offset the entry strides
// that the conditions force to 0: they are only evaluated once every
// condition holds, and then those terms are 0. Without it a chain of
// Reshapes that can only hold for zero strides (a transpose reshaped
// again and again) would grow its coefficients until they overflow.
func (m *smap) dropZeros() {
	zero := make([]bool, len(m.offc))
	any := false
	for changed := true; changed; {
		changed = false
		for i := range m.conds {
			c := &m.conds[i]
			set := func(a int) {
				if !zero[a] {
					zero[a], changed, any = true, true, true
				}
			}
			switch {
			case c.b < 0:
				set(c.a)
			case zero[c.a]:
				set(c.b)
			case zero[c.b]:
				set(c.a)
			default:
				for j := range i {
					if d := &m.conds[j]; d.b == c.b && d.a == c.a && !c.same(d) {
						set(c.a) // two different ratios of the same two strides
						set(c.b)
					}
				}
			}
		}
	}
	if !any {
		return
	}
	for j, t := range m.out {
		if t.a >= 0 && zero[t.a] {
			m.out[j] = term{a: -1, d: t.d}
		}
	}
	for a := range m.offc {
		if zero[a] {
			m.offc[a] = 0
		}
	}
}

// eval maps (off, st) through m. It returns the transform whose Reshape
// fails (nil if none), and ok false when a condition overflows (the
// caller then applies the steps one by one).
func (m *smap) eval(off int, st []int) (int, []int, *xform, bool) {
	for i := range m.conds {
		h, ok := m.conds[i].holds(st)
		if !ok {
			return 0, nil, nil, false
		}
		if !h {
			return 0, nil, m.conds[i].at, true
		}
	}
	out := make([]int, len(m.out))
	for j, t := range m.out {
		if t.a < 0 {
			out[j] = t.d
		} else {
			out[j] = t.c*st[t.a] + t.d
		}
	}
	off += m.off0
	for a, k := range m.offc {
		off += k * st[a]
	}
	return off, out, nil, true
}
