package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// coef are the coefficients of a polynomial, a constant array.
var coef = [5]float32{1.5, -2, 0.25, 3, -0.125}

// table holds some integers (keyed elements, zeros between).
var table = [8]int32{1, 3: 7, 11, 6: -5}

// Locals sorts, per thread, a window of 6 values in a local array
// (insertion sort with dynamic indices), checks that an array value is a
// copy, evaluates a polynomial from the constant array, and reads a
// keyed constant table.
//
//fuseflow:kernel
func Locals(t kernel.Thread, in []float32, out []float32) {
	i := t.Grid1()
	if i+6 > len(in) {
		return
	}
	var w [6]float32
	for k := range w {
		w[k] = in[i+k]
	}
	for a := 1; a < len(w); a++ {
		v := w[a]
		b := a - 1
		for b >= 0 && w[b] > v {
			w[b+1] = w[b]
			b--
		}
		w[b+1] = v
	}
	cp := w // a copy
	w[0] = 1000
	p := float32(0)
	x := in[i]
	for k := len(coef) - 1; k >= 0; k-- {
		p = p*x + coef[k]
	}
	s := float32(0)
	for _, c := range coef {
		s += c
	}
	var flags [3]bool
	flags[i%3] = true
	o := 10 * i
	for k := range 6 {
		out[o+k] = cp[k]
	}
	out[o+6] = p
	out[o+7] = s + float32(table[i%8])
	out[o+8] = w[0]
	if flags[1] {
		out[o+9] = 1
	}
}

// Slices exercises slicing: sub-slices, three-index slices, len and cap,
// and writes through a sub-slice.
//
//fuseflow:kernel
func Slices(t kernel.Thread, x []int32, out []int32) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	s := x[i:]
	u := s[:min(3, len(s)):min(4, len(s))]
	o := out[4*i : 4*i+4]
	o[0] = int32(len(s))
	o[1] = int32(len(u)*10 + cap(u))
	o[2] = u[len(u)-1]
	var loc [5]int32
	ls := loc[1:4]
	ls[0] = x[i]
	o[3] = loc[1] + int32(cap(ls))
}
