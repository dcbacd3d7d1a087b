// Widened integer sums and products read narrow: the graph sums and
// multiplies int32 and bool values in int64, so a Reduce kernel's
// prologue casts them (a load, then a cast to int64 of every point into
// a frame register) before the fold adds them. The int32 and bool row
// and column folds accumulate in int64 themselves, with the same
// wraparound, so a reduction of such a cast is rewritten to fold the
// narrow value directly: a contiguous load is then read in place, and the
// cast, which nothing else reads, becomes a constant that costs nothing
// per chunk.

package cpu

import (
	"slices"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// narrowFold reports whether op folds values of a narrow integer dtype
// into an int64 state with the same result as over the values widened
// to int64 first.
func narrowFold(op graph.Op) bool { return op == graph.OpSum || op == graph.OpProd }

// foldNarrow returns k, or a copy of k whose ReduceSpec folds the int32
// or bool operand of each int64 cast that only Sum and Prod reductions
// read, with that cast replaced by a constant.
func foldNarrow(k *fuse.Kernel) *fuse.Kernel {
	rs := k.Reduce()
	used := make([]bool, len(rs.Body)) // read by an instruction or a reduction that is not rewritten
	for _, in := range rs.Body {
		for _, a := range in.Args {
			used[a] = true
		}
	}
	widened := func(v int) (int, bool) {
		in := rs.Body[v]
		if in.Kind != fuse.InstrOp || in.Op != graph.OpCast || in.DType != graph.Int64 || len(in.Args) != 1 {
			return 0, false
		}
		a := in.Args[0]
		d := rs.Body[a].DType
		return a, d == graph.Int32 || d == graph.Bool
	}
	for _, r := range rs.Reductions {
		if _, ok := widened(r.Value); !ok || !narrowFold(r.Op) {
			used[r.Value] = true
		}
	}
	var body []fuse.Instr
	var reds []fuse.Reduction
	for j, r := range rs.Reductions {
		a, ok := widened(r.Value)
		if !ok || used[r.Value] {
			continue
		}
		if body == nil {
			body, reds = slices.Clone(rs.Body), slices.Clone(rs.Reductions)
		}
		reds[j].Value = a
		body[r.Value] = fuse.Instr{Kind: fuse.InstrConst, DType: graph.Int64, Value: graph.ScalarInt(graph.Int64, 0)}
	}
	if body == nil {
		return k
	}
	spec := *rs
	spec.Body, spec.Reductions = body, reds
	nk := *k
	nk.Spec = &spec
	return &nk
}
