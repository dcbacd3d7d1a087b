// Walked: the graph under a set of outputs walked once for planning — its
// plan-cache key, its bound nodes in slot order and the plan of it — so
// that a plan cache looks a plan up and builds it on a miss with one walk.

package fuse

import "github.com/fuseflow/fuseflow/graph"

// Walked is the graph under a set of outputs with the layouts bound to
// it, walked once. It holds the graph's nodes: keep it for one lookup,
// not in a cache. Safe for concurrent use once returned.
type Walked struct {
	w     *walk
	bound map[*graph.Node]graph.Layout
	key   string
}

// Walk walks the graph under outputs for planning with the bound layouts
// (see Build). It errors as Build does for a node carrying an error, an
// unbound input or a bound layout that does not match its node.
func Walk(outputs []*graph.Node, bound map[*graph.Node]graph.Layout) (*Walked, error) {
	w, err := walkGraph(outputs, bound)
	if err != nil {
		return nil, err
	}
	return &Walked{w: w, bound: bound, key: w.key(bound)}, nil
}

// Key returns the structural cache key of the walked graph (see Key).
func (g *Walked) Key() string { return g.key }

// Slots returns the bound nodes in slot order: slots[i] binds
// Plan.Inputs[i] of the plan of any graph with the same Key.
func (g *Walked) Slots() []*graph.Node { return g.w.slots }

// Build plans the walked graph, as Build does.
func (g *Walked) Build() (*Plan, error) { return build(g.w, g.bound, Options{}) }

// BuildWith plans the walked graph with the target's options o. A cache
// that builds with options holds plans of one set of options (the key
// does not include them).
func (g *Walked) BuildWith(o Options) (*Plan, error) { return build(g.w, g.bound, o) }
