// Micro-kernel families and their choice: the assembly families an
// architecture file registers when the CPU has their features, the
// portable Go family everywhere, and FUSEFLOW_NOASM.

package gemm

import (
	"os"
	"unsafe"
)

//go:generate go run ./asmgen -o .

// microFn computes a tile of up to MR×NR elements of C over kc (>= 1)
// steps: a points to a packed micro-panel of A (for each step, MR values,
// one per row), b to a packed micro-panel of B (for each step, NR values,
// one per column), c to the tile's first element, ldc is C's row stride in
// bytes; the tile is stored, or added to C when acc is not zero. Each
// element is the sum of its products in increasing k, started from zero,
// then one addition to C with acc. The row count is the function's (see
// family.rows); all NR columns are written.
type microFn func(kc int, a, b, c unsafe.Pointer, ldc, acc int)

// stridedFn is a microFn reading A and B where they are: element (r, k)
// of the tile's A at a + r·ars + k·acs bytes, row k of B (NR values) at
// b + k·ldb bytes.
type stridedFn func(kc int, a unsafe.Pointer, ars, acs int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc, acc int)

// maskedFn and stridedMaskedFn are microFn and stridedFn for a tile's
// first columns only: bit j of mask says whether column j is read from B
// and written to C (lanes masked off are neither, whatever is there).
type (
	maskedFn        func(kc int, a, b, c unsafe.Pointer, ldc, acc, mask int)
	stridedMaskedFn func(kc int, a unsafe.Pointer, ars, acs int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc, acc, mask int)
)

// family is a set of micro-kernels for one float type: rows[r-1]
// computes r-row tiles from packed operands, r in [1, mr], strided[r-1]
// the same tiles, summed in the same order, from operands in place. A
// family with masked kernels (masked[v-1][r-1] computes the first v
// vectors of lanes columns) writes partial tiles straight into C; the
// others compute them into scratch.
type family struct {
	name          string
	mr, nr, lanes int
	rows          []microFn
	strided       []stridedFn
	masked        [][]maskedFn
	stridedMasked [][]stridedMaskedFn
}

// families holds the assembly families of this CPU, best first, per
// float type (filled at init by the architecture file).
var families struct {
	f32, f64 []*family
}

// noasm is FUSEFLOW_NOASM's setting: portable kernels for every product.
var noasm = func() bool {
	v := os.Getenv("FUSEFLOW_NOASM")
	return v != "" && v != "0"
}()

// asmFamilies returns the assembly families for T.
func asmFamilies[T Float]() []*family {
	var z T
	if _, ok := any(z).(float32); ok {
		return families.f32
	}
	return families.f64
}

// familyNamed returns T's family called name ("go" is the portable one),
// or nil.
func familyNamed[T Float](name string) *family {
	if name == goFamilyName {
		return goFamily[T]()
	}
	for _, f := range asmFamilies[T]() {
		if f.name == name {
			return f
		}
	}
	return nil
}

// pickFamily returns the family a product with opt runs.
func pickFamily[T Float](opt *Options[T]) *family {
	if opt.kernel != "" {
		return familyNamed[T](opt.kernel)
	}
	if fs := asmFamilies[T](); len(fs) > 0 && !opt.Portable && !noasm {
		return fs[0]
	}
	return goFamily[T]()
}

// Kernel names the micro-kernel family products of T run with opt (nil:
// the default): "avx512", "avx2" or "go".
func Kernel[T Float](opt *Options[T]) string {
	var o Options[T]
	if opt != nil {
		o = *opt
	}
	return pickFamily(&o).name
}

// Kernels lists the kernel families of T this CPU can run, best first,
// the portable one last.
func Kernels[T Float]() []string {
	var names []string
	for _, f := range asmFamilies[T]() {
		names = append(names, f.name)
	}
	return append(names, goFamilyName)
}
