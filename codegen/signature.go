// The launch descriptor that code generation and the CUDA executor share:
// Signature (the entry, its parameters in order, the scratch memory it
// needs and its launches), Launch (3-D grid and block, dynamic shared
// memory), Param (a plan buffer, a scratch area, a scalar or the pass
// number), and Module, the PTX of a plan with a Signature per kernel.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/enum"
)

// Dim3 is the extent of a grid (in blocks) or of a block (in threads)
// along x, y and z. Every component of a launch is at least 1.
type Dim3 struct {
	X, Y, Z int
}

// D1 returns the 1-D extent n: Dim3{n, 1, 1}.
func D1(n int) Dim3 { return Dim3{X: n, Y: 1, Z: 1} }

// Count returns X*Y*Z.
func (d Dim3) Count() int { return d.X * d.Y * d.Z }

// Array returns {X, Y, Z}, as ir.Config and ptxsim.Config take it.
func (d Dim3) Array() [3]int { return [3]int{d.X, d.Y, d.Z} }

// String returns "256" for a 1-D extent and "(32,8,1)" otherwise.
func (d Dim3) String() string {
	if d.Y == 1 && d.Z == 1 {
		return fmt.Sprint(d.X)
	}
	return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z)
}

// ParamKind says what the executor passes for one kernel parameter.
type ParamKind uint8

// The parameter kinds.
const (
	// ParamBuffer is a 64-bit device pointer to element 0 of
	// Plan.Buffers[Param.Buffer]. The pointer must be aligned to 16 bytes
	// (device allocations are): vector loads and stores rely on it.
	ParamBuffer ParamKind = iota + 1
	// ParamPass is an int32: the Pass of the launch being made (0 for the
	// first launch of a kernel, 1 for the second).
	ParamPass
	// ParamScratch is a 64-bit device pointer to the scratch area
	// Signature.Scratch[Param.Buffer], which the executor allocates for
	// the kernel's launches (16-byte aligned) and may reuse after them.
	ParamScratch
	// ParamScalar is the constant Param.Value, passed by value: an int32,
	// int64, float32 or float64 of its dtype, a bool as a 32-bit 0 or 1.
	// Unsigned values travel as the signed dtype of their size (the same
	// bits).
	ParamScalar
)

var paramKindNames = [...]string{ParamBuffer: "buffer", ParamPass: "pass", ParamScratch: "scratch", ParamScalar: "scalar"}

// String returns "buffer", "pass", "scratch" or "scalar".
func (k ParamKind) String() string {
	return enum.Name(paramKindNames[:], k, "param?")
}

// Param is one parameter of a kernel entry, in .entry order.
type Param struct {
	Kind ParamKind
	// Name is the parameter's name in the PTX (for messages).
	Name string
	// Buffer is the index in Plan.Buffers of a ParamBuffer, the index in
	// Signature.Scratch of a ParamScratch, and -1 otherwise.
	Buffer int
	// ReadOnly is true when the kernel never writes the memory a
	// ParamBuffer or ParamScratch points to.
	ReadOnly bool
	// Value is the value of a ParamScalar.
	Value graph.Scalar
}

// Launch is one launch of a kernel: Grid blocks of Block threads (each
// 3-D), SharedBytes of dynamic shared memory per block (beyond the static
// shared memory the PTX declares), and Pass passed for a ParamPass
// parameter.
type Launch struct {
	Grid, Block Dim3
	SharedBytes int
	Pass        int32
}

// String describes the launch: "grid 1056 block 256", with the dynamic
// shared memory and the pass when they are not zero.
func (l Launch) String() string {
	s := fmt.Sprintf("grid %v block %v", l.Grid, l.Block)
	if l.SharedBytes > 0 {
		s += fmt.Sprintf(" shared %d", l.SharedBytes)
	}
	if l.Pass != 0 {
		s += fmt.Sprintf(" pass %d", l.Pass)
	}
	return s
}

// Scratch is device memory a kernel needs during its launches only, such
// as the per-block partials of a reduction: the executor allocates Bytes
// (cleared to zero first when Zero is set) before the first launch and
// may reuse it once the last has finished. It is no plan buffer.
type Scratch struct {
	Bytes int64
	Zero  bool
}

// Signature tells an executor how to launch the code of one plan kernel:
// the entry name, the parameters to pack in order, the scratch areas to
// allocate and the launches to make in order on one stream (two for a
// reduction that combines per-block partials in a second pass; a launch
// may start only when the previous one has finished, as stream order
// guarantees). Sizes, strides and offsets of generated kernels are
// compiled into the code as constants.
type Signature struct {
	Entry    string
	Params   []Param
	Scratch  []Scratch
	Launches []Launch
	// SharedBytes is the static shared memory a block uses.
	SharedBytes int
	// Check, for an Index kernel, says where it reports an index out of
	// range; the executor must read it after the launches.
	Check *IndexCheck
	// Checks are those of the gathers fused into a Map or Reduce kernel,
	// in body order: after the launches, the first that names a bad
	// position is the kernel's error.
	Checks []IndexCheck
}

// IndexChecks returns every check of the kernel (Check, then Checks),
// in the order an executor reads them.
func (s *Signature) IndexChecks() []*IndexCheck {
	var out []*IndexCheck
	if s.Check != nil {
		out = append(out, s.Check)
	}
	for i := range s.Checks {
		out = append(out, &s.Checks[i])
	}
	return out
}

// Module is the compiled form of a plan: one PTX module holding an entry
// per plan kernel. Kernels[i] launches Plan.Kernels[i].
type Module struct {
	PTX     string
	Kernels []Signature
}
