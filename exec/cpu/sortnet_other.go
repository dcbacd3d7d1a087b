// Without vector loops the comparator networks of sortnet.go are not
// used (netLanes32 is 0): short rows go through the merge sort.

//go:build !amd64 || purego

package cpu

import "unsafe"

// netLanes32 is 0: no network.
var netLanes32 = 0

// netCmp32 is never called without vector loops.
func netCmp32(block []uint32, pairs []uint32) {
	panic("cpu: netCmp32 without vector loops")
}

// netGather is false: no gathers.
const netGather = false

func netLoad32(block []uint32, src unsafe.Pointer, n int, idx *[16]uint32, float bool, xor uint32) uint16 {
	panic("cpu: netLoad32 without vector loops")
}

func netStore32(dst unsafe.Pointer, block []uint32, k int, idx *[16]uint32, float bool, xor uint32) {
	panic("cpu: netStore32 without vector loops")
}

func netSort16(block []uint32, groups int) {
	panic("cpu: netSort16 without vector loops")
}

func netLoadT32(block []uint32, src unsafe.Pointer, n, rowBytes int, float bool, xor uint32) uint16 {
	panic("cpu: netLoadT32 without vector loops")
}

func netStoreT32(dst unsafe.Pointer, block []uint32, k, rowBytes int, float bool, xor uint32) {
	panic("cpu: netStoreT32 without vector loops")
}

// net64On is false: no network of 8-byte keys.
const net64On = false

// net64Wide is false: no AVX-512 loop.
var net64Wide = false

func netCmp64(block []uint64, pairs []uint32) {
	panic("cpu: netCmp64 without vector loops")
}

func netCmpArg64(keys, idx []uint64, pairs []uint32) {
	panic("cpu: netCmpArg64 without vector loops")
}
