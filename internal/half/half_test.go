// The conversions against graph.RoundFloat (an independent definition of
// rounding to a precision): every float16 and bfloat16 pattern round
// trips through float32, and float32 and float64 values round as
// RoundFloat rounds them.

package half

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func TestRoundTripEveryPattern(t *testing.T) {
	for b := range 1 << 16 {
		h := Float16(b)
		f := h.Float32()
		if f != f {
			if g := FromFloat32(f); g.Float32() == g.Float32() {
				t.Fatalf("float16 %#04x: NaN came back as %#04x", b, g)
			}
			continue
		}
		if g := FromFloat32(f); g != h {
			t.Fatalf("float16 %#04x -> %v -> %#04x", b, f, g)
		}
		if r := graph.RoundFloat(graph.Float16, float64(f)); r != float64(f) {
			t.Fatalf("float16 %#04x = %v is not a float16 value for RoundFloat (%v)", b, f, r)
		}
		bh := BFloat16(b)
		if bf := bh.Float32(); bf == bf && BFromFloat32(bf) != bh {
			t.Fatalf("bfloat16 %#04x did not round trip", b)
		}
	}
}

func TestRoundsAsRoundFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	values := []float64{0, 1, -1, 65504, 65519.99, 65520, 1e-8, 0x1p-24, 0x1p-25, 0x1.8p-25, 0x1.0000000001p-25,
		1 + 0x1p-11, 1 + 0x1p-11 + 0x1p-40, 3.4e38, 0x1.fefp127, math.Inf(-1), 1e300, -1e-300}
	for range 200000 {
		switch r.IntN(3) {
		case 0:
			values = append(values, math.Float64frombits(r.Uint64()))
		case 1:
			values = append(values, float64(math.Float32frombits(r.Uint32())))
		default:
			values = append(values, math.Ldexp(r.Float64()-0.5, r.IntN(60)-40))
		}
	}
	for _, v := range values {
		if v != v {
			continue
		}
		if got, want := float64(FromFloat64(v).Float32()), graph.RoundFloat(graph.Float16, v); got != want {
			t.Fatalf("FromFloat64(%v) got:%v want:%v", v, got, want)
		}
		if got, want := float64(BFromFloat64(v).Float32()), graph.RoundFloat(graph.BFloat16, v); got != want {
			t.Fatalf("BFromFloat64(%v) got:%v want:%v", v, got, want)
		}
		f := float32(v)
		if got, want := float64(FromFloat32(f).Float32()), graph.RoundFloat(graph.Float16, float64(f)); got != want {
			t.Fatalf("FromFloat32(%v) got:%v want:%v", f, got, want)
		}
		if got, want := float64(BFromFloat32(f).Float32()), graph.RoundFloat(graph.BFloat16, float64(f)); got != want {
			t.Fatalf("BFromFloat32(%v) got:%v want:%v", f, got, want)
		}
	}
}
