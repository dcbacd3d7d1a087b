package mathtest_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/mathtest"
)

func TestULPs(t *testing.T) {
	one32 := float64(math.Float32frombits(math.Float32bits(1) + 1))
	for _, c := range []struct {
		t    ir.Type
		a, b float64
		want int64
	}{
		{ir.F64, 1, 1, 0},
		{ir.F64, 1, math.Nextafter(1, 2), 1},
		{ir.F64, math.Nextafter(1, 2), 1, 1},
		{ir.F64, math.Copysign(0, -1), 0, 0},
		{ir.F64, -5e-324, 5e-324, 2},
		{ir.F32, 1, one32, 1},
		{ir.F32, 1, math.Nextafter(1, 2), 0}, // rounds to 1 in float32
		{ir.F32, -1, 1, 2 * int64(math.Float32bits(1))},
	} {
		if got := mathtest.ULPs(c.t, c.a, c.b); got != c.want {
			t.Errorf("ULPs(%v, %v, %v) got:%v want:%v", c.t, c.a, c.b, got, c.want)
		}
	}
}

func TestBitsValues(t *testing.T) {
	v := []float64{0, -1.5, math.Inf(1), 1e-300, 3.25}
	for _, c := range []struct {
		t    ir.Type
		want []float64
	}{
		{ir.F64, v},
		{ir.F32, []float64{0, -1.5, math.Inf(1), 0, 3.25}},
	} {
		got := mathtest.Values(c.t, mathtest.Bits(c.t, v))
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%v: Values(Bits(%v)) got:%v want:%v", c.t, v, got, c.want)
		}
	}
}

func TestRun(t *testing.T) {
	for _, typ := range []ir.Type{ir.F32, ir.F64} {
		p, err := ir.Compile(mathtest.Kernel(ir.MathSqrt, typ))
		if err != nil {
			t.Fatal(err)
		}
		xs := make([]float64, 1001)
		for i := range xs {
			xs[i] = float64(i * i)
		}
		bits, err := mathtest.Run(p, typ, mathtest.Bits(typ, xs), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, got := range mathtest.Values(typ, bits) {
			if got != float64(i) {
				t.Fatalf("%v: sqrt(%v) got:%v want:%v", typ, xs[i], got, i)
			}
		}
	}
}

// Example runs the square root of two float64 values on the IR
// interpreter.
func Example() {
	p, err := ir.Compile(mathtest.Kernel(ir.MathSqrt, ir.F64))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := mathtest.Run(p, ir.F64, mathtest.Bits(ir.F64, []float64{4, 2.25}), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mathtest.Values(ir.F64, out))
	// Output: [2 1.5]
}
