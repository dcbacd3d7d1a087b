// Transparent huge pages for large host buffers on Linux.

package exec

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms Go
// runs Linux on with them (x86-64, arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// HugePageMin is the smallest block a Pool over a Go allocator asks the
// kernel to back with transparent huge pages (madvise MADV_HUGEPAGE on
// the whole 2 MiB pages inside it). A streaming kernel reads such a
// buffer with one TLB entry per 2 MiB instead of per 4 KiB; NumPy asks
// the same for its arrays of 4 MiB or more. Where the system's setting
// is "never", or no huge page is free, the advice changes nothing.
const HugePageMin = 4 << 20

// adviseHuge asks the kernel to back the whole huge pages inside mem
// with transparent huge pages. It is advice: an error changes nothing
// and is ignored.
func adviseHuge(mem []byte) {
	if len(mem) < HugePageMin {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + uintptr(len(mem))) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(mem[lo-p:hi-p], syscall.MADV_HUGEPAGE)
}
