// This file implements rendering the generated files of a source file:
// a Go file holding for each kernel its handle (kernel.New with the Spec:
// parameters, the binding of the Go function, cooperation, shared
// memory, PTX, check sites) and its PTX embedded from a PTX file
// (//go:embed), and that PTX file, one per kernel.

package main

import (
	"bytes"
	"fmt"
	"go/format"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/fuseflow/fuseflow/codegen/gokernel"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/kernel"
)

// typeNames gives the constant of each kernel.Type in generated code.
var typeNames = map[kernel.Type]string{
	kernel.Bool: "kernel.Bool", kernel.Int: "kernel.Int", kernel.Int32: "kernel.Int32", kernel.Int64: "kernel.Int64",
	kernel.Uint32: "kernel.Uint32", kernel.Uint64: "kernel.Uint64", kernel.Float32: "kernel.Float32", kernel.Float64: "kernel.Float64",
}

// ptxOptions are the options of generated PTX: the baseline target with
// line information.
func ptxOptions() ptx.Options {
	return ptx.Options{Arch: gokernel.DefaultArch, CUDA: gokernel.DefaultCUDA, LineInfo: true}
}

// render returns the generated files of src: the Go file first, then
// the PTX file of each kernel.
func render(pkg string, src *srcFile, kernels []*gokernel.Kernel) (outputs, error) {
	var b bytes.Buffer
	base := filepath.Base(src.path)
	header := fmt.Sprintf("%s from %s. DO NOT EDIT.\n", headerPrefix, base)
	b.WriteString(header + "\n")
	if src.constraint != "" {
		b.WriteString(src.constraint + "\n\n")
	}
	fmt.Fprintf(&b, "package %s\n\nimport (\n_ \"embed\"\n\n\"github.com/fuseflow/fuseflow/kernel\"\n)\n", pkg)
	outs := outputs{{path: outName(src.path)}}
	for _, k := range kernels {
		text, err := k.PTX(ptxOptions())
		if err != nil {
			return nil, fmt.Errorf("kernelgen: kernel %s: %w", k.Name, err)
		}
		file := ptxName(src.path, k.Name)
		if err := renderKernel(&b, k, filepath.Base(file)); err != nil {
			return nil, err
		}
		outs = append(outs, output{path: file, data: []byte(header + text)})
	}
	data, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("kernelgen: formatting the file for %s: %w", base, err)
	}
	outs[0].data = data
	return outs, nil
}

// renderKernel writes the handle of one kernel and the variable that
// embeds its PTX from the file ptxFile.
func renderKernel(b *bytes.Buffer, k *gokernel.Kernel, ptxFile string) error {
	where := fmt.Sprintf("%s:%d", filepath.Base(k.Pos.Filename), k.Pos.Line)
	if len(k.Params) > kernel.MaxBindParams {
		return fmt.Errorf("kernelgen: %s: kernel %s has %d parameters after the Thread, at most %d are supported; group some of them into one slice", where, k.Name, len(k.Params), kernel.MaxBindParams)
	}
	h := handleName(k.Name)
	pc := ptxConst(k.Name)
	names := make([]string, len(k.Params))
	for i, p := range k.Params {
		names[i] = p.Name
	}
	fmt.Fprintf(b, "\n// %s launches the kernel %s (%s): on the CPU device it runs the Go\n", h, k.Name, where)
	fmt.Fprintf(b, "// function, on a GPU the PTX in %s. Launch it with\n// %s.Launch(cfg", pc, h)
	for _, n := range names {
		b.WriteString(", " + n)
	}
	b.WriteString(").\n")
	fmt.Fprintf(b, "var %s = kernel.New(kernel.Spec{\n", h)
	fmt.Fprintf(b, "Name: %q,\n", k.Name)
	b.WriteString("Params: []kernel.Param{\n")
	for _, p := range k.Params {
		fmt.Fprintf(b, "{Name: %q, Type: %s", p.Name, typeNames[p.Type])
		if p.Slice {
			b.WriteString(", Slice: true")
		}
		if p.Written {
			b.WriteString(", Written: true")
		}
		b.WriteString("},\n")
	}
	b.WriteString("},\n")
	fmt.Fprintf(b, "Bind: kernel.Bind%d(%s),\n", len(k.Params), k.Name)
	var sync []string
	if k.Sync&kernel.SyncBarrier != 0 {
		sync = append(sync, "kernel.SyncBarrier")
	}
	if k.Sync&kernel.SyncWarp != 0 {
		sync = append(sync, "kernel.SyncWarp")
	}
	if k.Sync&kernel.SyncShared != 0 {
		sync = append(sync, "kernel.SyncShared")
	}
	if len(sync) > 0 {
		fmt.Fprintf(b, "Sync: %s,\n", strings.Join(sync, " | "))
	}
	if k.SharedBytes > 0 {
		fmt.Fprintf(b, "SharedBytes: %d,\n", k.SharedBytes)
	}
	fmt.Fprintf(b, "PTX: %s,\n", pc)
	if len(k.Checks) > 0 {
		b.WriteString("Checks: []string{\n")
		for _, c := range k.Checks {
			fmt.Fprintf(b, "%q,\n", c)
		}
		b.WriteString("},\n")
	}
	if k.NoBounds {
		b.WriteString("NoBounds: true,\n")
	}
	b.WriteString("})\n")
	fmt.Fprintf(b, "\n// %s is the PTX of %s.\n//\n//go:embed %s\nvar %s string\n", pc, k.Name, ptxFile, pc)
	return nil
}

// ptxConst returns the name of the PTX variable of kernel name: its name
// with a lower-case first letter, then PTX (saxpyPTX).
func ptxConst(name string) string {
	r := []rune(name)
	r[0] = unicode.ToLower(r[0])
	return string(r) + "PTX"
}
