// Tests of slot paths: each path leads from the outputs to its slot,
// through shared operands, to an output itself, and a slot not under the
// outputs has none.

package runner

import (
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func TestSlotPaths(t *testing.T) {
	x := graph.Input(graph.Float32, graph.Shape{4}, "x")
	y := graph.Input(graph.Float32, graph.Shape{4}, "y")
	z := graph.Input(graph.Float32, graph.Shape{4}, "z")
	xy := graph.Binary(graph.OpMul, x, y)
	deep := graph.Unary(graph.OpExp, graph.Binary(graph.OpAdd, graph.Unary(graph.OpNeg, xy), x))
	for _, tc := range []struct {
		name  string
		outs  []*graph.Node
		slots []*graph.Node
		ok    bool
	}{
		{"operands", []*graph.Node{xy}, []*graph.Node{x, y}, true},
		{"shared and deep", []*graph.Node{deep}, []*graph.Node{y, x}, true},
		{"an intermediate", []*graph.Node{deep}, []*graph.Node{xy, x}, true},
		{"an output", []*graph.Node{deep, x}, []*graph.Node{x, y}, true},
		{"second output", []*graph.Node{graph.Unary(graph.OpNeg, z), xy}, []*graph.Node{y, z, x}, true},
		{"not under the outputs", []*graph.Node{xy}, []*graph.Node{x, z}, false},
	} {
		paths, off, ok := slotPaths(tc.outs, tc.slots)
		if ok != tc.ok {
			t.Errorf("%s: ok got:%v want:%v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if len(off) != len(tc.slots)+1 {
			t.Fatalf("%s: offsets got:%d want:%d", tc.name, len(off), len(tc.slots)+1)
		}
		for i, want := range tc.slots {
			if got := follow(tc.outs, paths[off[i]:off[i+1]]); got != want {
				t.Errorf("%s: slot %d got:%v want:%v", tc.name, i, got, want)
			}
		}
	}
}
