// Generate: random graphs over random inputs, built node by node from a
// pool, keeping only nodes the graph accepts.

package randgraph

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Config bounds the graphs Generate builds. Zero fields take defaults.
type Config struct {
	MaxRank   int // 3
	MaxExtent int // 5
	Steps     int // 8: nodes added to the pool
	Outputs   int // 3: at most this many outputs
	NoMatMul  bool
	NoReduce  bool
	// NoExtremes keeps every input in the small range of the first
	// version: floats in [-4, 4) with a few zeros, NaN and infinities,
	// integers in [-9, 9]. Otherwise one input in two takes values of
	// every magnitude: up to 1000 (past the float32 exponential's range),
	// both edges of that range, huge, subnormal, NaN, infinite, and
	// zeros of both signs; and exp-family ops often get operands scaled
	// past ±100.
	NoExtremes bool
	// NoPatterns leaves out the shapes that exercise buffers written in
	// place and reused (patterns.go: epilogues on matrix products and
	// reductions, softmax, chains of materialized reductions and
	// products each read by an elementwise op) and the ops on inexact
	// operands beyond the continuous ones. With NoExtremes too the
	// generator draws exactly the graphs of its first version, so that
	// seeds recorded then still replay.
	NoPatterns bool
	// Indexing adds the indexing ops (index.go: Take, TakeAlong, Put,
	// ScatterAdd, ScatterMax with fresh in-range index inputs) one step
	// in five. Off, the generator draws what it drew without them.
	Indexing bool
	// Sort adds Sort, ArgSort and TopK of exact operands (sort.go); off
	// by default, so targets without sort kernels draw the graphs they
	// always drew.
	Sort bool
	// AllDTypes draws inputs and casts from every dtype (dtypes.go), not
	// only bool, int32, int64, float32 and float64; off, the graphs of
	// recorded seeds replay as they were.
	AllDTypes bool
	// NoUnsigned leaves the unsigned dtypes out of AllDTypes (for
	// evaluators that hold values in float64: Sum of an unsigned dtype
	// is uint64, whose reductions compare bits float64 does not hold).
	NoUnsigned bool
}

func (c *Config) defaults() {
	if c.MaxRank <= 0 {
		c.MaxRank = 3
	}
	if c.MaxExtent <= 0 {
		c.MaxExtent = 5
	}
	if c.Steps <= 0 {
		c.Steps = 8
	}
	if c.Outputs <= 0 {
		c.Outputs = 3
	}
}

// Case is a generated graph with bound inputs.
type Case struct {
	Outputs []*graph.Node
	// Exact[i] is true when Outputs[i] must equal the reference exactly.
	Exact []bool
	Bound map[*graph.Node]*exec.Tensor
	// Desc lists how each pool node was built, for failure messages.
	Desc []string
}

// Release drops the bound tensors.
func (c *Case) Release() {
	for _, t := range c.Bound {
		t.Release()
	}
}

type gen struct {
	r     *rand.Rand
	cfg   Config
	alloc memory.Allocator
	c     *Case
	pool  []*graph.Node
	inex  map[*graph.Node]bool // not exact: rounding order may differ
	tips  []*graph.Node        // the last node of each pattern
}

// Generate returns a random case drawn from r, its inputs allocated from
// alloc. The caller must Release it.
func Generate(r *rand.Rand, alloc memory.Allocator, cfg Config) (*Case, error) {
	cfg.defaults()
	g := &gen{r: r, cfg: cfg, alloc: alloc, c: &Case{Bound: map[*graph.Node]*exec.Tensor{}}, inex: map[*graph.Node]bool{}}
	for range 1 + r.IntN(3) {
		if _, err := g.input(g.randShape(), g.randDType()); err != nil {
			g.c.Release()
			return nil, err
		}
	}
	for s := 0; s < cfg.Steps; s++ {
		if err := g.step(); err != nil {
			g.c.Release()
			return nil, err
		}
	}
	// Outputs: the newest node and a few random others.
	outs := map[*graph.Node]bool{}
	add := func(n *graph.Node) {
		if !outs[n] {
			outs[n] = true
			g.c.Outputs = append(g.c.Outputs, n)
			g.c.Exact = append(g.c.Exact, !g.inex[n])
		}
	}
	add(g.pool[len(g.pool)-1])
	for range g.r.IntN(g.cfg.Outputs) {
		add(g.pool[g.r.IntN(len(g.pool))])
	}
	// The last node of a pattern, two times in three: left in the pool
	// it would most often be dead code.
	for _, n := range g.tips {
		if g.r.IntN(3) > 0 {
			add(n)
		}
	}
	return g.c, nil
}

func (g *gen) randDType() graph.DType {
	d := baseDTypes
	switch {
	case g.cfg.AllDTypes && g.cfg.NoUnsigned:
		d = signedDTypes
	case g.cfg.AllDTypes:
		d = allDTypes
	}
	return d[g.r.IntN(len(d))]
}

func (g *gen) randShape() graph.Shape {
	s := make(graph.Shape, g.r.IntN(g.cfg.MaxRank+1))
	for i := range s {
		s[i] = 1 + g.r.IntN(g.cfg.MaxExtent)
		if g.r.IntN(12) == 0 {
			s[i] = 0
		}
	}
	return s
}

// push adds n to the pool when it is valid, with its exactness.
func (g *gen) push(n *graph.Node, inexact bool, desc string) bool {
	if n.Err() != nil {
		return false
	}
	g.pool = append(g.pool, n)
	if inexact {
		g.inex[n] = true
	}
	g.c.Desc = append(g.c.Desc, fmt.Sprintf("n%d = %s -> %v %v", len(g.pool)-1, desc, n.Shape(), n.DType()))
	return true
}

