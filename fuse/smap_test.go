// Composed stride maps against the steps applied one by one: random
// chains of broadcasts, permutations, slices, reshapes and reduction
// embeddings over random layouts must give the same offset and strides,
// and fail at the same Reshape.

package fuse

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

// randStep returns a random step from shape s and the shape it maps to.
func randStep(rng *rand.Rand, s graph.Shape) (step, graph.Shape) {
	r := len(s)
	switch rng.IntN(5) {
	case 0: // broadcast: stretch extents of 1, add leading axes
		to := s.Clone()
		for i := range to {
			if to[i] == 1 && rng.IntN(2) == 0 {
				to[i] = 1 + rng.IntN(3)
			}
		}
		for range rng.IntN(2) {
			to = append(graph.Shape{1 + rng.IntN(3)}, to...)
		}
		return step{kind: stepBroadcast, from: s, to: to}, to
	case 1:
		perm := rng.Perm(r)
		to := make(graph.Shape, r)
		for i, p := range perm {
			to[i] = s[p]
		}
		return step{kind: stepPermute, perm: perm}, to
	case 2:
		sl := make([]graph.SliceSpec, r)
		to := make(graph.Shape, r)
		for i, e := range s {
			rg := graph.Range{Start: rng.IntN(e + 1), Stop: rng.IntN(e + 1), Step: []int{1, 2, -1, -2, 3}[rng.IntN(5)]}
			if rng.IntN(2) == 0 {
				rg = graph.All
			}
			sp, _ := rg.Normalize(e)
			sl[i], to[i] = sp, sp.Len
		}
		return step{kind: stepSlice, slices: sl}, to
	case 3: // reshape: merge or split adjacent axes, add or drop 1s
		to := s.Clone()
		switch rng.IntN(4) {
		case 0:
			if r >= 2 {
				i := rng.IntN(r - 1)
				to = slices.Concat(s[:i], graph.Shape{s[i] * s[i+1]}, s[i+2:])
			}
		case 1:
			for i, e := range s {
				if e%2 == 0 && e > 0 {
					to = slices.Concat(s[:i], graph.Shape{2, e / 2}, s[i+1:])
					break
				}
			}
		case 2:
			i := rng.IntN(r + 1)
			to = slices.Concat(s[:i], graph.Shape{1}, s[i:])
		default:
			to = graph.Shape{}
			for _, e := range s {
				if e != 1 {
					to = append(to, e)
				}
			}
		}
		return step{kind: stepReshape, from: s, to: to}, to
	default: // embed into a space with reduced axes
		keep := rng.IntN(2) == 0
		var red []bool
		to := graph.Shape{}
		k := 0
		for k < r || rng.IntN(3) == 0 && len(red) < 5 {
			if k < r && rng.IntN(3) != 0 {
				if keep && s[k] == 1 && rng.IntN(2) == 0 {
					red = append(red, true)
					to = append(to, 1+rng.IntN(3))
				} else {
					red = append(red, false)
					to = append(to, s[k])
				}
				k++
				continue
			}
			if keep {
				break
			}
			red = append(red, true)
			to = append(to, 1+rng.IntN(3))
		}
		if keep {
			for k < r {
				red = append(red, false)
				to = append(to, s[k])
				k++
			}
		}
		return step{kind: stepEmbed, reduced: red, keepDims: keep}, to
	}
}

// randLayout returns strides over s: contiguous, scaled, permuted, with
// zeros or random.
func randLayout(rng *rand.Rand, s graph.Shape) (int, []int) {
	st := s.ContiguousStrides()
	switch rng.IntN(5) {
	case 1:
		k := []int{2, -1, 3}[rng.IntN(3)]
		for i := range st {
			st[i] *= k
		}
	case 2:
		p := rng.Perm(len(s))
		ps := make([]int, len(s))
		acc := 1
		for i := len(p) - 1; i >= 0; i-- {
			ps[p[i]] = acc
			acc *= max(s[p[i]], 1)
		}
		st = ps
	case 3:
		for i := range st {
			if rng.IntN(3) == 0 {
				st[i] = 0
			}
		}
	case 4:
		for i := range st {
			st[i] = rng.IntN(9) - 4
		}
	}
	return rng.IntN(10), st
}

func TestComposedTransforms(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	failures, composed := 0, 0
	for it := range 20000 {
		r := 1 + rng.IntN(3)
		s := make(graph.Shape, r)
		for i := range s {
			s[i] = []int{1, 2, 3, 4, 6, 0}[rng.IntN(6)]
			if it%7 != 0 && s[i] == 0 {
				s[i] = 2
			}
		}
		in := s
		var steps []step
		for range 1 + rng.IntN(12) {
			st, to := randStep(rng, s)
			if len(to) > 6 || to.Size() > 1<<12 {
				break
			}
			if st.kind == stepReshape {
				st.at = graph.Input(graph.Float32, to, "r")
			}
			steps = append(steps, st)
			s = to
		}
		xfs := newXforms()
		xf := xfs.ident
		for i := len(steps) - 1; i >= 0; i-- {
			xf = xfs.child(xf, steps[i])
		}
		off, st := randLayout(rng, in)
		wo, ws, wfx := xf.applySteps(off, st)
		if xf.composed() != nil {
			composed++
		}
		go1, gs, gfx := xf.applyAt(off, st)
		if gfx != wfx || wfx == nil && (go1 != wo || !slices.Equal(gs, ws)) {
			t.Fatalf("iteration %d: %v over %v strides %v offset %d:\ngot:%d %v fails at %p\nwant:%d %v fails at %p",
				it, steps, in, st, off, go1, gs, gfx, wo, ws, wfx)
		}
		if wfx != nil {
			failures++
		}
	}
	if failures < 500 || composed < 15000 {
		t.Fatalf("too few failing reshapes (%d) or composed maps (%d) to test", failures, composed)
	}
	t.Logf("%d chains composed, %d failing", composed, failures)
}

// Pruning keeps the first failing condition of every stride vector:
// what it drops is implied by what comes before.
func TestPruneConds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tags := make([]*xform, 8)
	for i := range tags {
		tags[i] = &xform{id: i}
	}
	first := func(cs []cond, st []int) *xform {
		for i := range cs {
			if h, _ := cs[i].holds(st); !h {
				return cs[i].at
			}
		}
		return nil
	}
	pruned := 0
	for range 5000 {
		var cs []cond
		for i := range 1 + rng.IntN(7) {
			a, b := rng.IntN(3), rng.IntN(3)
			l := term{a: a, c: rng.IntN(5) - 2}
			r := term{a: b, c: rng.IntN(5) - 2}
			if c, has, ok := newCond(l, r, tags[i]); ok && has {
				cs = append(cs, c)
			}
		}
		ps := pruneConds(cs)
		pruned += len(cs) - len(ps)
		st := make([]int, 3)
		for st[0] = -3; st[0] <= 3; st[0]++ {
			for st[1] = -3; st[1] <= 3; st[1]++ {
				for st[2] = -3; st[2] <= 3; st[2]++ {
					if g, w := first(ps, st), first(cs, st); g != w {
						t.Fatalf("%+v pruned to %+v: at %v got:%v want:%v", cs, ps, st, g, w)
					}
				}
			}
		}
	}
	if pruned < 1000 {
		t.Fatalf("only %d conditions pruned", pruned)
	}
}
