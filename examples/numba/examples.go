// This file holds the examples: each builds its inputs, launches its
// kernel, prints the result, and checks it against lazy arrays.

package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/kernel"
)

// blocks returns how many blocks of size threads cover n elements.
func blocks(n, threads int) int { return (n + threads - 1) / threads }

// vectorAdd adds two vectors through device arrays: copies in
// (cuda.to_device), an output of the same shape (cuda.device_array_like),
// the launch, and the copy back (copy_to_host).
func vectorAdd(w io.Writer) error {
	const n = 1_000_000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)
	}
	dev := kernel.DefaultDevice()
	dx, err := kernel.ToDevice(dev, x)
	if err != nil {
		return err
	}
	defer dx.Free()
	dy, err := kernel.ToDevice(dev, y)
	if err != nil {
		return err
	}
	defer dy.Free()
	dout, err := kernel.ArrayLike(dev, x)
	if err != nil {
		return err
	}
	defer dout.Free()
	const threads = 128
	if err := VecAddKernel.Launch(kernel.Launch1D(blocks(n, threads), threads), dx, dy, dout); err != nil {
		return err
	}
	out, err := dout.CopyToHost()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   device %s, %d blocks of %d threads\n   out[:10] = %v\n", dev.Name(), blocks(n, threads), threads, out[:10])
	c := array.Default()
	return check(w, out, array.FromSlice(c, x).Add(array.FromSlice(c, y)), 0)
}

// gridSum sums 0..1023 with a grid-stride loop and an atomic add.
func gridSum(w io.Writer) error {
	const n = 1024
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i)
	}
	total := []float32{0}
	const threads = 256
	if err := GridSumKernel.Launch(kernel.Launch1D(blocks(n, threads), threads), x, total); err != nil {
		return err
	}
	fmt.Fprintf(w, "   sum of 0..%d = %v\n", n-1, total[0])
	return check(w, total, array.FromSlice(array.Default(), x).Sum(), 0)
}

// random returns n values drawn with draw from a generator seeded with
// seed.
func random(seed uint64, n int, draw func(*rand.Rand) float32) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	s := make([]float32, n)
	for i := range s {
		s[i] = draw(r)
	}
	return s
}

// randomMatrix returns m×n uniform values in [0, 1) from seed.
func randomMatrix(seed uint64, m, n int) []float32 { return random(seed, m*n, (*rand.Rand).Float32) }

// matmulCheck compares c with the lazy product of a and b.
func matmulCheck(w io.Writer, a, b, c []float32, m, k, n int) error {
	fmt.Fprintf(w, "   c[:2,:2] = [[%.4f %.4f] [%.4f %.4f]]\n", c[0], c[1], c[n], c[n+1])
	ctx := array.Default()
	want := array.MatMul(array.FromSlice(ctx, a, m, k), array.FromSlice(ctx, b, k, n))
	return check(w, c, want, 1e-5)
}

// naiveMatMul multiplies two 256×256 matrices, one thread per element of
// the product on a 2-D grid of 16×16 blocks.
func naiveMatMul(w io.Writer) error {
	const m, k, n = 256, 256, 256
	a, b, c := randomMatrix(1, m, k), randomMatrix(2, k, n), make([]float32, m*n)
	cfg := kernel.Config{Grid: kernel.D2(blocks(n, 16), blocks(m, 16)), Block: kernel.D2(16, 16)}
	if err := MatMulKernel.Launch(cfg, a, b, c, m, k, n); err != nil {
		return err
	}
	return matmulCheck(w, a, b, c, m, k, n)
}

// threshold zeroes the elements of a random vector not above 0.5.
func threshold(w io.Writer) error {
	const n = 1024
	x := random(3, n, (*rand.Rand).Float32)
	out := make([]float32, n)
	const threads = 256
	if err := ThresholdKernel.Launch(kernel.Launch1D(blocks(n, threads), threads), x, float32(0.5), out); err != nil {
		return err
	}
	kept := 0
	for _, v := range out {
		if v != 0 {
			kept++
		}
	}
	fmt.Fprintf(w, "   %d of %d elements above 0.5; out[:6] = %v\n", kept, n, out[:6])
	xa := array.FromSlice(array.Default(), x)
	return check(w, out, array.Where(xa.Gt(0.5), xa, 0), 0)
}

