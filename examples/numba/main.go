// Command numba runs every example of the Numba CUDA material fuseflow
// answers, written as fuseflow kernels in Go (kernels.go, compiled by
// kernelgen into kernels_kernels.go and a PTX file per kernel): a vector
// add with explicit device arrays, a grid-stride sum with an atomic add, a
// naive matrix product on a 2-D grid, a threshold filter, a shared-memory
// tiled matrix product with barriers, a kernel with a local array, one
// with a constant array, and a warp-shuffle block reduction. Each prints
// its result and checks it against the same computation written with lazy
// arrays (package array); the command exits with status 1 if one
// disagrees. Kernels run on the default device: the CPU, where they run as
// the Go functions they are, or with FUSEFLOW_DEVICE=cuda (or cuda:N) the
// GPU, whose kernel device the command registers.
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/exec/cuda"
	"github.com/fuseflow/fuseflow/kernel"
)

func main() {
	if dev := os.Getenv("FUSEFLOW_DEVICE"); strings.HasPrefix(dev, "cuda") {
		b, err := openGPU(dev)
		if err != nil {
			fmt.Fprintln(os.Stderr, "numba:", err)
			os.Exit(1)
		}
		defer b.Close()
		kernel.Register(b.KernelDevice())
		fmt.Printf("kernels run on %s\n\n", b.Name())
	}
	if err := runAll(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "numba:", err)
		os.Exit(1)
	}
}

// openGPU opens the GPU that FUSEFLOW_DEVICE (cuda or cuda:N) names.
func openGPU(dev string) (*cuda.Backend, error) {
	n := 0
	if rest, ok := strings.CutPrefix(dev, "cuda:"); ok {
		var err error
		if n, err = strconv.Atoi(rest); err != nil || n < 0 {
			return nil, fmt.Errorf("FUSEFLOW_DEVICE=%q: want cuda or cuda:N", dev)
		}
	} else if dev != "cuda" {
		return nil, fmt.Errorf("FUSEFLOW_DEVICE=%q: want cuda or cuda:N", dev)
	}
	return cuda.New(n)
}

// example is one example of the material.
type example struct {
	name string
	run  func(w io.Writer) error
}

var examples = []example{
	{"vector add with device arrays", vectorAdd},
	{"grid-stride sum with an atomic add", gridSum},
	{"naive matrix product on a 2-D grid", naiveMatMul},
	{"threshold filter", threshold},
	{"tiled matrix product in shared memory", tiledMatMul},
	{"window maximum in a local array", windowMax},
	{"polynomial from a constant array", polynomial},
	{"warp-shuffle block reduction", sumSquares},
}

// runAll runs every example, printing to w, and returns the first error.
func runAll(w io.Writer) error {
	for i, ex := range examples {
		fmt.Fprintf(w, "%d. %s\n", i+1, ex.name)
		if err := ex.run(w); err != nil {
			return fmt.Errorf("%s: %w", ex.name, err)
		}
		fmt.Fprintln(w)
	}
	return nil
}
