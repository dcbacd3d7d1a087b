// Command fuseflow inspects what fuseflow can run on and how it plans
// expressions.
//
// Usage:
//
//	fuseflow devices                 list backends and CUDA devices with their properties
//	fuseflow explain [flags] EXPR    print the fused plan of an expression
//	fuseflow eval [flags] EXPR       evaluate it over random inputs, cold and warm
//	fuseflow bench [flags]           Parquet scans beside NumPy, DuckDB and Polars: a table and an SVG chart
//
// EXPR is a Go expression over named arrays, for example
// 'exp(-a*a)*b + sqrt(c)' or 'sum(exp(x - max(x, 1)), 1)'; every name is
// an input of the -shape and -dtype given. Operators: + - * / (true
// division) % (modulo with the sign of the divisor) == != < <= > >= and
// the logical and bitwise & | ^ && || ! on bool and integer arrays.
// Functions: the elementwise ops (exp, log, sqrt, tanh, sigmoid, ...),
// maximum, minimum, pow, atan2, mod, floordiv, where, the reductions
// (sum, prod, mean, max, min, argmax, argmin, any, all) with optional
// axes, matmul and transpose. Numbers are Go constants, exact until they
// meet an array (-9223372036854775808 is the minimum int64); one out of
// int64's or float64's range is an error. Go comments are errors too:
// 'a // b' is not floor division (Go would read a alone); write
// floordiv(a, b).
//
// With -e, eval and explain work over a Parquet or Arrow IPC file
// instead (see package table): 'fuseflow eval -e
// "sum(price*qty*(1-discount))" trades.parquet' streams the columns the
// expressions read through the fused kernels batch by batch and prints
// the aggregates; row expressions print their first rows or, with -o
// out.parquet (or .arrow), are written to a file. Names are columns,
// nulls propagate through row expressions, aggregates (sum, mean, min,
// max, count, variance) skip them; NAME=EXPR names a result. A progress
// bar is drawn on stderr when it is a terminal.
//
// On a machine without an NVIDIA driver, devices says so and exits 0.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/fuseflow/fuseflow/internal/cuda"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one subcommand and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "devices":
		if err := devices(stdout, cuda.Load); err != nil {
			fmt.Fprintln(stderr, "fuseflow devices:", err)
			return 1
		}
		return 0
	case "explain", "eval":
		do := explain
		switch {
		case args[0] == "eval" && hasExprFlag(args[1:]):
			do = evalFile
		case args[0] == "eval":
			do = eval
		case hasExprFlag(args[1:]):
			do = explainFile
		}
		if err := do(args[1:], stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "fuseflow %s: %v\n", args[0], err)
			return 1
		}
		return 0
	case "bench":
		if err := bench(args[1:], stdout, stderr); err != nil {
			fmt.Fprintln(stderr, "fuseflow bench:", err)
			return 1
		}
		return 0
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "fuseflow: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: fuseflow <command>")
	fmt.Fprintln(w, "commands:")
	fmt.Fprintln(w, "  devices         list backends and CUDA devices")
	fmt.Fprintln(w, "  explain EXPR    print the fused plan of an expression (-shape, -dtype, -device, -dot)")
	fmt.Fprintln(w, "  eval EXPR       evaluate an expression over random inputs (-shape, -dtype, -device, -seed)")
	fmt.Fprintln(w, "  eval -e EXPR FILE     column expressions over a Parquet or Arrow IPC file, streamed in batches")
	fmt.Fprintln(w, "                        (-e repeatable, NAME=EXPR names a result; -filter, -by KEY, -o, -budget, -batch, -device, -progress)")
	fmt.Fprintln(w, "  explain -e EXPR FILE  the plan of one batch (-dot FILE writes DOT and an SVG, -ptx prints the kernels)")
	fmt.Fprintln(w, "  bench           Parquet scans by fuseflow and the peers of bench/, as a table and an SVG chart")
	fmt.Fprintln(w, "EXPR is a Go expression over named arrays, such as 'exp(-a*a)*b + sqrt(c)' or 'sum(a, 1)':")
	fmt.Fprintln(w, "  operators + - * / % == != < <= > >= & | ^ && || !; functions exp, log, sqrt, tanh, sigmoid, ...,")
	fmt.Fprintln(w, "  maximum, minimum, pow, atan2, mod, floordiv, where, sum, prod, mean, max, min, argmax, argmin,")
	fmt.Fprintln(w, "  any, all, matmul, transpose. '//' starts a Go comment and is an error: floor division is floordiv(a, b).")
	fmt.Fprintln(w, "Over a file, names are columns and nulls propagate; functions abs, exp, log, sqrt, where, fill_null,")
	fmt.Fprintln(w, "  is_null, ... and the aggregates sum, mean, min, max, count, variance, which skip nulls.")
}

// devices prints the CPU backend and every CUDA device the driver loaded
// by load reports. A missing driver is not an error: it is reported.
func devices(w io.Writer, load func() (*cuda.Driver, error)) error {
	fmt.Fprintf(w, "cpu: %d cores (%s/%s)\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	drv, err := load()
	if errors.Is(err, cuda.ErrNoDriver) {
		fmt.Fprintf(w, "cuda: no NVIDIA driver found (%v)\n", err)
		return nil
	}
	if err != nil {
		fmt.Fprintf(w, "cuda: driver present but unusable: %v\n", err)
		return nil
	}
	v, err := drv.Version()
	if err != nil {
		return err
	}
	devs, err := drv.Devices()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "cuda: driver %s (%s), %d device(s)\n", cuda.VersionString(v), drv.Path(), len(devs))
	for _, d := range devs {
		fmt.Fprintf(w, "cuda:%d: %s\n", d.Ordinal, d.Name)
		fmt.Fprintf(w, "  compute capability %d.%d (%s), %d SMs, %.1f GiB\n", d.Major, d.Minor, d.Arch(), d.SMs, float64(d.TotalMem)/(1<<30))
		fmt.Fprintf(w, "  threads: %d per block, %d per SM; warp %d\n", d.MaxThreadsPerBlock, d.MaxThreadsPerSM, d.WarpSize)
		fmt.Fprintf(w, "  shared memory: %d B per block (%d opt-in), %d B per SM; registers: %d per block, %d per SM\n",
			d.SharedMemPerBlock, d.SharedMemPerBlockOptin, d.SharedMemPerSM, d.RegistersPerBlock, d.RegistersPerSM)
		if bw := d.PeakBandwidth(); bw > 0 {
			fmt.Fprintf(w, "  memory: %d-bit bus, peak %.0f GB/s; L2 %d KiB\n", d.MemoryBusWidth, bw/1e9, d.L2CacheSize>>10)
		}
	}
	return nil
}