// tiledMatMul multiplies a 200×300 and a 300×100 matrix with tiles in
// shared memory (sizes that are not multiples of the tile).
func tiledMatMul(w io.Writer) error {
	const m, k, n = 200, 300, 100
	a, b, c := randomMatrix(4, m, k), randomMatrix(5, k, n), make([]float32, m*n)
	cfg := kernel.Config{Grid: kernel.D2(blocks(n, tile), blocks(m, tile)), Block: kernel.D2(tile, tile)}
	if err := TiledMatMulKernel.Launch(cfg, a, b, c, m, k, n); err != nil {
		return err
	}
	fmt.Fprintf(w, "   %d×%d blocks of %d×%d threads, %d bytes of shared memory each\n",
		cfg.Grid.X, cfg.Grid.Y, tile, tile, TiledMatMulKernel.Spec().SharedBytes)
	return matmulCheck(w, a, b, c, m, k, n)
}

// windowMax takes the maximum of each window of 4 elements.
func windowMax(w io.Writer) error {
	const n = 1000
	x := random(6, n, func(r *rand.Rand) float32 { return float32(r.NormFloat64()) })
	out := make([]float32, n-window+1)
	if err := WindowMaxKernel.ForAll(len(out), x, out); err != nil {
		return err
	}
	fmt.Fprintf(w, "   out[:5] = %v\n", out[:5])
	xa := array.FromSlice(array.Default(), x)
	want := xa.Slice(array.R(0, len(out)))
	for j := 1; j < window; j++ {
		want = want.Maximum(xa.Slice(array.R(j, j+len(out))))
	}
	return check(w, out, want, 0)
}

// polynomial evaluates 1 - 0.5x + 0.25x² + 2x³ with its coefficients in
// constant memory.
func polynomial(w io.Writer) error {
	const n = 4096
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)/n*4 - 2
	}
	out := make([]float64, n)
	if err := PolyKernel.ForAll(n, x, out); err != nil {
		return err
	}
	fmt.Fprintf(w, "   p(-2) = %v, p(0) = %v, p(1.999) = %.6f\n", out[0], out[n/2], out[n-1])
	xa := array.FromSlice(array.Default(), x)
	want := xa.Mul(poly[3]).Add(poly[2]).Mul(xa).Add(poly[1]).Mul(xa).Add(poly[0])
	return check(w, out, want, 1e-12)
}

// sumSquares adds the squares of a random vector with a warp-shuffle
// block reduction.
func sumSquares(w io.Writer) error {
	const n = 100_000
	x := random(7, n, func(r *rand.Rand) float32 { return r.Float32()*2 - 1 })
	total := []float32{0}
	const threads = 256
	if err := SumSquaresKernel.Launch(kernel.Launch1D(32, threads), x, total); err != nil {
		return err
	}
	fmt.Fprintf(w, "   sum of squares of %d values = %v\n", n, total[0])
	return check(w, total, array.FromSlice(array.Default(), x).Square().Sum(), 1e-5)
}

// number is the element types the examples check.
type number interface{ float32 | float64 }

// check compares got with the lazy array want, element by element within
// a relative tolerance tol (0: exactly), and prints the verdict.
func check[T number](w io.Writer, got []T, want *array.Array, tol float64) error {
	if err := array.Eval(context.Background(), want); err != nil {
		return err
	}
	defer want.Release()
	ws, err := array.ToSlice[T](want)
	if err != nil {
		return err
	}
	if len(ws) != len(got) {
		return fmt.Errorf("%d results, the lazy arrays give %d", len(got), len(ws))
	}
	worst := 0.0
	for i := range got {
		g, e := float64(got[i]), float64(ws[i])
		d := g - e
		if d < 0 {
			d = -d
		}
		scale := max(1, e, -e)
		if d > tol*scale {
			return fmt.Errorf("element %d is %v, the lazy arrays give %v", i, g, e)
		}
		worst = max(worst, d/scale)
	}
	fmt.Fprintf(w, "   matches the lazy arrays (%d elements, largest relative difference %.2g)\n", len(got), worst)
	return nil
}
