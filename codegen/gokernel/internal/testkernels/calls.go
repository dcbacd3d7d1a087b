package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// Celsius is a named float type with a method, called from a kernel.
type Celsius float32

// Fahrenheit converts a temperature.
func (c Celsius) Fahrenheit() float32 { return float32(c)*9/5 + 32 }

// divmod returns the quotient and remainder (two results).
func divmod(a, b int) (q, r int) {
	if b == 0 {
		return 0, a
	}
	return a / b, a % b
}

// clamp limits v to [lo, hi] for any ordered number type (a generic
// helper).
func clamp[T int | int32 | float32 | float64](v, lo, hi T) T {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// sumTo sums 0..n-1 with an early exit at limit, calling itself no more
// (calls are inlined; loops are fine).
func sumTo(n, limit int) int {
	s := 0
	for i := range n {
		if s > limit {
			return -s
		}
		s += i
	}
	return s
}

// firstOf returns the sub-slice and the first element of s (slices
// returned from helpers).
func firstOf(s []float32, from int) ([]float32, float32) {
	r := s[from:]
	return r, r[0]
}

// Calls exercises inlined calls: multiple results, a generic helper, a
// method of a named type, a non-capturing closure, slices through
// helpers, a named parameter type.
//
//fuseflow:kernel
func Calls(t kernel.Thread, temp Celsius, xs []float32, out []float32) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	q, r := divmod(i*7, 3)
	sq := func(v float32) float32 { return v * v }
	tail, first := firstOf(xs, i%4)
	v := float32(q) + float32(r)*0.5 + sq(first) + float32(len(tail))
	v += clamp(xs[i%len(xs)], -1, 1) + float32(clamp(i, 2, 5))
	v += float32(sumTo(i, 30)) + temp.Fahrenheit()
	out[i] = v
}
