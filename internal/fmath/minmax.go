// Maximum and Minimum of two elements.

package fmath

// Max returns the larger of a and b. For floats NaN in either operand
// gives NaN and +0 orders above -0 (Go's built-in max), so the result
// does not depend on the operand order.
func Max[T Number](a, b T) T { return max(a, b) }

// Min returns the smaller of a and b, NaN propagating and -0 below +0
// (Go's built-in min).
func Min[T Number](a, b T) T { return min(a, b) }
