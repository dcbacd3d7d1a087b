// Package fmath holds float64 functions whose Go math package versions
// fall short of what fuseflow's backends promise, in a form every CPU-side
// evaluator shares.
package fmath
