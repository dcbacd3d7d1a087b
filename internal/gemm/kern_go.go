// The portable micro-kernels: plain Go with the assembly kernels'
// contract (see microFn and stridedFn), for CPUs without them and
// FUSEFLOW_NOASM.

package gemm

import "unsafe"

// The portable family's tile: small enough that the accumulators can
// live in registers.
const (
	goMR         = 4
	goNR         = 4
	goFamilyName = "go"
)

var (
	goFamily32 = newGoFamily[float32]()
	goFamily64 = newGoFamily[float64]()
)

func goFamily[T Float]() *family {
	var z T
	if _, ok := any(z).(float32); ok {
		return goFamily32
	}
	return goFamily64
}

func newGoFamily[T Float]() *family {
	f := &family{name: goFamilyName, mr: goMR, nr: goNR}
	var z T
	size := int(unsafe.Sizeof(z))
	for rows := 1; rows <= goMR; rows++ {
		k := goRows[T](rows)
		f.strided = append(f.strided, k)
		f.rows = append(f.rows, func(kc int, a, b, c unsafe.Pointer, ldc, acc int) {
			k(kc, a, size, goMR*size, b, goNR*size, c, ldc, acc)
		})
	}
	return f
}

// goRows returns the kernel of tiles of rows rows.
func goRows[T Float](rows int) stridedFn {
	if rows == goMR {
		return goFull[T]
	}
	return func(kc int, a unsafe.Pointer, ars, acs int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc, acc int) {
		var t [goMR][goNR]T
		for k := range kc {
			bk := (*[goNR]T)(unsafe.Add(b, k*ldb))
			ak := unsafe.Add(a, k*acs)
			for i := range rows {
				ai := *(*T)(unsafe.Add(ak, i*ars))
				for j := range goNR {
					t[i][j] += ai * bk[j]
				}
			}
		}
		goStore(t[:rows], c, ldc, acc)
	}
}

// goFull computes a full 4×4 tile with sixteen scalar accumulators.
func goFull[T Float](kc int, a unsafe.Pointer, ars, acs int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc, acc int) {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	var c20, c21, c22, c23, c30, c31, c32, c33 T
	for k := range kc {
		// Addresses are formed for valid steps only: a pointer past its
		// object is invalid in Go.
		bk := (*[goNR]T)(unsafe.Add(b, k*ldb))
		ak := unsafe.Add(a, k*acs)
		b0, b1, b2, b3 := bk[0], bk[1], bk[2], bk[3]
		a0 := *(*T)(ak)
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		a1 := *(*T)(unsafe.Add(ak, ars))
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		a2 := *(*T)(unsafe.Add(ak, 2*ars))
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		a3 := *(*T)(unsafe.Add(ak, 3*ars))
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	t := [goMR][goNR]T{{c00, c01, c02, c03}, {c10, c11, c12, c13}, {c20, c21, c22, c23}, {c30, c31, c32, c33}}
	goStore(t[:], c, ldc, acc)
}

// goStore stores or adds the tile t to C.
func goStore[T Float](t [][goNR]T, c unsafe.Pointer, ldc, acc int) {
	for i := range t {
		row := (*[goNR]T)(unsafe.Add(c, i*ldc))
		if acc != 0 {
			for j := range goNR {
				row[j] += t[i][j]
			}
		} else {
			*row = t[i]
		}
	}
}
