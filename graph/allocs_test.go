//go:build !race

// Allocation bounds of building a node that already exists (not under
// the race detector, which may allocate on its own).

package graph

import (
	"runtime"
	"testing"
)

// TestBuildExistingAllocs checks that building an expression whose
// nodes exist already (hash-consing finds them) allocates nothing: no
// broadcast shape when it is one of the operands' shapes, no operand
// slice.
func TestBuildExistingAllocs(t *testing.T) {
	x := Input(Float32, Shape{1000}, "x")
	y := Input(Float32, Shape{1000}, "y")
	m := Input(Float32, Shape{4, 1}, "m")
	n := Input(Float32, Shape{1, 5}, "n")
	r := Input(Float32, Shape{1}, "r")
	for _, tc := range []struct {
		name  string
		build func() *Node
		want  float64
	}{
		{"same shapes", func() *Node { return Binary(OpAdd, x, y) }, 0},
		{"unary", func() *Node { return Unary(OpExp, x) }, 0},
		{"scalar", func() *Node { return BinaryWeak(OpMul, x, Weak{Kind: KindFloat, Float: 2}, false) }, 0},
		{"scalar left", func() *Node { return BinaryWeak(OpSub, x, Weak{Kind: KindFloat, Float: 2}, true) }, 0},
		{"row", func() *Node { return Binary(OpAdd, m, r) }, 0},
		{"broadcast", func() *Node { return Binary(OpMul, m, n) }, 1}, // the broadcast shape
	} {
		t.Run(tc.name, func(t *testing.T) {
			keep := tc.build()
			if keep.Err() != nil {
				t.Fatal(keep.Err())
			}
			got := testing.AllocsPerRun(100, func() {
				if tc.build() != keep {
					t.Fatal("built a second node")
				}
			})
			runtime.KeepAlive(keep)
			if got > tc.want {
				t.Errorf("allocs got:%v want:<= %v", got, tc.want)
			}
		})
	}
}
