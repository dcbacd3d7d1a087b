// Validation of a product's arguments: dimensions, strides, slice
// lengths and batch offsets, each failure an error naming the shapes.

package gemm

import (
	"fmt"
	"runtime"
)

// check validates a product and fills in opt's defaults (Workers).
func check[T Float](m, n, k int, a, b Matrix[T], c []T, ldc int, bt Batch, opt *Options[T]) error {
	shape := shapeName{m, n, k}
	if m < 0 || n < 0 || k < 0 {
		return fmt.Errorf("%s: negative dimension", shape)
	}
	if bt.Count < 0 {
		return fmt.Errorf("%s: batch count %d is negative", shape, bt.Count)
	}
	if opt.Workers < 0 {
		return fmt.Errorf("%s: %d workers", shape, opt.Workers)
	}
	if opt.Workers == 0 {
		if opt.Run != nil {
			return fmt.Errorf("%s: Options.Run needs Options.Workers", shape)
		}
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.kernel != "" && familyNamed[T](opt.kernel) == nil {
		return fmt.Errorf("%s: no kernel %q on this CPU", shape, opt.kernel)
	}
	type operand struct {
		name       string
		data       int
		rows, cols int // logical
		stride     int
		trans      bool
	}
	ops := []operand{
		{"A", len(a.Data), m, k, a.Stride, a.Trans},
		{"B", len(b.Data), k, n, b.Stride, b.Trans},
		{"C", len(c), m, n, ldc, false},
	}
	// need[i] is the extent of operand i's matrix: the elements a matrix
	// at offset o covers are [o, o+need).
	var need [3]int
	for i, x := range ops {
		sr, sc := x.rows, x.cols // stored rows and row length
		if x.trans {
			sr, sc = sc, sr
		}
		// The stride of a single stored row is never used.
		if x.stride < 1 || sr > 1 && x.stride < sc {
			t := ""
			if x.trans {
				t = " (transposed)"
			}
			return fmt.Errorf("%s: %s%s has stride %d, below its stored row length %d", shape, x.name, t, x.stride, max(1, sc))
		}
		if sr > 0 && sc > 0 {
			need[i] = (sr-1)*x.stride + sc
		}
		if (i == 2 || k > 0) && m > 0 && n > 0 && bt.Count > 0 && need[i] > x.data {
			return fmt.Errorf("%s: %s needs %d elements, has %d", shape, x.name, need[i], x.data)
		}
	}
	if m == 0 || n == 0 {
		return nil
	}
	for p := range bt.Count {
		if bt.Offsets == nil && p > 0 && p < bt.Count-1 {
			continue // strided offsets are extreme at the ends
		}
		offs := bt.offsets(p)
		for i, x := range ops {
			if i < 2 && k == 0 {
				continue // A and B are not read
			}
			if offs[i] < 0 || offs[i] > x.data-need[i] {
				return fmt.Errorf("%s: batch point %d: %s at offset %d needs %d elements, has %d", shape, p, x.name, offs[i], offs[i]+need[i], x.data)
			}
		}
	}
	return nil
}

// shapeName formats as a product's shapes, the prefix of its errors
// (formatted only when there is one).
type shapeName struct{ m, n, k int }

func (s shapeName) String() string { return fmt.Sprintf("gemm %d×%d·%d×%d", s.m, s.k, s.k, s.n) }

// offsets returns the offsets of point p's matrices of A, B and C.
func (bt *Batch) offsets(p int) [3]int {
	if bt.Offsets != nil {
		a, b, c := bt.Offsets(p)
		return [3]int{a, b, c}
	}
	return [3]int{p * bt.StrideA, p * bt.StrideB, p * bt.StrideC}
}
