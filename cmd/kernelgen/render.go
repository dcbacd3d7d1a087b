// This file implements rendering the generated files of a source file:
// a PTX file per kernel, headed by the kernel's record (kernel.Spec.Record:
// parameters, cooperation, shared memory, check sites), and a Go file
// embedding those files (//go:embed, one embed.FS) and holding for each
// kernel its handle: kernel.MustFromFS of the binding of the Go function
// and its PTX file.

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
	fmt.Fprintf(&b, "package %s\n\nimport (\n\"embed\"\n\n\"github.com/fuseflow/fuseflow/kernel\"\n)\n", pkg)
	fsVar := fsName(base)
	fmt.Fprintf(&b, "\n// %s holds the PTX of the kernels of %s, each file headed by the\n", fsVar, base)
	b.WriteString("// kernel's record: its parameters, cooperation and check sites.\n//\n")
	outs := outputs{{path: outName(src.path)}}
	for _, k := range kernels {
		text, err := k.PTX(ptxOptions())
		if err != nil {
			return nil, fmt.Errorf("kernelgen: kernel %s: %w", k.Name, err)
		}
		file := ptxName(src.path, k.Name)
		fmt.Fprintf(&b, "//go:embed %s\n", filepath.Base(file))
		outs = append(outs, output{path: file, data: []byte(header + record(k) + text)})
	}
	fmt.Fprintf(&b, "var %s embed.FS\n", fsVar)
	for i, k := range kernels {
		if err := renderKernel(&b, k, fsVar, filepath.Base(outs[i+1].path)); err != nil {
			return nil, err
		}
	}
	data, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("kernelgen: formatting the file for %s: %w", base, err)
	}
	outs[0].data = data
	return outs, nil
}

// renderKernel writes the handle of one kernel, whose PTX is the file
// ptxFile of the embedded file system fsVar.
func renderKernel(b *bytes.Buffer, k *gokernel.Kernel, fsVar, ptxFile string) error {
	where := fmt.Sprintf("%s:%d", filepath.Base(k.Pos.Filename), k.Pos.Line)
	if len(k.Params) > kernel.MaxBindParams {
		return fmt.Errorf("kernelgen: %s: kernel %s has %d parameters after the Thread, at most %d are supported; group some of them into one slice", where, k.Name, len(k.Params), kernel.MaxBindParams)
	}
	h := handleName(k.Name)
	args := []string{"cfg"}
	for _, p := range k.Params {
		args = append(args, p.Name)
	}
	fmt.Fprintf(b, "\n// %s launches %s (%s): the Go function on the CPU device, on a GPU\n", h, k.Name, where)
	fmt.Fprintf(b, "// the PTX of %s. Launch it with %s.Launch(%s).\n", ptxFile, h, strings.Join(args, ", "))
	fmt.Fprintf(b, "var %s = kernel.MustFromFS(kernel.Bind%d(%s), %s, %q)\n", h, len(k.Params), k.Name, fsVar, ptxFile)
	return nil
}

// record returns the record of k that heads its PTX file (see
// kernel.Spec.Record).
func record(k *gokernel.Kernel) string {
	return kernel.Spec{Name: k.Name, Params: k.Params, Sync: k.Sync, SharedBytes: k.SharedBytes,
		Checks: k.Checks, NoBounds: k.NoBounds}.Record()
}

// fsName returns the name of the variable embedding the PTX files of
// the source file base: its name as an identifier, then PTX (vecadd.go's
// is vecaddPTX).
func fsName(base string) string {
	r := []rune(strings.TrimSuffix(base, ".go"))
	for i, c := range r {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			r[i] = '_'
		}
	}
	if !unicode.IsLetter(r[0]) {
		r = append([]rune("ptx"), r...)
	}
	r[0] = unicode.ToLower(r[0])
	return string(r) + "PTX"
}
