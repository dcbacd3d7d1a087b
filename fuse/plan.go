// Plan: the planner's result as plain data — input slots, buffers,
// kernels in execution order and the requested outputs.

package fuse

import (
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/enum"
)

// BufferKind says where a buffer comes from and who owns it.
type BufferKind uint8

// The buffer kinds.
const (
	// BufInput is the buffer of a bound value: the caller provides it for
	// input slot Buffer.Slot. Kernels only read it.
	BufInput BufferKind = iota + 1
	// BufTemp is an intermediate the executor allocates before
	// Buffer.First and may release (or return to a pool) after
	// Buffer.Last. Several values with disjoint lifetimes share one temp
	// buffer (see Buffer).
	BufTemp
	// BufResult holds at least one requested output (or the base of an
	// output returned as a view). The executor allocates it and hands it
	// to the caller through the outputs; it is never reused for anything
	// else and lives to the end of the plan.
	BufResult
)

var bufferKindNames = [...]string{BufInput: "input", BufTemp: "temp", BufResult: "result"}

// String returns "input", "temp" or "result".
func (k BufferKind) String() string {
	return enum.Name(bufferKindNames[:], k, "buffer?")
}

// Buffer is one memory area the plan reads or writes. Buffers are
// numbered by their index in Plan.Buffers; Operand.Buffer and
// Store.Buffer refer to them.
//
// A temp buffer may hold several values of different dtypes over its life,
// all of element size ElemSize; operand and store layouts index it in
// elements of their own dtype, so the executor needs only Bytes.
type Buffer struct {
	Kind BufferKind
	// Slot is the input slot (index into Plan.Inputs) of a BufInput, and
	// -1 otherwise.
	Slot int
	// ElemSize is the size in bytes of the elements stored in it.
	ElemSize int
	// Elems is the number of elements it must hold (for an input: the
	// extent of the bound view, from its lowest to its highest element,
	// counted from element 0 of the buffer; 0 for an empty view).
	Elems int
	// Bytes is Elems*ElemSize, the size to allocate (temps and results).
	Bytes int64
	// First and Last are the indices in Plan.Kernels of the first kernel
	// that touches the buffer and of the last one; -1 when none does (an
	// input returned only as a view). A temp is dead after Last.
	First, Last int
	// Values names the values held over the buffer's life, for Explain
	// ("t3 = Exp (4096, 4096) float32").
	Values []string
}

// Input is one input slot of a plan: a bound value (an OpInput leaf or an
// already computed node) the caller passes in the canonical order that Key
// returns. Layout is the layout the plan was built for; a cached plan is
// only reused for values of the same layouts.
type Input struct {
	Layout graph.Layout
	// Buffer is the index in Plan.Buffers of the slot's buffer.
	Buffer int
	// Label is the Input leaf's label, or the op of a bound computed node.
	Label string
}

// Output is one requested output, in the order of the outputs given to
// Plan. Its value is the view Layout of Plan.Buffers[Buffer].
type Output struct {
	Buffer int
	Layout graph.Layout
	// View is true when the output shares its buffer with an input, with
	// another output, or is a non-contiguous view of its buffer (Permute,
	// Slice, BroadcastTo of a materialized value): the executor returns a
	// view of that buffer rather than a fresh dense array. When false the
	// output owns its BufResult buffer alone and Layout is contiguous at
	// offset 0.
	View bool
}

// Plan is the schedule of an expression: the kernels that compute the
// requested outputs from the bound inputs, and the buffers they use. It is
// plain data, immutable once returned, safe for concurrent use, and holds
// no reference to the graph it was built from, so a cached plan serves any
// structurally identical graph (see Key).
//
// To run a plan an executor binds input slot i to the value of the i-th
// node returned by Key (its layout equals Inputs[i].Layout), allocates the
// temp and result buffers, runs Kernels in order (a kernel may start when
// the previous one has finished; kernels never read what a later kernel
// writes), and returns, for each Output, the view Output.Layout of its
// buffer.
type Plan struct {
	Inputs  []Input
	Buffers []Buffer
	Kernels []Kernel
	Outputs []Output
	// Bytes is the total of BytesRead+BytesWritten over the kernels; the
	// planner guarantees Bytes <= UnfusedBytes.
	Bytes int64
	// UnfusedBytes is what the same graph moves when every op except the
	// views is its own kernel reading its operands and writing its result.
	UnfusedBytes int64
	// Nodes is the number of graph nodes the plan covers.
	Nodes int
}
