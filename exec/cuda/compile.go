// The default code generator: codegen.Compile for the device's compute
// capability and the driver's CUDA version.

package cuda

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/fuse"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// defaultCompile returns the CompileFunc for a driver of version v
// (1000*major + 10*minor): PTX for the target's architecture with the
// newest ISA the driver's JIT accepts (or isa when it is not zero),
// accurate math unless fast.
func defaultCompile(v int, fast bool, isa ptx.Version) CompileFunc {
	opts := codegen.Options{CUDA: ptx.Version{Major: v / 1000, Minor: v % 1000 / 10}, PTX: isa, FastMath: fast}
	return func(p *fuse.Plan, t codegen.Target) (*codegen.Module, error) {
		return codegen.Compile(p, t, opts)
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
