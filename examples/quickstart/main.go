// Command quickstart is fuseflow's first example: it builds a few lazy
// arrays, evaluates a fused-looking elementwise chain, a reduction and a
// matrix product, prints the results and says which backend ran them.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/fuseflow/fuseflow/array"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run() error {
	c := array.Default()
	if err := c.Err(); err != nil {
		return err
	}
	fmt.Println("backend:", c.Backend())

	// Arrays are lazy: nothing below runs until a result is asked for.
	x := c.Arange(array.Float32, 12).Reshape(3, 4)
	y := x.Transpose().Mul(2).Sum(0)

	// An elementwise chain the planner fuses into one kernel.
	r := c.Rand(array.Float32, 7, 3, 4)
	z := x.Mul(0.5).Add(r).Sqrt().Clip(0, 2)

	// Reductions and a matrix product.
	mean := x.Mean(1)
	std := x.Std()
	w := array.FromSlice(c, []float32{1, 0, -1, 2}, 4, 1)
	p := array.MatMul(x, w)

	// One request computes everything, sharing the work they have in common.
	if err := array.Eval(context.Background(), y, z, mean, std, p); err != nil {
		return err
	}
	defer func() {
		for _, a := range []*array.Array{x, y, r, z, mean, std, w, p} {
			a.Release()
		}
	}()

	fmt.Println("x =")
	fmt.Println(x)
	fmt.Println("x.T * 2, summed over axis 0:", y)
	fmt.Println("sqrt(x/2 + rand) clipped to [0, 2] =")
	fmt.Println(z)
	fmt.Println("row means:", mean, " std of x:", std)
	fmt.Println("x @ w =")
	fmt.Println(p.Repr())

	s := x.Sum()
	defer s.Release()
	total, err := s.Value()
	if err != nil {
		return err
	}
	fmt.Println("sum of x:", total)
	return nil
}
