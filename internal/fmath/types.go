// Type sets: the Go element types of fuseflow's numeric dtypes.

package fmath

// Int is the Go type of an integer dtype, signed or unsigned.
type Int interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Float is the Go type of a float dtype.
type Float interface{ ~float32 | ~float64 }

// Number is the Go type of a numeric dtype.
type Number interface{ Int | Float }

// Bits is the Go type of an integer dtype or of a bool stored as a byte
// holding 0 or 1, for the bitwise ops.
type Bits interface{ Int | ~uint8 }
