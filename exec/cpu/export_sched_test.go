// Test hooks of the row-group schedule (sched.go) for the external
// tests.

package cpu

import (
	"github.com/fuseflow/fuseflow/fuse"
)

// SetRowGroups sets, for the programs prepared from now on, whether row
// groups are formed (on) and the least traffic of one (min bytes), and
// returns a function that restores the previous settings.
func SetRowGroups(on bool, min int64) (restore func()) {
	oldOff, oldMin := noRowGroups, rowGroupMin
	noRowGroups, rowGroupMin = !on, min
	return func() { noRowGroups, rowGroupMin = oldOff, oldMin }
}

// RowGroupRuns returns the number of row groups run so far.
func RowGroupRuns() int64 { return rowGroupRuns.Load() }

// RowGroupSpan is one row group of a prepared plan: its first and last
// kernel, rows and rows per block.
type RowGroupSpan struct{ First, Last, Rows, Block int }

// RowGroupsOf prepares p on b and returns its row groups in plan order.
func RowGroupsOf(b *Backend, p *fuse.Plan) ([]RowGroupSpan, error) {
	prog, err := target{b}.Prepare(p)
	if err != nil {
		return nil, err
	}
	lp := prog.(*lowPlan)
	var out []RowGroupSpan
	for k := range lp.kernels {
		if g := lp.kernels[k].group; g != nil && g.first == k {
			out = append(out, RowGroupSpan{g.first, g.last, g.rows, g.block})
		}
	}
	return out, nil
}

// SetRowGroupOrder makes row groups run serially in the order order
// gives (see rowGroupOrder) with blocks of at most maxBlock rows, until
// the returned function restores the defaults.
func SetRowGroupOrder(order func(blocks, members int) [][2]int, maxBlock int) (restore func()) {
	rowGroupOrder, rowBlockMax = order, maxBlock
	return func() { rowGroupOrder, rowBlockMax = nil, 0 }
}
