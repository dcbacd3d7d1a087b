// The explain and eval subcommands: plan or evaluate an expression given on
// the command line over random inputs.

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	_ "github.com/fuseflow/fuseflow/exec/all" // every backend, for -device
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/philox"
)

// deviceUsage is the help of the -device flag of explain and eval, over
// an expression or a file.
const deviceUsage = "cpu, ref, cuda or cuda:N (explain also takes h100)"

// exprFlags are the flags explain and eval share.
type exprFlags struct {
	fs     *flag.FlagSet
	shape  string
	dtype  string
	device string
	dot    bool
	seed   uint64
}

// newFlagSet returns the flags of subcommand name, its errors written to
// stderr, with the -device flag every subcommand over a plan has.
func newFlagSet(name string, stderr io.Writer, device *string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(device, "device", "cpu", deviceUsage)
	return fs
}

func newExprFlags(name string, stderr io.Writer) *exprFlags {
	f := &exprFlags{}
	f.fs = newFlagSet(name, stderr, &f.device)
	f.fs.StringVar(&f.shape, "shape", "1024,1024", "shape of every named array, comma-separated")
	f.fs.StringVar(&f.dtype, "dtype", "float32", "dtype of every named array")
	f.fs.Uint64Var(&f.seed, "seed", 1, "seed of the random inputs")
	if name == "explain" {
		f.fs.BoolVar(&f.dot, "dot", false, "write the plan as Graphviz DOT")
	}
	return f
}

// parse reads the flags and the expression.
func (f *exprFlags) parse(args []string) (*exprGraph, error) {
	if err := f.fs.Parse(args); err != nil {
		return nil, err
	}
	if f.fs.NArg() != 1 {
		return nil, fmt.Errorf("want one expression, such as 'exp(-a*a)*b + sqrt(c)'")
	}
	d, err := graph.ParseDType(f.dtype)
	if err != nil {
		return nil, err
	}
	var s graph.Shape
	for _, p := range strings.Split(f.shape, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad extent %q in -shape", p)
		}
		s = append(s, n)
	}
	if err := graph.CheckShape(s, d); err != nil {
		return nil, err
	}
	return parseExpr(f.fs.Arg(0), d, s)
}

// explain prints the fused plan of an expression with how the target
// runs each kernel (its launch geometry, or its chunks and workers).
func explain(args []string, stdout, stderr io.Writer) error {
	f := newExprFlags("explain", stderr)
	e, err := f.parse(args)
	if err != nil {
		return err
	}
	annotate, done, err := annotator(f.device)
	if err != nil {
		return err
	}
	defer done()
	p, err := fuse.BuildWith([]*graph.Node{e.root}, graph.InputLayouts(e.root), planOptions(f.device))
	if err != nil {
		return err
	}
	if f.dot {
		return fuse.WriteDOT(stdout, p)
	}
	a, err := annotate(p)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, fuse.ExplainFor(p, a))
	return err
}

// planOptions returns the planning options of the target of device: the
// CPU's for "cpu" and "ref", the GPU's for the others.
func planOptions(device string) fuse.Options {
	if device == "cpu" || device == "ref" {
		return fuse.CPUOptions()
	}
	return fuse.Options{}
}

// annotator returns the function that annotates plans for device: the
// H100's geometry for "h100" (no GPU needed), else that of the registered
// backend device names ("ref" plans as "cpu"), with a function that
// closes the backend.
func annotator(device string) (func(*fuse.Plan) (fuse.Annotator, error), func(), error) {
	if device == "h100" {
		return func(p *fuse.Plan) (fuse.Annotator, error) { return codegen.Annotate(p, codegen.H100()) }, func() {}, nil
	}
	if device == "ref" {
		device = "cpu"
	}
	be, done, err := openBackend(device)
	if err != nil {
		return nil, nil, err
	}
	switch b := be.(type) {
	case interface {
		Annotate(*fuse.Plan) fuse.Annotator
	}:
		return func(p *fuse.Plan) (fuse.Annotator, error) { return b.Annotate(p), nil }, done, nil
	case interface{ Target() codegen.Target }:
		return func(p *fuse.Plan) (fuse.Annotator, error) { return codegen.Annotate(p, b.Target()) }, done, nil
	}
	done()
	return nil, nil, fmt.Errorf("explain: backend %s cannot say how it runs a plan", be.Name())
}

