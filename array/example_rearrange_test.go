// Runnable examples of Einsum, the rearranging views and Var's axes.

package array_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/array"
)

// A batched matrix product, a trace and an implicit-output transpose.
func ExampleEinsum() {
	c := array.MustContext()
	a := c.Arange(array.Float64, 12).Reshape(2, 2, 3)
	b := c.Ones(array.Float64, 2, 3, 2)
	fmt.Println(array.Einsum("bij,bjk->bik", a, b))
	fmt.Println(array.Einsum("ii", c.Arange(array.Int64, 9).Reshape(3, 3)))
	fmt.Println(array.Einsum("ji", a.Index(0)))
	fmt.Println(array.Einsum("ij,jk", a.Index(0), c.Ones(array.Float64, 2, 2)).Err())
	// Output:
	// [[[ 3.  3.]
	//   [12. 12.]]
	//
	//  [[21. 21.]
	//   [30. 30.]]]
	// 12
	// [[0. 3.]
	//  [1. 4.]
	//  [2. 5.]]
	// Einsum("ij,jk", (2, 3) float64, (2, 2) float64): subscript j has extent 2 in operand 1 where an earlier operand has 3
}

// Views NumPy users reach for, each built from ops every backend has.
func ExampleArray_Pad() {
	c := array.MustContext()
	x := c.Arange(array.Int32, 6).Reshape(2, 3)
	fmt.Println(x.Flip(1))
	fmt.Println(x.Roll(1))
	fmt.Println(x.Pad([][2]int{{1, 0}, {0, 2}}, -1))
	fmt.Println(x.PadEdge([][2]int{{0, 0}, {1, 1}}))
	fmt.Println(x.Triu(1))
	fmt.Println(x.Repeat(2, 0).Tile(1, 2))
	fmt.Println(x.Diagonal(0, 0, 1))
	// Output:
	// [[2 1 0]
	//  [5 4 3]]
	// [[5 0 1]
	//  [2 3 4]]
	// [[-1 -1 -1 -1 -1]
	//  [ 0  1  2 -1 -1]
	//  [ 3  4  5 -1 -1]]
	// [[0 0 1 2 2]
	//  [3 3 4 5 5]]
	// [[0 1 2]
	//  [0 0 5]]
	// [[0 1 2 0 1 2]
	//  [0 1 2 0 1 2]
	//  [3 4 5 3 4 5]
	//  [3 4 5 3 4 5]]
	// [0 4]
}

// Var's positional arguments are axes, as in NumPy; ddof is explicit.
func ExampleArray_Var() {
	c := array.MustContext()
	x := array.FromSlice(c, []float64{1, 2, 3, 4, 6, 8}, 2, 3)
	fmt.Println(x.Var(1))         // x.var(1): along axis 1, ddof 0
	fmt.Println(x.VarDdof(1, 1))  // x.var(1, ddof=1)
	fmt.Println(x.StdKeepDims(0)) // x.std(0, keepdims=True)
	// Output:
	// [0.66666667 2.66666667]
	// [1. 4.]
	// [[1.5 2.  2.5]]
}
