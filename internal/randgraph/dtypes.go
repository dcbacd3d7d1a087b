// The dtypes random graphs draw their inputs and casts from.

package randgraph

import "github.com/fuseflow/fuseflow/graph"

// genDTypes are the dtypes of generated inputs and casts.
var genDTypes = []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64}
