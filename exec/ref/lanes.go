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

// scatter converts src into dst with Go's conversion rules.
func scatter[T elem, U float64 | int64](dst []T, src []U) {
	for k, x := range src {
		dst[k] = T(x)
	}
}

// laneIO moves the elements of one dtype between a tensor and a lane of
// element type U, with Go's conversion rules.
type laneIO[U float64 | int64] struct {
	load  func(dst []U, t *exec.Tensor, it *iter)
	store func(t *exec.Tensor, src []U)
}

// ioOf returns the laneIO of a dtype whose elements have Go type T.
func ioOf[T elem, U float64 | int64]() laneIO[U] {
	return laneIO[U]{
		load:  func(dst []U, t *exec.Tensor, it *iter) { gather(dst, exec.Elems[T](t), it) },
		store: func(t *exec.Tensor, src []U) { scatter(exec.Elems[T](t), src) },
	}
}

// floatIO holds the float lane's dtypes that convert directly (the half
// dtypes go through halfToFloat and storeHalf).
var floatIO = map[graph.DType]laneIO[float64]{
	graph.Float32: ioOf[float32, float64](),
	graph.Float64: ioOf[float64, float64](),
}

// intIO holds the dtypes the int lane converts to directly: the integers
// (uint64 as its bits) to load and store, float32 and float64 to store
// only (float dtypes load into the float lane).
var intIO = map[graph.DType]laneIO[int64]{
	graph.Int8:    ioOf[int8, int64](),
	graph.Int16:   ioOf[int16, int64](),
	graph.Int32:   ioOf[int32, int64](),
	graph.Int64:   ioOf[int64, int64](),
	graph.Uint8:   ioOf[uint8, int64](),
	graph.Uint16:  ioOf[uint16, int64](),
	graph.Uint32:  ioOf[uint32, int64](),
	graph.Uint64:  ioOf[uint64, int64](),
	graph.Float32: ioOf[float32, int64](),
	graph.Float64: ioOf[float64, int64](),
}

// isHalf reports whether d is a 16-bit float dtype.
func isHalf(d graph.DType) bool { return d == graph.Float16 || d == graph.BFloat16 }

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
	d := t.DType
	switch {
	case isHalf(d):
		src := exec.Elems[uint16](t)
		for k := range v.f {
			v.f[k] = halfToFloat(d, src[it.off[0]])
			it.next()
		}
	case d.IsFloat():
		floatLane(d).load(v.f, t, it)
	case d == graph.Bool:
		gather(v.i, exec.Elems[uint8](t), it)
		for k, x := range v.i {
			if x != 0 {
				v.i[k] = 1
			}
		}
	default:
		intLane(d).load(v.i, t, it)
		v.u = d == graph.Uint64 // the int lane holds its bits
	}
	return v
}

// floatLane and intLane return the laneIO of dtype d for the float and
// the int lane; they panic on a dtype the lane does not convert to, a
// broken invariant of the evaluator.
func floatLane(d graph.DType) laneIO[float64] { return laneOf(floatIO, "float", d) }

func intLane(d graph.DType) laneIO[int64] { return laneOf(intIO, "int", d) }

func laneOf[U float64 | int64](ios map[graph.DType]laneIO[U], lane string, d graph.DType) laneIO[U] {
	io, ok := ios[d]
	if !ok {
		panic(fmt.Sprintf("ref: %s lane of unsupported dtype %v", lane, d))
	}
	return io
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
	switch {
	case isHalf(d) && v.isFloat():
		storeHalf(exec.Elems[uint16](t), v.f, d)
	case v.isFloat():
		floatLane(d).store(t, v.f)
	case isHalf(d):
		f := make([]float64, len(v.i))
		for k, x := range v.i {
			f[k] = float64(x)
		}
		storeHalf(exec.Elems[uint16](t), f, d)
	case d == graph.Bool:
		b := exec.Elems[uint8](t)
		for k, x := range v.i {
			if x != 0 {
				b[k] = 1
			}
		}
	default:
		intLane(d).store(t, v.i)
	}
	return t, nil
}
