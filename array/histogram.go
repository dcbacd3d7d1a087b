// Histogram: numpy.histogram's counts, weights and density over equal
// bins in a range or over explicit edges, composed of elementwise work,
// gathers (Take) and one ScatterAdd, so every backend runs it.

package array

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/fuseflow/fuseflow/graph"
)

// HistogramOpts are numpy.histogram's arguments for HistogramWith. The
// zero value is NumPy's default: 10 equal bins over the data's range,
// int64 counts.
type HistogramOpts struct {
	// Bins is the number of equal bins (10 when 0 and Edges is nil).
	Bins int
	// Range is the [lo, hi] of the equal bins (two finite numbers, lo <=
	// hi); empty for the data's minimum and maximum.
	Range []float64
	// Edges are explicit bin edges, NumPy's bins= sequence: a 1-d
	// non-decreasing array of at least 2 numbers, without NaN. Bin i
	// holds edges[i] <= x < edges[i+1]; the last also holds x ==
	// edges[-1]. Bins and Range must be unset when Edges is given.
	Edges *Array
	// Weights, of the shape of the histogrammed array, are summed per bin
	// instead of counting (nil counts). The sums have the weights' dtype,
	// as NumPy gives them: floats summed in float64 and rounded once,
	// integers summed in int64 (uint64 for unsigned ones).
	Weights *Array
	// Density normalizes the result to a float64 probability density:
	// each bin's count (or weight) divided by the total and by the bin's
	// width, so the integral over the range is 1.
	Density bool
}

// Histogram counts a's elements (flattened) in bins equal bins over the
// range [lo, hi] given as rng (two numbers), or a's minimum and maximum
// when rng is empty (evaluated at once; an empty range widens by 0.5 on
// each side), as numpy.histogram: it returns the int64 counts and the
// bins+1 edges (float64, or a's dtype when a is float32). Every bin is
// half-open [edge, next) except the last, which also holds hi; elements
// outside the range and NaN are not counted. The bin of a value follows
// NumPy's computation exactly (scaled index, then corrected against the
// edges). bins < 1, a bool array or a range that is not two finite
// increasing numbers gives Arrays carrying an error. HistogramWith takes
// weights, density and explicit edges.
func (a *Array) Histogram(bins int, rng ...float64) (counts, edges *Array) {
	if bins < 1 {
		e := errArray(ctxOf(a), graph.OpScatterAdd, opErr("Histogram", []*graph.Node{nodeFor(a, "Histogram")}, "bins must be at least 1, got %d", bins))
		return e, e
	}
	return a.HistogramWith(HistogramOpts{Bins: bins, Range: rng})
}

// HistogramWith is numpy.histogram with its options (see
// HistogramOpts): counts, sums of weights or a density over equal bins
// or explicit edges, and the edges (Edges itself as a new Array when
// given). The counts are int64, sums of weights have the weights'
// dtype, a density is float64. Explicit edges are checked at once
// (evaluated through a's Context): decreasing or NaN edges, weights of
// another shape or a bool dtype, Edges together with Bins or Range, and
// everything Histogram rejects give Arrays carrying an error naming
// Histogram.
func (a *Array) HistogramWith(o HistogramOpts) (counts, edges *Array) {
	x := nodeFor(a, "Histogram")
	c := ctxOf(a)
	fail := func(format string, args ...any) (*Array, *Array) {
		e := errArray(c, graph.OpScatterAdd, opErr("Histogram", []*graph.Node{x}, format, args...))
		return e, e
	}
	switch {
	case x.Err() != nil:
		return a, a
	case x.DType() == graph.Bool:
		return fail("unsupported dtype bool")
	case o.Bins < 0:
		return fail("bins must be at least 1, got %d", o.Bins)
	case o.Edges != nil && (o.Bins != 0 || len(o.Range) != 0):
		return fail("give Edges or Bins and Range, not both")
	}
	if o.Edges != nil && nodeOf(o.Edges).Err() != nil {
		return o.Edges, o.Edges
	}
	if o.Weights != nil {
		w := nodeOf(o.Weights)
		switch {
		case w.Err() != nil:
			return o.Weights, o.Weights
		case sameContext("Histogram", a, o.Weights) != nil:
			e := errArray(c, graph.OpScatterAdd, sameContext("Histogram", a, o.Weights))
			return e, e
		case !w.Shape().Equal(x.Shape()):
			return fail("weights of shape %v for an array of shape %v", w.Shape(), x.Shape())
		case w.DType() == graph.Bool:
			return fail("weights must be numbers, not bool")
		}
	}
	v := a.derive(graph.Reshape(x, graph.Shape{x.Size()}))
	var idx, keep *Array
	var nbins int
	var err error
	if o.Edges != nil {
		edges, idx, keep, nbins, err = edgeBins(v, o.Edges)
	} else {
		nbins = o.Bins
		if nbins == 0 {
			nbins = 10
		}
		edges, idx, keep, err = equalBins(a, v, nbins, o.Range)
	}
	if err != nil {
		return fail("%v", err)
	}
	counts = binSums(c, idx, keep, o.Weights, nbins)
	if o.Density {
		counts = density(counts, edges, nbins)
	}
	return counts, edges
}

