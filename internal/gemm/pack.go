// Packing: copies of blocks of A and B into the layouts the micro-kernels
// read (see microFn), so that the kernels stream contiguous memory
// whatever the operands' strides and transposition.

package gemm

// packA packs rows [i0, i0+mc) and columns [p0, p0+kc) of the matrix of A
// at offset off, strips [s0, s1) of mr rows each, into dst: strip s holds,
// for each k, the values of its rows in column p0+k, at
// dst[s*mr*kc + k*mr + r]. A last partial strip fills only its rows.
func packA[T Float](dst []T, a Matrix[T], off, i0, mc, p0, kc, mr, s0, s1 int) {
	ld := a.Stride
	for s := s0; s < s1; s++ {
		rows := min(mr, mc-s*mr)
		d := dst[s*mr*kc : (s+1)*mr*kc]
		i := i0 + s*mr
		if a.Trans {
			// Column k of the strip is contiguous in A.
			for k := range kc {
				src := a.Data[off+(p0+k)*ld+i:][:rows]
				dk := d[k*mr:][:rows]
				for r, v := range src {
					dk[r] = v
				}
			}
			continue
		}
		// Rows of the strip are contiguous in A: four at a time, each
		// k writing their four values side by side.
		r := 0
		for ; r+4 <= rows; r += 4 {
			s0 := a.Data[off+(i+r)*ld+p0:][:kc]
			s1 := a.Data[off+(i+r+1)*ld+p0:][:kc]
			s2 := a.Data[off+(i+r+2)*ld+p0:][:kc]
			s3 := a.Data[off+(i+r+3)*ld+p0:][:kc]
			for k := range kc {
				dk := (*[4]T)(d[k*mr+r:])
				dk[0], dk[1], dk[2], dk[3] = s0[k], s1[k], s2[k], s3[k]
			}
		}
		for ; r < rows; r++ {
			src := a.Data[off+(i+r)*ld+p0:][:kc]
			for k, v := range src {
				d[k*mr+r] = v
			}
		}
	}
}

// packB packs rows [p0, p0+kc) and columns [j0, j0+nc) of the matrix of B
// at offset off, panels [q0, q1) of nr columns each, into dst: panel q
// holds, for each k, the values of its columns in row p0+k, at
// dst[q*nr*kc + k*nr + c]. The missing columns of a last partial panel
// are zeros.
func packB[T Float](dst []T, b Matrix[T], off, j0, nc, p0, kc, nr, q0, q1 int) {
	ld := b.Stride
	for q := q0; q < q1; q++ {
		cols := min(nr, nc-q*nr)
		d := dst[q*nr*kc : (q+1)*nr*kc]
		j := j0 + q*nr
		if !b.Trans {
			// Row k of the panel is contiguous in B.
			for k := range kc {
				dk := d[k*nr : (k+1)*nr]
				copy(dk, b.Data[off+(p0+k)*ld+j:][:cols])
				clear(dk[cols:])
			}
			continue
		}
		for c := range cols {
			src := b.Data[off+(j+c)*ld+p0:][:kc]
			for k, v := range src {
				d[k*nr+c] = v
			}
		}
		if cols < nr {
			for k := range kc {
				clear(d[k*nr+cols : (k+1)*nr])
			}
		}
	}
}
