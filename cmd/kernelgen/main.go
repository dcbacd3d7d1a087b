// Command kernelgen is the go:generate tool of explicit kernels. In the
// package of the current directory (or -dir) it compiles every function
// marked //fuseflow:kernel from Go SSA to PTX (codegen/gokernel) and
// writes, next to each source file name.go with kernels, the PTX of each
// kernel K in name_K.ptx, headed by the kernel's record (its parameters,
// the slices it writes, cooperation, shared memory and check sites as
// //fuseflow: comment lines, see kernel.Spec.Record), and a file
// name_kernels.go embedding those files (//go:embed, in the embed.FS
// namePTX) and holding for each kernel a handle,
// var KKernel = kernel.MustFromFS(kernel.BindN(K), namePTX, "name_K.ptx"), that launches
// the Go function on the CPU (bound by kernel.Bind0 to Bind12, so a
// kernel takes at most 12 parameters after the Thread) and the PTX on a
// GPU. Put in the package:
//
//	//go:generate go run github.com/fuseflow/fuseflow/cmd/kernelgen
//
// Constructs outside the kernel subset are all reported, one per line as
// file:line:col: what is unsupported and what to write instead, and
// kernelgen exits with status 1 without writing anything. With -check it
// writes nothing and exits with status 1 when a generated file (Go or
// PTX) is missing, differs from what it would write, or is left over. The generated files
// import only package kernel: golang.org/x/tools stays out of the
// binaries that use them.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main with its arguments and outputs, returning the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kernelgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", ".", "the package `directory`")
	check := fs.Bool("check", false, "write nothing; fail when a generated file is missing or out of date")
	verbose := fs.Bool("v", false, "print the files written")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kernelgen [-dir dir] [-check] [-v]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	files, err := generate(*dir)
	if err != nil {
		fmt.Fprintln(stderr, relativize(err.Error()))
		return 1
	}
	if *check {
		stale, err := files.stale()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		for _, s := range stale {
			fmt.Fprintf(stderr, "kernelgen: %s is out of date; run go generate\n", s)
		}
		if len(stale) > 0 {
			return 1
		}
		return 0
	}
	written, err := files.write()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *verbose {
		for _, w := range written {
			fmt.Fprintln(stdout, w)
		}
	}
	return 0
}
