// Programs: a plan compiled to PTX, its module loaded and every kernel's
// function and argument layout resolved, built once per plan the runner
// caches so that a warm evaluation generates and loads nothing.

package cuda

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// CompileFunc generates the PTX module of a plan for a GPU target, with a
// Signature per plan kernel.
type CompileFunc func(p *fuse.Plan, t codegen.Target) (*codegen.Module, error)

// program is a plan ready to launch.
type program struct {
	plan    *fuse.Plan
	mod     *loadedModule // nil for a plan without kernels
	ptx     string        // the module's text, for fault reports
	kernels []progKernel
	// gen is the host time spent generating PTX; load the time spent
	// loading the module (the driver's JIT, zero when it was cached).
	gen, load time.Duration
	b         *Backend
}

// progKernel is one plan kernel's function and launches.
type progKernel struct {
	k     *fuse.Kernel
	sig   codegen.Signature
	fn    drv.Function
	kinds []drv.ArgKind
	// call is set for a Call kernel, which runs an explicit kernel's own
	// function instead (sig and fn are then empty).
	call *planCall
	// args holds *drv.Args for this signature, reused across launches.
	args sync.Pool
}

// getArgs returns an Args for the kernel's signature from its pool.
func (pk *progKernel) getArgs() *drv.Args {
	if a, ok := pk.args.Get().(*drv.Args); ok {
		return a
	}
	a := drv.NewArgs(pk.kinds...)
	for i := range pk.sig.Params {
		if p := &pk.sig.Params[i]; p.Kind == codegen.ParamScalar {
			setScalar(a, i, p.Value)
		}
	}
	return a
}

// argKind returns the driver argument kind of a parameter, or false when
// the executor cannot pass it.
func argKind(p *codegen.Param) (drv.ArgKind, bool) {
	switch p.Kind {
	case codegen.ParamBuffer, codegen.ParamScratch:
		return drv.ArgPtr, true
	case codegen.ParamPass:
		return drv.ArgI32, true
	case codegen.ParamScalar:
		k, ok := scalarKinds[p.Value.DType]
		return k, ok
	}
	return 0, false
}

// scalarKinds maps the dtype of a scalar parameter to its argument kind.
var scalarKinds = map[graph.DType]drv.ArgKind{
	graph.Bool: drv.ArgU32, graph.Int32: drv.ArgI32, graph.Int64: drv.ArgI64,
	graph.Float32: drv.ArgF32, graph.Float64: drv.ArgF64,
}

// setScalar sets argument i of a to the scalar v (a bool as 0 or 1).
func setScalar(a *drv.Args, i int, v graph.Scalar) {
	switch v.DType {
	case graph.Bool:
		a.SetU32(i, uint32(min(max(v.I, 0), 1)))
	case graph.Int32:
		a.SetI32(i, int32(v.I))
	case graph.Int64:
		a.SetI64(i, v.I)
	case graph.Float32:
		a.SetF32(i, float32(v.F))
	case graph.Float64:
		a.SetF64(i, v.F)
	}
}

// Release gives back the program's module.
func (pr *program) Release() {
	if pr.mod != nil {
		pr.b.modules.put(pr.mod)
	}
}

// buildProgram compiles p, loads its module and resolves its kernels.
func (b *Backend) buildProgram(p *fuse.Plan) (*program, error) {
	pr := &program{plan: p, b: b}
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
	var lm *loadedModule
	if m.PTX != "" {
		var loaded bool
		lm, loaded, err = b.modules.get(m.PTX)
		if err != nil {
			return nil, fmt.Errorf("cuda: loading the module of kernels %s (%s): %w", kernelNames(p), loadHint(m.PTX, err), err)
		}
		if loaded {
			pr.load = lm.load
			b.loadNanos.Add(int64(lm.load))
		}
		pr.mod, pr.ptx = lm, m.PTX
	}
	ok := false
	defer func() {
		if !ok && lm != nil {
			b.modules.put(lm)
		}
	}()
	pr.kernels = make([]progKernel, len(p.Kernels))
	for i := range p.Kernels {
		pk := &pr.kernels[i]
		pk.k = &p.Kernels[i]
		if pk.k.Kind() == fuse.KindCall {
			if pk.call, err = b.KernelDevice().(*kernelDevice).prepareCall(pk.k); err != nil {
				return nil, fmt.Errorf("cuda: kernel %s: %w", pk.k.Name, err)
			}
			continue
		}
		if lm == nil {
			return nil, fmt.Errorf("cuda: code generator returned no module for kernel %s", pk.k.Name)
		}
		pk.sig = m.Kernels[i]
		if len(pk.sig.Launches) == 0 {
			return nil, fmt.Errorf("cuda: kernel %s (%s) has no launches", pk.k.Name, pk.sig.Entry)
		}
		for j := range pk.sig.Params {
			prm := &pk.sig.Params[j]
			kind, ok := argKind(prm)
			if !ok {
				return nil, fmt.Errorf("cuda: kernel %s: parameter %s has kind %v (%v), which the executor cannot pass", pk.sig.Entry, prm.Name, prm.Kind, prm.Value.DType)
			}
			if prm.Kind == codegen.ParamBuffer && (prm.Buffer < 0 || prm.Buffer >= len(p.Buffers)) {
				return nil, fmt.Errorf("cuda: kernel %s: parameter %s names buffer %d of %d", pk.sig.Entry, prm.Name, prm.Buffer, len(p.Buffers))
			}
			if prm.Kind == codegen.ParamScratch && (prm.Buffer < 0 || prm.Buffer >= len(pk.sig.Scratch)) {
				return nil, fmt.Errorf("cuda: kernel %s: parameter %s names scratch area %d of %d", pk.sig.Entry, prm.Name, prm.Buffer, len(pk.sig.Scratch))
			}
			pk.kinds = append(pk.kinds, kind)
		}
		for li, l := range pk.sig.Launches {
			if min(l.Grid.X, l.Grid.Y, l.Grid.Z, l.Block.X, l.Block.Y, l.Block.Z) < 1 || l.SharedBytes < 0 {
				return nil, fmt.Errorf("cuda: kernel %s (%s): launch %d of grid %v, block %v, %d bytes of dynamic shared memory",
					pk.k.Name, pk.sig.Entry, li+1, l.Grid, l.Block, l.SharedBytes)
			}
		}
		if pk.fn, err = b.ctx.ModuleFunction(lm.mod, pk.sig.Entry); err != nil {
			return nil, fmt.Errorf("cuda: kernel %s: %w", pk.k.Name, err)
		}
	}
	ok = true
	return pr, nil
}

// describe lists the program's kernels for messages, each with its
// entry: "map_exp (entry k0_map_exp), reduce (entry k1_reduce)".
func (pr *program) describe() string {
	var sb strings.Builder
	for i := range pr.kernels {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s (entry %s)", pr.kernels[i].k.Name, pr.kernels[i].sig.Entry)
	}
	return sb.String()
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
