//go:build ignore

// gen.go writes the generated files of package vecmath: the portable Go
// code and the AVX-512 and AVX2 assembly of every math function, compiled
// from the mathlib expansions by package vecgen. Run by go generate.
package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/fuseflow/fuseflow/internal/vecmath/vecgen"
)

func main() {
	files, err := vecgen.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(name, files[name], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