// openBackend opens the registered backend device names ("cpu", "ref",
// "cuda", "cuda:N") and returns it with a function that closes it.
func openBackend(device string) (exec.Backend, func(), error) {
	be, err := exec.Open(device)
	if err != nil {
		return nil, nil, err
	}
	done := func() {}
	if c, ok := be.(io.Closer); ok {
		done = func() { c.Close() }
	}
	return be, done, nil
}

// eval evaluates an expression twice (cold, then warm) and prints the
// result's head and the times.
func eval(args []string, stdout, stderr io.Writer) error {
	f := newExprFlags("eval", stderr)
	e, err := f.parse(args)
	if err != nil {
		return err
	}
	be, done, err := openBackend(f.device)
	if err != nil {
		return err
	}
	defer done()
	alloc := memory.NewGoAllocator()
	req := &exec.Request{Outputs: []*graph.Node{e.root}, Bound: map[*graph.Node]*exec.Tensor{}, Alloc: alloc}
	for i, name := range e.names() {
		n := e.inputs[name]
		t, err := randomTensor(alloc, n.DType(), n.Shape(), f.seed+uint64(i))
		if err != nil {
			return err
		}
		defer t.Release()
		req.Bound[n] = t
	}
	var out *exec.Tensor
	var times [2]time.Duration
	for i := range times {
		start := time.Now()
		res, err := be.Eval(context.Background(), req)
		if err != nil {
			return err
		}
		times[i] = time.Since(start)
		if out != nil {
			out.Release()
		}
		out = res[0]
	}
	defer out.Release()
	if hc, ok := be.(exec.HostCopier); ok && out.OnDevice() {
		h, err := hc.ToHost(context.Background(), out, alloc)
		if err != nil {
			return err
		}
		out.Release()
		out = h
	}
	fmt.Fprintf(stdout, "backend: %s\nresult: %v %v\n", be.Name(), out.Shape, out.DType)
	fmt.Fprintf(stdout, "values: %s\n", head(out, 8))
	fmt.Fprintf(stdout, "time: cold %v, warm %v\n", times[0].Round(time.Microsecond), times[1].Round(time.Microsecond))
	return nil
}

// randomTensor fills a tensor with uniform [0, 1) values (scaled to 0..99
// for integers, alternating for bool) from Philox.
func randomTensor(alloc memory.Allocator, d graph.DType, s graph.Shape, seed uint64) (*exec.Tensor, error) {
	t, err := exec.NewTensor(alloc, d, s)
	if err != nil {
		return nil, err
	}
	n := s.Size()
	switch d {
	case graph.Float32:
		v := exec.Elems[float32](t)
		for i := range n {
			v[i] = philox.Float32(seed, uint64(i))
		}
	case graph.Float64:
		v := exec.Elems[float64](t)
		for i := range n {
			v[i] = philox.Float64(seed, uint64(i))
		}
	case graph.Int32:
		v := exec.Elems[int32](t)
		for i := range n {
			v[i] = int32(philox.Float64(seed, uint64(i)) * 100)
		}
	case graph.Int64:
		v := exec.Elems[int64](t)
		for i := range n {
			v[i] = int64(philox.Float64(seed, uint64(i)) * 100)
		}
	case graph.Bool:
		v := exec.Elems[uint8](t)
		for i := range n {
			v[i] = uint8(philox.Words(seed, uint64(i))[0] & 1)
		}
	}
	return t, nil
}

// head formats the first k elements of t in row-major order.
func head(t *exec.Tensor, k int) string {
	n := min(t.Size(), k)
	idx := make([]int, len(t.Shape))
	parts := make([]string, 0, n+1)
	for range n {
		i := t.Index(idx)
		var s string
		switch t.DType {
		case graph.Float32:
			s = fmt.Sprint(exec.Elems[float32](t)[i])
		case graph.Float64:
			s = fmt.Sprint(exec.Elems[float64](t)[i])
		case graph.Int32:
			s = fmt.Sprint(exec.Elems[int32](t)[i])
		case graph.Int64:
			s = fmt.Sprint(exec.Elems[int64](t)[i])
		case graph.Bool:
			s = fmt.Sprint(exec.Elems[uint8](t)[i] != 0)
		}
		parts = append(parts, s)
		for a := len(idx) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < t.Shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	if t.Size() > n {
		parts = append(parts, "...")
	}
	return "[" + strings.Join(parts, " ") + "]"
}