func (g *gen) pick() *graph.Node { return g.pool[g.r.IntN(len(g.pool))] }

// input binds a new input of shape s and dtype d as a strided view: the
// data is stored with its axes permuted and possibly reversed.
func (g *gen) input(s graph.Shape, d graph.DType) (*graph.Node, error) {
	n := graph.Input(d, s, fmt.Sprintf("in%d", len(g.c.Bound)))
	rank := len(s)
	perm := g.r.Perm(rank)
	stored := make(graph.Shape, rank)
	for i, p := range perm {
		stored[i] = s[p]
	}
	base, err := exec.NewTensor(g.alloc, d, stored)
	if err != nil {
		return nil, err
	}
	g.fill(base)
	// Element (i0..) of the view is stored element with axes permuted.
	st := make([]int, rank)
	cs := stored.ContiguousStrides()
	for i, p := range perm {
		st[p] = cs[i]
	}
	off := 0
	for a := range rank {
		if s[a] > 1 && g.r.IntN(3) == 0 { // reversed axis
			off += (s[a] - 1) * st[a]
			st[a] = -st[a]
		}
	}
	t := base.View(s, st, off)
	base.Release()
	g.c.Bound[n] = t
	g.push(n, false, fmt.Sprintf("Input strides %v offset %d", st, off))
	return n, nil
}

// fill writes random values: small integers, floats in [-4, 4) with a
// few zeros, NaNs and infinities, bools as 0 or 1; without NoExtremes,
// one tensor in two holds wide integers or floats of every kind (see
// extreme).
func (g *gen) fill(t *exec.Tensor) {
	if !g.cfg.NoExtremes && g.r.IntN(2) == 0 {
		g.fillWide(t, g.r.IntN(3) == 0)
		return
	}
	g.fillWith(t, 9, g.float)
}

func (g *gen) float() float64 {
	switch g.r.IntN(40) {
	case 0:
		return 0
	case 1:
		return math.NaN()
	case 2:
		return math.Inf(1 - 2*g.r.IntN(2))
	}
	return g.r.Float64()*8 - 4
}

// fillWide writes integers up to ±1000 and floats of every magnitude
// (mostly from extreme; special values in about one element of four when
// special, else one in ten).
func (g *gen) fillWide(t *exec.Tensor, special bool) {
	odds := 10
	if special {
		odds = 4
	}
	g.fillWith(t, 1000, func() float64 {
		if g.r.IntN(odds) == 0 {
			return g.special(t.DType == graph.Float32)
		}
		return g.extreme()
	})
}

// fillWith writes random bools, integers uniform in [-span, span] and
// floats from f, by t's dtype.
func (g *gen) fillWith(t *exec.Tensor, span int, f func() float64) {
	n := t.Size()
	switch t.DType {
	case graph.Bool:
		for i := range n {
			exec.Elems[uint8](t)[i] = uint8(g.r.IntN(2))
		}
	case graph.Int32:
		for i := range n {
			exec.Elems[int32](t)[i] = int32(g.r.IntN(2*span+1) - span)
		}
	case graph.Int64:
		for i := range n {
			exec.Elems[int64](t)[i] = int64(g.r.IntN(2*span+1) - span)
		}
	case graph.Float32:
		for i := range n {
			exec.Elems[float32](t)[i] = float32(f())
		}
	case graph.Float64:
		for i := range n {
			exec.Elems[float64](t)[i] = f()
		}
	case graph.Float16, graph.BFloat16:
		for i := range n {
			exec.PutScalar(t, i, graph.ScalarOf(graph.Float64, f()))
		}
	default: // the other integers: within span and the dtype's range
		lo, hi, _ := graph.IntRange(t.DType)
		lo, hi = max(lo, int64(-span)), min(hi, int64(span))
		for i := range n {
			exec.PutScalar(t, i, graph.ScalarInt(graph.Int64, lo+g.r.Int64N(hi-lo+1)))
		}
	}
}

// extreme returns a float of random sign and a magnitude uniform in
// log scale over [1e-3, 1e3].
func (g *gen) extreme() float64 {
	v := math.Pow(10, 6*g.r.Float64()-3)
	if g.r.IntN(2) == 0 {
		v = -v
	}
	return v
}

// special returns a value at an edge: NaN, an infinity, a signed zero, a
// subnormal, a value near the largest finite one, or near the edges of
// the float32 and float64 exponentials' ranges.
func (g *gen) special(f32 bool) float64 {
	sign := float64(1 - 2*g.r.IntN(2))
	switch g.r.IntN(8) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(int(sign))
	case 2:
		return math.Copysign(0, sign)
	case 3:
		if f32 {
			return sign * float64(math.Float32frombits(1+g.r.Uint32N(1<<23-1)))
		}
		return sign * math.Float64frombits(1+g.r.Uint64N(1<<52-1))
	case 4:
		if f32 {
			return sign * math.MaxFloat32 * (0.5 + 0.5*g.r.Float64())
		}
		return sign * math.MaxFloat64 * (0.5 + 0.5*g.r.Float64())
	case 5:
		return []float64{88, 88.72, 88.8, -86.5, -87.4, -103, -104, -110}[g.r.IntN(8)]
	case 6:
		return sign * (700 + 20*g.r.Float64())
	}
	return sign * (100 + 900*g.r.Float64())
}
