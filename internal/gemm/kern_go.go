// The portable micro-kernels: plain Go with the assembly kernels'
// contract (see microFn), for CPUs without them and FUSEFLOW_NOASM.

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
	f.rows = []microFn{goRows[T](1), goRows[T](2), goRows[T](3), goFull[T]}
	return f
}

// goFull computes a full 4×4 tile with sixteen scalar accumulators.
func goFull[T Float](kc int, a, b, c unsafe.Pointer, ldc, acc int) {
	pa := unsafe.Slice((*T)(a), kc*goMR)
	pb := unsafe.Slice((*T)(b), kc*goNR)
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	var c20, c21, c22, c23, c30, c31, c32, c33 T
	for len(pa) >= goMR && len(pb) >= goNR {
		b0, b1, b2, b3 := pb[0], pb[1], pb[2], pb[3]
		a0 := pa[0]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		a1 := pa[1]
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		a2 := pa[2]
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		a3 := pa[3]
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
		pa, pb = pa[goMR:], pb[goNR:]
	}
	t := [goMR][goNR]T{{c00, c01, c02, c03}, {c10, c11, c12, c13}, {c20, c21, c22, c23}, {c30, c31, c32, c33}}
	goStore(t[:], c, ldc, acc)
}

// goRows returns the kernel of tiles of rows rows, fewer than goMR.
func goRows[T Float](rows int) microFn {
	return func(kc int, a, b, c unsafe.Pointer, ldc, acc int) { goPartial[T](rows, kc, a, b, c, ldc, acc) }
}

func goPartial[T Float](rows, kc int, a, b, c unsafe.Pointer, ldc, acc int) {
	pa := unsafe.Slice((*T)(a), kc*goMR)
	pb := unsafe.Slice((*T)(b), kc*goNR)
	var t [goMR][goNR]T
	for k := range kc {
		bk := (*[goNR]T)(pb[k*goNR:])
		ak := (*[goMR]T)(pa[k*goMR:])
		for i := range rows {
			ai := ak[i]
			for j := range goNR {
				t[i][j] += ai * bk[j]
			}
		}
	}
	goStore(t[:rows], c, ldc, acc)
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
