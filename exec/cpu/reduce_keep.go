// Kept axes moved inside: where an operand is contiguous along a kept
// axis that is not the last one (a reduction of a transposed 3-D input
// over its last axis, a middle axis of a permuted one), the executor puts
// that axis innermost (the column path reads rows of it front to back),
// so its results come out in its own order of the kept axes. outPerm
// moves them into the row-major order of the output points before the
// epilogue reads them: a copy of the results, small beside the input
// they reduce.

package cpu

import (
	"slices"
	"unsafe"
)

// outPerm reorders results over the kept axes from the executor's order
// to the kernel's: a result at executor point o (row-major over shape)
// belongs at output point sum(idx[i]*strides[i]).
type outPerm struct {
	shape, strides []int
}

// newOutPerm returns the reordering of results from the executor's
// order of the kept axes, exec, to the kernel's, keep (both lists of
// kernel axes, the same set), with space the kernel's extents; nil when
// the orders agree.
func newOutPerm(space, keep, exec []int) *outPerm {
	if slices.Equal(keep, exec) {
		return nil
	}
	st := make(map[int]int, len(keep)) // row-major stride of each kept axis in the output
	s := 1
	for i := len(keep) - 1; i >= 0; i-- {
		st[keep[i]] = s
		s *= space[keep[i]]
	}
	p := &outPerm{}
	for _, a := range exec {
		p.shape = append(p.shape, space[a])
		p.strides = append(p.strides, st[a])
	}
	return p
}

// apply returns the results at src (n points of es bytes in the
// executor's order) in the kernel's order, in new memory.
func (p *outPerm) apply(src unsafe.Pointer, n, es int) unsafe.Pointer {
	mem := make([]uint64, max((n*es+7)/8, 1))
	dst := unsafe.Pointer(&mem[0])
	r := len(p.shape)
	idx := make([]int, r)
	last, ls := p.shape[r-1], p.strides[r-1]
	off := 0
	for o := 0; o < n; o += last {
		switch es {
		case 8:
			permRun[uint64](dst, src, off, ls, o, last)
		case 4:
			permRun[uint32](dst, src, off, ls, o, last)
		case 2:
			permRun[uint16](dst, src, off, ls, o, last)
		default:
			permRun[uint8](dst, src, off, ls, o, last)
		}
		// Next index over the outer axes.
		for i := r - 2; i >= 0; i-- {
			idx[i]++
			off += p.strides[i]
			if idx[i] < p.shape[i] {
				break
			}
			off -= idx[i] * p.strides[i]
			idx[i] = 0
		}
	}
	return dst
}

// permRun copies n elements from src[o:] to dst[off], dst[off+step], ...
func permRun[T uint8 | uint16 | uint32 | uint64](dst, src unsafe.Pointer, off, step, o, n int) {
	for k, x := range view[T](at(src, o, int(unsafe.Sizeof(T(0)))), n) {
		*(*T)(at(dst, off+k*step, int(unsafe.Sizeof(T(0))))) = x
	}
}
