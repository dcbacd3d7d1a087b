package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// Control exercises switch, the for forms with break and continue
// (labeled too), range over a slice, an int and an array, goto and early
// returns; each thread writes one result.
//
//fuseflow:kernel
func Control(t kernel.Thread, in []int32, out []int64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	v := int64(in[i%len(in)])
	acc := int64(0)
	switch {
	case v < 0:
		acc = -v
	case v == 0:
		out[i] = 42
		return
	case v > 100:
		acc = 100
	default:
		acc = v * 2
	}
	switch v % 4 {
	case 0, 1:
		acc += 3
		fallthrough
	case 2:
		acc *= 2
	default:
	}
	for j := 0; j < 10; j++ {
		if j == int(v%7) {
			continue
		}
		if j*j > int(acc) {
			break
		}
		acc += int64(j)
	}
outer:
	for a := range 4 {
		for b := 0; ; b++ {
			if b > a {
				continue outer
			}
			if a*b > 3 {
				break outer
			}
			acc += int64(a * b)
		}
	}
	for k, w := range in {
		if k > 5 {
			break
		}
		acc ^= int64(w) << k
	}
	arr := [3]int64{1, 2, 3}
	for _, w := range arr {
		acc += w
	}
	n := 0
loop:
	if n < int(v%5) {
		n++
		acc++
		goto loop
	}
	for acc > 1000 {
		acc /= 3
	}
	out[i] = acc
}
