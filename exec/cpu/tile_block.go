// Tiles moved in square blocks: when a tile's rows are a unit-stride run
// of the strided buffer (the transposed side of a + b.T), the vector
// block transposes an architecture file registers (tile_amd64.go) move
// its whole blocks, and an element loop the few rows and columns that
// do not fill a block.

package cpu

import "unsafe"

// transposeFn sets out[i*os+j] = in[j*is+i] for i < rows, j < cols, with
// rows and cols positive multiples of the block size; strides count
// elements and may be negative.
type transposeFn func(out, in unsafe.Pointer, rows, cols, os, is int)

// transposeTab holds the block transposes by element size, and
// transposeBlock their block sizes; a nil entry (every one without vector
// code, or under FUSEFLOW_NOASM) leaves the tile to tileT.
var (
	// noBlockEdges leaves the edges of a tile to tileEdge (tests compare
	// both ways).
	noBlockEdges bool

	transposeTab   [9]transposeFn
	transposeBlock = [9]int{4: 8, 8: 4}
)

// blockTile moves a rows x cols tile between the dense row-major t and
// the strided buffer at base, element (r, c) at off + r*sr + c*sc (to
// base when store), and reports whether it did: only when the tile's
// rows are unit-stride runs of base (sr == 1) that its columns step
// across, and a block transpose exists for elements of es bytes.
func blockTile(t, base unsafe.Pointer, es, off, sr, sc, rows, cols int, store bool) bool {
	fn := transposeTab[es]
	if fn == nil || sr != 1 || abs(sc) <= 1 {
		return false
	}
	b := transposeBlock[es]
	rb, cb := rows/b*b, cols/b*b
	if rb == 0 || cb == 0 {
		return false
	}
	p := unsafe.Add(base, off*es)
	// block moves the rb x cb blocks from tile row r0 and column c0.
	block := func(r0, c0, rb, cb int) {
		q, u := unsafe.Add(p, (r0+c0*sc)*es), unsafe.Add(t, (r0*cols+c0)*es)
		if store {
			fn(q, u, cb, rb, sc, cols)
		} else {
			fn(u, q, rb, cb, cols, sc)
		}
	}
	block(0, 0, rb, cb)
	if rb == rows && cb == cols {
		return true
	}
	if rows >= b && cols >= b && !noBlockEdges {
		// The last rows and columns in blocks that overlap the ones
		// before: an element moved twice gets the same value twice.
		if cb < cols {
			block(0, cols-b, rb, b)
		}
		if rb < rows {
			block(rows-b, 0, b, cb)
			if cb < cols {
				block(rows-b, cols-b, b, b)
			}
		}
		return true
	}
	switch es {
	case 4:
		tileEdge(view[uint32](t, rows*cols), (*uint32)(base), off, sc, rows, cols, rb, cb, store)
	case 8:
		tileEdge(view[uint64](t, rows*cols), (*uint64)(base), off, sc, rows, cols, rb, cb, store)
	}
	return true
}

// tileEdge moves the elements of a tile that blockTile's blocks left
// out: columns from cb on in the first rb rows, every column after.
func tileEdge[T uint32 | uint64](t []T, base *T, off, sc, rows, cols, rb, cb int, store bool) {
	sz := int(unsafe.Sizeof(*base))
	for r := range rows {
		c0 := cb
		if r >= rb {
			c0 = 0
		}
		for c := c0; c < cols; c++ {
			q := (*T)(unsafe.Add(unsafe.Pointer(base), (off+r+c*sc)*sz))
			if store {
				*q = t[r*cols+c]
			} else {
				t[r*cols+c] = *q
			}
		}
	}
}
