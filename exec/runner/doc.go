// Package runner is the one evaluation skeleton every executor shares.
// A Runner verifies a request, finds its plan and the target's program
// of it in one bounded cache (planning and preparing on a miss), binds
// the inputs, allocates each plan buffer when it becomes live and frees
// temporaries after their last use, runs the kernels in order and
// assembles the outputs. What differs between targets is behind a small
// interface: Target prepares a plan (exec/cpu lowers it to vector
// programs, exec/cuda generates PTX and loads the module) and starts an
// Evaluation, which binds, allocates, runs a kernel, frees and hands out
// an output buffer in its own memory.
//
// The cache keeps at most its capacity of plans with their programs,
// least recently used out first, and no graph nodes: a request whose
// outputs are the very nodes of an earlier one finds its entry without
// rebuilding the structural key through a small index of weak pointers,
// at most one per cached plan. A program is released once the cache has
// dropped it and no evaluation uses it.
package runner
