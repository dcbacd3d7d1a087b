// Tests of the memo's sets of two slots.

package array

import (
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

// TestMemoSetKeepsTwo: two keys of one set, built in turn, both stay
// memoized (a direct-mapped table would make each build a miss); a
// third evicts the older of them.
func TestMemoSetKeepsTwo(t *testing.T) {
	var m memo
	x := graph.Input(graph.Float32, graph.Shape{4}, "x")
	// Three weak scalars whose keys share a set.
	var keys []memoKey
	set := -1
	for v := int64(0); len(keys) < 3; v++ {
		k := memoKey{form: formWeak, op: graph.OpAdd, x: x.ID(), kind: graph.KindInt, i: v}
		if s := m.set(&k); set < 0 || s == set {
			set = s
			keys = append(keys, k)
		}
	}
	builds := 0
	build := func(k memoKey) *graph.Node {
		return m.build(&k, func() *graph.Node {
			builds++
			return graph.BinaryWeak(graph.OpAdd, x, graph.Weak{Kind: graph.KindInt, Int: k.i}, false)
		})
	}
	a, b := build(keys[0]), build(keys[1])
	builds = 0
	for range 3 {
		if build(keys[0]) != a || build(keys[1]) != b {
			t.Fatal("a memoized build gave another node")
		}
	}
	if builds != 0 {
		t.Errorf("builds of two keys of one set got:%d want:0", builds)
	}
	c := build(keys[2])
	builds = 0
	if build(keys[2]) != c || build(keys[1]) != b {
		t.Fatal("a memoized build gave another node")
	}
	if builds != 0 {
		t.Errorf("builds of the two newest keys got:%d want:0", builds)
	}
	build(keys[0])
	if builds != 1 {
		t.Errorf("builds of the evicted key got:%d want:1", builds)
	}
}
