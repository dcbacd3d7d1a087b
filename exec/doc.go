// Package exec defines what executors share: the Backend interface, the
// evaluation Request and Tensor, a strided view of an arrow
// memory.Buffer. The executors live in sub-packages: exec/ref (the
// reference evaluator, the oracle every backend is tested against),
// exec/cpu and exec/cuda.
package exec
