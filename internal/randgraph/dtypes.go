// The dtypes random graphs draw their inputs and casts from.

package randgraph

import "github.com/fuseflow/fuseflow/graph"

// baseDTypes are the dtypes of generated inputs and casts by default.
var baseDTypes = []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64}

// allDTypes are those of Config.AllDTypes: every dtype, the base ones
// twice as likely as each other one; signedDTypes leaves out the unsigned
// ones (Config.NoUnsigned).
var (
	allDTypes = func() []graph.DType {
		d := append(append([]graph.DType(nil), baseDTypes...), baseDTypes...)
		return append(d, graph.Int8, graph.Int16, graph.Float16, graph.BFloat16,
			graph.Uint8, graph.Uint16, graph.Uint32, graph.Uint64)
	}()
	signedDTypes = allDTypes[:len(allDTypes)-4]
)
