// Package exec defines what executors share: the Backend interface, the
// evaluation Request and Tensor, a strided view of an arrow
// memory.Buffer, and Pool, a caching host allocator that hands released
// buffers back without clearing them (NewTensorUninit allocates for
// results a kernel overwrites). The executors live in sub-packages:
// exec/ref (the reference evaluator, the oracle every backend is tested
// against), exec/cpu and exec/cuda; the last two are targets of
// exec/runner, the one skeleton that caches plans, binds inputs,
// allocates and frees buffers by liveness and assembles outputs.
//
// The memory guard: NewTensor and CheckAlloc refuse an allocation with a
// *MemoryError, NumPy's MemoryError, instead of letting the Go runtime die
// of an out-of-memory failure, when it is larger than AllocLimit (by
// default DefaultMemoryLimit: the least of physical memory plus swap, the
// cgroup's memory limit and RLIMIT_AS, see MemoryBounds) or, for a
// LimitedAllocator with a memory limit (a Budget), when it does not fit in
// what is left of that limit on the bytes live at once. A
// LimitedAllocator counts what it hands out and panics with the
// *MemoryError when asked directly for too much; backends defer
// RecoverMemoryError at their boundary for allocators that panic.
//
// Pool keeps freed blocks for reuse, but not forever: the least recently
// freed go back to the base allocator when the cache outgrows its bound
// or when an allocation of another size class would make the pool hold
// more than its peak use calls for, blocks unused for PoolIdleTimeout go
// back on a timer, and Trim gives back everything (CuPy's
// free_all_blocks).
package exec
