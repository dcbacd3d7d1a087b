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

//go:noescape
func netLoad32x16(block, src unsafe.Pointer, n int, idx *uint32, float int, xor uint32) uint16

//go:noescape
func netStore32x16(dst, block unsafe.Pointer, k int, idx *uint32, float int, xor uint32)

// netGather reports whether blocks of 16 rows of 4-byte elements load
// and store with the gathers and scatters of netLoad32 and netStore32.
var netGather = netLanes32 == 16

// netLoad32 gathers element j of the 16 rows at src (byte offsets idx)
// into block vector j as keys (see netLoad32x16) and returns the lanes
// holding a float zero or NaN.
func netLoad32(block []uint32, src unsafe.Pointer, n int, idx *[16]uint32, float bool, xor uint32) uint16 {
	return netLoad32x16(unsafe.Pointer(&block[0]), src, n, &idx[0], b2i(float), xor)
}

// netStore32 scatters block vectors 0..k-1 back as values (see
// netStore32x16) to the 16 rows at dst (byte offsets idx).
func netStore32(dst unsafe.Pointer, block []uint32, k int, idx *[16]uint32, float bool, xor uint32) {
	netStore32x16(dst, unsafe.Pointer(&block[0]), k, &idx[0], b2i(float), xor)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

//go:noescape
func netSort16x16(block unsafe.Pointer, groups int)

// netSort16 sorts each of groups groups of 16 consecutive vectors of a
// block of 16 lanes by the network of 16 elements, in registers.
func netSort16(block []uint32, groups int) {
	netSort16x16(unsafe.Pointer(&block[0]), groups)
}

//go:noescape
func netLoadT32x16(block, src unsafe.Pointer, tiles, rowBytes, float int, xor uint32) uint16

//go:noescape
func netStoreT32x16(dst, block unsafe.Pointer, tiles, rowBytes, float int, xor uint32)

// netLoadT32 is netLoad32 for rows of a multiple of 16 elements, rows
// rowBytes apart: tiles of 16 by 16 elements loaded and transposed in
// registers.
func netLoadT32(block []uint32, src unsafe.Pointer, n, rowBytes int, float bool, xor uint32) uint16 {
	return netLoadT32x16(unsafe.Pointer(&block[0]), src, n/16, rowBytes, b2i(float), xor)
}

// netStoreT32 is netStore32 for k a multiple of 16, rows rowBytes
// apart: transposed back in registers.
func netStoreT32(dst unsafe.Pointer, block []uint32, k, rowBytes int, float bool, xor uint32) {
	netStoreT32x16(dst, unsafe.Pointer(&block[0]), k/16, rowBytes, b2i(float), xor)
}

//go:noescape
func netCmp64x8(block unsafe.Pointer, pairs *uint32, n int)

//go:noescape
func netCmp64x4x2(block unsafe.Pointer, pairs *uint32, n int)

// net64On reports whether this CPU runs the network of 8-byte keys
// (AVX2 at least); net64Wide picks its AVX-512 loop over the AVX2 one
// (tests flip it to run both).
var (
	net64On   = xcpu.X86.HasAVX2
	net64Wide = xcpu.X86.HasAVX512F
)

// netCmp64 applies the comparators (pairs of byte offsets) to a block
// of netLanes64 signed 64-bit keys: the lane-wise minimum to the first
// offset, the maximum to the second.
func netCmp64(block []uint64, pairs []uint32) {
	if len(pairs) == 0 {
		return
	}
	if net64Wide {
		netCmp64x8(unsafe.Pointer(&block[0]), &pairs[0], len(pairs)/2)
		return
	}
	netCmp64x4x2(unsafe.Pointer(&block[0]), &pairs[0], len(pairs)/2)
}

//go:noescape
func netCmpArg64x8(keys, idx unsafe.Pointer, pairs *uint32, n int)

//go:noescape
func netCmpArg64x4x2(keys, idx unsafe.Pointer, pairs *uint32, n int)

// netCmpArg64 applies the comparators (pairs of byte offsets) to a block
// of netLanes64 signed 64-bit keys and the block of their indices,
// ordering the pairs by key, then index.
func netCmpArg64(keys, idx []uint64, pairs []uint32) {
	if len(pairs) == 0 {
		return
	}
	if net64Wide {
		netCmpArg64x8(unsafe.Pointer(&keys[0]), unsafe.Pointer(&idx[0]), &pairs[0], len(pairs)/2)
		return
	}
	netCmpArg64x4x2(unsafe.Pointer(&keys[0]), unsafe.Pointer(&idx[0]), &pairs[0], len(pairs)/2)
}
