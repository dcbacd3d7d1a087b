// Index kernels in plans: where the boundaries fall, what the spec
// holds, what is read in place and what is copied first.

package fuse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

// validIndex checks an Index kernel's spec: its operands live, of the
// lengths its geometry implies.
func validIndex(k *Kernel, live func(int) error) error {
	s := k.Index()
	if s == nil || len(k.Operands) > 0 || len(k.Stores) > 0 {
		return fmt.Errorf("index kernel with operands, body or stores, or without a spec")
	}
	want := map[string][2]int{} // name -> got, want
	switch s.Op {
	case graph.OpTake:
		want["x"] = [2]int{s.X.Len, s.Outer * s.Len * s.Inner}
		want["index"] = [2]int{s.Index.Len, s.Count}
		want["out"] = [2]int{s.Out.Len, s.Outer * s.Count * s.Inner}
	case graph.OpTakeAlong:
		want["x"] = [2]int{s.X.Len, s.Outer * s.Len * s.Inner}
		want["index"] = [2]int{s.Index.Len, s.Outer * s.Count * s.Inner}
		want["out"] = [2]int{s.Out.Len, s.Outer * s.Count * s.Inner}
	case graph.OpNonzero:
		want["x"] = [2]int{s.X.Len, s.Len}
		want["out"] = [2]int{s.Out.Len, s.Count}
	case graph.OpCompress:
		want["x"] = [2]int{s.X.Len, s.Len * s.Inner}
		want["index"] = [2]int{s.Index.Len, s.Len}
		want["out"] = [2]int{s.Out.Len, s.Count * s.Inner}
	case graph.OpScatter, graph.OpScatterAdd, graph.OpScatterMax:
		want["index"] = [2]int{s.Index.Len, s.Count}
		want["updates"] = [2]int{s.Updates.Len, s.Outer * s.Count * s.Inner}
		if s.Const != nil {
			want["updates"] = [2]int{s.Updates.Len, 0}
		}
		want["out"] = [2]int{s.Out.Len, s.Outer * s.Len * s.Inner}
	default:
		return fmt.Errorf("index op %v", s.Op)
	}
	for name, gw := range want {
		if gw[0] != gw[1] {
			return fmt.Errorf("index %v: %s has %d elements, want %d", s.Op, name, gw[0], gw[1])
		}
	}
	for _, a := range []IndexArg{s.X, s.Index, s.Updates, s.Out} {
		if a.Len > 0 {
			if err := live(a.Buffer); err != nil {
				return fmt.Errorf("index %v: %w", s.Op, err)
			}
		}
	}
	return nil
}

func idxInput(s ...int) *graph.Node { return graph.Input(graph.Int64, graph.Shape(s), "idx") }

func TestIndexPlans(t *testing.T) {
	tests := []struct {
		name  string
		out   func() *graph.Node
		kinds []Kind
		check func(t *testing.T, s *IndexSpec)
	}{
		{"put stores the base into the result; constant updates are not stored", func() *graph.Node {
			return graph.Scatter(graph.OpScatter, exp(input(8)), idxInput(3), f32(2), 0)
		}, []Kind{KindMap, KindIndex}, func(t *testing.T, s *IndexSpec) {
			require.Equal(t, 8, s.Out.Len)
			require.Equal(t, 0, s.Updates.Len)
			require.Equal(t, graph.ScalarOf(graph.Float32, 2), *s.Const)
		}},
		{"updates of an array are read from a buffer", func() *graph.Node {
			return graph.Scatter(graph.OpScatterAdd, input(8), idxInput(3), input(3), 0)
		}, []Kind{KindMap, KindIndex}, func(t *testing.T, s *IndexSpec) {
			require.Equal(t, 3, s.Updates.Len)
			require.Nil(t, s.Const)
		}},
		{"compress of rows", func() *graph.Node {
			x := input(6, 4)
			return graph.Compress(x, graph.Binary(graph.OpGt, input(6), f32(0)), 2)
		}, []Kind{KindMap, KindIndex}, func(t *testing.T, s *IndexSpec) {
			require.Equal(t, [4]int{1, 6, 4, 2}, [4]int{s.Outer, s.Len, s.Inner, s.Count})
			require.Equal(t, graph.Bool, s.Index.DType)
		}},
		{"nonzero then take", func() *graph.Node {
			x := input(12)
			return graph.Take(x, graph.Nonzero(graph.Binary(graph.OpGt, x, f32(0)), 5), 0)
		}, []Kind{KindMap, KindIndex, KindMap}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out()
			require.NoError(t, out.Err())
			p := mustPlan(t, out)
			require.NoError(t, validPlan(p), Explain(p))
			var kinds []Kind
			var spec *IndexSpec
			for _, k := range p.Kernels {
				kinds = append(kinds, k.Kind())
				if k.Index() != nil {
					spec = k.Index()
				}
			}
			require.Equal(t, tt.kinds, kinds, Explain(p))
			require.Contains(t, Explain(p), "index_"+strings.ToLower(spec.Op.String()))
			if tt.check != nil {
				tt.check(t, spec)
			}
		})
	}
}

// TestIndexPlanKey checks that gathers along different axes do not share
// a cached plan.
func TestIndexPlanKey(t *testing.T) {
	x, idx := input(4, 4), idxInput(2)
	k0, _, err := Key([]*graph.Node{graph.Take(x, idx, 0)}, bindAll(graph.Take(x, idx, 0)))
	require.NoError(t, err)
	k1, _, err := Key([]*graph.Node{graph.Take(x, idx, 1)}, bindAll(graph.Take(x, idx, 1)))
	require.NoError(t, err)
	require.NotEqual(t, k0, k1)
}
