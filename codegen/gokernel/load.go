// This file implements loading: the package is type-checked from source
// (go/packages), built into SSA form (go/ssa), and its functions marked
// //fuseflow:kernel are found and compiled.

package gokernel

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// The directives of a kernel's doc comment.
const (
	DirectiveKernel   = "//fuseflow:kernel"
	DirectiveNoBounds = "//fuseflow:nobounds"
)

// The import paths the compiler knows.
const (
	kernelPath = "github.com/fuseflow/fuseflow/kernel"
	math32Path = "github.com/fuseflow/fuseflow/kernel/math32"
)

// Options control Compile.
type Options struct {
	// Overlay maps absolute file paths to contents that replace (or add
	// to) the files on disk, as go/packages takes it.
	Overlay map[string][]byte
	// BuildFlags are passed to the go command (-tags, ...).
	BuildFlags []string
}

// Package is a compiled package: its kernels in source order.
type Package struct {
	Name, Path string
	Kernels    []*Kernel
}

// Compile loads the package pattern (a directory, an import path, or Go
// files) relative to dir, and compiles each function whose doc comment
// holds //fuseflow:kernel. A package that does not load or type-check
// returns an error listing the go command's or type checker's errors;
// kernels outside the subset return an *Error holding a diagnostic for
// every occurrence of every unsupported construct.
func Compile(dir, pattern string, opts Options) (*Package, error) {
	pkgs, err := load(dir, []string{pattern}, opts)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("gokernel: %s matches %d packages, want one", pattern, len(pkgs))
	}
	return compileLoaded(pkgs[0])
}

// CompileAll is Compile for several patterns loaded at once (one go
// command for all of them); the results are in the order of the loaded
// packages. The error is the first package's that failed.
func CompileAll(dir string, patterns []string, opts Options) ([]*Package, []error, error) {
	pkgs, err := load(dir, patterns, opts)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*Package, len(pkgs))
	errs := make([]error, len(pkgs))
	for i, p := range pkgs {
		out[i], errs[i] = compileLoaded(p)
	}
	return out, errs, nil
}

// loaded is one loaded package with its SSA form.
type loaded struct {
	pkg *packages.Package
	ssa *ssa.Package
}

// load type-checks the packages and builds their SSA.
func load(dir string, patterns []string, opts Options) ([]loaded, error) {
	cfg := &packages.Config{
		Mode:       packages.LoadSyntax,
		Dir:        dir,
		Overlay:    opts.Overlay,
		BuildFlags: opts.BuildFlags,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("gokernel: loading %s: %w", strings.Join(patterns, " "), err)
	}
	var msgs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	}
	if len(msgs) > 0 {
		return nil, fmt.Errorf("gokernel: the package does not compile:\n%s", strings.Join(msgs, "\n"))
	}
	_, sp := ssautil.Packages(pkgs, ssa.InstantiateGenerics|ssa.GlobalDebug)
	out := make([]loaded, len(pkgs))
	for i, p := range pkgs {
		if sp[i] == nil {
			return nil, fmt.Errorf("gokernel: no SSA form for %s", p.PkgPath)
		}
		sp[i].Build()
		out[i] = loaded{pkg: p, ssa: sp[i]}
	}
	return out, nil
}

// kernelDecl is a function marked //fuseflow:kernel.
type kernelDecl struct {
	decl     *ast.FuncDecl
	noBounds bool
}

// findKernels returns the kernel declarations of the package in source
// order (files by name).
func findKernels(p *packages.Package) []kernelDecl {
	var out []kernelDecl
	files := append([]*ast.File(nil), p.Syntax...)
	sort.Slice(files, func(i, j int) bool {
		return p.Fset.Position(files[i].Pos()).Filename < p.Fset.Position(files[j].Pos()).Filename
	})
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			k := kernelDecl{decl: fd}
			marked := false
			for _, c := range fd.Doc.List {
				switch strings.TrimSpace(c.Text) {
				case DirectiveKernel:
					marked = true
				case DirectiveNoBounds:
					k.noBounds = true
				}
			}
			if marked {
				out = append(out, k)
			}
		}
	}
	return out
}

// compileLoaded compiles the kernels of one loaded package.
func compileLoaded(l loaded) (*Package, error) {
	p := l.pkg
	out := &Package{Name: p.Name, Path: p.PkgPath}
	ds := newDiagSet(p.Fset)
	consts := newConstArrays(l, ds)
	for _, kd := range findKernels(p) {
		obj, _ := p.TypesInfo.Defs[kd.decl.Name].(*types.Func)
		if obj == nil {
			continue
		}
		if kd.decl.Recv != nil {
			ds.add(kd.decl.Pos(), "kernel %s is a method; a kernel is a package-level function func(t kernel.Thread, ...)", kd.decl.Name.Name)
			continue
		}
		fn := l.ssa.Prog.FuncValue(obj)
		k := compileKernel(l, fn, kd, consts, ds)
		if k != nil {
			out.Kernels = append(out.Kernels, k)
		}
	}
	if err := ds.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// position returns the resolved position of pos.
func position(fset *token.FileSet, pos token.Pos) token.Position {
	if !pos.IsValid() {
		return token.Position{}
	}
	return fset.Position(pos)
}