// equalBins returns the edges of bins equal bins over rng (or the range
// of a) and the bin of each element of v (a flattened; in [0, bins)
// where it is counted) with whether it is counted. The bin follows
// NumPy's computation exactly: a scaled index, then corrected against
// the edges as Linspace computes them.
func equalBins(a, v *Array, bins int, rng []float64) (edges, idx, keep *Array, err error) {
	x := nodeOf(a)
	var lo, hi float64
	switch {
	case len(rng) == 2:
		lo, hi = rng[0], rng[1]
		if lo > hi {
			return nil, nil, nil, fmt.Errorf("max must be larger than min in range parameter")
		}
		if !graph.IsFiniteFloat(lo) || !graph.IsFiniteFloat(hi) {
			return nil, nil, nil, fmt.Errorf("supplied range of [%v, %v] is not finite", lo, hi)
		}
	case len(rng) != 0:
		return nil, nil, nil, fmt.Errorf("the range is two numbers, got %d", len(rng))
	case x.Size() > 0:
		mn, mx := a.Min(), a.Max()
		defer mn.Release()
		defer mx.Release()
		if err := Eval(context.Background(), mn, mx); err != nil {
			return nil, nil, nil, err
		}
		lo, _ = mn.Value()
		hi, _ = mx.Value()
		if !graph.IsFiniteFloat(lo) || !graph.IsFiniteFloat(hi) {
			return nil, nil, nil, fmt.Errorf("autodetected range of [%v, %v] is not finite", lo, hi)
		}
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	ed := graph.Float64
	if x.DType() == graph.Float32 {
		ed = graph.Float32
	}
	edges = ctxOf(a).Linspace(ed, lo, hi, bins+1)
	v = v.AsType(ed)
	// Bin numbers in int32 where they fit (twice the vector lanes of
	// int64); a float out of int32's range saturates and is not kept.
	it := graph.Int32
	if bins >= math.MaxInt32 {
		it = graph.Int64
	}
	norm := float64(bins) / (hi - lo)
	i := v.Sub(lo).Mul(norm).AsType(it).Clip(0, bins-1)
	// edge(k) is edges[k] computed in place (as Linspace computes it),
	// so the whole bin computation is one fused elementwise kernel.
	step := (hi - lo) / float64(bins)
	edge := func(k *Array) *Array { return k.AsType(Float64).Mul(step).Add(lo).AsType(ed) }
	i = i.Sub(v.Lt(edge(i)).AsType(it))
	next := i.Add(1)
	up := v.Ge(Where(next.Eq(bins), hi, edge(next)).AsType(ed)).And(i.Ne(bins - 1))
	i = i.Add(up.AsType(it))
	// A kept element's bin is in [0, bins): i only falls below 0 under
	// lo and only rises for i < bins-1.
	keep = v.Ge(lo).And(v.Le(hi))
	return edges, i, keep, nil
}

// edgeBins checks explicit edges e (evaluating whether they decrease or
// hold NaN) and returns them as a new Array, the bin of each element of
// v and whether it is counted, and the number of bins. The bin is
// NumPy's searchsorted rule: j, the number of edges <= x, found by a
// binary search of about log2(len(e)) gathers from e; bin j-1 when 1 <=
// j < len(e), the last bin also for x == e[-1]; both compared in the
// dtype NumPy promotes the two to.
func edgeBins(v, e *Array) (edges, idx, keep *Array, nbins int, err error) {
	en := nodeFor(e, "Histogram")
	switch {
	case sameContext("Histogram", v, e) != nil:
		return nil, nil, nil, 0, fmt.Errorf("the edges belong to another Context")
	case len(en.Shape()) != 1:
		return nil, nil, nil, 0, fmt.Errorf("edges must be 1-d, got shape %v", en.Shape())
	case en.Size() < 2:
		return nil, nil, nil, 0, fmt.Errorf("edges must have at least 2 elements (one bin), got %d", en.Size())
	case en.DType() == graph.Bool:
		return nil, nil, nil, 0, fmt.Errorf("edges must be numbers, not bool")
	}
	n := en.Size()
	nbins = n - 1
	down := e.Slice(From(1)).Lt(e.Slice(To(n - 1))).Any()
	nan := e.IsNaN().Any()
	defer down.Release()
	defer nan.Release()
	if err := Eval(context.Background(), down, nan); err != nil {
		return nil, nil, nil, 0, err
	}
	if b, _ := nan.ValueBool(); b {
		return nil, nil, nil, 0, fmt.Errorf("edges must not hold NaN")
	}
	if b, _ := down.ValueBool(); b {
		return nil, nil, nil, 0, fmt.Errorf("edges must increase monotonically")
	}
	ct := graph.Promote(nodeOf(v).DType(), en.DType())
	xv, ev := v.AsType(ct), e.AsType(ct)
	// j = the number of edges <= x, built from its highest bit down:
	// each step adds step when the edge ending that many is <= x (the
	// edges increase, so the test is true up to j and false past it).
	top := 1 << (bits.Len(uint(n)) - 1)
	j := Where(ev.Slice(R(top-1, top)).Le(xv), top, 0).AsType(Int64)
	for step := top >> 1; step >= 1; step >>= 1 {
		cand := j.Add(step)
		probe := ev.Take(cand.Clip(1, n).Sub(1), 0)
		j = Where(cand.Le(n).And(probe.Le(xv)), cand, j)
	}
	last := xv.Eq(ev.Slice(From(n - 1)))
	keep = last.Or(j.Ge(1).And(j.Le(nbins)))
	idx = Where(last, nbins-1, Where(keep, j.Sub(1), 0))
	return e.derive(en), idx, keep, nbins, nil
}

// binSums adds 1 (or the weight) of each kept element to its bin idx:
// int64 counts, or the weights' sums in their dtype, accumulated in
// float64, int64 or uint64. An element not kept goes to one more bin
// past the last, sliced off, so the counts add a constant and the
// weights go in as they are (one array fewer to write and read); the
// bin indices are int32 where they fit.
func binSums(c *Context, idx, keep, weights *Array, bins int) *Array {
	slot := Where(keep, idx, bins)
	if bins < math.MaxInt32 {
		slot = slot.AsType(Int32)
	}
	if weights == nil {
		return c.Zeros(Int64, bins+1).ScatterAdd(slot, 1, 0).Slice(To(bins))
	}
	wd := nodeOf(weights).DType()
	acc := graph.Float64
	switch {
	case wd.Unsigned():
		acc = graph.Uint64
	case wd.IsInt():
		acc = graph.Int64
	}
	w := weights.Reshape(nodeOf(weights).Size()).AsType(acc)
	sums := c.Zeros(acc, bins+1).ScatterAdd(slot, w, 0).Slice(To(bins))
	return sums.AsType(wd).keep(weights)
}

// density divides each bin's sum by the total and by the bin's width
// (the edges' difference in their dtype, as NumPy takes it), in float64.
func density(counts, edges *Array, bins int) *Array {
	width := edges.Slice(From(1)).Sub(edges.Slice(To(bins))).AsType(Float64)
	f := counts.AsType(Float64)
	return f.Div(width).Div(counts.Sum().AsType(Float64))
}
