package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// IntArith applies Go's integer operators to pairs of inputs of every
// integer type and writes the results, 16 per thread and type.
//
//fuseflow:kernel
func IntArith(t kernel.Thread, a, b []int64, out64 []int64, out32 []int32, outu32 []uint32, outu64 []uint64) {
	i := t.Grid1()
	if i >= len(a) {
		return
	}
	x, y := a[i], b[i]
	if y == 0 {
		y = 7
	}
	o := 16 * i
	s := uint(i % 70)
	// int (64 bits)
	xi, yi := int(x), int(y)
	out64[o] = int64(xi + yi)
	out64[o+1] = int64(xi - yi)
	out64[o+2] = int64(xi * yi)
	out64[o+3] = int64(xi / yi)
	out64[o+4] = int64(xi % yi)
	out64[o+5] = int64(xi & yi)
	out64[o+6] = int64(xi | yi)
	out64[o+7] = int64(xi ^ yi)
	out64[o+8] = int64(xi &^ yi)
	out64[o+9] = int64(xi << s)
	out64[o+10] = int64(xi >> s)
	out64[o+11] = int64(-xi)
	out64[o+12] = int64(^xi)
	out64[o+13] = int64(min(xi, yi, 3))
	out64[o+14] = int64(max(xi, yi))
	out64[o+15] = x>>(s%64) + y<<uint32(s)
	// int32
	x32, y32 := int32(x), int32(y)
	if y32 == 0 {
		y32 = -3
	}
	intOps(out32, o, x32, y32, s)
	out32[o+15] = x32 >> int64(s)
	// uint32
	ux, uy := uint32(x), uint32(y)
	if uy == 0 {
		uy = 5
	}
	intOps(outu32, o, ux, uy, s)
	outu32[o+15] = ux >> (s % 32)
	// uint64
	vx, vy := uint64(x), uint64(y)
	intOps(outu64, o, vx, vy, s)
	outu64[o+15] = uint64(int64(vx) >> 3)
}

// intOps writes x op y for Go's integer operators (y not zero) and
// shift counts s, -x, ^x, and the min and max builtins to out[o:o+15]:
// a generic helper, inlined for each integer type.
func intOps[T int32 | uint32 | uint64](out []T, o int, x, y T, s uint) {
	out[o] = x + y
	out[o+1] = x - y
	out[o+2] = x * y
	out[o+3] = x / y
	out[o+4] = x % y
	out[o+5] = x & y
	out[o+6] = x | y
	out[o+7] = x ^ y
	out[o+8] = x &^ y
	out[o+9] = x << s
	out[o+10] = x >> s
	out[o+11] = -x
	out[o+12] = ^x
	out[o+13] = min(x, y)
	out[o+14] = max(x, y)
}

// FloatArith applies float operators, comparisons (NaN included),
// conversions and the min and max builtins; 24 results per thread.
//
//fuseflow:kernel
func FloatArith(t kernel.Thread, a, b []float64, out []float64) {
	i := t.Grid1()
	if i >= len(a) {
		return
	}
	x, y := a[i], b[i]
	fx, fy := float32(x), float32(y)
	o := 24 * i
	out[o] = x + y
	out[o+1] = x - y
	out[o+2] = x * y
	out[o+3] = x / y
	out[o+4] = -x
	out[o+5] = float64(fx + fy)
	out[o+6] = float64(fx * fy)
	out[o+7] = float64(fx / fy)
	out[o+8] = b2f(x < y) + 2*b2f(x <= y) + 4*b2f(x > y) + 8*b2f(x >= y) + 16*b2f(x == y) + 32*b2f(x != y)
	out[o+9] = b2f(fx < fy) + 2*b2f(fx == fy) + 4*b2f(fx != fy)
	out[o+10] = min(x, y)
	out[o+11] = max(x, y)
	out[o+12] = float64(min(fx, fy, 2))
	out[o+13] = float64(max(fx, fy))
	if x > -1000 && x < 1000 && y > -1000 && y < 1000 { // conversions of values in range
		out[o+14] = float64(int64(x))
		out[o+15] = float64(int32(fx))
		out[o+16] = float64(uint32(fx * fx))
		out[o+17] = float64(float32(int64(i) * 1000003))
		out[o+18] = float64(uint64(x*x)) + float64(uint64(1)<<63)
		out[o+19] = float64(float32(x))
		out[o+20] = float64(int(y)) / 3
	}
	out[o+21] = x*y + x
	out[o+22] = float64(fx*fy + fx)
	out[o+23] = float64(i) * 0.1
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
