// Lanes: tensor elements read into float64 or int64 slices (the types
// every op computes in) and written back to a tensor's dtype.

package ref

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// vec holds the elements of an array in row-major order in one lane:
// f for float dtypes, i for integer and bool dtypes (bool as 0 or 1). u
// marks uint64 elements in the int lane (held as their bits): the ops
// that read the sign (comparisons, division, conversion to float) treat
// them as unsigned.
type vec struct {
	f []float64
	i []int64
	u bool
}

// isFloat reports whether v uses the float lane.
func (v vec) isFloat() bool { return v.f != nil }

// elem is the Go type of each dtype's elements in a buffer (bool is a
// byte).
type elem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// gather reads src through the iterator's layout 0 into dst.
func gather[T elem, U float64 | int64](dst []U, src []T, it *iter) {
	for k := range dst {
		dst[k] = U(src[it.off[0]])
		it.next()
	}
}

// load returns t stretched to shape s (which t's shape broadcasts to) in
// row-major order. Float dtypes go to the float lane, the others to the
// int lane; a bool byte reads as true when it is nonzero.
func load(t *exec.Tensor, s graph.Shape) vec {
	n := s.Size()
	it := newIter(s, broadcastLayout(t, s))
	var v vec
	if t.DType.IsFloat() {
		v.f = make([]float64, n)
	} else {
		v.i = make([]int64, n)
	}
	if n == 0 {
		return v
	}
	switch t.DType {
	case graph.Float32:
		gather(v.f, exec.Elems[float32](t), it)
	case graph.Float64:
		gather(v.f, exec.Elems[float64](t), it)
	case graph.Int32:
		gather(v.i, exec.Elems[int32](t), it)
	case graph.Int64:
		gather(v.i, exec.Elems[int64](t), it)
	case graph.Int8:
		gather(v.i, exec.Elems[int8](t), it)
	case graph.Int16:
		gather(v.i, exec.Elems[int16](t), it)
	case graph.Uint8:
		gather(v.i, exec.Elems[uint8](t), it)
	case graph.Uint16:
		gather(v.i, exec.Elems[uint16](t), it)
	case graph.Uint32:
		gather(v.i, exec.Elems[uint32](t), it)
	case graph.Uint64:
		gather(v.i, exec.Elems[uint64](t), it) // the bits
		v.u = true
	case graph.Float16, graph.BFloat16:
		src := exec.Elems[uint16](t)
		for k := range v.f {
			v.f[k] = halfToFloat(t.DType, src[it.off[0]])
			it.next()
		}
	case graph.Bool:
		gather(v.i, exec.Elems[uint8](t), it)
		for k, x := range v.i {
			if x != 0 {
				v.i[k] = 1
			}
		}
	default:
		panic(fmt.Sprintf("ref: load of unsupported dtype %v", t.DType))
	}
	return v
}

// scatter converts src into dst with Go's conversion rules.
func scatter[T elem, U float64 | int64](dst []T, src []U) {
	for k, x := range src {
		dst[k] = T(x)
	}
}

// store allocates a contiguous tensor of dtype d and shape s holding v.
// The int lane converts to any dtype: integers wrap (two's complement),
// floats round to nearest, bool is x != 0. The float lane converts only
// to float dtypes (rounding to nearest); casts to integers and bool
// happen before, in castLane.
func store(alloc memory.Allocator, v vec, d graph.DType, s graph.Shape) (*exec.Tensor, error) {
	if v.u && d.IsFloat() {
		// uint64 bits to a float: the unsigned value, rounded once.
		f := make([]float64, len(v.i))
		for k, x := range v.i {
			f[k] = float64(uint64(x))
			if d == graph.Float32 {
				f[k] = float64(float32(uint64(x)))
			}
		}
		return store(alloc, vec{f: f}, d, s)
	}
	t, err := exec.NewTensor(alloc, d, s)
	if err != nil {
		return nil, err
	}
	if s.Size() == 0 {
		return t, nil
	}
	if v.isFloat() {
		switch d {
		case graph.Float32:
			scatter(exec.Elems[float32](t), v.f)
		case graph.Float64:
			copy(exec.Elems[float64](t), v.f)
		case graph.Float16, graph.BFloat16:
			storeHalf(exec.Elems[uint16](t), v.f, d)
		default:
			panic(fmt.Sprintf("ref: float lane stored as %v", d))
		}
		return t, nil
	}
	switch d {
	case graph.Float32:
		scatter(exec.Elems[float32](t), v.i)
	case graph.Float64:
		scatter(exec.Elems[float64](t), v.i)
	case graph.Float16, graph.BFloat16:
		f := make([]float64, len(v.i))
		for k, x := range v.i {
			f[k] = float64(x)
		}
		storeHalf(exec.Elems[uint16](t), f, d)
	case graph.Int8:
		scatter(exec.Elems[int8](t), v.i)
	case graph.Int16:
		scatter(exec.Elems[int16](t), v.i)
	case graph.Uint8:
		scatter(exec.Elems[uint8](t), v.i)
	case graph.Uint16:
		scatter(exec.Elems[uint16](t), v.i)
	case graph.Uint32:
		scatter(exec.Elems[uint32](t), v.i)
	case graph.Uint64:
		scatter(exec.Elems[uint64](t), v.i)
	case graph.Int32:
		scatter(exec.Elems[int32](t), v.i)
	case graph.Int64:
		copy(exec.Elems[int64](t), v.i)
	case graph.Bool:
		b := exec.Elems[uint8](t)
		for k, x := range v.i {
			if x != 0 {
				b[k] = 1
			}
		}
	default:
		panic(fmt.Sprintf("ref: store of unsupported dtype %v", d))
	}
	return t, nil
}
