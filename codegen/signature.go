// Signature and Module: what the executor needs to launch generated
// kernels — the parameters of each entry (which plan buffer each pointer
// is), the launches with their geometry, and the PTX module text.

package codegen

// ParamKind says what the executor passes for one kernel parameter.
type ParamKind uint8

// The parameter kinds.
const (
	// ParamBuffer is a 64-bit device pointer to the start of
	// Plan.Buffers[Param.Buffer]. The pointer must be aligned to 16 bytes
	// (device allocations are): vector loads and stores rely on it.
	ParamBuffer ParamKind = iota + 1
	// ParamPass is an int32: the Pass of the launch being made (0 for the
	// first launch of a kernel, 1 for the second).
	ParamPass
)

var paramKindNames = [...]string{ParamBuffer: "buffer", ParamPass: "pass"}

// String returns "buffer" or "pass".
func (k ParamKind) String() string {
	if int(k) < len(paramKindNames) && paramKindNames[k] != "" {
		return paramKindNames[k]
	}
	return "param?"
}

// Param is one parameter of a generated kernel, in .entry order.
type Param struct {
	Kind ParamKind
	// Name is the parameter's name in the PTX (for messages).
	Name string
	// Buffer is the index in Plan.Buffers of a ParamBuffer.
	Buffer int
	// ReadOnly is true when the kernel never writes the buffer.
	ReadOnly bool
}

// Launch is one launch of a kernel: a 1-D grid of Grid blocks of Block
// threads, with Pass passed for a ParamPass parameter. The kernels'
// shared memory is static (declared in the PTX), so no dynamic shared
// memory is needed.
type Launch struct {
	Grid, Block int
	Pass        int32
}

// Signature tells an executor how to launch the kernel generated for one
// fuse.Kernel: the entry name, the parameters to pack in order, and the
// launches to make in order on one stream (two for a reduction that
// combines per-block partials in a second pass; a launch may start only
// when the previous one has finished, as stream order guarantees).
// Sizes, strides and offsets are compiled into the code as constants.
type Signature struct {
	Entry    string
	Params   []Param
	Launches []Launch
	// SharedBytes is the static shared memory a block uses.
	SharedBytes int
}

// Module is the compiled form of a plan: one PTX module holding an entry
// per plan kernel. Kernels[i] launches Plan.Kernels[i].
type Module struct {
	PTX     string
	Kernels []Signature
}
