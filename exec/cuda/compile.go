// The default code generator: codegen.Compile for the device's compute
// capability and the driver's CUDA version, its Module converted to the
// executor's.

package cuda

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/fuse"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// codegenKinds maps codegen's parameter kinds to the executor's.
var codegenKinds = map[codegen.ParamKind]ParamKind{
	codegen.ParamBuffer: ParamBuffer,
	codegen.ParamPass:   ParamPass,
}

// defaultCompile returns the CompileFunc for a driver of version v
// (1000*major + 10*minor): PTX for the target's architecture with the
// newest ISA the driver's JIT accepts (or isa when it is not zero),
// accurate math unless fast.
func defaultCompile(v int, fast bool, isa ptx.Version) CompileFunc {
	opts := codegen.Options{CUDA: ptx.Version{Major: v / 1000, Minor: v % 1000 / 10}, PTX: isa, FastMath: fast}
	return func(p *fuse.Plan, t fuse.Target) (*Module, error) {
		cm, err := codegen.Compile(p, t, opts)
		if err != nil {
			return nil, err
		}
		m := &Module{PTX: cm.PTX, Kernels: make([]Signature, len(cm.Kernels))}
		for i, s := range cm.Kernels {
			sig := Signature{Entry: s.Entry}
			for _, prm := range s.Params {
				k, ok := codegenKinds[prm.Kind]
				if !ok {
					return nil, fmt.Errorf("cuda: kernel %s: parameter %s has kind %v, which the executor cannot pass", s.Entry, prm.Name, prm.Kind)
				}
				sig.Params = append(sig.Params, Param{Kind: k, Name: prm.Name, Buffer: prm.Buffer})
			}
			for _, l := range s.Launches {
				sig.Launches = append(sig.Launches, Launch{Grid: l.Grid, Block: l.Block, Pass: l.Pass})
			}
			m.Kernels[i] = sig
		}
		return m, nil
	}
}

// loadHint describes what a module declares for a message about a failed
// load: "PTX ISA 9.0, sm_90", and for the errors of a JIT that rejects the
// code, how to force another ISA.
func loadHint(text string, err error) string {
	var isa, target string
	for _, line := range strings.SplitN(text, "\n", 64) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == ".version" {
			isa = f[1]
		}
		if len(f) >= 2 && f[0] == ".target" {
			target = strings.TrimSuffix(f[1], ",")
		}
	}
	h := fmt.Sprintf("PTX ISA %s, %s", isa, target)
	if isa == "" || target == "" {
		h = "no .version or .target line"
	}
	for _, code := range jitRejects {
		if drv.IsResult(err, code) {
			return h + "; " + PTXISAEnv + "=major.minor forces another ISA"
		}
	}
	return h
}

// jitRejects are the load errors of a JIT that rejects the module's text.
var jitRejects = []drv.Result{drv.ResultInvalidPTX, drv.ResultUnsupportedPTXVersion, drv.ResultInvalidImage, drv.ResultNoBinaryForGPU}
