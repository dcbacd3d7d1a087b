// Programs: a plan compiled to PTX, its module loaded and every kernel's
// function and argument layout resolved, built once per cached plan so
// that a warm evaluation generates and loads nothing.

package cuda

import (
	"fmt"
	"sync"
	"time"

	"github.com/fuseflow/fuseflow/fuse"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// CompileFunc generates the PTX module of a plan for a GPU target, with a
// Signature per plan kernel.
type CompileFunc func(p *fuse.Plan, t fuse.Target) (*Module, error)

// Module is a plan's generated code: one PTX module with an entry per
// plan kernel; Kernels[i] launches Plan.Kernels[i]. It is the executor's
// view of codegen.Module.
type Module struct {
	PTX     string
	Kernels []Signature
}

// Signature says how to launch the code of one plan kernel: the entry,
// its parameters in order and the launches to make, in order, on one
// stream. Shared memory is static, declared in the PTX.
type Signature struct {
	Entry    string
	Params   []Param
	Launches []Launch
}

// ParamKind says what the executor passes for a parameter.
type ParamKind uint8

// The parameter kinds.
const (
	// ParamBuffer is the 64-bit device address of element 0 of
	// Plan.Buffers[Param.Buffer] (16-byte aligned).
	ParamBuffer ParamKind = iota + 1
	// ParamPass is an int32: the Pass of the launch being made.
	ParamPass
)

// Param is one kernel parameter.
type Param struct {
	Kind   ParamKind
	Name   string
	Buffer int
}

// Launch is one launch of a kernel: a 1-D grid of Grid blocks of Block
// threads, passing Pass to a ParamPass parameter.
type Launch struct {
	Grid, Block int
	Pass        int32
}

// program is a plan ready to launch.
type program struct {
	plan    *fuse.Plan
	mod     *loadedModule
	kernels []progKernel
	// gen is the host time spent generating PTX; load the time spent
	// loading the module (the driver's JIT, zero when it was cached).
	gen, load time.Duration
}

// progKernel is one plan kernel's function and launches.
type progKernel struct {
	k     *fuse.Kernel
	sig   Signature
	fn    drv.Function
	kinds []drv.ArgKind
	// args holds *drv.Args for this signature, reused across launches.
	args sync.Pool
}

// getArgs returns an Args for the kernel's signature from its pool.
func (pk *progKernel) getArgs() *drv.Args {
	if a, ok := pk.args.Get().(*drv.Args); ok {
		return a
	}
	return drv.NewArgs(pk.kinds...)
}

// paramKinds maps codegen's parameter kinds to driver argument kinds.
var paramKinds = map[ParamKind]drv.ArgKind{
	ParamBuffer: drv.ArgPtr,
	ParamPass:   drv.ArgI32,
}

// progEntry is a program being built or built; ready is closed when p or
// err is set.
type progEntry struct {
	ready chan struct{}
	p     *program
	err   error
}

// program returns the program of plan p, compiling and loading it on the
// first call for p (concurrent callers wait for that one).
func (b *Backend) program(p *fuse.Plan) (*program, error) {
	b.progMu.Lock()
	if e, ok := b.progs[p]; ok {
		b.progMu.Unlock()
		<-e.ready
		return e.p, e.err
	}
	if len(b.progs) >= maxPrograms {
		// Plans fall out of the plan cache; forget theirs wholesale
		// (modules stay in the module cache).
		clear(b.progs)
	}
	e := &progEntry{ready: make(chan struct{})}
	b.progs[p] = e
	b.progMu.Unlock()

	e.p, e.err = b.buildProgram(p)
	if e.err != nil {
		b.progMu.Lock()
		delete(b.progs, p)
		b.progMu.Unlock()
	}
	close(e.ready)
	return e.p, e.err
}

// maxPrograms bounds the programs kept per backend.
const maxPrograms = 1024

// buildProgram compiles p, loads its module and resolves its kernels.
func (b *Backend) buildProgram(p *fuse.Plan) (*program, error) {
	pr := &program{plan: p}
	if len(p.Kernels) == 0 {
		return pr, nil
	}
	start := time.Now()
	m, err := b.compile(p, b.target)
	pr.gen = time.Since(start)
	b.compiles.Add(1)
	b.genNanos.Add(int64(pr.gen))
	if err != nil {
		return nil, fmt.Errorf("cuda: generating code for a plan of %d kernels: %w", len(p.Kernels), err)
	}
	if len(m.Kernels) != len(p.Kernels) {
		return nil, fmt.Errorf("cuda: code generator returned %d kernels for a plan of %d", len(m.Kernels), len(p.Kernels))
	}
	lm, loaded, err := b.modules.get(m.PTX)
	if err != nil {
		return nil, fmt.Errorf("cuda: loading the module of kernels %s: %w", kernelNames(p), err)
	}
	if loaded {
		pr.load = lm.load
		b.loadNanos.Add(int64(lm.load))
	}
	pr.mod = lm
	pr.kernels = make([]progKernel, len(p.Kernels))
	for i := range p.Kernels {
		pk := &pr.kernels[i]
		pk.k = &p.Kernels[i]
		pk.sig = m.Kernels[i]
		if len(pk.sig.Launches) == 0 {
			return nil, fmt.Errorf("cuda: kernel %s (%s) has no launches", pk.k.Name, pk.sig.Entry)
		}
		for _, prm := range pk.sig.Params {
			kind, ok := paramKinds[prm.Kind]
			if !ok {
				return nil, fmt.Errorf("cuda: kernel %s: parameter %s has kind %d, which the executor cannot pass", pk.sig.Entry, prm.Name, prm.Kind)
			}
			if prm.Kind == ParamBuffer && (prm.Buffer < 0 || prm.Buffer >= len(p.Buffers)) {
				return nil, fmt.Errorf("cuda: kernel %s: parameter %s names buffer %d of %d", pk.sig.Entry, prm.Name, prm.Buffer, len(p.Buffers))
			}
			pk.kinds = append(pk.kinds, kind)
		}
		if pk.fn, err = b.ctx.ModuleFunction(lm.mod, pk.sig.Entry); err != nil {
			return nil, fmt.Errorf("cuda: kernel %s: %w", pk.k.Name, err)
		}
	}
	return pr, nil
}

// kernelNames lists a plan's kernel names for messages.
func kernelNames(p *fuse.Plan) string {
	s := ""
	for i := range p.Kernels {
		if i > 0 {
			s += ", "
		}
		s += p.Kernels[i].Name
	}
	return s
}
