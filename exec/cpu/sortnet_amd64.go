// The comparator network loops of sortnet_amd64.s and the lane count
// this CPU runs them with.

//go:build amd64 && !purego

package cpu

import (
	"unsafe"

	xcpu "golang.org/x/sys/cpu"
)

//go:noescape
func netCmp32x8(block unsafe.Pointer, pairs *uint32, n int)

//go:noescape
func netCmp32x16(block unsafe.Pointer, pairs *uint32, n int)

// netLanes32 is the number of rows of 32-bit keys a network sorts at
// once: 16 with AVX-512, 8 with AVX2, 0 (no network) without.
var netLanes32 = func() int {
	switch {
	case xcpu.X86.HasAVX512F:
		return 16
	case xcpu.X86.HasAVX2:
		return 8
	}
	return 0
}()

// netCmp32 applies the comparators (pairs of byte offsets) to a block
// of netLanes32 lanes.
func netCmp32(block []uint32, pairs []uint32) {
	if netLanes32 == 16 {
		netCmp32x16(unsafe.Pointer(&block[0]), &pairs[0], len(pairs)/2)
		return
	}
	netCmp32x8(unsafe.Pointer(&block[0]), &pairs[0], len(pairs)/2)
}
