// Compile: every kernel of a plan lowered, math expanded by the math
// library (unless fast math), and emitted as one PTX module with the
// signature and launches of each kernel.

package codegen

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/fuse"
)

// Options control Compile. The zero Options generate accurate math for
// the target's compute capability with the PTX ISA of CUDA 11.8.
type Options struct {
	// FastMath uses PTX approximations for float32 math and division
	// (see ptx.Options.FastMath); float64 math stays accurate.
	FastMath bool
	// CUDA is the CUDA release of the driver that will load the module;
	// it chooses the PTX .version. Zero means ptx.DefaultCUDA (11.8).
	CUDA ptx.Version
	// PTX, when set, is the PTX ISA .version to write instead of the
	// newest one CUDA accepts (see ptx.Options.PTX).
	PTX ptx.Version
	// Debug writes each IR instruction as a comment in the PTX.
	Debug bool
}

// maxNameLen bounds entry names (the kernel index keeps them distinct).
const maxNameLen = 64

// entryName returns the PTX entry name of kernel i ("k_..." for i < 0).
func entryName(i int, name string) string {
	var sb strings.Builder
	sb.WriteByte('k')
	if i >= 0 {
		fmt.Fprintf(&sb, "%d", i)
	}
	if name != "" {
		sb.WriteByte('_')
		for _, c := range name {
			ok := c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !ok {
				c = '_'
			}
			sb.WriteRune(c)
		}
	}
	s := sb.String()
	if len(s) > maxNameLen {
		s = s[:maxNameLen]
	}
	return s
}

// PTXOptions returns the emitter options Compile uses for target t.
func PTXOptions(t Target, opts Options) ptx.Options {
	po := ptx.Options{FastMath: opts.FastMath, CUDA: opts.CUDA, PTX: opts.PTX, Debug: opts.Debug, ExpandMath: mathlib.Expand}
	if t.ComputeMajor > 0 {
		po.Arch = ptx.Capability{Major: t.ComputeMajor, Minor: t.ComputeMinor}
	}
	return po
}

// Compile lowers every kernel of p for target t (see Lower) and emits
// them as one PTX module, kernel i under the entry Module.Kernels[i].Entry
// ("k3_map_exp_mul"). Accurate math calls are expanded by the math
// library. A Call kernel runs an explicit kernel with PTX of its own: it
// gets an empty Signature (no Entry) and nothing in the module. It
// returns the first error naming its kernel: a geometry outside t's
// limits, or a PTX emission failure. The result is the caller's; safe
// for concurrent use.
func Compile(p *fuse.Plan, t Target, opts Options) (*Module, error) {
	if p == nil {
		return nil, fmt.Errorf("codegen: nil plan")
	}
	if len(p.Kernels) == 0 {
		return &Module{}, nil
	}
	fns := make([]*ir.Func, 0, len(p.Kernels))
	m := &Module{Kernels: make([]Signature, len(p.Kernels))}
	for i := range p.Kernels {
		k := &p.Kernels[i]
		if k.Kind() == fuse.KindCall {
			continue
		}
		fn, sig, err := Lower(k, t)
		if err != nil {
			return nil, fmt.Errorf("codegen: plan kernel %d: %w", i, err)
		}
		fn.Name = entryName(i, k.Name)
		sig.Entry = fn.Name
		fns = append(fns, fn)
		m.Kernels[i] = *sig
	}
	if len(fns) == 0 {
		return m, nil
	}
	text, err := ptx.EmitModule(fns, PTXOptions(t, opts))
	if err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	m.PTX = text
	return m, nil
}
