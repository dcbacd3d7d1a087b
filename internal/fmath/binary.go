// Binary ops on two elements of one type: arithmetic, bitwise and
// logical ops, and comparisons (IEEE for floats: every comparison with
// NaN is false except Ne; for bool false orders below true).

package fmath

import "cmp"

// Add returns a + b (integers wrap).
func Add[T Number](a, b T) T { return a + b }

// Sub returns a - b (integers wrap).
func Sub[T Number](a, b T) T { return a - b }

// Mul returns a * b (integers wrap).
func Mul[T Number](a, b T) T { return a * b }

// Div returns a / b of floats.
func Div[T Float](a, b T) T { return a / b }

// And returns the bitwise and of a and b (logical on bools stored as the
// bytes 0 and 1).
func And[T Bits](a, b T) T { return a & b }

// Or returns the bitwise or of a and b.
func Or[T Bits](a, b T) T { return a | b }

// Xor returns the bitwise exclusive or of a and b.
func Xor[T Bits](a, b T) T { return a ^ b }

// AndBool returns a && b.
func AndBool(a, b bool) bool { return a && b }

// OrBool returns a || b.
func OrBool(a, b bool) bool { return a || b }

// XorBool returns a != b.
func XorBool(a, b bool) bool { return a != b }

// Eq reports a == b.
func Eq[T comparable](a, b T) bool { return a == b }

// Ne reports a != b (true when either is NaN).
func Ne[T comparable](a, b T) bool { return a != b }

// Lt reports a < b.
func Lt[T cmp.Ordered](a, b T) bool { return a < b }

// Le reports a <= b.
func Le[T cmp.Ordered](a, b T) bool { return a <= b }

// Gt reports a > b.
func Gt[T cmp.Ordered](a, b T) bool { return a > b }

// Ge reports a >= b.
func Ge[T cmp.Ordered](a, b T) bool { return a >= b }

// LtBool reports a < b with false below true.
func LtBool(a, b bool) bool { return !a && b }

// LeBool reports a <= b with false below true.
func LeBool(a, b bool) bool { return !a || b }

// GtBool reports a > b with false below true.
func GtBool(a, b bool) bool { return a && !b }

// GeBool reports a >= b with false below true.
func GeBool(a, b bool) bool { return a || !b }
