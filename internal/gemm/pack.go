// Packing: copies of blocks of A and B into the layouts the micro-kernels
// read (see microFn), so that the kernels stream contiguous memory
// whatever the operands' strides and transposition. A block is either a
// set of rows copied side by side (fixed-width copies) or a set of lines
// transposed (4×4 blocks in assembly where there is some).

package gemm

import "unsafe"

// transposeAsm holds the assembly transposes for float32 and float64
// (nil where there are none; see transposeF32), copyRowsFn the assembly
// row copies by row length in bytes (see copyRows128).
var (
	transposeAsm [2]func(out, src unsafe.Pointer, ld, ow, groups, blocks int)
	copyRowsFn   map[int]func(out, src unsafe.Pointer, lo, ls, kc int)
)

// packA packs rows [i0, i0+mc) and columns [p0, p0+kc) of the matrix of A
// at offset off, strips [s0, s1) of mr rows each, into dst: strip s holds,
// for each k, the values of its rows in column p0+k, at
// dst[s*mr*kc + k*mr + r]; a last partial strip is padded with zeros.
func packA[T Float](dst []T, a Matrix[T], off, i0, mc, p0, kc, mr, s0, s1 int, useAsm bool) {
	packStrips(dst, a.Data[off:], a.Stride, a.Trans, i0, mc, p0, kc, mr, s0, s1, useAsm)
}

// packB packs rows [p0, p0+kc) and columns [j0, j0+nc) of the matrix of B
// at offset off, panels [q0, q1) of nr columns each, into dst: panel q
// holds, for each k, the values of its columns in row p0+k, at
// dst[q*nr*kc + k*nr + c]; a last partial panel is padded with zeros.
// B's panels are the strips of Bᵀ, which B stores transposed unless
// B.Trans.
func packB[T Float](dst []T, b Matrix[T], off, j0, nc, p0, kc, nr, q0, q1 int, useAsm bool) {
	packStrips(dst, b.Data[off:], b.Stride, !b.Trans, j0, nc, p0, kc, nr, q0, q1, useAsm)
}

// packStrips packs rows [i0, i0+mc) and columns [p0, p0+kc) of a matrix
// M, strips [s0, s1) of w rows each, into dst as packA describes. M is
// stored at m with leading dimension ld: row-major, or as Mᵀ row-major
// when trans, where column k of a strip is contiguous.
func packStrips[T Float](dst, m []T, ld int, trans bool, i0, mc, p0, kc, w, s0, s1 int, useAsm bool) {
	for s := s0; s < s1; s++ {
		rows := min(w, mc-s*w)
		d := dst[s*w*kc : (s+1)*w*kc]
		i := i0 + s*w
		if trans {
			copyRows(d, w, m[p0*ld+i:], ld, rows, kc, useAsm)
		} else {
			transpose(d, w, m[i*ld+p0:], ld, rows, kc, useAsm)
		}
	}
}

// copyRows copies kc rows of n elements, row k at src[k*ld:], to
// out[k*w:], zeros after them up to w.
func copyRows[T Float](out []T, w int, src []T, ld, n, kc int, useAsm bool) {
	_ = out[(kc-1)*w+w-1]
	_ = src[(kc-1)*ld+n-1]
	var z T
	size := int(unsafe.Sizeof(z))
	if fn := copyRowsFn[w*size]; useAsm && n == w && fn != nil {
		fn(unsafe.Pointer(&out[0]), unsafe.Pointer(&src[0]), w*size, ld*size, kc)
		return
	}
	for k := range kc {
		o := out[k*w : k*w+w]
		copy(o, src[k*ld:k*ld+n])
		clear(o[n:])
	}
}

// transpose writes out[k*w + l] = src[l*ld + k] for n lines and kc
// steps, zeros in out[k*w + l] for l in [n, w).
func transpose[T Float](out []T, w int, src []T, ld, n, kc int, useAsm bool) {
	_ = out[(kc-1)*w+w-1]
	_ = src[(n-1)*ld+kc-1]
	var z T
	size := int(unsafe.Sizeof(z))
	l0 := 0
	if fn := transposeAsm[size/8]; useAsm && fn != nil && n >= 4 && kc >= 4 {
		g, b := n/4, kc/4
		fn(unsafe.Pointer(&out[0]), unsafe.Pointer(&src[0]), ld*size, w*size, g, b)
		l0 = g * 4
		for l := range l0 {
			line := src[l*ld : l*ld+kc]
			for k := b * 4; k < kc; k++ {
				out[k*w+l] = line[k]
			}
		}
	}
	// The rest: four lines at a time, each k writing their values side
	// by side, then one at a time.
	l := l0
	for ; l+4 <= n; l += 4 {
		s0 := src[l*ld:][:kc]
		s1 := src[(l+1)*ld:][:kc]
		s2 := src[(l+2)*ld:][:kc]
		s3 := src[(l+3)*ld:][:kc]
		for k := range kc {
			o := (*[4]T)(out[k*w+l:])
			o[0], o[1], o[2], o[3] = s0[k], s1[k], s2[k], s3[k]
		}
	}
	for ; l < n; l++ {
		for k, v := range src[l*ld:][:kc] {
			out[k*w+l] = v
		}
	}
	if n < w {
		for k := range kc {
			clear(out[k*w+n : k*w+w])
		}
	}
}
