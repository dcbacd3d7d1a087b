// Strided access over a chunk of an iteration space: gather an operand's
// elements into a contiguous chunk vector, scatter a chunk into a strided
// destination, and compute element offsets for generated leaves. Runs
// have fast paths by stride: unit (memmove), zero (a splat), minus one
// (reversed) and any other (a strided loop four elements a round);
// reversed and step-2 runs of 4- and 8-byte elements go through the
// vector loops of gather_vec.go where they are registered.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// space is an iteration space: the extents of each axis, outermost first
// (rank 0 is treated as one element).
type space struct {
	shape []int
	size  int
}

func newSpace(shape []int) space {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return space{shape: shape, size: n}
}

// walk calls run(off, step, n) for each run of consecutive elements along
// the innermost axis covering flat indices [lo, lo+n) of the space, where
// off is the buffer offset of the run's first element, step the stride
// between its elements, and pos the position of the run in the chunk.
// idx is scratch of at least rank ints.
func (s space) walk(l graph.Layout, lo, n int, idx []int, run func(pos, off, step, cnt int)) {
	r := len(s.shape)
	if r == 0 {
		run(0, l.Offset, 0, n)
		return
	}
	idx = idx[:r]
	f := lo
	off := l.Offset
	for k := r - 1; k >= 0; k-- {
		e := s.shape[k]
		idx[k] = f % e
		f /= e
		off += idx[k] * l.Strides[k]
	}
	last := s.shape[r-1]
	step := l.Strides[r-1]
	pos := 0
	for pos < n {
		cnt := min(last-idx[r-1], n-pos)
		run(pos, off, step, cnt)
		pos += cnt
		if pos >= n {
			break
		}
		// Back to the start of the row, then on to the next row.
		off -= idx[r-1] * step
		idx[r-1] = 0
		for k := r - 2; k >= 0; k-- {
			idx[k]++
			off += l.Strides[k]
			if idx[k] < s.shape[k] {
				break
			}
			off -= idx[k] * l.Strides[k]
			idx[k] = 0
		}
	}
}

// gatherRun copies cnt elements of size es from src (element offset off,
// stride step) to dst at position pos.
func gatherRun(dst, src unsafe.Pointer, es, pos, off, step, cnt int) {
	if k := gatherVecRun(dst, src, es, pos, off, step, cnt); k > 0 {
		pos, off, cnt = pos+k, off+k*step, cnt-k
	}
	switch es {
	case 1:
		gatherT(view[uint8](dst, pos+cnt)[pos:], (*uint8)(src), off, step)
	case 2:
		gatherT(view[uint16](dst, pos+cnt)[pos:], (*uint16)(src), off, step)
	case 4:
		gatherT(view[uint32](dst, pos+cnt)[pos:], (*uint32)(src), off, step)
	case 8:
		gatherT(view[uint64](dst, pos+cnt)[pos:], (*uint64)(src), off, step)
	default:
		panic("cpu: unsupported element size")
	}
}

func gatherT[T uint8 | uint16 | uint32 | uint64](d []T, base *T, off, step int) {
	n := len(d)
	if n == 0 {
		return
	}
	switch step {
	case 1:
		copy(d, unsafe.Slice((*T)(unsafe.Add(unsafe.Pointer(base), off*int(unsafe.Sizeof(*base)))), n))
	case 0:
		v := *(*T)(unsafe.Add(unsafe.Pointer(base), off*int(unsafe.Sizeof(*base))))
		k := min(n, 16)
		for i := range d[:k] {
			d[i] = v
		}
		for k < n { // doubling copies: memmove is vectorized, this loop is not
			k += copy(d[k:], d[:k])
		}
	case -1: // reversed: the run ends at off
		src := unsafe.Slice((*T)(unsafe.Add(unsafe.Pointer(base), (off-n+1)*int(unsafe.Sizeof(*base)))), n)
		for i, j := 0, n-1; i < n; i, j = i+1, j-1 {
			d[i] = src[j]
		}
	default: // stepped: four elements per round
		sz := int(unsafe.Sizeof(*base))
		p := unsafe.Add(unsafe.Pointer(base), off*sz)
		by := step * sz
		i := 0
		// Addresses are formed only for elements read (checkptr).
		for ; i+4 <= n; i += 4 {
			q := unsafe.Add(p, i*by)
			e := d[i : i+4 : i+4]
			e[0] = *(*T)(q)
			e[1] = *(*T)(unsafe.Add(q, by))
			e[2] = *(*T)(unsafe.Add(q, 2*by))
			e[3] = *(*T)(unsafe.Add(q, 3*by))
		}
		for ; i < n; i++ {
			d[i] = *(*T)(unsafe.Add(p, i*by))
		}
	}
}

// scatterRun copies cnt elements from src at position pos to dst
// (element offset off, stride step).
func scatterRun(dst, src unsafe.Pointer, es, pos, off, step, cnt int) {
	switch es {
	case 1:
		scatterT((*uint8)(dst), view[uint8](src, pos+cnt)[pos:], off, step)
	case 2:
		scatterT((*uint16)(dst), view[uint16](src, pos+cnt)[pos:], off, step)
	case 4:
		scatterT((*uint32)(dst), view[uint32](src, pos+cnt)[pos:], off, step)
	case 8:
		scatterT((*uint64)(dst), view[uint64](src, pos+cnt)[pos:], off, step)
	default:
		panic("cpu: unsupported element size")
	}
}

func scatterT[T uint8 | uint16 | uint32 | uint64](base *T, s []T, off, step int) {
	sz := int(unsafe.Sizeof(*base))
	p := unsafe.Add(unsafe.Pointer(base), off*sz)
	if step == 1 {
		copy(unsafe.Slice((*T)(p), len(s)), s)
		return
	}
	switch n := len(s); step {
	case 0: // every element to one place: the last one stays
		if n > 0 {
			*(*T)(p) = s[n-1]
		}
	case -1: // reversed: the run ends at off
		dst := unsafe.Slice((*T)(unsafe.Add(p, (1-n)*sz)), n)
		for i, j := 0, n-1; i < n; i, j = i+1, j-1 {
			dst[j] = s[i]
		}
	default: // stepped: four elements per round
		by := step * sz
		i := 0
		for ; i+4 <= n; i += 4 {
			q := unsafe.Add(p, i*by)
			e := s[i : i+4 : i+4]
			*(*T)(q) = e[0]
			*(*T)(unsafe.Add(q, by)) = e[1]
			*(*T)(unsafe.Add(q, 2*by)) = e[2]
			*(*T)(unsafe.Add(q, 3*by)) = e[3]
		}
		for ; i < n; i++ {
			*(*T)(unsafe.Add(p, i*by)) = s[i]
		}
	}
}
