// The default code generator: codegen.Compile for the device's compute
// capability and the driver's CUDA version, its Module converted to the
// executor's.

package cuda

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/fuse"
)

// codegenKinds maps codegen's parameter kinds to the executor's.
var codegenKinds = map[codegen.ParamKind]ParamKind{
	codegen.ParamBuffer: ParamBuffer,
	codegen.ParamPass:   ParamPass,
}

// defaultCompile returns the CompileFunc for a driver of version v
// (1000*major + 10*minor): PTX for the target's architecture with the
// newest ISA the driver's JIT accepts, accurate math. FUSEFLOW_FASTMATH=1
// turns on fast math.
func defaultCompile(v int, fast bool) CompileFunc {
	opts := codegen.Options{CUDA: ptx.Version{Major: v / 1000, Minor: v % 1000 / 10}, FastMath: fast}
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
