// Single elements of a tensor of any dtype as graph.Scalar values, for
// results read one at a time and for tests that fill tensors.

package exec

import (
	"encoding/binary"
	"math"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/half"
)

// ScalarAt returns element e (an index into the buffer, in elements, not
// a point of the layout) of t. It panics when e is outside the buffer.
func ScalarAt(t *Tensor, e int) graph.Scalar {
	return ScalarFromBytes(t.Bytes()[e*t.DType.Size():], t.DType)
}

// ScalarFromBytes decodes one little-endian element of dtype d from the
// start of b.
func ScalarFromBytes(b []byte, d graph.DType) graph.Scalar {
	var bits uint64
	for k := d.Size() - 1; k >= 0; k-- {
		bits = bits<<8 | uint64(b[k])
	}
	switch {
	case d == graph.Bool:
		return graph.ScalarInt(d, int64(bits))
	case d.IsInt() && !d.Unsigned() && d.Size() < 8: // sign-extend
		shift := 64 - d.Bits()
		return graph.ScalarInt(d, int64(bits<<shift)>>shift)
	case d.IsInt():
		return graph.ScalarInt(d, int64(bits))
	case d == graph.Float16:
		return graph.ScalarOf(d, float64(half.Float16(bits).Float32()))
	case d == graph.BFloat16:
		return graph.ScalarOf(d, float64(half.BFloat16(bits).Float32()))
	case d == graph.Float32:
		return graph.ScalarOf(d, float64(math.Float32frombits(uint32(bits))))
	}
	return graph.ScalarOf(d, math.Float64frombits(bits))
}

// PutScalar stores s, converted to t's dtype as AsType converts (a float
// scalar rounds or truncates, an integer one wraps), at element e of t's
// buffer. It panics when e is outside the buffer.
func PutScalar(t *Tensor, e int, s graph.Scalar) {
	ScalarToBytes(t.Bytes()[e*t.DType.Size():], t.DType, s)
}

// ScalarToBytes encodes s as one little-endian element of dtype d at the
// start of b.
func ScalarToBytes(b []byte, d graph.DType, s graph.Scalar) {
	var v graph.Scalar
	switch {
	case s.DType.IsFloat():
		v = graph.ScalarOf(d, s.F)
	case s.DType == graph.Uint64 && d.IsFloat():
		v = graph.ScalarOf(d, float64(uint64(s.I)))
	default:
		v = graph.ScalarInt(d, s.I)
	}
	var bits uint64
	switch {
	case d.IsInt() || d == graph.Bool:
		bits = uint64(v.I)
	case d == graph.Float16:
		bits = uint64(half.FromFloat64(v.F))
	case d == graph.BFloat16:
		bits = uint64(half.BFromFloat64(v.F))
	case d == graph.Float32:
		bits = uint64(math.Float32bits(float32(v.F)))
	default:
		bits = math.Float64bits(v.F)
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], bits)
	copy(b[:d.Size()], buf[:])
}
