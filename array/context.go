// Context: which backend evaluates arrays, which allocator their host
// buffers come from, and the registry of evaluated results.

package array

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Context says which backend evaluates its arrays and which allocator
// their host buffers come from, within which memory limits. It also keeps
// the results of evaluated arrays, so that work is never repeated: an
// expression that reads a node some live array of the Context has already
// computed reuses that result. Arrays of two Contexts cannot be combined.
// A Context is safe for concurrent use.
//
// Contexts come from NewContext, MustContext and Default. A nil *Context
// or a zero Context (&Context{}) cannot evaluate: its methods do not
// panic, arrays built on it carry an error saying to make one with
// NewContext, and Err returns that error.
type Context struct {
	backend  exec.Backend
	alloc    memory.Allocator
	limited  *exec.LimitedAllocator // alloc within the Context's limits, counting live bytes
	maxAlloc int64                  // the largest single allocation; 0 for exec.DefaultMemoryLimit
	memLimit int64                  // the most host bytes live at once; 0 for exec.DefaultMemoryLimit
	name     string
	err      error // set for a Context that cannot evaluate (Default with an unknown device)
	list     bool  // the backend reads bound values from a list (exec.ListBinder)

	scratch atomic.Pointer[evalScratch] // kept for the next evaluation (eval.go)
	memo    memo                        // recent node builds (memo.go)

	mu      sync.Mutex
	results map[*graph.Node]*entry
	spare   []*entry // freed entries to reuse (entries.go)
	young   []*Array // holding a result, without a finalizer yet (lifetime.go)
	armed   bool     // the next collection finalizes the young

	// headers are result buffer headers to reuse, released (entries.go).
	headers []*memory.Buffer
}

// entry is one evaluated node: its tensor (on the host, or in device
// memory for device backends), the host copy made of a device tensor
// when a result was first read, the copy in progress, and how many arrays
// hold it. Guarded by the Context's mutex, which is never held while a
// copy runs. Entries are reused once freed (see entries.go): nothing
// outside the mutex may keep a pointer to one or to its tensor.
type entry struct {
	node    *graph.Node
	t       *exec.Tensor
	host    *exec.Tensor
	copying *hostCopy
	refs    int
	// own is the tensor the entry offers an evaluation for its result
	// (exec.Request.Results), with room in dims for the layout of a
	// result of rank maxOwnRank or less; t points to it when the backend
	// filled it.
	own  exec.Tensor
	dims [2 * maxOwnRank]int
	// pooled says that t's buffer header came from the evaluation's
	// exec.BufferList: the header may be reused once its memory is
	// freed (see dropLocked).
	pooled bool
}

// hostCopy is a host copy of a device result in progress: its reader
// makes it outside the Context's mutex and closes done when it has
// finished, made or failed; readers of the same result wait on done.
type hostCopy struct {
	done chan struct{}
}

// release drops the entry's tensors.
func (e *entry) release() {
	releaseTensor(e.t)
	e.host.Release()
}

// Option configures NewContext.
type Option func(*Context) error

// WithBackend makes the Context evaluate with b. A nil b is an error.
func WithBackend(b exec.Backend) Option {
	return func(c *Context) error {
		if b == nil {
			return errors.New("array: WithBackend: nil backend")
		}
		c.backend = b
		return nil
	}
}

// WithAllocator makes the Context allocate host buffers (inputs copied from
// Go slices, results, scratch) from a. A nil a is an error.
func WithAllocator(a memory.Allocator) Option {
	return func(c *Context) error {
		if a == nil {
			return errors.New("array: WithAllocator: nil allocator")
		}
		c.alloc = a
		return nil
	}
}

// WithMemoryLimit bounds the host memory the Context holds at once, as
// CuPy's MemoryPool.set_limit bounds a pool: every buffer allocated from
// its allocator and not yet freed counts (inputs copied from Go slices,
// results held by live arrays, intermediates and scratch of the
// evaluations running, arrays exported by ToArrow until they are
// released), in bytes as asked of the allocator (arrow rounds each buffer
// up to 64 bytes). An evaluation that would go over fails with an
// *exec.MemoryError ("Unable to allocate 1.00 GiB for an array with shape
// (268435456,) and data type float32 (3.50 GiB of the memory limit of
// 4.00 GiB is in use)", NumPy's MemoryError) and frees what it had
// allocated; release arrays to make room. Not counted: input data shared
// rather than copied (FromArrow's numeric arrays), slices returned by
// ToSlice once returned (each is checked against what is left when it is
// made), memory cached by the allocator (exec.Pool) and device memory.
// Without it the limit is exec.DefaultMemoryLimit(), what the machine,
// its cgroup and RLIMIT_AS allow the process. A limit that is not
// positive is an error. No single buffer can be larger than the limit
// either: WithMaxAllocation alone bounds single buffers (what
// WithMemoryLimit meant before it bounded the total).
func WithMemoryLimit(bytes int64) Option {
	return func(c *Context) error {
		if bytes <= 0 {
			return fmt.Errorf("array: WithMemoryLimit(%d): the limit must be positive", bytes)
		}
		c.memLimit = bytes
		return nil
	}
}

