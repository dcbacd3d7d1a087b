// Package graph is fuseflow's expression graph: immutable, hash-consed
// nodes with their shapes and dtypes inferred and checked as they are
// built. It imports nothing else of fuseflow; the planner (fuse), the
// executors (exec/...) and the user API (array) all build on it.
//
// Building never fails loudly: a node built from invalid operands records
// an *OpError naming the op, the operands' shapes and dtypes and what is
// wrong, and every node built on it carries that error (sticky errors).
// Verify returns it.
//
// Every shape a node gets is valid by CheckShape: no negative extent, and
// the non-zero extents times the element size fit in an int (NumPy's
// rule), so sizes, strides and byte sizes computed from a node's shape
// never overflow. Ops that add or multiply extents (Concat, Reshape,
// broadcasting, MatMul's batch axes) check their arithmetic and report
// an overflow as an error naming the op and its operands.
//
// Broadcasting follows NumPy. Dtype promotion follows NumPy 2 and JAX
// where they agree, with Go numbers weakly typed (a float32 array times 2
// stays float32); promote.go documents the whole table. Constructors
// insert Cast nodes, so every elementwise node's operands already have
// the dtype it computes in.
//
// Nodes are safe for concurrent use; the intern table holds them weakly,
// so graphs nobody refers to are collected.
package graph
