// Package opdef is fuseflow's table of elementwise op definitions: for
// each graph op, its scalar function on each dtype it is defined for
// (built from internal/fmath) and its lowering to codegen's IR on each
// lane (float, integer, bool), either a call of the math library
// (ir.MathFn, expanded by codegen/mathlib) or IR emitted here. Casts have
// the same pair: Cast and LowerCast.
//
// The fast paths are derived from it: the CPU executor (exec/cpu) builds
// its loop tables from Fns, inlining the same fmath functions in the
// loops it keeps for speed and adding vector loops where it has them; the
// code generator (codegen) lowers every elementwise op through Lower. The
// reference evaluator (exec/ref) keeps its own definitions and is the
// oracle: the tests compare every op and cast on every dtype, over
// special values, with it, and run every lowering on the IR interpreter
// against the scalar functions.
//
// # Adding a unary op
//
// A new unary op touches graph/op.go (the op, its name and dtype rule),
// the user API (array/elementwise.go), its reference definition in
// exec/ref/scalar.go, one entry in unary.go here (its fmath or math
// function and its lowering: a math library call, or IR written in a file
// beside it with its LowerULP), and the tests: a hand-checked row in
// exec/ref/elementwise_test.go, the NumPy cases (array/testdata's
// generator and array/numpy_test.go's op and tolerance tables), and, to
// enter the random differential suites, internal/randgraph's op list and
// bounds. The CPU executor, the code generator and the IR interpreter
// need no change: the tests of this package check the new entry against
// the reference and its lowering on the IR interpreter.
//
// The package holds no state beyond its tables, which are read-only after
// init: it is safe for concurrent use.
package opdef
