// Runnable examples of the package.

package array_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
)

// Build a lazy chain, evaluate it, and read results.
func Example() {
	c := array.MustContext()
	x := c.Arange(array.Float32, 12).Reshape(3, 4)
	y := x.Transpose().Mul(2).Sum(0)
	fmt.Println(x)
	fmt.Println(y)
	fmt.Println(y.Repr())

	m := x.Mean()
	v, _ := m.Value()
	fmt.Println("mean:", v)

	bad := x.Add(c.Ones(array.Float32, 5))
	fmt.Println(bad.Err())
	// Output:
	// [[ 0.  1.  2.  3.]
	//  [ 4.  5.  6.  7.]
	//  [ 8.  9. 10. 11.]]
	// [12. 44. 76.]
	// array([12., 44., 76.], dtype=float32)
	// mean: 5.5
	// Add((3, 4) float32, (5,) float32): shapes (3, 4) (5,) cannot be broadcast together
}

// Go slices in and out, with NumPy's matmul semantics for vectors.
func ExampleMatMul() {
	c := array.MustContext()
	a := array.FromSlice(c, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v := array.FromSlice(c, []float64{1, 0, -1})
	defer a.Release()
	defer v.Release()
	p := array.MatMul(a, v)
	defer p.Release()
	out, err := array.ToSlice[float64](p)
	fmt.Println(out, err, p.Shape())
	// Output:
	// [-2 -2] <nil> (2,)
}

// Views compose without copying until a result is needed.
func ExampleArray_Slice() {
	c := array.MustContext()
	x := c.ArangeStep(array.Int64, 0, 12, 1).Reshape(3, 4)
	fmt.Println(x.Slice(array.Rev(), array.RS(0, 4, 2)))
	fmt.Println(x.Index(1))
	// Output:
	// [[ 8 10]
	//  [ 4  6]
	//  [ 0  2]]
	// [4 5 6 7]
}

// A memory limit bounds what a Context holds at once; going over it is a
// MemoryError, and releasing arrays makes room again.
func ExampleWithMemoryLimit() {
	// 1 MiB for the whole Context.
	c := array.MustContext(array.WithBackend(cpu.New(cpu.Options{})), array.WithMemoryLimit(1<<20))
	x := c.Zeros(array.Float64, 100_000).Add(1) // 800 kB
	fmt.Println(x.Eval(), c.MemoryInUse())
	y := c.Zeros(array.Float64, 50_000).Add(2) // 400 kB more: over
	fmt.Println(y.Eval())
	x.Release()
	fmt.Println(y.Eval(), c.MemoryInUse())
	// Output:
	// <nil> 800000
	// cpu: Unable to allocate 391 KiB for an array with shape (50000,) and data type float64 (781 KiB of the memory limit of 1.00 MiB is in use)
	// <nil> 400000
}
