// Test helpers: a request's plan built outside the runner's cache.

package cuda

import (
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// planOf plans outputs with the bound layouts as the runner does, and
// returns the plan with its slots.
func (b *Backend) planOf(outputs []*graph.Node, bound map[*graph.Node]graph.Layout) (*fuse.Plan, []*graph.Node, error) {
	g, err := fuse.Walk(outputs, bound)
	if err != nil {
		return nil, nil, err
	}
	p, err := g.Build()
	return p, g.Slots(), err
}
