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
	return g.c, nil
}

func (g *gen) randDType() graph.DType {
	d := graph.DTypes()
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
// few zeros, NaNs and infinities, bools as 0 or 1.
func (g *gen) fill(t *exec.Tensor) {
	n := t.Size()
	switch t.DType {
	case graph.Bool:
		for i := range n {
			exec.Elems[uint8](t)[i] = uint8(g.r.IntN(2))
		}
	case graph.Int32:
		for i := range n {
			exec.Elems[int32](t)[i] = int32(g.r.IntN(19) - 9)
		}
	case graph.Int64:
		for i := range n {
			exec.Elems[int64](t)[i] = int64(g.r.IntN(19) - 9)
		}
	case graph.Float32:
		for i := range n {
			exec.Elems[float32](t)[i] = float32(g.float())
		}
	case graph.Float64:
		for i := range n {
			exec.Elems[float64](t)[i] = g.float()
		}
	}
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
