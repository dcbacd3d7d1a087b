// Package exec defines what executors share: the Backend interface, the
// evaluation Request and Tensor, a strided view of an arrow
// memory.Buffer, and Pool, a caching host allocator that hands released
// buffers back without clearing them (NewTensorUninit allocates for
// results a kernel overwrites). The executors live in sub-packages:
// exec/ref (the reference evaluator, the oracle every backend is tested
// against), exec/cpu and exec/cuda.
//
// The memory guard: NewTensor, CheckAlloc and LimitAllocator refuse an
// allocation larger than AllocLimit (the machine's memory by default, or
// the limit a LimitAllocator carries in the Request's allocator) with a
// *MemoryError, NumPy's MemoryError, instead of letting the Go runtime die
// of an out-of-memory failure; backends defer RecoverMemoryError at their
// boundary for allocators that panic.
package exec
