// Package le reads and writes little-endian unsigned values of 1, 2, 4
// or 8 bytes, the sizes in which the IR interpreter, the PTX simulator
// and the kernel compiler's launch helpers move memory.
package le

import "encoding/binary"

// Get returns the n-byte little-endian value at the start of b; n other
// than 1, 2 or 4 reads 8 bytes. It panics when b is shorter than that.
func Get(b []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// Put stores the low n bytes of v little-endian at the start of b; n
// other than 1, 2 or 4 stores 8 bytes. It panics when b is shorter than
// that.
func Put(b []byte, n int, v uint64) {
	switch n {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}
