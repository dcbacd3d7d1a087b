// Benchmarks of graph building: hashing, interning and inference of new
// nodes and of nodes that already exist (hash-consing hits).

package graph

import (
	"fmt"
	"testing"
)

// buildMixed builds depth rounds of a mix of node kinds over x, every
// attribute kind among them: elementwise ops with constants, reductions,
// views (permute, slice, reshape, broadcast), concat, iota, eye and
// random leaves. It returns the last node and the number of nodes built.
func buildMixed(x *Node, depth int) (*Node, int) {
	s := x.Shape()
	n := 0
	add := func(v *Node) *Node { n++; return v }
	y := x
	for i := range depth {
		c := add(FloatConst(Float32, float64(i%7)+0.5))
		y = add(Binary(OpAdd, add(Binary(OpMul, y, c)), add(Random(OpRandU, Float32, s, uint64(i%3)))))
		y = add(Unary(OpExp, add(Binary(OpSub, y, add(Reduce(OpReduceMax, y, []int{1}, true))))))
		y = add(Binary(OpDiv, y, add(Reduce(OpSum, y, []int{1}, true))))
		t := add(Permute(y, []int{1, 0}))
		t = add(Slice(t, []Range{{Start: 0, Stop: s[1], Step: 1}, {Start: 0, Stop: s[0], Step: 1}}))
		t = add(Reshape(add(Copy(t)), Shape{s[1], s[0]}))
		y = add(Binary(OpAdd, y, add(Permute(t, []int{1, 0}))))
		y = add(Binary(OpAdd, y, add(Cast(add(Iota(Int32, s[1], 0, 1, false, 0)), Float32))))
		y = add(Binary(OpMul, y, add(Cast(add(Eye(Float32, s[0], s[1], i%2)), Float32))))
		cat := add(Concat([]*Node{y, y}, 0))
		y = add(Reduce(OpSum, add(Reshape(cat, Shape{2, s[0], s[1]})), []int{0}, false))
	}
	return y, n
}

func BenchmarkBuild(b *testing.B) {
	for _, depth := range []int{4, 64} {
		// fresh: a new input every time, so every node is new.
		b.Run(fmt.Sprintf("fresh/depth=%d", depth), func(b *testing.B) {
			nodes := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				x := Input(Float32, Shape{8, 16}, "x")
				_, nodes = buildMixed(x, depth)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nodes), "ns/node")
		})
		// interned: the same input, so every node is found in the table.
		b.Run(fmt.Sprintf("interned/depth=%d", depth), func(b *testing.B) {
			x := Input(Float32, Shape{8, 16}, "x")
			keep, nodes := buildMixed(x, depth)
			if err := keep.Err(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if y, _ := buildMixed(x, depth); y != keep {
					b.Fatal("rebuilt graph is not the interned one")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nodes), "ns/node")
		})
	}
}

// BenchmarkBinaryInterned builds a+b of two inputs of n elements that
// exists already: the cost of building an elementwise op that hash-consing
// finds (what each op of a repeated small expression pays).
func BenchmarkBinaryInterned(b *testing.B) {
	for _, n := range []int{1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x := Input(Float32, Shape{n}, "x")
			y := Input(Float32, Shape{n}, "y")
			keep := Binary(OpAdd, x, y)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if Binary(OpAdd, x, y) != keep {
					b.Fatal("a new node")
				}
			}
		})
	}
}
