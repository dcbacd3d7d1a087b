// Command probe writes random CPU-suite workloads, drawn by
// bench/suite.Probe from a seed, in the text form of bench/workloads.txt,
// after checking that the array package builds each of them. With
// bench/cpu_suite.sh (LIST=) they measure fuseflow beside NumPy on shapes,
// axes, layouts and expressions the committed list does not name:
//
//	go run ./bench/probe -seed 7 -n 64 > /tmp/probe.txt
//	LIST=/tmp/probe.txt sh bench/cpu_suite.sh | go run ./bench/cpujoin -list /tmp/probe.txt
//
// or `make bench-probe SEED=7`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/bench/suite"
	"github.com/fuseflow/fuseflow/exec/cpu"
)

func main() {
	seed := flag.Uint64("seed", 1, "the seed of the draw")
	n := flag.Int("n", 64, "how many workloads")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintf(os.Stderr, "probe: -n %d: want at least 1\n", *n)
		os.Exit(2)
	}
	ws := suite.Probe(*seed, *n)
	if err := check(ws); err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(1)
	}
	if err := suite.FormatWith(os.Stdout, fmt.Sprintf(header, *seed, *n), ws); err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(1)
	}
}

const header = `Random CPU-suite workloads: go run ./bench/probe -seed %d -n %d
(bench/suite.Probe), for bench/cpu_suite.sh with LIST=.`

// check builds every workload over lazy zero inputs (nothing is
// evaluated or allocated) and returns the first that does not build.
func check(ws []suite.Workload) error {
	c, err := array.NewContext(array.WithBackend(cpu.New(cpu.Options{})))
	if err != nil {
		return err
	}
	for _, w := range ws {
		env := map[string]*array.Array{}
		for _, in := range w.Inputs {
			env[in.Name] = c.Zeros(in.DType, in.Shape...)
		}
		stmts, err := suite.ParseExpr(w.Expr)
		if err != nil {
			return fmt.Errorf("%s: %v", w.Name, err)
		}
		out, err := suite.Build(stmts, env)
		if err == nil {
			err = out.Err()
		}
		if err != nil {
			return fmt.Errorf("%s (%s): %v", w.Name, w.Expr, err)
		}
		out.Release()
		for _, a := range env {
			a.Release()
		}
	}
	return nil
}
