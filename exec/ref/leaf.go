// Leaves: constants, Iota (Arange and Linspace), Eye and the Philox
// random arrays.

package ref

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/philox"
)

// leaf computes a leaf node other than Input.
//
//   - Const: the 0-d value Attr.Value (Value.F for float dtypes, Value.I
//     otherwise).
//   - Iota: element i is Start + float64(i)*Step computed in float64 and
//     converted to the dtype by the cast rules (truncation with saturation
//     for integers). With HasStop and at least two elements the last one
//     is exactly Stop (a one-element Linspace is [Start], as in NumPy).
//   - Eye: 1 where column - row == K, 0 elsewhere.
//   - Rand: element i (row-major) is philox.Float32 or philox.Float64 of
//     (Seed, i); Normal: philox.Normal32 or philox.Normal64.
func leaf(n *graph.Node) (vec, error) {
	a := n.Attr()
	size := n.Size()
	d := n.DType()
	f := make([]float64, size)
	switch n.Op() {
	case graph.OpConst:
		if !d.IsFloat() {
			return vec{i: []int64{a.Value.I}}, nil
		}
		f[0] = a.Value.F
	case graph.OpIota:
		for i := range f {
			f[i] = a.Start + float64(i)*a.Step
		}
		if a.HasStop && size >= 2 {
			f[size-1] = a.Stop
		}
	case graph.OpEye:
		cols := n.Shape()[1]
		for i := range f {
			if i%cols-i/cols == a.K {
				f[i] = 1
			}
		}
	case graph.OpRandU, graph.OpRandN:
		fn := randFuncs[randKey{n.Op(), d}]
		if fn == nil {
			return vec{}, fmt.Errorf("unsupported dtype %v", d)
		}
		for i := range f {
			f[i] = fn(a.Seed, uint64(i))
		}
	default:
		return vec{}, fmt.Errorf("not a computed leaf")
	}
	return castLane(vec{f: f}, d), nil
}

type randKey struct {
	op graph.Op
	d  graph.DType
}

// randFuncs maps a random op and dtype to its philox stream (float32
// values are exact in float64).
var randFuncs = map[randKey]func(seed, i uint64) float64{
	{graph.OpRandU, graph.Float32}: func(s, i uint64) float64 { return float64(philox.Float32(s, i)) },
	{graph.OpRandU, graph.Float64}: philox.Float64,
	{graph.OpRandN, graph.Float32}: func(s, i uint64) float64 { return float64(philox.Normal32(s, i)) },
	{graph.OpRandN, graph.Float64}: philox.Normal64,
}
