// Backend: the interface every executor implements, and the evaluation
// request it receives.

package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/graph"
)

// Request asks a backend for the values of Outputs.
type Request struct {
	// Outputs are the nodes to compute.
	Outputs []*graph.Node
	// Bound gives the values of every OpInput leaf under Outputs, and may
	// give values of other nodes already computed (the backend then uses
	// them instead of recomputing). The backend does not release them.
	Bound map[*graph.Node]*Tensor
	// BoundList gives bound values as Bound does, as a list that names
	// each node at most once and no node of Bound, for a backend that
	// implements ListBinder (others read Bound alone). A caller that
	// evaluates small expressions often builds a list for less than a
	// map.
	BoundList []Binding
	// Alloc allocates result and scratch buffers.
	Alloc memory.Allocator
	// Results, when it holds one tensor per output, offers the tensors
	// the results may be written to, so that a caller that evaluates
	// often can reuse them: each is empty (no buffer), and its Shape and
	// Strides may be empty slices whose capacity the backend fills
	// before it allocates. A backend may return these very tensors
	// (the shared runner does) or tensors of its own; either way the
	// caller owns what Eval returns. Backends do not keep Results past
	// Eval; on error they leave each tensor without a buffer.
	Results []*Tensor
	// Buffers, when set and its allocator is Alloc, hands out the arrow
	// buffers a backend allocates on the host for results and scratch,
	// so that a caller that evaluates often reuses their headers (see
	// BufferList): a backend that takes buffers from it releases those
	// that are not in its results before Eval returns, in the calling
	// goroutine or in one Eval waits for. Backends read it from one
	// goroutine at a time and do not keep it past Eval.
	Buffers *BufferList
}

// Binding is one bound value of a Request's BoundList.
type Binding struct {
	Node   *graph.Node
	Tensor *Tensor
}

// BoundValue returns the value r binds to n, in Bound or BoundList; nil
// when it binds none.
func (r *Request) BoundValue(n *graph.Node) *Tensor {
	for i := range r.BoundList {
		if r.BoundList[i].Node == n {
			return r.BoundList[i].Tensor
		}
	}
	return r.Bound[n]
}

// NumBound returns the number of values r binds.
func (r *Request) NumBound() int { return len(r.Bound) + len(r.BoundList) }

// ListBinder is a Backend that reads the bound values of a Request in
// BoundList as well as in Bound (the backends built on exec/runner).
// AcceptsBoundList reports whether it does; a type that embeds a
// ListBinder and reads Bound itself must override it to return false.
type ListBinder interface {
	Backend
	AcceptsBoundList() bool
}

// Backend evaluates expression graphs. Implementations are safe for
// concurrent use.
type Backend interface {
	// Name says which backend this is ("ref", "cpu", "cuda:0").
	Name() string
	// Eval computes req.Outputs in order. The caller owns the returned
	// tensors and must Release each; a result may be a view sharing a
	// buffer with a bound tensor or with another result. On error no
	// tensor is returned and nothing allocated is left behind.
	Eval(ctx context.Context, req *Request) ([]*Tensor, error)
}

// DeviceBuffer is memory owned by a device backend, reference-counted like
// an arrow buffer. Its contents are reached only through the backend.
type DeviceBuffer interface {
	Retain()
	Release()
	// Len is the size in bytes.
	Len() int
	// Device names the device holding the memory, as the backend of that
	// device names itself ("cuda:0").
	Device() string
}

// DeviceCopier is implemented by backends that copy between device
// buffers without a trip through the host (exec/cuda). CopyDevice returns
// a new tensor in this backend's device memory with t's dtype, shape and
// values, owned by the caller; t, a device tensor, is not released. A
// tensor on a device the backend cannot reach is an error naming both
// devices.
type DeviceCopier interface {
	CopyDevice(ctx context.Context, t *Tensor) (*Tensor, error)
}

// HostCopier is implemented by backends whose results may stay in device
// memory (exec/cuda). ToHost returns a host tensor with t's dtype and
// shape, contiguous, allocated from alloc and owned by the caller; t is
// not released. For a host tensor it returns a retained view.
type HostCopier interface {
	ToHost(ctx context.Context, t *Tensor, alloc memory.Allocator) (*Tensor, error)
}

// CacheStats counts the lookups of an executor's plan cache (see
// exec/runner): Hits found a plan, Misses planned one; Len is the number
// of plans cached.
type CacheStats struct {
	Hits, Misses int64
	Len          int
}
