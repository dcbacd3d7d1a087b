// Casts between dtypes other than float to integer (whose rule is
// graph.CastFloatToInt32 and graph.CastFloatToInt64).

package fmath

// ToBool converts a number to bool: x != 0, so NaN is true.
func ToBool[T Number](x T) bool { return x != 0 }

// FromBool converts a bool to the number 0 or 1.
func FromBool[R Number](b bool) R {
	var v R
	if b {
		v = 1
	}
	return v
}

// Convert converts between numbers with Go's rules: integers to narrower
// integers wrap, to floats round to nearest once; floats to floats round
// to nearest. (Float to integer is not Go's conversion: see the package
// comment.)
func Convert[T, R Number](x T) R { return R(x) }