// WithMaxAllocation bounds each single buffer an evaluation of the
// Context allocates (results, scratch, inputs copied from Go slices) to
// bytes, however little else is in use: an evaluation that would need a
// larger one fails with an *exec.MemoryError ("Unable to allocate 8.00
// TiB for an array with shape (1099511627776,) and data type float64
// (larger than the allocation limit of 64.0 GiB)"). Without it the bound
// is exec.DefaultMemoryLimit(). A bound that is not positive is an error.
func WithMaxAllocation(bytes int64) Option {
	return func(c *Context) error {
		if bytes <= 0 {
			return fmt.Errorf("array: WithMaxAllocation(%d): the bound must be positive", bytes)
		}
		c.maxAlloc = bytes
		return nil
	}
}

// NewContext returns a Context configured by opts. Without WithBackend it
// uses the default backend (chosen by the FUSEFLOW_DEVICE environment
// variable, see Default); without WithAllocator, exec.DefaultPool, the
// process's caching pool over the Go allocator. It fails
// when an option is invalid or the default backend is unavailable.
func NewContext(opts ...Option) (*Context, error) {
	c := &Context{results: map[*graph.Node]*entry{}}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.backend == nil {
		b, err := defaultBackend()
		if err != nil {
			return nil, err
		}
		c.backend = b
	}
	c.setLimits()
	c.name = c.backend.Name()
	if lb, ok := c.backend.(exec.ListBinder); ok {
		c.list = lb.AcceptsBoundList()
	}
	return c, nil
}

// setLimits puts the Context's allocator (exec.DefaultPool when none was
// given) behind its limits.
func (c *Context) setLimits() {
	if c.alloc == nil {
		c.alloc = exec.DefaultPool()
	}
	memLimit := c.memLimit
	if memLimit <= 0 {
		memLimit = exec.DefaultMemoryLimit()
	}
	c.limited = exec.NewLimitedAllocator(c.alloc, exec.Limits{MaxAllocation: c.maxAlloc, MemoryLimit: memLimit})
}

// MustContext is NewContext that panics on error, for programs and tests
// whose configuration is fixed.
func MustContext(opts ...Option) *Context {
	c, err := NewContext(opts...)
	if err != nil {
		panic(err)
	}
	return c
}

var defaultContext = sync.OnceValue(newDefault)

// newDefault builds the Context Default returns: on an unavailable device,
// one that carries the error.
func newDefault() *Context {
	c, err := NewContext()
	if err != nil {
		c = &Context{err: err, name: exec.DefaultDevice() + " (unavailable)", results: map[*graph.Node]*entry{}}
		c.setLimits()
	}
	return c
}

// Default returns the process-wide Context, created on first use with the
// backend exec.OpenDefault resolves from the FUSEFLOW_DEVICE environment
// variable ("cpu", "ref", "cuda" or "cuda:N"; unset: CUDA device 0 when
// the driver loads and a device exists, else the CPU executor) and
// exec.DefaultPool. When the
// variable names a backend that is not available, Default still returns
// a Context, but every array built on it carries that error (it comes
// back from Eval, ToSlice and Err) and Err reports it.
func Default() *Context { return defaultContext() }

// defaultBackend returns the backend exec.OpenDefault resolves from
// FUSEFLOW_DEVICE, its error prefixed with the package.
func defaultBackend() (exec.Backend, error) {
	b, err := exec.OpenDefault()
	if err != nil {
		return nil, fmt.Errorf("array: %w", err)
	}
	return b, nil
}

// Backend returns the name of the Context's backend ("ref", "cpu",
// "cuda:0"). For a Default Context whose device is unavailable it is the
// requested name followed by " (unavailable)"; for a nil or zero Context
// it is empty.
func (c *Context) Backend() string {
	if c == nil {
		return ""
	}
	return c.name
}

// Allocator returns the allocator the Context's host buffers come from
// (nil for a nil or zero Context).
func (c *Context) Allocator() memory.Allocator {
	if c == nil {
		return nil
	}
	return c.alloc
}

// MemoryLimit returns the most host memory, in bytes, the Context may
// hold at once (see WithMemoryLimit); 0 for a nil or zero Context.
func (c *Context) MemoryLimit() int64 {
	if c == nil || c.limited == nil {
		return 0
	}
	limit, _ := c.limited.MemoryBudget()
	return limit
}

// MaxAllocation returns the largest single buffer, in bytes, an
// evaluation of the Context may allocate (see WithMaxAllocation); 0 for a
// nil or zero Context.
func (c *Context) MaxAllocation() int64 {
	if c == nil || c.limited == nil {
		return 0
	}
	return c.limited.AllocLimit()
}

// MemoryInUse returns the host memory, in bytes, the Context holds now:
// what counts against its MemoryLimit (see WithMemoryLimit). It is 0 once
// every array and exported arrow.Array is released, and for a nil or zero
// Context.
func (c *Context) MemoryInUse() int64 {
	if c == nil || c.limited == nil {
		return 0
	}
	return c.limited.InUse()
}

// Err returns why the Context cannot evaluate anything, or nil: the
// backend's error for a Default Context whose device is unavailable, and
// an error saying to make one with NewContext for a nil or zero Context.
func (c *Context) Err() error { return checkContext(c) }

// Live returns the number of distinct evaluated results and inputs the
// Context currently holds for live arrays (for tests and diagnostics; 0
// for a nil Context).
func (c *Context) Live() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.results)
}
