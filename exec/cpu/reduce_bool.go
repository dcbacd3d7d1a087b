// Bool Any and All over bytes. A bool load that feeds only Any and All
// reductions is read in place, unnormalized (any nonzero byte is true;
// see (*redKernel).rawBools), so these loops see the operand's bytes:
// a row is scanned 64 bytes at a time as 64-bit words (Any: their OR is
// nonzero; All: bytes.IndexByte finds a zero byte), and a column state
// is one byte per column, a row folded into it eight columns a word.

package cpu

import (
	"bytes"
	endian "encoding/binary"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

const (
	lo7 = 0x7f7f7f7f7f7f7f7f
	hi1 = 0x8080808080808080
)

// nonzero returns the word whose byte i is 0x80 where byte i of x is
// nonzero and 0 where it is zero (no carry crosses bytes: each byte adds
// at most 0x7f+0x7f).
func nonzero(x uint64) uint64 { return (((x & lo7) + lo7) | x) & hi1 }

func le64(b []byte) uint64 { return endian.LittleEndian.Uint64(b) }

// anyByte, orCols and andNonzeroCols are variables so that vector versions
// (reduce_bool_amd64.go) can take their place.
var (
	anyByte        = anyByteGo
	orCols         = orColsGo
	andNonzeroCols = andNonzeroColsGo
)

// anyByteGo reports whether a byte of v is nonzero.
func anyByteGo(v []byte) bool {
	for len(v) >= 64 {
		w := v[:64:64]
		x := (le64(w[0:]) | le64(w[8:])) | (le64(w[16:]) | le64(w[24:]))
		y := (le64(w[32:]) | le64(w[40:])) | (le64(w[48:]) | le64(w[56:]))
		if x|y != 0 {
			return true
		}
		v = v[64:]
	}
	for len(v) >= 8 {
		if le64(v) != 0 {
			return true
		}
		v = v[8:]
	}
	for _, b := range v {
		if b != 0 {
			return true
		}
	}
	return false
}

// allBytes reports whether every byte of v is nonzero.
func allBytes(v []byte) bool { return bytes.IndexByte(v, 0) < 0 }

func anyRowBytes(s *accum, p unsafe.Pointer, n int, _ int64) {
	if s.i == 0 && anyByte(view[byte](p, n)) {
		s.i = 1
	}
}

func allRowBytes(s *accum, p unsafe.Pointer, n int, _ int64) {
	if s.i != 0 && !allBytes(view[byte](p, n)) {
		s.i = 0
	}
}

// orColsGo sets a[k] |= x[k]; andNonzeroColsGo clears a[k] where x[k] is zero
// (a's bytes are 0 or nonzero); setNonzero sets a[k] to 0x80 where x[k] is
// nonzero and to 0 elsewhere.
func orColsGo(a, x []byte) {
	a = a[:len(x)]
	for len(x) >= 32 {
		w, b := x[:32:32], a[:32:32]
		endian.LittleEndian.PutUint64(b[0:], le64(b[0:])|le64(w[0:]))
		endian.LittleEndian.PutUint64(b[8:], le64(b[8:])|le64(w[8:]))
		endian.LittleEndian.PutUint64(b[16:], le64(b[16:])|le64(w[16:]))
		endian.LittleEndian.PutUint64(b[24:], le64(b[24:])|le64(w[24:]))
		x, a = x[32:], a[32:]
	}
	for k, v := range x {
		a[k] |= v
	}
}

func andNonzeroColsGo(a, x []byte) {
	a = a[:len(x)]
	for len(x) >= 32 {
		w, b := x[:32:32], a[:32:32]
		endian.LittleEndian.PutUint64(b[0:], le64(b[0:])&nonzero(le64(w[0:])))
		endian.LittleEndian.PutUint64(b[8:], le64(b[8:])&nonzero(le64(w[8:])))
		endian.LittleEndian.PutUint64(b[16:], le64(b[16:])&nonzero(le64(w[16:])))
		endian.LittleEndian.PutUint64(b[24:], le64(b[24:])&nonzero(le64(w[24:])))
		x, a = x[32:], a[32:]
	}
	for k, v := range x {
		if v == 0 {
			a[k] = 0
		}
	}
}

func setNonzero(a, x []byte) {
	a = a[:len(x)]
	for len(x) >= 8 {
		endian.LittleEndian.PutUint64(a, nonzero(le64(x)))
		x, a = x[8:], a[8:]
	}
	for k, v := range x {
		a[k] = 0x80 * b2u(v != 0)
	}
}

// byteState is Any (or All) over bool columns: one byte per column (the
// region has a word per column; the first W bytes are used), nonzero once
// a value is nonzero (zero once one is zero).
func byteState(isAny bool) colOp {
	init := byte(0)
	if !isAny {
		init = 0x80
	}
	return colOp{
		words: 1,
		init: func(st unsafe.Pointer, w int) {
			a := view[byte](st, w)
			if init == 0 {
				clear(a)
				return
			}
			for len(a) >= 8 {
				endian.LittleEndian.PutUint64(a, hi1)
				a = a[8:]
			}
			for k := range a {
				a[k] = init
			}
		},
		load: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			a, x := view[byte](at(st, k0, 1), n), view[byte](p, n)
			if isAny {
				copy(a, x)
				return
			}
			setNonzero(a, x)
		},
		fold: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			a, x := view[byte](at(st, k0, 1), n), view[byte](p, n)
			if isAny {
				orCols(a, x)
				return
			}
			andNonzeroCols(a, x)
		},
		read: func(st unsafe.Pointer, _, k int) accum {
			return accum{i: int64(b2u(*(*byte)(at(st, k, 1)) != 0))}
		},
		decided: func(st unsafe.Pointer, n int) bool {
			if isAny {
				return allBytes(view[byte](st, n))
			}
			return !anyByte(view[byte](st, n))
		},
		// The states are bytes 0 or nonzero (Any), 0 or 0x80 (All).
		merge: func(dst, src unsafe.Pointer, _, n int) {
			if isAny {
				orCols(view[byte](dst, n), view[byte](src, n))
				return
			}
			andNonzeroCols(view[byte](dst, n), view[byte](src, n))
		},
		collect: func(st unsafe.Pointer, m, o2, cols int, dst unsafe.Pointer) {
			d := view[byte](dst, cols)
			boolBytes(d, view[byte](st, cols), 0)
			comb := 2 // And
			if isAny {
				comb = 1 // Or
			}
			for i := 1; i < m; i++ {
				boolBytes(d, view[byte](at(st, i*o2, 1), cols), comb)
			}
		},
	}
}

// initBoolTab registers the byte loops for bool Any and All.
func initBoolTab() {
	foldTab[graph.OpAny][graph.Bool] = anyRowBytes
	foldTab[graph.OpAll][graph.Bool] = allRowBytes
	colTab[graph.OpAny][graph.Bool] = byteState(true)
	colTab[graph.OpAll][graph.Bool] = byteState(false)
}

// boolBytes writes to d[k] 1 where s[k] is nonzero and 0 where it is zero
// (comb 0), or ORs that into d[k] (comb 1) or ANDs it (comb 2), eight
// bytes a word.
func boolBytes(d, s []byte, comb int) {
	d = d[:len(s)]
	for len(s) >= 8 {
		x := nonzero(le64(s)) >> 7
		switch comb {
		case 1:
			x |= le64(d)
		case 2:
			x &= le64(d)
		}
		endian.LittleEndian.PutUint64(d, x)
		s, d = s[8:], d[8:]
	}
	for k, v := range s {
		x := b2u(v != 0)
		switch comb {
		case 1:
			x |= d[k]
		case 2:
			x &= d[k]
		}
		d[k] = x
	}
}
