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
// the user API (array/elementwise.go), exec/ref/scalar.go (its reference
// definition), one entry in unary.go here (with its fmath function and a
// lowering: a math library call or IR written beside it), and the tests.
// The CPU executor and the code generator need no change.
//
// The package holds no state beyond its tables, which are read-only after
// init: it is safe for concurrent use.
package opdef
