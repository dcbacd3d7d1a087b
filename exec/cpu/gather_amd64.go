// The AVX2 loops of gather_vec.go (gather_amd64.s), registered for 4-
// and 8-byte elements when the CPU has AVX2. They move bits, so any
// dtype of the size goes through them.

//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func gatherRev32(dst, src unsafe.Pointer, n int)

//go:noescape
func gatherRev64(dst, src unsafe.Pointer, n int)

//go:noescape
func gatherStep2x32(dst, src unsafe.Pointer, n int)

//go:noescape
func gatherStep2x64(dst, src unsafe.Pointer, n int)

// registerGatherVector registers the strided gathers (called by
// registerVector once the CPU's features are known).
func registerGatherVector() {
	vectorize("gather reversed 4-byte", &gatherRevTab[4], stridedFn(gatherRev32))
	vectorize("gather reversed 8-byte", &gatherRevTab[8], stridedFn(gatherRev64))
	vectorize("gather step 2 4-byte", &gatherStep2Tab[4], stridedFn(gatherStep2x32))
	vectorize("gather step 2 8-byte", &gatherStep2Tab[8], stridedFn(gatherStep2x64))
}

// hasGatherVector reports whether registerGatherVector runs on this CPU.
func hasGatherVector() bool { return hasVector }
