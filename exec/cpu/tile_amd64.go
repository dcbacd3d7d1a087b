// The AVX2 block transposes of tile_block.go (tile_amd64.s), registered
// for 4- and 8-byte elements when the CPU has AVX2, and the
// non-temporal row stores of tile_nt.go. They move bits, so any dtype of
// the size goes through them.

//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func transpose32(out, in unsafe.Pointer, rows, cols, os, is int)

//go:noescape
func transpose64(out, in unsafe.Pointer, rows, cols, os, is int)

//go:noescape
func storeNT(dst, src unsafe.Pointer, n int)

func fenceNT()

// registerTileVector registers the block transposes (called by
// registerVector once the CPU's features are known).
func registerTileVector() {
	vectorize("transpose 4-byte", &transposeTab[4], transposeFn(transpose32))
	vectorize("transpose 8-byte", &transposeTab[8], transposeFn(transpose64))
	vectorize("non-temporal tile stores", &ntStore, ntStoreFns{storeNT, fenceNT})
}
