// Everything the PTX emitter writes parses: the golden modules of
// codegen/ptx and codegen, the tiny kernel of every op and type of the
// emitter's tables (accurate and fast math, sm_80 and sm_90), and the
// modules of random graphs. This test fails when the emitter starts
// writing an instruction, type or modifier the simulator does not
// implement; it logs the inventory of opcodes seen.

package ptxsim_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// inventory collects the opcodes of parsed modules.
type inventory map[string]int

func (inv inventory) parse(t *testing.T, what, text string) {
	t.Helper()
	m, err := ptxsim.Parse(text)
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	for _, n := range m.Kernels() {
		k, _ := m.Kernel(n)
		for _, op := range k.Opcodes() {
			inv[op]++
		}
	}
}

func TestEmitterOutputParses(t *testing.T) {
	inv := inventory{}
	files, _ := filepath.Glob("../../codegen/ptx/testdata/*.ptx")
	more, _ := filepath.Glob("../../codegen/testdata/*.ptx")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("found only %d golden modules", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inv.parse(t, f, string(b))
	}
	// The emitter's op tables.
	var fns []*ir.Func
	for _, c := range emitterCases() {
		if fn, _, err := tinyKernel(c); err == nil {
			fns = append(fns, fn)
		}
	}
	for _, fn := range []ir.MathFn{ir.MathExp, ir.MathExp2, ir.MathLog, ir.MathLog2, ir.MathSin, ir.MathCos, ir.MathTan,
		ir.MathTanh, ir.MathSigmoid, ir.MathSqrt, ir.MathRsqrt, ir.MathLog1p, ir.MathExpm1, ir.MathErf} {
		for _, approx := range []bool{false, true} {
			fn, approx := fn, approx
			c := opCase{name: "m_" + fn.String(), args: []ir.Type{ir.F32}, build: func(b *ir.Builder, a []*ir.Value) *ir.Value {
				if approx {
					return b.MathApprox(fn, a[0])
				}
				return b.Math(fn, a[0])
			}}
			if approx {
				c.name += "_approx"
			}
			if k, _, err := tinyKernel(c); err == nil {
				fns = append(fns, k)
			}
		}
	}
	for _, opts := range []ptx.Options{{}, {FastMath: true}, {Arch: ptx.Capability{Major: 9}}, {FastMath: true, Arch: ptx.Capability{Major: 9}}} {
		opts.ExpandMath = mathlib.Expand
		text, err := ptx.EmitModule(fns, opts)
		if err != nil {
			t.Fatal(err)
		}
		inv.parse(t, "op tables", text)
	}
	// Random graphs on both devices, accurate and fast math.
	n := 40
	if testing.Short() {
		n = 10
	}
	for seed := range uint64(n) {
		c := randCase(t, 500+seed, randgraph.Config{MaxExtent: 9, Steps: 10})
		layouts := map[*graph.Node]graph.Layout{}
		for node, x := range c.Bound {
			layouts[node] = x.Layout
		}
		for _, tg := range []codegen.Target{codegen.SmallGPU(), codegen.H100()} {
			p, err := fuse.Build(c.Outputs, layouts)
			if err != nil || len(p.Kernels) == 0 {
				continue
			}
			for _, fast := range []bool{false, true} {
				m, err := codegen.Compile(p, tg, codegen.Options{FastMath: fast})
				if err != nil {
					t.Fatal(err)
				}
				inv.parse(t, "random graph", m.PTX)
			}
		}
		c.Release()
	}
	ops := make([]string, 0, len(inv))
	for op := range inv {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	t.Logf("%d distinct opcodes: %v", len(ops), ops)
}
