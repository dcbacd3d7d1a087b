// Options: what a target tells the planner about itself. The plan stays
// the target's business only through these numbers; without them
// (Build) the planner counts bytes alone.

package fuse

// Options are a target's planning parameters. The zero value counts
// bytes alone, the right model where arithmetic is nearly free beside
// memory traffic (GPUs).
type Options struct {
	// BytesPerCost is what computing one unit of op cost (see opCost)
	// for a 4-byte element costs the target, in bytes of memory traffic:
	// the exchange rate of the recompute-or-store rule (decide.go). On a
	// CPU with AVX2 a float32 exp(x - m), cost 5, takes about the time
	// of streaming 10 bytes, so row softmax runs faster storing
	// exp(x - max) once than computing it for the sum and again for the
	// division: CPUOptions gives 2.
	BytesPerCost int
}

// CPUOptions returns the options of a CPU target.
func CPUOptions() Options { return Options{BytesPerCost: 2} }
